#pragma once
// The command line (docs/usage.md): nib's flags and its subcommands, parsed into plain values;
// no side effects. cli.cpp holds the one table of them: every flag and subcommand with its
// arguments and help text, in CLI11's usage style.

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace nib::app {

enum class OutputFormat { kText, kJson, kStreamJson };

struct CliOptions {
  bool print = false;  // -p/--print: one run, answer on stdout
  std::string prompt;  // the positional words, joined by spaces
  std::optional<std::string> provider;
  std::optional<std::string> model;
  std::optional<std::string> base_url;
  std::optional<std::string> api;            // --api: the wire protocol, overriding the provider's
  std::optional<std::string> thinking;       // --thinking: off, low, medium or high
  bool list_models = false;                  // --list-models: show the configured models and exit
  bool continue_latest = false;              // -c/--continue: resume the latest session here
  std::optional<std::string> resume_id;      // -r/--resume ID: resume a session (an id prefix)
  std::optional<std::string> session_file;   // --session FILE: use (or start) this session file
  bool no_session = false;                   // --no-session: keep nothing on disk
  std::optional<std::string> system_prompt;  // replaces nib's own introduction
  std::optional<std::string> append_system_prompt;  // added at the end of the system prompt
  OutputFormat output_format = OutputFormat::kText;
  int max_turns = 0;                              // 0: the default
  std::optional<double> max_budget_usd;           // --max-budget-usd: the spending cap
  std::optional<std::vector<std::string>> tools;  // --tools a,b,c
  std::vector<std::string> ask;  // --ask a,b,c: tools that need the user's approval ("all")
  std::optional<std::string> permission_mode;  // --permission-mode auto|ask|read-only|yolo
  std::vector<std::string> mcp_config;         // --mcp-config FILE (repeatable): more MCP servers
  std::vector<std::string> mcp_allow;  // --mcp-allow a,b: project MCP servers to run ("all")
  bool version = false;
  bool no_sandbox = false;  // --no-sandbox: commands run with the user's rights, unconfined
  bool web_search = false;  // --web-search: offer the service's hosted web search
  // --input-format stream-json: the Claude Agent SDK's transport (sdk_mode.hpp): user messages
  // and control requests on stdin, Claude Code's stream-json messages on stdout.
  bool input_stream_json = false;
  std::string permission_prompt_tool;         // --permission-prompt-tool: "stdio" asks the SDK
  std::vector<std::string> disallowed_tools;  // --disallowedTools: tools left out (Claude's names)
  // Flags of Claude Code's that the SDK may send and nib accepts without acting on them, as
  // written ("--fallback-model"), for the warning that says so.
  std::vector<std::string> unhonoured_flags;
};

// `nib tool NAME ['JSON']`
struct ToolArgs {
  std::string name;
  std::string arguments = "{}";  // the call's arguments, JSON text as given
};

// `nib sessions`
struct SessionsArgs {};

// `nib rewind [N] [--code | --conversation] [--show N] [--checkpoint ID] [--gc] [-r ID]`
struct RewindArgs {
  std::optional<std::string> session;     // -r ID: the session (none: the latest of the directory)
  std::optional<std::size_t> prompt;      // N: rewind to before prompt N (1: the first)
  std::optional<std::size_t> show;        // --show N: the diff of prompt N's turn
  bool code_only = false;                 // --code: the files only
  bool conversation_only = false;         // --conversation: the conversation only
  std::optional<std::string> checkpoint;  // --checkpoint ID: the files back to checkpoint ID
  bool overwrite_hand_changes = false;    // --force
  bool keep_hand_changes = false;         // --keep-hand-changes
  bool collect_garbage = false;           // --gc
};

// `nib acp`: an Agent Client Protocol agent on stdin/stdout (app/acp_agent.hpp)
struct AcpArgs {};

// `nib plugins`: the Claude Code plugins nib loads, with their parts (app/plugin_setup.hpp)
struct PluginsArgs {};

// `nib permissions explain 'COMMAND'` or `nib permissions explain TOOL 'JSON'`
struct PermissionsExplainArgs {
  std::optional<std::string> tool;  // the tool called; none: bash
  std::string call;                 // bash's command, or the tool's JSON arguments
};
// `nib permissions check`
struct PermissionsCheckArgs {};
using PermissionsArgs = std::variant<PermissionsExplainArgs, PermissionsCheckArgs>;

// `nib hooks test EVENT [--input FILE]`
struct HooksTestArgs {
  std::string event;
  std::optional<std::string> input;  // a JSON object of the event's fields; none: a sample
};

// Where `nib mcp add` and `remove` write: the user's ~/.config/nib/mcp.json, the project's
// .mcp.json, or the user's servers of this project only (local: in ~/.config/nib/mcp.json,
// under "projects", mcp/scoped_servers.hpp). Claude Code's names for the same three.
enum class McpScope { kUser, kProject, kLocal };

// `nib mcp list`
struct McpListArgs {};
// `nib mcp get NAME`
struct McpGetArgs {
  std::string name;
};
// `nib mcp add [OPTIONS] NAME [--] COMMAND [ARGS...]` (every word after COMMAND is its own) or
// `nib mcp add [OPTIONS] --transport http|sse NAME URL`, and nib's
// `nib mcp add NAME [--scope S] --url URL [--header 'K: V']...`: exactly one of `command` and
// `url` is set (the parser sees to it).
struct McpAddArgs {
  std::string name;
  McpScope scope = McpScope::kUser;
  std::vector<std::pair<std::string, std::string>> env;  // -e K=V, for a command
  std::vector<std::string> command;                      // the command and its arguments
  std::optional<std::string> url;
  // --transport sse: the URL is a server of MCP 2024-11-05's SSE transport (written as such, for
  // the reader to say whether nib runs it).
  bool sse = false;
  std::vector<std::pair<std::string, std::string>> headers;  // -H 'K: V', for a URL
};
// `nib mcp add-json NAME JSON [--scope S]`: a server's entry as Claude Code's add-json takes it.
struct McpAddJsonArgs {
  std::string name;
  std::string entry;  // JSON text, as given
  McpScope scope = McpScope::kUser;
};
// `nib mcp remove NAME [--scope S]`
struct McpRemoveArgs {
  std::string name;
  std::optional<McpScope> scope;  // none: the first scope that has it: local, user, project
};
// `nib mcp approve NAME`
struct McpApproveArgs {
  std::string name;
};
// `nib mcp serve [--ask TOOLS]`
struct McpServeArgs {
  std::vector<std::string> ask;  // added to the global --ask
};
using McpArgs = std::variant<McpListArgs, McpGetArgs, McpAddArgs, McpAddJsonArgs, McpRemoveArgs,
                             McpApproveArgs, McpServeArgs>;

// The subcommand the command line names, with its arguments; std::monostate when it names
// none: a run (interactive, or print mode).
using Subcommand = std::variant<std::monostate, ToolArgs, SessionsArgs, PermissionsArgs,
                                HooksTestArgs, McpArgs, AcpArgs, RewindArgs, PluginsArgs>;

struct ParseOutcome {
  // Set when the program should run: the flags of the run, or those given before the
  // subcommand (which applies the ones it has a use for).
  std::optional<CliOptions> options;
  Subcommand subcommand;
  int exit_code = 0;    // without options: exit with this (help: 0, bad usage: 2)
  std::string message;  // printed before exiting (help text or the error)
};

ParseOutcome parse_command_line(int argc, const char* const* argv);

}  // namespace nib::app
