#!/usr/bin/env bash
# plugin_bench.sh: what Claude Code plugins cost nib at start-up. `nib plugins` (the
# configuration read, the enabled plugins found in a local marketplace, each one's hooks and MCP
# servers checked, every part listed) with 0, 1 and 20 plugins of one command, agent, skill,
# hook and MCP server each; the median wall time of RUNS runs of each, and the cost per plugin.
# Prints a report, then "summary<TAB>metric<TAB>value<TAB>target<TAB>verdict" lines (bench/run).
#
# Usage: bench/plugin_bench.sh [NIB_BINARY] [RUNS]   (defaults: build-bench/nib, 40)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
nib=$(realpath "${1:-$root/build-bench/nib}")
runs=${2:-40}
[ -x "$nib" ] || { echo "plugin_bench: no nib binary at $nib" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A home holding a marketplace of COUNT plugins, all enabled in ~/.claude/settings.json.
make_home() {
  local home=$work/home$1 market=$work/home$1/market ids="" entries=""
  mkdir -p "$home/.claude" "$market/.claude-plugin"
  for ((i = 0; i < $1; i++)); do
    local plugin=$market/plugins/p$i
    mkdir -p "$plugin/.claude-plugin" "$plugin/commands" "$plugin/agents" "$plugin/skills/s" \
      "$plugin/hooks"
    echo "{\"name\": \"p$i\", \"version\": \"1.0.0\"}" >"$plugin/.claude-plugin/plugin.json"
    printf -- '---\ndescription: c\n---\nHi !`echo x`\n' >"$plugin/commands/c.md"
    printf -- '---\nname: a\ndescription: a\n---\nA.\n' >"$plugin/agents/a.md"
    printf -- '---\nname: s\ndescription: s\n---\nS.\n' >"$plugin/skills/s/SKILL.md"
    echo '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
      "command": "true"}]}]}}' >"$plugin/hooks/hooks.json"
    echo '{"mcpServers": {"srv": {"command": "true"}}}' >"$plugin/.mcp.json"
    ids+="${ids:+, }\"p$i@m\": true"
    entries+="${entries:+, }{\"name\": \"p$i\", \"source\": \"./plugins/p$i\"}"
  done
  echo "{\"name\": \"m\", \"owner\": {\"name\": \"o\"}, \"plugins\": [$entries]}" \
    >"$market/.claude-plugin/marketplace.json"
  echo "{\"enabledPlugins\": {$ids}, \"extraKnownMarketplaces\": {\"m\": {\"source\":
    {\"source\": \"directory\", \"path\": \"$market\"}}}}" >"$home/.claude/settings.json"
}

# The median wall time in ms of RUNS runs of `nib plugins` with the plugins of home COUNT.
median_ms() {
  local home=$work/home$1
  mkdir -p "$work/project"
  for ((i = 0; i < runs; i++)); do
    local start end
    start=$(date +%s%N)
    (cd "$work/project" && HOME=$home XDG_CONFIG_HOME=$home/.config "$nib" plugins >/dev/null 2>&1)
    end=$(date +%s%N)
    echo $(((end - start) / 1000))
  done | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f\n", v[int((NR + 1) / 2)] / 1000 }'
}

declare -A median
for count in 0 1 20; do
  make_home "$count"
  median[$count]=$(median_ms "$count")
  printf 'nib plugins with %2d plugins: median %s ms (%d runs)\n' "$count" "${median[$count]}" "$runs"
done
per_plugin=$(awk -v a="${median[0]}" -v b="${median[20]}" 'BEGIN { printf "%.2f", (b - a) / 20 }')
verdict=$(awk -v v="$per_plugin" 'BEGIN { print (v < 1) ? "ok" : "MISSED" }')
printf 'summary\tplugin start-up cost per plugin\t%s ms\t< 1 ms\t%s\n' "$per_plugin" "$verdict"
