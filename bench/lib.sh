# bench/lib.sh: helpers shared by the benchmark scripts (sourced; expects $work, a scratch
# directory the caller removes). Timings come from hyperfine, memory from /usr/bin/time.

# Writes the command line ARGS (each argument quoted) to $work/NAME.sh and prints its path, so
# hyperfine and time need no nested quoting.
command_script() {
  local name=$1
  shift
  printf '%q ' "$@" >"$work/$name.sh"
  echo >>"$work/$name.sh"
  echo "$work/$name.sh"
}
# Writes the shell text LINE to $work/NAME.sh and prints its path.
raw_script() {
  printf '%s\n' "$2" >"$work/$1.sh"
  echo "$work/$1.sh"
}

# timed NAME WARMUP RUNS LABEL SCRIPT [LABEL SCRIPT ...]: hyperfine over `bash SCRIPT`; prints
# the times and leaves a CSV in $work/NAME.csv, one row per script in order (seconds; columns
# command,mean,stddev,median,user,system,min,max). A LABEL holds no comma (it lands in the CSV).
timed() {
  local name=$1 warmup=$2 runs=$3
  shift 3
  local args=()
  while [ $# -gt 0 ]; do
    args+=(-n "$1" "bash $2")
    shift 2
  done
  hyperfine --style basic --warmup "$warmup" --runs "$runs" --export-csv "$work/$name.csv" \
    "${args[@]}" | grep -E '^(Benchmark|  Time|  Range)' || true
}
# csv_field NAME ROW FIELD: a column (median, mean, max ...) of row ROW (1 = first command).
csv_field() {
  awk -F, -v row="$2" -v field="$3" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    NR == row + 1 { printf "%.3f\n", $col[field] }' "$work/$1.csv"
}
# csv_cpu NAME ROW: mean CPU time (user + system, all processes of the command) of row ROW; less
# disturbed by other load than wall time.
csv_cpu() {
  awk -v a="$(csv_field "$1" "$2" user)" -v b="$(csv_field "$1" "$2" system)" \
    'BEGIN { printf "%.3f\n", a + b }'
}

# Peak RSS in KB of one run of SCRIPT (the script's own shell is far smaller than nib).
peak_rss_kb() {
  /usr/bin/time -f '%M' -o "$work/rss" bash "$1" >/dev/null 2>&1 || true
  tail -n 1 "$work/rss"
}

summary() { # metric value unit target verdict
  printf 'summary\t%s\t%s %s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5"
}
verdict() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b) ? "ok" : "MISSED" }'; }
mib() { awk -v kb="$1" 'BEGIN { printf "%.1f", kb / 1024 }'; }

