#!/usr/bin/env bash
# search_bench.sh: nib's own search against the tools users compare it with, side by side in
# one run over one large tree: `nib tool grep` vs ripgrep (`rg`) for a literal, a regex with a
# literal inside and a regex of character classes only, and `nib tool find` vs fd (`fdfind`)
# for a glob. Both sides run single commands, cold start included, page cache warm; each row
# checks that the two found the same number of lines or files.
# Prints a report, then "summary<TAB>metric<TAB>value<TAB>target<TAB>verdict" lines (bench/run).
#
# Usage: bench/search_bench.sh [NIB_BINARY]      (default: build-bench/nib)
# The tree is a copy of /usr/include and /usr/share (on Debian 12 with the build packages:
# ~73,000 files, ~1.3 GB), made once into $NIB_BENCH_CACHE (default /tmp/nib-bench-cache);
# NIB_BENCH_TREE names another tree instead. Needs hyperfine, ripgrep and fd-find
# (NIB_SETUP_BENCH=1 scripts/setup installs them).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
nib=$(realpath "${1:-$root/build-bench/nib}")
cache=${NIB_BENCH_CACHE:-/tmp/nib-bench-cache}
tree=${NIB_BENCH_TREE:-$cache/search-tree}
runs=${NIB_BENCH_SEARCH_RUNS:-10}
[ -x "$nib" ] || { echo "search_bench: no nib binary at $nib" >&2; exit 2; }
for tool in hyperfine rg fdfind awk; do
  command -v "$tool" >/dev/null ||
    { echo "search_bench: $tool is missing (NIB_SETUP_BENCH=1 scripts/setup)" >&2; exit 2; }
done

# The issue's target: within 1.2x of ripgrep's and fd's wall time.
ratio_target=1.2

work=$(mktemp -d /tmp/nib-search-bench-XXXXXX)
# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
trap 'rm -rf "$work"' EXIT

if [ ! -d "$tree" ]; then
  echo "copying /usr/include and /usr/share into $tree (once) ..." >&2
  mkdir -p "$tree.tmp"
  cp -a /usr/include /usr/share "$tree.tmp/"
  mv "$tree.tmp" "$tree"
fi
files=$(find "$tree" -type f | wc -l)
size=$(du -sh "$tree" | cut -f1)
echo "search_bench: $nib"
echo "tree: $tree ($files files, $size)"
echo "(load average now: $(cut -d' ' -f1-3 /proc/loadavg); on a busy machine timings are noisy)"
cat_tree() { find "$tree" -type f -exec cat {} + >/dev/null 2>&1 || true; }
cat_tree # warm the page cache: this measures the search, not the disk

# nib's count: the total its result states ("Showing N of M matching lines", "N of M files")
# when it shows only part, else the lines it printed.
nib_count() {
  bash "$1" >"$work/out" 2>/dev/null || true
  local total
  total=$(grep -oE 'of [0-9]+ (matching lines|matches|files|paths|entries)' "$work/out" |
    tail -n 1 | grep -oE '[0-9]+' || true)
  if [ -n "$total" ]; then echo "$total"; else grep -vc '^\[' "$work/out" || true; fi
}
other_count() { bash "$1" 2>/dev/null | wc -l; }

# compare LABEL NIB_SCRIPT OTHER_NAME OTHER_SCRIPT: times both, prints counts and the ratio,
# and adds a summary line.
compare() {
  local label=$1 nib_script=$2 other=$3 other_script=$4 name
  name=$(echo "$label" | tr -c 'a-z0-9' '_')
  echo
  echo "$label"
  timed "$name" 2 "$runs" "nib" "$nib_script" "$other" "$other_script"
  local nib_s other_s ratio nib_n other_n
  nib_s=$(csv_field "$name" 1 median)
  other_s=$(csv_field "$name" 2 median)
  ratio=$(awk -v a="$nib_s" -v b="$other_s" 'BEGIN { printf "%.2f", a / b }')
  nib_n=$(nib_count "$nib_script")
  other_n=$(other_count "$other_script")
  echo "  nib: median $nib_s s, $nib_n found; $other: median $other_s s, $other_n found;" \
    "ratio x$ratio"
  local same="same count"
  [ "$nib_n" = "$other_n" ] || same="COUNTS DIFFER: $nib_n vs $other_n"
  summary "$label / $other" "x$ratio" "($nib_s s vs $other_s s)" "< ${ratio_target}x; $same" \
    "$(if [ "$same" = "same count" ]; then verdict "$ratio" "$ratio_target"; else echo MISSED; fi)"
}

# grep_pair LABEL PATTERN: nib grep and rg -n for the same regex (rg's \d would be Unicode;
# the patterns use ASCII classes so both mean the same).
grep_pair() {
  local json
  json=$(printf '{"pattern":"%s","path":"%s","limit":1000000}' "${2//\\/\\\\}" "$tree")
  compare "grep $1: $2" "$(command_script "nib_$1" "$nib" tool grep "$json")" rg \
    "$(command_script "rg_$1" rg -n -- "$2" "$tree")"
}

grep_pair literal 'EXIT_SUCCESS'
grep_pair regex 'struct [a-z_]+_info'
grep_pair classes '[0-9]{4}-[0-9]{2}-[0-9]{2}'

find_json=$(printf '{"pattern":"**/*.h","path":"%s","limit":1000000}' "$tree")
compare "find **/*.h" "$(command_script nib_find "$nib" tool find "$find_json")" fdfind \
  "$(command_script fd_find fdfind -g '*.h' "$tree")"
