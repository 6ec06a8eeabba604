#!/usr/bin/env bash
# tools_bench.sh: the read and bash tools through `nib tool` (one call through the same
# prepare -> gate -> run path the agent loop uses), timed with hyperfine, peak RSS from
# /usr/bin/time (wait4's ru_maxrss: nib, or a child it waited for if that one was larger):
#   a. read of lines 4,000,000-4,000,100 of a 2 GiB text file (page cache warm), vs sed, and
#      of its first 101 lines (read counts every line of the file for its "of N lines" note);
#   b. bash `head -c 1000000000 /dev/zero | tr '\0' a` through nib vs straight to /dev/null
#      (and, for scale, vs `| cat >/dev/null`: any reader of the pipe pays for the copy);
#   c. bash `sleep 30 & echo started`: a background child keeps the pipe open, and the result
#      must still come back about 0.1 s after the shell exits (tools/limits.hpp kQuietAfterExit).
# Prints a report, then "summary<TAB>metric<TAB>value<TAB>target<TAB>verdict" lines (bench/run).
#
# Usage: bench/tools_bench.sh [NIB_BINARY]      (default: build-bench/nib)
# Needs hyperfine and /usr/bin/time (NIB_SETUP_BENCH=1 scripts/setup installs them).
# The 2 GiB file is generated once into $NIB_BENCH_CACHE (default /tmp/nib-bench-cache).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
nib=$(realpath "${1:-$root/build-bench/nib}")
cache=${NIB_BENCH_CACHE:-/tmp/nib-bench-cache}
[ -x "$nib" ] || { echo "tools_bench: no nib binary at $nib" >&2; exit 2; }
for tool in hyperfine /usr/bin/time awk sed; do
  command -v "$tool" >/dev/null ||
    { echo "tools_bench: $tool is missing (NIB_SETUP_BENCH=1 scripts/setup)" >&2; exit 2; }
done

# nib's memory target (as in loop_bench); how much slower than `| cat` the bash tool may be
# while it captures 1 GB (it also counts lines, keeps a tail and a capped log; the pipe copy
# itself is paid by any reader, so the pipeline to /dev/null is shown but is no fair target);
# time to a result when a background child holds the pipe (~0.1 s quiet period after the
# shell exits, plus nib's start).
rss_target_mib=20
pipe_ratio_target=1.25
background_target_s=0.2

# 2 GiB of 500-byte lines, each starting with its 9-digit line number.
big_lines=4294967
big_size=$((big_lines * 500))
big=$cache/big-2GiB.txt
first=4000000
last=4000100

work=$(mktemp -d /tmp/nib-tools-bench-XXXXXX)
# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
trap 'rm -rf "$work"' EXIT
# bash logs (up to 10 MB per run) go here, not into the user's /tmp/nib-UID.
export TMPDIR=$work

make_big_file() {
  mkdir -p "$cache"
  if [ -f "$big" ] && [ "$(stat -c %s "$big")" = "$big_size" ]; then return; fi
  echo "generating $big (2 GiB, once) ..." >&2
  awk -v lines="$big_lines" 'BEGIN {
    pad = sprintf("%489s", ""); gsub(/ /, "x", pad)
    for (i = 1; i <= lines; i++) printf "%09d %s\n", i, pad
  }' >"$big.tmp"
  mv "$big.tmp" "$big"
}

echo "tools_bench: $nib"
echo "(load average now: $(cut -d' ' -f1-3 /proc/loadavg); on a busy machine timings are noisy)"

# --- a. read a page near the end of a 2 GiB file ---------------------------------------------
make_big_file
read_json="{\"path\":\"$big\",\"offset\":$first,\"limit\":$((last - first + 1))}"
nib_read=$(command_script nib_read "$nib" tool read "$read_json")
sed_read=$(command_script sed_read sed -n "$first,${last}p;${last}q" "$big")
head_read=$(command_script head_read "$nib" tool read "{\"path\":\"$big\",\"limit\":101}")
bash "$nib_read" >"$work/read.out"
head -n 1 "$work/read.out" | grep -q "^00$first " || {
  echo "tools_bench: read returned the wrong page:" >&2
  head -c 300 "$work/read.out" >&2
  exit 1
}
echo
echo "a. read lines $first-$last of a 2 GiB file ($(wc -l <"$work/read.out") lines out, page cache warm)"
cat "$big" >/dev/null # warm the page cache once: this measures nib, not the disk
timed read 1 5 "nib tool read" "$nib_read" "sed -n (same lines)" "$sed_read" \
  "nib tool read (lines 1-101)" "$head_read"
read_s=$(csv_field read 1 median)
sed_s=$(csv_field read 2 median)
head_s=$(csv_field read 3 median)
read_rss=$(peak_rss_kb "$nib_read")
echo "  nib tool read: median $read_s s, peak RSS $(mib "$read_rss") MiB; sed -n: median $sed_s s;" \
  "first page: median $head_s s"

# --- b. 1 GB through a pipe -----------------------------------------------------------------
pipeline="head -c 1000000000 /dev/zero | tr '\\0' a"
pipe_json='{"command":"head -c 1000000000 /dev/zero | tr '"'\\\\0'"' a"}'
nib_pipe=$(command_script nib_pipe "$nib" tool bash "$pipe_json")
direct_pipe=$(raw_script direct_pipe "$pipeline >/dev/null")
cat_pipe=$(raw_script cat_pipe "$pipeline | cat >/dev/null")
bash "$nib_pipe" | grep -q 'aaaa' || { echo "tools_bench: the pipeline printed nothing" >&2; exit 1; }
echo
echo "b. bash: $pipeline   (1 GB of output)"
timed pipe 1 3 "nib tool bash" "$nib_pipe" "bash to /dev/null" "$direct_pipe" \
  "bash piped to cat" "$cat_pipe"
pipe_s=$(csv_field pipe 1 median)
direct_s=$(csv_field pipe 2 median)
cat_s=$(csv_field pipe 3 median)
pipe_rss=$(peak_rss_kb "$nib_pipe")
pipe_ratio=$(awk -v a="$pipe_s" -v b="$cat_s" 'BEGIN { printf "%.2f", a / b }')
echo "  through nib: median $pipe_s s, peak RSS $(mib "$pipe_rss") MiB; direct: median" \
  "$direct_s s; piped to cat: median $cat_s s (nib takes x$pipe_ratio of that)"
echo "  CPU time (user+sys, whole tree): through nib $(csv_cpu pipe 1) s, direct $(csv_cpu pipe 2) s," \
  "piped to cat $(csv_cpu pipe 3) s"

# --- c. a background child holding the pipe ---------------------------------------------------
nib_bg=$(command_script nib_bg "$nib" tool bash '{"command":"sleep 30 & echo started"}')
nib_echo=$(command_script nib_echo "$nib" tool bash '{"command":"echo started"}')
bash "$nib_bg" | grep -q started || { echo "tools_bench: the background case lost its output" >&2; exit 1; }
echo
echo "c. bash: sleep 30 & echo started   (vs plain echo started)"
timed background 2 10 "sleep 30 & echo started" "$nib_bg" "echo started" "$nib_echo"
bg_s=$(csv_field background 1 median)
bg_max=$(csv_field background 1 max)
echo_s=$(csv_field background 2 median)
echo "  with the background child: median $bg_s s (max $bg_max s); plain echo: median $echo_s s"

summary "read 2 GiB file, lines $first+" "$read_s" s "(sed -n: $sed_s s)" -
summary "read 2 GiB file, lines 1-101" "$head_s" s "-" -
summary "read 2 GiB file, nib peak RSS" "$(mib "$read_rss")" MiB "< $rss_target_mib MiB" \
  "$(verdict "$(mib "$read_rss")" $rss_target_mib)"
summary "bash 1 GB pipe via nib" "$pipe_s" s "< ${pipe_ratio_target}x | cat ($cat_s s)" \
  "$(verdict "$pipe_ratio" $pipe_ratio_target)"
summary "bash 1 GB pipe, to /dev/null" "$direct_s" s "-" -
summary "bash 1 GB pipe, CPU via nib / | cat" "$(csv_cpu pipe 1) / $(csv_cpu pipe 3)" s "-" -
summary "bash 1 GB pipe, nib peak RSS" "$(mib "$pipe_rss")" MiB "< $rss_target_mib MiB" \
  "$(verdict "$(mib "$pipe_rss")" $rss_target_mib)"
summary "bash 'sleep 30 &' to result" "$bg_s" s "< $background_target_s s" \
  "$(verdict "$bg_s" $background_target_s)"
