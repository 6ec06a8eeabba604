#pragma once
// The command line (docs/usage.md): parsed into plain options; no side effects.

#include <optional>
#include <string>
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
  std::optional<std::vector<std::string>> tools;  // --tools a,b,c
  std::vector<std::string> ask;  // --ask a,b,c: tools that need the user's approval ("all")
  std::optional<std::string> permission_mode;  // --permission-mode auto|ask|read-only|yolo
  std::vector<std::string> mcp_config;         // --mcp-config FILE (repeatable): more MCP servers
  std::vector<std::string> mcp_allow;  // --mcp-allow a,b: project MCP servers to run ("all")
  bool version = false;
  bool no_sandbox = false;  // --no-sandbox: commands run with the user's rights, unconfined
  bool web_search = false;  // --web-search: offer the service's hosted web search
};

struct ParseOutcome {
  std::optional<CliOptions> options;  // set when the program should run
  int exit_code = 0;                  // otherwise: exit with this (help: 0, bad usage: 2)
  std::string message;                // printed before exiting (help text or the error)
};

ParseOutcome parse_command_line(int argc, const char* const* argv);

}  // namespace nib::app
