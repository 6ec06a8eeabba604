#include "app/mcp_command.hpp"

#include <unistd.h>

#include <algorithm>

#include "app/mcp_setup.hpp"
#include "mcp/approval_store.hpp"
#include "mcp/scoped_servers.hpp"
#include "mcp/status_report.hpp"
#include "mcp/tool_server.hpp"
#include "process/json_file.hpp"
#include "tools/builtin.hpp"
#include "util/json_depth.hpp"
#include "util/json_text.hpp"

namespace nib::app {
namespace {

// The tools `nib mcp serve` offers: those that act on files and commands in the directory;
// apply_patch too, for a client whose model edits with patches (its input is the patch).
const std::vector<std::string> kServedTools = {"read",        "bash", "edit", "write",
                                               "apply_patch", "grep", "find", "ls"};

// Starts the servers as a run with `flags` would, waits until each is ready or failed, and
// returns them.
util::Result<McpStart> started(const CliOptions& flags, const RunContext& context,
                               core::ToolRegistry& registry, std::stop_token stop) {
  auto start = start_mcp_servers(flags, context, registry);
  if (start.ok() && start.value().servers) start.value().servers->wait_settled(stop);
  return start;
}

int list(const CliOptions& flags, const RunContext& context, std::stop_token stop,
         std::ostream& out, std::ostream& err) {
  auto registry = core::ToolRegistry::create({}, {});
  auto start = started(flags, context, *registry.value(), stop);
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

int get(const std::string& name, const CliOptions& flags, const RunContext& context,
        std::stop_token stop, std::ostream& out, std::ostream& err) {
  auto catalog = find_mcp_servers(context, flags.mcp_config);
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
  auto registry = core::ToolRegistry::create({}, {});
  auto start = started(flags, context, *registry.value(), stop);
  std::vector<mcp::ServerStatus> statuses;
  if (start.ok() && start.value().servers) statuses = start.value().servers->statuses();
  const auto status = std::find_if(statuses.begin(), statuses.end(),
                                   [&](const auto& server) { return server.name == name; });
  // The status's origin also says where a project's server was approved.
  out << name << "  " << (status != statuses.end() ? status->origin : config->origin) << '\n'
      << util::json_text(mcp::to_json(*config), 2) << '\n';
  if (status == statuses.end()) return 1;
  out << "state: " << mcp::state_name(status->state) << '\n';
  if (!status->detail.empty()) {
    out << status->detail << (status->detail.ends_with('\n') ? "" : "\n");
  }
  for (const std::string& tool : registry.value()->names()) {
    if (tool.starts_with("mcp__" + name + "__")) out << "  " << tool << '\n';
  }
  return 0;
}

// Where a scope's servers are kept: the file, and for local scope the project whose entry in it
// holds them (mcp/scoped_servers.hpp).
struct ScopePlace {
  std::filesystem::path file;
  std::optional<std::filesystem::path> project;
};

ScopePlace scope_place(McpScope scope, const RunContext& context) {
  switch (scope) {
    case McpScope::kProject:
      return {mcp::project_servers_file(context.cwd), std::nullopt};
    case McpScope::kLocal:
      return {mcp::user_servers_file(context.user_config_dir), context.cwd};
    case McpScope::kUser:
      break;
  }
  return {mcp::user_servers_file(context.user_config_dir), std::nullopt};
}

// "/home/me/.config/nib/mcp.json", with " for /work/p only (local scope)" when it is.
std::string place_text(const ScopePlace& place) {
  return place.file.string() +
         (place.project ? " for " + place.project->string() + " only (local scope)" : "");
}

// The server's entry as the MCP files write it: a command with its arguments and environment,
// or a server's URL and headers.
nlohmann::json entry_of(const McpAddArgs& args) {
  nlohmann::json entry = nlohmann::json::object();
  if (args.url) {
    entry["type"] = args.sse ? "sse" : "http";
    entry["url"] = *args.url;
    nlohmann::json headers = nlohmann::json::object();
    for (const auto& [name, value] : args.headers) headers[name] = value;
    if (!headers.empty()) entry["headers"] = headers;
    return entry;
  }
  entry["command"] = args.command.front();
  entry["args"] = std::vector<std::string>(args.command.begin() + 1, args.command.end());
  nlohmann::json env = nlohmann::json::object();
  for (const auto& [name, value] : args.env) env[name] = value;
  if (!env.empty()) entry["env"] = env;
  return entry;
}

// Writes `entry` as the server `name` of `scope`, replacing one of the same name there.
int write_entry(const std::string& name, const nlohmann::json& entry, McpScope scope,
                const RunContext& context, std::ostream& out, std::ostream& err) {
  const ScopePlace place = scope_place(scope, context);
  // Checked as a run would read it, so what is written is known to work.
  const auto parsed = mcp::parse_servers({{name, entry}}, place.file, false);
  if (!parsed.ok()) {
    err << "nib: " << parsed.error() << '\n';
    return 2;
  }
  auto document = process::read_json_file(place.file);
  if (!document.ok()) {
    err << "nib: " << document.error() << '\n';
    return 1;
  }
  auto servers = mcp::scope_servers(document.value(), place.project);
  if (!servers.ok()) {
    err << "nib: " << place.file.string() << ": " << servers.error() << '\n';
    return 1;
  }
  const bool replaced = servers.value()->contains(name);
  (*servers.value())[name] = entry;
  const util::Status written = process::write_json_file(place.file, document.value());
  if (!written.ok()) {
    err << "nib: " << written.error() << '\n';
    return 1;
  }
  out << (replaced ? "Replaced" : "Added") << " the MCP server " << name << " in "
      << place_text(place) << '\n';
  return 0;
}

int add_json(const McpAddJsonArgs& args, const RunContext& context, std::ostream& out,
             std::ostream& err) {
  const nlohmann::json entry = util::parse_untrusted_json(args.entry);
  if (!entry.is_object()) {
    err << "nib: the entry of " << args.name
        << " must be a JSON object, e.g. '{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"]}'\n";
    return 2;
  }
  return write_entry(args.name, entry, args.scope, context, out, err);
}

// Removes the server `name` of `place`; false when it has none (or cannot be read).
util::Result<bool> remove_from(const ScopePlace& place, const std::string& name) {
  auto document = process::read_json_file(place.file);
  if (!document.ok()) return false;
  auto servers = mcp::scope_servers(document.value(), place.project);
  if (!servers.ok() || servers.value()->erase(name) == 0) return false;
  const util::Status written = process::write_json_file(place.file, document.value());
  if (!written.ok()) return util::Result<bool>::failure(written.error());
  return true;
}

int remove(const McpRemoveArgs& args, const RunContext& context, std::ostream& out,
           std::ostream& err) {
  std::vector<ScopePlace> places;
  if (args.scope) {
    places.push_back(scope_place(*args.scope, context));
  } else {
    for (const McpScope scope : {McpScope::kLocal, McpScope::kUser, McpScope::kProject}) {
      places.push_back(scope_place(scope, context));
    }
  }
  for (const ScopePlace& place : places) {
    const auto removed = remove_from(place, args.name);
    if (!removed.ok()) {
      err << "nib: " << removed.error() << '\n';
      return 1;
    }
    if (!removed.value()) continue;
    out << "Removed the MCP server " << args.name << " from " << place_text(place) << '\n';
    return 0;
  }
  std::string looked;
  for (const ScopePlace& place : places) looked += (looked.empty() ? "" : ", ") + place_text(place);
  err << "nib: no MCP server " << args.name << " in " << looked
      << " (one configured in a settings file or in Claude Code's ~/.claude.json is removed "
         "there)\n";
  return 1;
}

int approve(const std::string& name, const RunContext& context, std::ostream& out,
            std::ostream& err) {
  auto catalog = find_mcp_servers(context, {});
  if (!catalog.ok()) {
    err << "nib: " << catalog.error() << '\n';
    return 1;
  }
  for (const mcp::ServerConfig& config : catalog.value().servers) {
    if (config.name != name) continue;
    if (!config.from_project) {
      out << "The MCP server " << name << " is yours (" << config.origin
          << "); it needs no approval.\n";
      return 0;
    }
    mcp::ApprovalStore store(mcp::approvals_file(context.user_config_dir));
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

int serve(const McpServeArgs& args, CliOptions flags, const McpGuardFactory& make_guard,
          std::stop_token stop, std::ostream& err) {
  flags.ask.insert(flags.ask.end(), args.ask.begin(), args.ask.end());
  RunGuard* guard = make_guard(flags);
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

int run_mcp_command(const McpArgs& args, const CliOptions& flags, const RunContext& context,
                    const McpGuardFactory& make_guard, std::stop_token stop, std::ostream& out,
                    std::ostream& err) {
  if (std::holds_alternative<McpListArgs>(args)) return list(flags, context, stop, out, err);
  if (const auto* got = std::get_if<McpGetArgs>(&args)) {
    return get(got->name, flags, context, stop, out, err);
  }
  if (const auto* added = std::get_if<McpAddArgs>(&args)) {
    return write_entry(added->name, entry_of(*added), added->scope, context, out, err);
  }
  if (const auto* added = std::get_if<McpAddJsonArgs>(&args)) {
    return add_json(*added, context, out, err);
  }
  if (const auto* removed = std::get_if<McpRemoveArgs>(&args)) {
    return remove(*removed, context, out, err);
  }
  if (const auto* approved = std::get_if<McpApproveArgs>(&args)) {
    return approve(approved->name, context, out, err);
  }
  return serve(std::get<McpServeArgs>(args), flags, make_guard, stop, err);
}

}  // namespace nib::app
