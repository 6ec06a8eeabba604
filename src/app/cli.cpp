#include "app/cli.hpp"

#include <algorithm>
#include <memory>
#include <string_view>

#include <CLI/CLI.hpp>

#include "util/blank_text.hpp"

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

// Positionals are written in capitals, as the usage lines and the documentation write them, with
// no type name after them.
template <typename T>
CLI::Option* add_positional(CLI::App& command, const std::string& name, T& into,
                            const std::string& help) {
  return command.add_option(name, into, help)->type_name("");
}

// Each subcommand below owns the values its options fill, shared with its callback; CLI11 runs the
// callback only for the subcommand the command line names, and it makes them the Subcommand.

void add_tool(CLI::App& app, Subcommand& chosen) {
  auto* tool = app.add_subcommand(
      "tool", "Run one tool call here, with no model, guarded as a model's call; print its result");
  tool->footer(
      "Nobody can be asked: a call the rules or the mode would ask about is refused. Exit status "
      "1 when the result is an error, a refusal included.");
  auto args = std::make_shared<ToolArgs>();
  add_positional(*tool, "NAME", args->name,
                 "The tool: read, bash, edit, write, find, ls, grep, web_fetch or todo_write")
      ->required();
  add_positional(*tool, "JSON", args->arguments,
                 "The call's arguments, a JSON object (default {})");
  tool->callback([args, &chosen] { chosen = *args; });
}

// The flags of Claude Code's command line that the Claude Agent SDK passes its executable
// (sdk_mode.hpp). Those nib acts on change options; the others are accepted, so that a program
// written for the SDK runs, and named in a warning.
void add_sdk_flags(CLI::App& app, CliOptions& options) {
  auto* group = app.add_option_group("Claude Agent SDK");
  group
      ->add_option_function<std::string>(
          "--input-format",
          [&options](const std::string& format) {
            options.input_stream_json = format == "stream-json";
          },
          "text, or stream-json: user messages and control requests on stdin, as the Claude Agent "
          "SDK sends them (output in Claude Code's stream-json)")
      ->check(CLI::IsMember({"text", "stream-json"}));
  group
      ->add_option("--permission-prompt-tool", options.permission_prompt_tool,
                   "stdio: ask the Claude Agent SDK's canUseTool about calls that need approval")
      ->check(CLI::IsMember({"stdio"}));
  group->add_option_function<std::string>(
      "--disallowedTools",
      [&options](const std::string& list) {
        for (std::string& name : comma_list(list)) options.disallowed_tools.push_back(name);
      },
      "Tools left out (comma-separated, Claude Code's names or nib's)");
  group->add_flag_callback(
      "--verbose", [] {}, "Accepted for the Claude Agent SDK (stream-json is complete anyway)");
  for (const char* flag : {"--include-partial-messages", "--strict-mcp-config", "--fork-session",
                           "--no-session-persistence", "--allow-dangerously-skip-permissions",
                           "--include-hook-events", "--await-initialize"}) {
    group->add_flag_callback(
        flag, [&options, flag] { options.unhonoured_flags.emplace_back(flag); },
        "Accepted for the Claude Agent SDK; nib does not act on it");
  }
  for (const char* flag :
       {"--allowedTools", "--setting-sources", "--fallback-model", "--add-dir",
        "--max-thinking-tokens", "--effort", "--session-id", "--settings", "--betas", "--agent",
        "--json-schema", "--plugin-dir", "--task-budget"}) {
    group
        ->add_option_function<std::string>(
            flag,
            [&options, flag](const std::string&) { options.unhonoured_flags.emplace_back(flag); },
            "Accepted for the Claude Agent SDK; nib does not act on it")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  }
}

void add_acp(CLI::App& app, Subcommand& chosen) {
  auto* acp = app.add_subcommand(
      "acp",
      "Serve an editor or another Agent Client Protocol client on stdin/stdout (Zed, JetBrains "
      "IDEs, Neovim, Emacs); nib's flags before or after it apply to its sessions");
  acp->fallthrough();
  acp->callback([&chosen] { chosen = AcpArgs{}; });
}

void add_sessions(CLI::App& app, Subcommand& chosen) {
  auto* sessions = app.add_subcommand(
      "sessions", "List this directory's saved sessions, newest first (resume one with -r ID)");
  sessions->callback([&chosen] { chosen = SessionsArgs{}; });
}

void add_plugins(CLI::App& app, Subcommand& chosen) {
  auto* plugins = app.add_subcommand(
      "plugins",
      "List the Claude Code plugins nib loads (enabledPlugins) with their commands, agents, "
      "skills, hooks and MCP servers, and the ones left out");
  plugins->callback([&chosen] { chosen = PluginsArgs{}; });
}

void add_rewind(CLI::App& app, Subcommand& chosen) {
  auto* rewind = app.add_subcommand(
      "rewind",
      "List a session's prompts with the files each turn changed, show a turn's diff, or go "
      "back to before a prompt: the files, the conversation, or both");
  auto args = std::make_shared<RewindArgs>();
  rewind->add_option("-r,--resume", args->session,
                     "The session (its id's first digits); the directory's latest by default");
  rewind->add_option("N", args->prompt, "Go back to before prompt N (1 is the first)")
      ->check(CLI::PositiveNumber);
  auto* show = rewind->add_option("--show", args->show, "Show the diff of prompt N's turn")
                   ->check(CLI::PositiveNumber);
  auto* code = rewind->add_flag("--code", args->code_only, "Restore the files only");
  auto* conversation = rewind->add_flag("--conversation", args->conversation_only,
                                        "Rewind the conversation only, leaving the files");
  auto* checkpoint = rewind->add_option(
      "--checkpoint", args->checkpoint,
      "Restore the files to checkpoint ID (what a restore printed, to take it back)");
  auto* force = rewind->add_flag("--force", args->overwrite_hand_changes,
                                 "Restore files changed by hand too");
  auto* keep = rewind->add_flag("--keep-hand-changes", args->keep_hand_changes,
                                "Leave files changed by hand as they are, restoring the rest");
  auto* gc = rewind->add_flag(
      "--gc", args->collect_garbage,
      "Drop the oldest checkpoints while the store is over its cap; print its size");
  code->excludes(conversation);
  force->excludes(keep);
  show->excludes(code)->excludes(conversation)->excludes(checkpoint)->excludes(gc);
  checkpoint->excludes(conversation)->excludes(gc);
  rewind->callback([&chosen, args] { chosen = *args; });
}

void add_permissions(CLI::App& app, Subcommand& chosen) {
  auto* permissions = app.add_subcommand(
      "permissions", "How the permission rules decide a call; rules that never match");
  permissions->require_subcommand(1);

  auto* explain = permissions->add_subcommand(
      "explain", "How the rules decide a bash command, or a call of any tool (with JSON)");
  auto subject = std::make_shared<std::string>();
  auto json = std::make_shared<std::optional<std::string>>();
  add_positional(*explain, "COMMAND|TOOL", *subject,
                 "The bash command; or, with JSON, the tool called")
      ->required();
  add_positional(*explain, "JSON", *json, "The tool's arguments, a JSON object");
  explain->callback([subject, json, &chosen] {
    chosen = PermissionsArgs{*json ? PermissionsExplainArgs{*subject, **json}
                                   : PermissionsExplainArgs{std::nullopt, *subject}};
  });

  auto* check = permissions->add_subcommand(
      "check", "The rules that never match or are shadowed (exit status 1 when there are any)");
  check->callback([&chosen] { chosen = PermissionsArgs{PermissionsCheckArgs{}}; });
}

void add_hooks(CLI::App& app, Subcommand& chosen) {
  auto* hooks = app.add_subcommand("hooks", "Try out the hooks of the settings files");
  hooks->require_subcommand(1);
  auto* test = hooks->add_subcommand(
      "test", "Run the hooks of EVENT on a sample input as a run would; print each one's decision");
  auto args = std::make_shared<HooksTestArgs>();
  add_positional(*test, "EVENT", args->event,
                 "PreToolUse, PostToolUse, UserPromptSubmit, Stop, SubagentStop, SessionStart, "
                 "SessionEnd or PreCompact")
      ->required();
  test->add_option("--input", args->input,
                   "A JSON object of the event's fields (tool_name, tool_input, prompt, ...) "
                   "instead of a sample of the event")
      ->type_name("FILE");
  test->callback([args, &chosen] { chosen = *args; });
}

McpScope scope_named(const std::string& name) {
  if (name == "project") return McpScope::kProject;
  if (name == "local") return McpScope::kLocal;
  return McpScope::kUser;
}

// "user", "project" or "local", for `mcp add`, `add-json` and `remove`: Claude Code's scopes.
CLI::Option* add_scope_option(CLI::App& command, std::string& into) {
  return command
      .add_option("-s,--scope", into,
                  "user: ~/.config/nib/mcp.json (the default); project: the project's .mcp.json; "
                  "local: yours, in this project only (kept in ~/.config/nib/mcp.json)")
      ->check(CLI::IsMember({"user", "project", "local"}));
}

// What `nib mcp add` reads before its callback checks and splits it.
struct McpAddInput {
  McpAddArgs args;
  std::string scope = "user";
  std::string transport;                // -t: stdio, http or sse; empty: as the words say
  std::optional<std::string> url_word;  // the word after NAME, when it is the server's URL
  std::vector<std::string> env;         // K=V
  std::vector<std::string> headers;     // K: V
};

// Whether `word`, the one after NAME, is the server's URL: always after --transport http or
// sse, never after --transport stdio, else when it reads as one. The transport counts when
// given before the word, as Claude Code has its options (before NAME).
bool is_url_word(const McpAddInput& input, const std::string& word) {
  if (input.transport.empty()) return word.starts_with("http://") || word.starts_with("https://");
  return input.transport != "stdio";
}

// The words after NAME that are not the URL: the server's command and its arguments, each as
// given, options of nib's among them too ("--" before them is optional, as in Claude Code).
std::vector<std::string> command_words(const CLI::App& add) {
  std::vector<std::string> words = add.remaining();
  if (!words.empty() && words.front() == "--") words.erase(words.begin());
  return words;
}

// Throws the usage error unless `args` give exactly one way to reach the server, the one
// `transport` (-t) names when it names one.
void check_reach(const McpAddArgs& args, const std::string& transport) {
  if (transport == "stdio" && args.url) {
    throw CLI::ValidationError("--transport stdio takes a command, not --url");
  }
  if (!args.command.empty() && args.url) {
    throw CLI::ValidationError("give either a URL or a command, not both");
  }
  if (!transport.empty() && transport != "stdio" && !args.url) {
    throw CLI::ValidationError("--transport " + transport +
                               " needs the server's URL: nib mcp add --transport " + transport +
                               " NAME URL");
  }
  if (args.command.empty() && !args.url) {
    throw CLI::ValidationError(
        "needs a command (nib mcp add NAME -- COMMAND [ARGS...]) or a URL (nib mcp add "
        "--transport http NAME URL)");
  }
}

// `input` and the command's words checked against each other and split; throws the usage error.
McpAddArgs mcp_add_args(const McpAddInput& input, std::vector<std::string> command) {
  McpAddArgs args = input.args;
  args.scope = scope_named(input.scope);
  args.command = std::move(command);
  args.sse = input.transport == "sse";
  for (const std::string& variable : input.env) {
    const std::size_t equals = variable.find('=');
    args.env.emplace_back(variable.substr(0, equals), variable.substr(equals + 1));
  }
  for (const std::string& header : input.headers) {
    const std::size_t colon = header.find(':');
    args.headers.emplace_back(header.substr(0, colon),
                              std::string(util::trim_blanks(std::string_view(header).substr(
                                  std::min(colon + 1, header.size())))));
  }
  if (input.url_word && args.url) {
    throw CLI::ValidationError("give the URL once: after NAME or with --url");
  }
  if (input.url_word) args.url = input.url_word;
  check_reach(args, input.transport);
  return args;
}

// Claude Code's syntax, `mcp add [OPTIONS] NAME COMMAND [ARGS...]` or `mcp add [OPTIONS]
// --transport http NAME URL`, and nib's, with the options after NAME and the command after --.
void add_mcp_add(CLI::App& mcp, Subcommand& chosen) {
  auto* add = mcp.add_subcommand(
      "add", "Add a stdio server (its command and arguments) or an HTTP one (its URL)");
  add->footer(
      "Claude Code's forms work as they are: nib mcp add [OPTIONS] NAME [--] COMMAND [ARGS...] "
      "(every word after COMMAND is its own), nib mcp add [OPTIONS] --transport http NAME URL "
      "[-H 'NAME: VALUE']. An entry of the same name in that file is replaced.");
  // The first word after NAME that is no URL ends nib's options: it and every word after it
  // are the server's command (command_words).
  add->prefix_command();
  add->validate_positionals();
  auto input = std::make_shared<McpAddInput>();
  add_positional(*add, "NAME", input->args.name, "The server's name")->required();
  add_scope_option(*add, input->scope);
  add->add_option("-t,--transport", input->transport,
                  "stdio (a command, the default), http (streamable HTTP: a URL), or sse (MCP "
                  "2024-11-05's SSE transport, which nib does not run)")
      ->check(CLI::IsMember({"stdio", "http", "sse"}))
      ->trigger_on_parse();  // set at once: is_url_word reads it for the words that follow
  add->add_option("-e,--env", input->env,
                  "An environment variable for the server's command; may be repeated")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false)  // one value each, so that the next word stays where it is
      ->check([](const std::string& value) {
        return value.find('=') == std::string::npos ? "takes NAME=VALUE, not " + value
                                                    : std::string();
      });
  add->add_option("--url", input->args.url, "The address of a streamable-HTTP server");
  add->add_option("-H,--header", input->headers,
                  "An HTTP header sent to the server at the URL, e.g. 'Authorization: Bearer "
                  "${TOKEN}'; may be repeated")
      ->type_name("'NAME: VALUE'")
      ->allow_extra_args(false)
      ->check([](const std::string& value) {
        return value.find(':') == std::string::npos ? "takes 'NAME: VALUE', not " + value
                                                    : std::string();
      });
  add_positional(*add, "COMMAND|URL", input->url_word,
                 "The command that starts a stdio server, with its arguments after it; or the "
                 "server's URL (with --transport http, or one starting with http:// or https://)")
      ->check([input](const std::string& word) {
        return is_url_word(*input, word) ? std::string() : "not a URL";
      });
  add->callback(
      [input, add, &chosen] { chosen = McpArgs{mcp_add_args(*input, command_words(*add))}; });
}

void add_mcp_add_json(CLI::App& mcp, Subcommand& chosen) {
  auto* add_json = mcp.add_subcommand(
      "add-json", "Add a server from its JSON entry, as Claude Code's mcp add-json takes it");
  add_json->footer(
      "The entry as .mcp.json holds it: '{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"]}' or "
      "'{\"type\": \"http\", \"url\": \"https://...\"}'. An entry of the same name is replaced.");
  auto args = std::make_shared<McpAddJsonArgs>();
  auto scope = std::make_shared<std::string>("user");
  add_positional(*add_json, "NAME", args->name, "The server's name")->required();
  add_positional(*add_json, "JSON", args->entry, "The server's entry, a JSON object")->required();
  add_scope_option(*add_json, *scope);
  add_json->callback([args, scope, &chosen] {
    McpAddJsonArgs added = *args;
    added.scope = scope_named(*scope);
    chosen = McpArgs{std::move(added)};
  });
}

void add_mcp(CLI::App& app, Subcommand& chosen) {
  auto* mcp = app.add_subcommand(
      "mcp", "MCP servers: list, add, remove and approve them; serve nib's tools to a client");
  mcp->require_subcommand(1);

  auto* list =
      mcp->add_subcommand("list", "Every configured server: its state, tool count and file");
  list->callback([&chosen] { chosen = McpArgs{McpListArgs{}}; });

  auto* get = mcp->add_subcommand("get", "One server's entry, state and tools, or why it failed");
  auto got = std::make_shared<McpGetArgs>();
  add_positional(*get, "NAME", got->name, "The server's name")->required();
  get->callback([got, &chosen] { chosen = McpArgs{*got}; });

  add_mcp_add(*mcp, chosen);
  add_mcp_add_json(*mcp, chosen);

  auto* remove = mcp->add_subcommand(
      "remove",
      "Remove a server: from your servers of this project, else your MCP file, else the "
      "project's");
  auto removed = std::make_shared<McpRemoveArgs>();
  auto remove_scope = std::make_shared<std::string>();
  add_positional(*remove, "NAME", removed->name, "The server's name")->required();
  add_scope_option(*remove, *remove_scope);
  remove->callback([removed, remove_scope, &chosen] {
    McpRemoveArgs args = *removed;
    if (!remove_scope->empty()) args.scope = scope_named(*remove_scope);
    chosen = McpArgs{std::move(args)};
  });

  auto* approve = mcp->add_subcommand(
      "approve", "Let the project's server NAME run (remembered until its entry changes)");
  auto approved = std::make_shared<McpApproveArgs>();
  add_positional(*approve, "NAME", approved->name, "The server's name")->required();
  approve->callback([approved, &chosen] { chosen = McpArgs{*approved}; });

  auto* serve = mcp->add_subcommand(
      "serve", "Serve read, bash, edit, write, grep, find and ls over stdio, guarded as nib -p is");
  auto ask = std::make_shared<std::string>();
  serve->add_option("--ask", *ask,
                    "Tools to ask about, as the --ask before mcp (comma-separated, or 'all'): "
                    "nobody can answer, so they are refused");
  serve->callback([ask, &chosen] { chosen = McpArgs{McpServeArgs{comma_list(*ask)}}; });
}

// The subcommand the parse reached: the deepest one the command line names, else the app.
const CLI::App& reached(const CLI::App& app) {
  const CLI::App* at = &app;
  while (!at->get_subcommands().empty()) at = at->get_subcommands().front();
  return *at;
}

// "nib mcp add".
std::string path_of(const CLI::App& command) {
  std::string path = command.get_name();
  for (const CLI::App* up = command.get_parent(); up != nullptr; up = up->get_parent()) {
    path = up->get_name() + " " + path;
  }
  return path;
}

// One usage style for every error: what is wrong, then where the help is.
std::string usage_error(const CLI::App& app, const CLI::ParseError& error) {
  const CLI::App& at = reached(app);
  const std::string path = path_of(at);
  std::string problem = error.what();
  if (at.get_require_subcommand_min() > 0 && at.get_subcommands().empty()) {
    const std::vector<std::string> words = at.remaining();
    std::string actions;
    const auto named = [](const CLI::App* action) { return !action->get_name().empty(); };
    for (const CLI::App* action : at.get_subcommands(named)) {
      actions += (actions.empty() ? "" : ", ") + action->get_name();
    }
    problem = (words.empty() ? "which action? " : "no action \"" + words.front() + "\"; ") +
              "one of: " + actions;
  }
  std::string message = path + ": " + problem + "\nRun '" + path + " --help' for usage.";
  // The word may have been meant as the first of a prompt.
  if (at.get_parent() == &app) {
    message += " A prompt that starts with \"" + at.get_name() + "\" goes after --.";
  }
  return message;
}

}  // namespace

ParseOutcome parse_command_line(int argc, const char* const* argv) {
  CLI::App app{
      "nib: a coding agent for the terminal.\n\n"
      "  nib [PROMPT]        interactive session (starting with PROMPT when given)\n"
      "  nib -p \"PROMPT\"     answer one prompt: the answer on stdout, tool activity on stderr\n"
      "  nib SUBCOMMAND ...  one of the subcommands below (nib SUBCOMMAND --help); the flags\n"
      "                      before it apply where they mean something, as in\n"
      "                      nib --no-sandbox tool bash '{\"command\": \"ls\"}'\n"
      "  nib -- PROMPT       a prompt whose first word names a subcommand",
      "nib"};
  // One subcommand at most: within one, the name of another is a word like any other.
  app.require_subcommand(0, 1);
  CliOptions options;
  std::vector<std::string> words;
  std::string format = "text";
  std::string tools;
  std::string ask;
  // The prompt and -p: either makes the command line a run, and the words after it a prompt,
  // whatever they are (nib -p tool ... asks the model about a tool).
  auto* prompt = app.add_option_group("Prompt");
  prompt->add_flag("-p,--print", options.print, "Answer the prompt and exit (print mode)");
  add_positional(*prompt, "PROMPT", words,
                 "The prompt (print mode reads stdin when none is given)");
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
      // adaptive and disabled: the Claude Agent SDK's words (the model's default, and off).
      ->check(CLI::IsMember({"off", "low", "medium", "high", "adaptive", "disabled"}));
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
  app.add_option("--max-budget-usd", options.max_budget_usd,
                 "Stop between turns once model requests (subagents' included) have cost this "
                 "many US dollars; the session can go on with nib -c")
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
  add_sdk_flags(app, options);
  app.add_flag("--no-sandbox", options.no_sandbox,
               "Run commands outside the sandbox, with your full rights");

  Subcommand subcommand;
  add_tool(app, subcommand);
  add_sessions(app, subcommand);
  add_rewind(app, subcommand);
  add_acp(app, subcommand);
  add_permissions(app, subcommand);
  add_hooks(app, subcommand);
  add_plugins(app, subcommand);
  add_mcp(app, subcommand);
  CLI::TriggerOff(
      prompt, app.get_subcommands([](CLI::App* command) { return !command->get_name().empty(); }));

  // "--flag=" (the SDK's --setting-sources= for none) is the flag with an empty value; CLI11
  // would take the next argument as the value instead. CLI11's vector form takes the arguments
  // last first.
  std::vector<std::string> arguments;
  for (int i = argc - 1; i >= 1; --i) {
    const std::string_view argument = argv[i];
    if (argument.starts_with("--") && argument.size() > 3 && argument.ends_with('=') &&
        argument.find('=') == argument.size() - 1) {
      arguments.emplace_back();
      arguments.emplace_back(argument.substr(0, argument.size() - 1));
    } else {
      arguments.emplace_back(argument);
    }
  }
  try {
    app.parse(arguments);
  } catch (const CLI::CallForHelp&) {
    return {std::nullopt, {}, 0, app.help()};
  } catch (const CLI::ParseError& error) {
    return {std::nullopt, {}, 2, usage_error(app, error)};
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
  // The SDK's thinking switches, in nib's levels: "adaptive" is the model's default.
  if (options.thinking == "adaptive") options.thinking.reset();
  if (options.thinking == "disabled") options.thinking = "off";
  return {options, std::move(subcommand), 0, {}};
}

}  // namespace nib::app
