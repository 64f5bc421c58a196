//! Starting an engine by its protocol: above both protocols' files, which
//! implement [`Engine`] from `engine.rs`.

use std::time::Duration;

use crate::engine::{Engine, EngineSpec, Failure, Log, Process, Protocol};
use crate::uci::UciEngine;
use crate::xboard::XboardEngine;

/// Starts an engine and completes its handshake within `timeout`.
pub fn start(
    spec: &EngineSpec,
    label: &str,
    log: Option<Log>,
    timeout: Duration,
) -> Result<Box<dyn Engine>, Failure> {
    let process = Process::spawn(spec, label, log)?;
    match spec.protocol {
        Protocol::Uci => Ok(Box::new(UciEngine::start(process, spec, timeout)?)),
        Protocol::Xboard => Ok(Box::new(XboardEngine::start(process, spec, timeout)?)),
    }
}
