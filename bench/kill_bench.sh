#!/usr/bin/env bash
# kill_bench.sh: how long Ctrl-C takes to end a command whose process tree keeps forking. `nib
# tool bash` runs a bounded fork bomb: a binary tree of DEPTH levels whose every node, once it
# has started its two children, forks /bin/true in a loop for ever (so new pids appear all the
# time). When every node is up, nib gets SIGINT; the time to its exit is measured, and no
# process of the bomb may be left. Three shapes:
#   group    every node stays in the command's process group (what `:(){ :|:& };:` does);
#   setsid   every node starts a session of its own, so no group signal reaches it and only the
#            command's NIB_COMMAND_ID tag and the process tree find it;
#   orphans  a group bomb whose shell exits once the bomb is up: the call ends (after the
#            100 ms quiet period) and nib exits by itself, killing every descendant on the way
#            out; timed from the bomb being up, so the quiet period is part of the figure.
# The bound is the tree's depth, not a ulimit: as root RLIMIT_NPROC does not apply, and a real
# bomb would take the machine (and everyone on it) down. README promises 10 s (the abort grace).
# Prints a report, then "summary<TAB>metric<TAB>value<TAB>target<TAB>verdict" lines (bench/run).
#
# Usage: bench/kill_bench.sh [NIB_BINARY]     (default: build-bench/nib)
# Environment: NIB_BENCH_BOMB_DEPTH (default 8: 511 nodes, about twice as many processes),
# NIB_BENCH_RUNS (runs per shape, default 3), NIB_BENCH_BOMB_SHAPES (default "group setsid
# orphans").
set -euo pipefail
set -m  # jobs get process groups of their own and do not ignore SIGINT

root=$(cd "$(dirname "$0")/.." && pwd)
nib=$(realpath "${1:-$root/build-bench/nib}")
depth=${NIB_BENCH_BOMB_DEPTH:-8}
runs=${NIB_BENCH_RUNS:-3}
target_s=10
[ -x "$nib" ] || { echo "kill_bench: no nib binary at $nib" >&2; exit 2; }

work=$(mktemp -d /tmp/nib-kill-bench-XXXXXX)
trap 'pkill -KILL -f "nib-bomb-$$-" 2>/dev/null || true; rm -rf "$work"' EXIT
export TMPDIR=$work XDG_RUNTIME_DIR=$work

nodes=$(((1 << (depth + 1)) - 1))

# The bomb's text for SHAPE; MARK appears in every node's command line.
bomb() {
  local shape=$1 mark=$2 spawn start="grow $depth"
  case $shape in
    group) spawn='grow $(($1 - 1)) &' ;;
    setsid) spawn="setsid bash -c 'grow \"\$1\"' $mark \$((\$1 - 1)) &" ;;
    orphans)
      spawn='grow $(($1 - 1)) &'
      start="(grow $depth) >/dev/null 2>&1 &
until [ \$(cat $work/$mark.up 2>/dev/null | wc -l) -ge $nodes ]; do sleep 0.05; done"
      ;;
  esac
  cat <<EOF
: $mark
grow() {
  if [ "\$1" -gt 0 ]; then $spawn $spawn fi
  echo up >> $work/$mark.up
  while :; do /bin/true; done
}
export -f grow
$start
EOF
}

count_marked() { pgrep -f -c -- "$1" || true; }

results=()
read -r -a shapes <<<"${NIB_BENCH_BOMB_SHAPES:-group setsid orphans}"
for shape in "${shapes[@]}"; do
  for run in $(seq "$runs"); do
    mark=nib-bomb-$$-$shape-$run
    json=$(jq -cn --arg command "$(bomb "$shape" "$mark")" '{command: $command}')
    "$nib" tool bash "$json" >/dev/null 2>&1 &
    pid=$!
    until [ "$(cat "$work/$mark.up" 2>/dev/null | wc -l)" -ge "$nodes" ]; do sleep 0.05; done
    alive=$(count_marked "$mark")
    start=$EPOCHREALTIME  # no fork: under the bomb's load a `date` could take a second
    [ "$shape" = orphans ] || kill -INT "$pid"
    wait "$pid" || true
    end=$EPOCHREALTIME
    left=$(count_marked "$mark")
    seconds=$(echo "$end - $start" | bc -l)
    printf '%-7s run %d: %5d processes, exit after %6.2f s, left behind: %d\n' "$shape" "$run" \
      "$alive" "$seconds" "$left"
    results+=("$shape $seconds $left")
    pkill -KILL -f -- "$mark" 2>/dev/null || true
  done
done

for shape in "${shapes[@]}"; do
  worst=0
  leftovers=0
  for line in "${results[@]}"; do
    read -r name seconds left <<<"$line"
    [ "$name" = "$shape" ] || continue
    worst=$(echo "if ($seconds > $worst) $seconds else $worst" | bc -l)
    leftovers=$((leftovers + left))
  done
  verdict=ok
  if [ "$(echo "$worst >= $target_s" | bc -l)" = 1 ] || [ "$leftovers" -gt 0 ]; then verdict=MISS; fi
  printf 'summary\tto exit, %s bomb (%d nodes, worst of %d)\t%.2f s, %d left\t< %d s, 0 left\t%s\n' \
    "$shape" "$nodes" "$runs" "$worst" "$leftovers" "$target_s" "$verdict"
done
