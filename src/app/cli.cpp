#include "app/cli.hpp"

#include <CLI/CLI.hpp>

namespace nib::app {
namespace {

// "read, grep,find" -> {"read", "grep", "find"}.
std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> names;
  std::string name;
  for (const char c : text + ",") {
    if (c != ',') {
      if (c != ' ') name += c;
    } else if (!name.empty()) {
      names.push_back(std::move(name));
      name.clear();
    }
  }
  return names;
}

}  // namespace

ParseOutcome parse_command_line(int argc, const char* const* argv) {
  CLI::App app{
      "nib: a coding agent for the terminal.\n\n"
      "  nib [PROMPT]           interactive session (starting with PROMPT when given)\n"
      "  nib -p \"PROMPT\"        answer one prompt: the answer on stdout, tool activity "
      "on stderr\n"
      "  nib tool NAME 'JSON'   run one tool call in the current directory\n"
      "  nib sessions           list this directory's saved sessions\n"
      "  nib permissions explain 'COMMAND' | check   how permission rules decide; their "
      "problems\n"
      "  nib mcp ...            list, add, remove and approve MCP servers; serve nib's tools",
      "nib"};
  CliOptions options;
  std::vector<std::string> words;
  std::string format = "text";
  std::string tools;
  std::string ask;
  app.add_flag("-p,--print", options.print, "Answer the prompt and exit (print mode)");
  app.add_option("prompt", words, "The prompt (print mode reads stdin when none is given)");
  app.add_option("--provider", options.provider,
                 "Model service: openai, anthropic, or one from models.json [env NIB_PROVIDER]");
  app.add_option("--model", options.model, "Model name [env NIB_MODEL]");
  app.add_option("--base-url", options.base_url,
                 "Service URL, e.g. http://localhost:11434/v1 for Ollama [env OPENAI_BASE_URL, "
                 "ANTHROPIC_BASE_URL]");
  app.add_option("--api", options.api,
                 "Wire protocol: openai-chat, openai-responses or anthropic-messages (default: "
                 "the provider's)")
      ->check(CLI::IsMember({"openai-chat", "openai-responses", "anthropic-messages"}));
  app.add_option("--thinking", options.thinking,
                 "How much the model reasons: off, low, medium, high")
      ->check(CLI::IsMember({"off", "low", "medium", "high"}));
  app.add_flag("--list-models", options.list_models,
               "List the configured providers and models (and which keys are set), then exit");
  // Each names where the conversation comes from and goes to, so at most one may be given.
  auto* continue_flag = app.add_flag("-c,--continue", options.continue_latest,
                                     "Continue the latest session of this directory");
  auto* resume = app.add_option("-r,--resume", options.resume_id,
                                "Resume the session with this id (a prefix is enough)");
  auto* session = app.add_option("--session", options.session_file,
                                 "Use this session file (created if missing)");
  auto* no_session = app.add_flag("--no-session", options.no_session, "Do not save this session");
  continue_flag->excludes(resume)->excludes(session)->excludes(no_session);
  resume->excludes(session)->excludes(no_session);
  session->excludes(no_session);
  app.add_option("--system-prompt", options.system_prompt,
                 "Use TEXT instead of nib's own introduction (tools, environment and AGENTS.md "
                 "are still added)");
  app.add_option("--append-system-prompt", options.append_system_prompt,
                 "Add TEXT at the end of the system prompt");
  app.add_option("--output-format", format, "text, json or stream-json (print mode)")
      ->check(CLI::IsMember({"text", "json", "stream-json"}));
  app.add_option("--max-turns", options.max_turns, "Model requests per run (no limit by default)")
      ->check(CLI::PositiveNumber);
  app.add_option("--tools", tools, "Comma-separated built-in tools to enable (default: all)");
  app.add_option("--ask", ask,
                 "Ask before running these tools (comma-separated, or 'all'); print mode, which "
                 "cannot ask, refuses them");
  app.add_option("--permission-mode", options.permission_mode,
                 "auto (the default: commands in the sandbox, edits in the tree without asking), "
                 "ask, read-only or yolo (no sandbox, no questions)");
  std::string mcp_allow;
  app.add_option("--mcp-config", options.mcp_config,
                 "A JSON file of MCP servers ({\"mcpServers\": {...}}); may be repeated");
  app.add_option("--mcp-allow", mcp_allow,
                 "Run these MCP servers of the project's .mcp.json or settings without asking "
                 "(comma-separated, or 'all')");
  app.add_flag("--web-search", options.web_search,
               "Let the model search the web with the service's hosted search (Anthropic, "
               "OpenAI Responses; the service runs it) [settings webSearch]");
  app.add_flag("--version", options.version, "Print the version and exit");
  app.add_flag("--no-sandbox", options.no_sandbox,
               "Run commands outside the sandbox, with your full rights");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return {std::nullopt, 0, app.help()};
  } catch (const CLI::ParseError& error) {
    return {std::nullopt, 2, std::string("nib: ") + error.what() + "\nRun 'nib --help' for usage."};
  }

  for (const auto& word : words) {
    if (!options.prompt.empty()) options.prompt += ' ';
    options.prompt += word;
  }
  if (format == "json") options.output_format = OutputFormat::kJson;
  if (format == "stream-json") options.output_format = OutputFormat::kStreamJson;
  if (app.count("--tools") > 0) options.tools = comma_list(tools);
  options.ask = comma_list(ask);
  options.mcp_allow = comma_list(mcp_allow);
  return {options, 0, {}};
}

}  // namespace nib::app
