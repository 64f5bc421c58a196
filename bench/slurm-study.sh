#!/usr/bin/env bash
# Runs docs/studies/first-move.sbatch under a real Slurm on this machine:
# a controller and one node on localhost (Debian's slurm-wlm and munge,
# installed when missing), a small study as a 4-task job array, then the
# merged report, compared with the same study played unsharded.
#   bench/slurm-study.sh [PARITY_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
parity=$(realpath "${1:-target/release/parity}")
[ -x "$parity" ] || { echo "no parity binary at $parity (cargo build --release)" >&2; exit 1; }
command -v slurmctld >/dev/null || apt-get install -y -qq slurm-wlm
work=$(mktemp -d /tmp/parity-slurm.XXXXXX)
mkdir -p "$work"/{state,spool,results}
node=$(hostname -s)
cat > "$work/slurm.conf" <<CONF
ClusterName=parity
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
pgrep -x munged >/dev/null || { mkdir -p /run/munge; chown munge:munge /run/munge; su -s /bin/sh munge -c /usr/sbin/munged; }
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
trap 'kill $(cat "$work/slurmd.pid" "$work/slurmctld.pid" 2>/dev/null) 2>/dev/null || true' EXIT
for _ in $(seq 30); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 1; done
sinfo

study=(VARIANTS=chess,parity GAMES=20 NODES=400 DEPTH=1 OPENINGS=random:6 SEED=3)
start=$(date +%s)
job=$(env "${study[@]}" PARITY="$parity" RESULTS_DIR="$work/results" \
    sbatch --parsable --array=0-3 --cpus-per-task=1 --chdir="$work/results" \
    docs/studies/first-move.sbatch)
echo "job array $job submitted"
while squeue -h -j "$job" 2>/dev/null | grep -q .; do sleep 2; done
echo "job array done in $(( $(date +%s) - start )) s"
sacct -j "$job" 2>/dev/null || true
cat "$work"/results/first-move-*.log
"$parity" study report --results "$work"/results/first-move-*.jsonl --out "$work/report" | tee "$work/sharded.txt"
"$parity" study first-move --variant chess,parity --games 20 --nodes 400 --depth 1 \
    --openings random:6 --seed 3 --results "$work/whole.jsonl" | tee "$work/whole.txt"
if diff <(grep -v '^report:' "$work/sharded.txt") "$work/whole.txt"; then
    echo "the 4 Slurm shards give the same table as the unsharded study"
else
    echo "the tables differ" >&2; exit 1
fi
