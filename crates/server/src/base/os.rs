//! What the load test and the server ask of the operating system: the
//! open-file limit (every connection is a descriptor) and a process's CPU
//! time (for the CPU a move costs).

use std::time::Duration;

/// Raises this process's soft limit of open files to its hard limit;
/// returns the limit now in force.
pub fn raise_open_files() -> Option<u64> {
    #[cfg(unix)]
    {
        use rustix::process::{getrlimit, setrlimit, Resource};
        let mut limit = getrlimit(Resource::Nofile);
        if limit.current != limit.maximum {
            limit.current = limit.maximum;
            // Refused (a sandbox): the soft limit stays, and is reported.
            let _ = setrlimit(Resource::Nofile, limit);
        }
        open_files_limit()
    }
    #[cfg(not(unix))]
    None
}

/// This process's soft limit of open files (`None`: unlimited or unknown).
pub fn open_files_limit() -> Option<u64> {
    #[cfg(unix)]
    return rustix::process::getrlimit(rustix::process::Resource::Nofile).current;
    #[cfg(not(unix))]
    None
}

/// `message` with the open-file limit said when it is the error of running
/// out of descriptors (EMFILE), so a load test that hits it says so.
pub fn explain_open_files(message: String) -> String {
    if !message.contains("Too many open files") && !message.contains("os error 24") {
        return message;
    }
    match open_files_limit() {
        Some(limit) => format!(
            "{message} (the open-file limit RLIMIT_NOFILE is {limit} in this process, \
             one a connection; `parity loadtest --clients N` puts clients in other processes)"
        ),
        None => message,
    }
}

/// A process's user and system CPU time so far, from /proc (Linux).
pub fn process_cpu(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    cpu_from_stat(&stat, clock_ticks())
}

fn clock_ticks() -> u64 {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    return rustix::param::clock_ticks_per_second();
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    100
}

/// utime and stime, fields 14 and 15 of /proc/PID/stat, counted after the
/// command's closing parenthesis since the command may hold spaces.
fn cpu_from_stat(stat: &str, ticks_per_second: u64) -> Option<Duration> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(Duration::from_secs_f64(
        (utime + stime) as f64 / ticks_per_second.max(1) as f64,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_is_read_after_the_command() {
        let stat = "42 (a (b) c) S 1 42 42 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 1 0";
        assert_eq!(cpu_from_stat(stat, 100), Some(Duration::from_secs(3)));
        let own = process_cpu(std::process::id());
        assert!(own.is_some() || !cfg!(target_os = "linux"));
    }

    #[test]
    fn the_limit_is_said_with_emfile_only() {
        assert_eq!(explain_open_files("refused".into()), "refused");
        let said = explain_open_files("Too many open files (os error 24)".into());
        assert!(
            said.contains("RLIMIT_NOFILE") || open_files_limit().is_none(),
            "{said}"
        );
    }
}
