#!/bin/bash
# Load test of 1 to N `parity serve` nodes on one PostgreSQL database, or
# of one server on SQLite, with the CPU each process used
# (docs/benchmarks.md, "Several nodes on one PostgreSQL").
#
# Usage: bench/cluster-load.sh NODES GAMES TURNS RATE
#   NODES 0: one server on a SQLite file; 1..: nodes on a new database.
#   SPLIT=1: one load test per node, both players of a game on its owner.
# Environment: PARITY (the binary, default target/fast-test/parity),
#   PGURL (a PostgreSQL server, postgres://USER@HOST:PORT, allowed to
#   create databases), PGDATA (its data directory, for the postmaster's
#   pid: its CPU and its backends' are counted). Everything runs under
#   nice -n 19.
set -e
BIN=${PARITY:-target/fast-test/parity}
N=$1; GAMES=$2; TURNS=$3; RATE=$4
PGBASE=${PGURL:-postgres://postgres@127.0.0.1:55433}
PGPID=$(head -1 "${PGDATA:-/tmp/i19-pg/data}/postmaster.pid")
cpu() { # utime+stime ticks of a pid
  awk '{print $14+$15}' /proc/$1/stat 2>/dev/null || echo 0
}
pgcpu() { # postmaster and its children, including those that exited (cutime/cstime)
  local t=$(awk '{print $14+$15+$16+$17}' /proc/$PGPID/stat)
  for p in $(ps -o pid= --ppid $PGPID); do t=$((t + $(cpu $p))); done
  echo $t
}
LIFT="--games-per-minute 1000000 --engine-games-per-minute 1000000 --actions-per-second 1000000 --max-connections 100000 --max-connections-per-ip 100000 --auth-failures-per-minute 1000000"
DIR=$(mktemp -d)
if [ "$N" = 0 ]; then
  DBS=("$DIR/bench.sqlite"); COUNT=1
else
  NAME=bench_$(date +%s%N)
  nice -n 19 psql "$PGBASE/postgres" -qc "CREATE DATABASE $NAME"
  DBS=(); for i in $(seq $N); do DBS+=("$PGBASE/$NAME"); done; COUNT=$N
fi
PIDS=(); URLS=()
for i in $(seq 0 $((COUNT-1))); do
  nice -n 19 $BIN serve --db "${DBS[$i]}" --addr 127.0.0.1:0 $LIFT > $DIR/out$i 2> $DIR/err$i &
  PIDS+=($!)
done
for i in $(seq 0 $((COUNT-1))); do
  for t in $(seq 100); do grep -q "^Parity server" $DIR/out$i 2>/dev/null && break; sleep 0.1; done
  URLS+=(--server $(grep -o 'http://[^/]*' $DIR/out$i | head -1))
done
declare -A B
for p in ${PIDS[@]}; do B[$p]=$(cpu $p); done
PG0=$(pgcpu)
xacts() { [ "$N" = 0 ] && echo 0 && return; nice -n 19 psql "$PGBASE/postgres" -tAc "SELECT xact_commit FROM pg_stat_database WHERE datname = '$NAME'"; }
X0=$(xacts)
T0=$(date +%s.%N)
TIMEFORMAT='%U %S'
if [ -n "$SPLIT" ]; then
  # One loadtest per node, each with its share of the games: both players
  # of a game on the game's node (no forwarding, no relay).
  { time (
    for i in $(seq 0 $((COUNT-1))); do
      nice -n 19 $BIN loadtest --games $((GAMES/COUNT)) --turns $TURNS --rate $(echo "$RATE/$COUNT" | bc -l) ${URLS[$((2*i))]} ${URLS[$((2*i+1))]} > $DIR/load.out$i 2>&1 &
    done; wait ) ; } 2> $DIR/time
  cat $DIR/load.out*
else
{ time nice -n 19 $BIN loadtest --games $GAMES --turns $TURNS --rate $RATE ${URLS[@]} > $DIR/load.out 2>&1 ; } 2> $DIR/time || cat $DIR/load.out
fi
L=$(awk '{print ($1+$2)*100}' $DIR/time)
T1=$(date +%s.%N)
PG1=$(pgcpu)
sleep 0.6 # statistics are flushed at most every 0.5 s
X1=$(xacts)
[ -z "$SPLIT" ] && cat $DIR/load.out
echo "wall $(echo "$T1 - $T0" | bc) s"
i=0; for p in ${PIDS[@]}; do echo "node$i cpu $(echo "scale=2; ($(cpu $p) - ${B[$p]})/100" | bc) s"; i=$((i+1)); done
echo "transactions committed in the database $((X1 - X0))"
echo "postgres cpu $(echo "scale=2; ($PG1 - $PG0)/100" | bc) s"
echo "loadtest cpu $(echo "scale=2; $L/100" | bc) s"
for p in ${PIDS[@]}; do kill $p; done
wait 2>/dev/null
grep -h -i "error\|panick" $DIR/err* | head -5
rm -rf $DIR
