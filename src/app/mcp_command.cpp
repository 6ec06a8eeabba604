#include "app/mcp_command.hpp"

#include <unistd.h>

#include <algorithm>

#include "app/mcp_setup.hpp"
#include "mcp/approval_store.hpp"
#include "mcp/json_file.hpp"
#include "mcp/status_report.hpp"
#include "mcp/tool_server.hpp"
#include "tools/builtin.hpp"

namespace nib::app {
namespace {

constexpr const char* kUsage =
    "usage: nib mcp list | get NAME | add NAME [--scope user|project] [-e K=V]... -- COMMAND "
    "[ARGS...] | add NAME --url URL [--header 'K: V']... | remove NAME [--scope user|project] | "
    "approve NAME | serve [--ask TOOLS]";

// The tools `nib mcp serve` offers: those that act on files and commands in the directory.
const std::vector<std::string> kServedTools = {"read", "bash", "edit", "write",
                                               "grep", "find", "ls"};

int usage(std::ostream& err, const std::string& problem) {
  err << "nib mcp: " << problem << "\n" << kUsage << '\n';
  return 2;
}

// Starts the servers as a run would, waits until each is ready or failed, and returns them.
util::Result<McpStart> started(const RunContext& context, core::ToolRegistry& registry,
                               std::stop_token stop) {
  auto start = start_mcp_servers(CliOptions{}, context, registry);
  if (start.ok() && start.value().servers) start.value().servers->wait_settled(stop);
  return start;
}

int list(const RunContext& context, std::stop_token stop, std::ostream& out, std::ostream& err) {
  auto registry = core::ToolRegistry::create({}, {});
  auto start = started(context, *registry.value(), stop);
  if (!start.ok()) {
    err << "nib: " << start.error() << '\n';
    return 1;
  }
  for (const std::string& notice : start.value().notices) err << "nib: " << notice << '\n';
  if (!start.value().servers) {
    out << mcp::kNoServersConfigured << '\n';
    return 0;
  }
  for (const mcp::ServerStatus& status : start.value().servers->statuses()) {
    out << mcp::status_line(status) << '\n';
  }
  return 0;
}

int get(const std::string& name, const RunContext& context, std::stop_token stop, std::ostream& out,
        std::ostream& err) {
  auto catalog = find_mcp_servers(*context.configuration, context.user_config_dir, context.cwd, {});
  if (!catalog.ok()) {
    err << "nib: " << catalog.error() << '\n';
    return 1;
  }
  const auto& servers = catalog.value().servers;
  const auto config = std::find_if(servers.begin(), servers.end(),
                                   [&](const auto& server) { return server.name == name; });
  if (config == servers.end()) {
    err << "nib: no MCP server is named " << name << " (nib mcp list shows them)\n";
    return 1;
  }
  out << name << " (" << config->file.string() << ")\n" << mcp::to_json(*config).dump(2) << '\n';
  auto registry = core::ToolRegistry::create({}, {});
  auto start = started(context, *registry.value(), stop);
  if (!start.ok() || !start.value().servers) return 1;
  for (const mcp::ServerStatus& status : start.value().servers->statuses()) {
    if (status.name != name) continue;
    out << "state: " << mcp::state_name(status.state) << '\n';
    if (!status.detail.empty()) out << status.detail << (status.detail.ends_with('\n') ? "" : "\n");
  }
  for (const std::string& tool : registry.value()->names()) {
    if (tool.starts_with("mcp__" + name + "__")) out << "  " << tool << '\n';
  }
  return 0;
}

util::Result<std::filesystem::path> scope_file(const std::string& scope,
                                               const RunContext& context) {
  if (scope == "user") return user_mcp_file(context.user_config_dir);
  if (scope == "project") return project_mcp_file(context.cwd);
  return util::Result<std::filesystem::path>::failure("--scope is user or project, not " + scope);
}

int add(const std::vector<std::string>& args, const RunContext& context, std::ostream& out,
        std::ostream& err) {
  if (args.size() < 2) return usage(err, "add needs a NAME");
  const std::string& name = args[1];
  std::string scope = "user";
  nlohmann::json entry = nlohmann::json::object();
  nlohmann::json env = nlohmann::json::object();
  nlohmann::json headers = nlohmann::json::object();
  std::size_t i = 2;
  for (; i < args.size(); ++i) {
    const std::string& word = args[i];
    const bool has_value = i + 1 < args.size();
    if (word == "--") break;
    if (!has_value) return usage(err, word + " needs a value");
    const std::string& value = args[++i];
    if (word == "--scope") {
      scope = value;
    } else if (word == "--url") {
      entry["type"] = "http";
      entry["url"] = value;
    } else if (word == "-e" || word == "--env") {
      const std::size_t equals = value.find('=');
      if (equals == std::string::npos) return usage(err, "-e takes NAME=VALUE, not " + value);
      env[value.substr(0, equals)] = value.substr(equals + 1);
    } else if (word == "--header") {
      const std::size_t colon = value.find(':');
      if (colon == std::string::npos) return usage(err, "--header takes 'NAME: VALUE'");
      const std::size_t start = value.find_first_not_of(' ', colon + 1);
      headers[value.substr(0, colon)] = start == std::string::npos ? "" : value.substr(start);
    } else {
      return usage(err, "unknown option " + word);
    }
  }
  if (i < args.size()) {  // after "--": the command
    if (entry.contains("url")) return usage(err, "give either --url or -- COMMAND, not both");
    if (i + 1 >= args.size()) return usage(err, "-- must be followed by the command");
    entry["command"] = args[i + 1];
    entry["args"] = std::vector<std::string>(args.begin() + static_cast<long>(i) + 2, args.end());
    if (!env.empty()) entry["env"] = env;
  } else if (!entry.contains("url")) {
    return usage(err, "add needs -- COMMAND [ARGS...] or --url URL");
  } else if (!headers.empty()) {
    entry["headers"] = headers;
  }
  const auto file = scope_file(scope, context);
  if (!file.ok()) return usage(err, file.error());
  // Checked as a run would read it, so what is written is known to work.
  const auto parsed = mcp::parse_servers({{name, entry}}, file.value(), false);
  if (!parsed.ok()) {
    err << "nib: " << parsed.error() << '\n';
    return 2;
  }
  auto document = mcp::read_json_file(file.value());
  if (!document.ok()) {
    err << "nib: " << document.error() << '\n';
    return 1;
  }
  const bool replaced = document.value()["mcpServers"].contains(name);
  document.value()["mcpServers"][name] = entry;
  const util::Status written = mcp::write_json_file(file.value(), document.value());
  if (!written.ok()) {
    err << "nib: " << written.error() << '\n';
    return 1;
  }
  out << (replaced ? "Replaced" : "Added") << " the MCP server " << name << " in "
      << file.value().string() << '\n';
  return 0;
}

int remove(const std::vector<std::string>& args, const RunContext& context, std::ostream& out,
           std::ostream& err) {
  if (args.size() != 2 && !(args.size() == 4 && args[2] == "--scope")) {
    return usage(err, "remove takes NAME [--scope user|project]");
  }
  std::vector<std::filesystem::path> files;
  if (args.size() == 4) {
    const auto file = scope_file(args[3], context);
    if (!file.ok()) return usage(err, file.error());
    files.push_back(file.value());
  } else {
    files = {user_mcp_file(context.user_config_dir), project_mcp_file(context.cwd)};
  }
  for (const auto& file : files) {
    auto document = mcp::read_json_file(file);
    if (!document.ok() || !document.value().contains("mcpServers") ||
        !document.value()["mcpServers"].is_object() ||
        document.value()["mcpServers"].erase(args[1]) == 0) {
      continue;
    }
    const util::Status written = mcp::write_json_file(file, document.value());
    if (!written.ok()) {
      err << "nib: " << written.error() << '\n';
      return 1;
    }
    out << "Removed the MCP server " << args[1] << " from " << file.string() << '\n';
    return 0;
  }
  err << "nib: no MCP server " << args[1] << " in " << files.front().string()
      << (files.size() > 1 ? " or " + files.back().string() : "")
      << " (one configured in a settings file is removed there)\n";
  return 1;
}

int approve(const std::string& name, const RunContext& context, std::ostream& out,
            std::ostream& err) {
  auto catalog = find_mcp_servers(*context.configuration, context.user_config_dir, context.cwd, {});
  if (!catalog.ok()) {
    err << "nib: " << catalog.error() << '\n';
    return 1;
  }
  for (const mcp::ServerConfig& config : catalog.value().servers) {
    if (config.name != name) continue;
    if (!config.from_project) {
      out << "The MCP server " << name << " is yours (" << config.file.string()
          << "); it needs no approval.\n";
      return 0;
    }
    mcp::ApprovalStore store(approvals_file(context.user_config_dir));
    const util::Status approved = store.approve(context.cwd, name, config.fingerprint);
    if (!approved.ok()) {
      err << "nib: " << approved.error() << '\n';
      return 1;
    }
    out << "Approved the MCP server " << name << " of " << config.file.string()
        << " for this project; it runs from the next start of nib (until its entry changes).\n";
    return 0;
  }
  err << "nib: no MCP server is named " << name << " (nib mcp list shows them)\n";
  return 1;
}

int serve(const std::vector<std::string>& args, const McpGuardFactory& make_guard,
          std::stop_token stop, std::ostream& err) {
  std::vector<std::string> ask;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] != "--ask" || i + 1 >= args.size()) return usage(err, "serve takes [--ask TOOLS]");
    std::string list = args[++i];
    for (std::size_t comma; (comma = list.find(',')) != std::string::npos;) {
      ask.push_back(list.substr(0, comma));
      list.erase(0, comma + 1);
    }
    if (!list.empty()) ask.push_back(list);
  }
  RunGuard* guard = make_guard(CliOptions{.ask = ask});
  if (guard == nullptr) return 2;
  for (const std::string& warning : guard->warnings()) err << "nib: " << warning << '\n';
  auto tools = tools::select_tools(tools::builtin_tools(guard->tool_options()), kServedTools);
  if (!tools.ok()) {
    err << "nib: " << tools.error() << '\n';
    return 2;
  }
  auto registry = core::ToolRegistry::create(std::move(tools.value()), {});
  if (!registry.ok()) {
    err << "nib: " << registry.error() << '\n';
    return 2;
  }
  // Nobody can be asked here: what the rules or the mode would ask about is refused, saying
  // which rule would allow it, as in print mode.
  const mcp::ToolServerOptions options{registry.value().get(), guard->pre_tool(),
                                       guard->gate({}),        guard->after_tool(),
                                       guard->working_tree(),  NIB_VERSION};
  return mcp::serve_tools(options, STDIN_FILENO, STDOUT_FILENO, stop);
}

}  // namespace

int run_mcp_command(const std::vector<std::string>& args, const RunContext& context,
                    const McpGuardFactory& make_guard, std::stop_token stop, std::ostream& out,
                    std::ostream& err) {
  if (args.empty()) return usage(err, "which command?");
  const std::string& command = args[0];
  if (command == "list" && args.size() == 1) return list(context, stop, out, err);
  if (command == "get" && args.size() == 2) return get(args[1], context, stop, out, err);
  if (command == "add") return add(args, context, out, err);
  if (command == "remove") return remove(args, context, out, err);
  if (command == "approve" && args.size() == 2) return approve(args[1], context, out, err);
  if (command == "serve") return serve(args, make_guard, stop, err);
  return usage(err, "unknown command or arguments: " + command);
}

}  // namespace nib::app
