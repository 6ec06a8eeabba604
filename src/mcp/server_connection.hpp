#pragma once
// One configured MCP server over its life: connecting (initialize, then its tools and prompts
// listed within the startup timeout), ready, or failed with the reason and the end of its
// stderr. Calls go through the current Client with the call timeout; a server that died is
// restarted once, at the next call, and a call it cannot serve is an error result that says why
// and what to do, never a hang.
//
// Thread-safe: start() runs on a background thread while calls and status() come from others.

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/tool.hpp"
#include "mcp/client.hpp"
#include "mcp/server_config.hpp"
#include "mcp/transport.hpp"

namespace nib::mcp {

enum class ServerState {
  kConnecting,
  kReady,
  kFailed,
  kNotApproved,  // from a project file, not (yet) approved by the user: never started
};

struct ServerStatus {
  std::string name;
  ServerState state = ServerState::kConnecting;
  std::vector<std::string> tools;  // the server's names of the tools registered
  // Failed: why, with the end of its stderr. Ready: tools left out and why. Not approved: how
  // to approve it.
  std::string detail;
  std::string origin;                 // where it is configured (ServerConfig::origin)
  std::vector<ServerPrompt> prompts;  // when it offers the prompts capability
  std::string transport;              // describe_transport (server_config.hpp)
};

// What changed about a server, for whoever keeps its tools and prompts.
enum class ServerChange {
  kState,    // it died (failed), or came back
  kTools,    // it said its tool list changed
  kPrompts,  // it said its prompt list changed
};

// "connecting", "ready", "failed", "not approved".
const char* state_name(ServerState state);

using TransportFactory =
    std::function<util::Result<std::unique_ptr<Transport>>(const ServerConfig& config)>;

struct ConnectionOptions {
  std::chrono::milliseconds startup_timeout;
  std::chrono::milliseconds call_timeout;
  core::Clock* clock = &core::steady_clock();
  // Makes the transport for the (expanded) config; tests hand in their own.
  TransportFactory make_transport;
};

// The real transports: stdio (the program found in PATH, run in cwd with `base_environment`
// plus the config's env) or streamable HTTP.
TransportFactory real_transports(std::filesystem::path cwd,
                                 std::vector<std::string> base_environment);

class ServerConnection {
 public:
  // `config` expanded already (expand_config); its own timeouts win over `options`'.
  ServerConnection(ServerConfig config, ConnectionOptions options);

  // Connects and lists tools, and prompts when the server offers them (a failure to list those
  // leaves it without prompts); the tools, or why the server failed (its state is then kFailed).
  // Called once. `on_change` (optional) hears of every later change.
  util::Result<std::vector<ServerTool>> start(std::stop_token stop);
  void set_on_change(std::function<void(ServerChange)> on_change);

  // tools/call for `tool` with `args`, mapped for the model (call_result.hpp).
  core::ToolOutput call_tool(const std::string& tool, const nlohmann::json& args,
                             std::stop_token stop);
  // tools/list again (after notifications/tools/list_changed).
  util::Result<std::vector<ServerTool>> list_tools(std::stop_token stop);
  // prompts/list again (after notifications/prompts/list_changed), into status().prompts.
  util::Status list_prompts(std::stop_token stop);
  // prompts/get: the content of the prompt's messages, of every role, in order and mapped as a
  // tool result's (call_result.hpp), or why not.
  util::Result<core::Content> get_prompt(const std::string& prompt, const nlohmann::json& args,
                                         std::stop_token stop);

  ServerStatus status() const;
  const ServerConfig& config() const { return config_; }
  // Stops the server for good (nib is ending): later calls fail at once; a call in flight ends
  // with the connection.
  void shutdown();
  // The tools registered (the server's names) and those left out, and why.
  void set_tools(std::vector<std::string> names, std::string left_out);

 private:
  // A connected client: the current one, or after a crash a new one (once); or why none.
  util::Result<std::shared_ptr<Client>> live_client(std::stop_token stop);
  util::Result<std::shared_ptr<Client>> connect(std::stop_token stop);
  void fail(std::string reason);
  std::string with_stderr(const std::string& reason, const Client& client) const;

  const ServerConfig config_;
  const ConnectionOptions options_;
  mutable std::mutex mutex_;
  std::mutex connect_mutex_;  // one (re)connection at a time
  ServerStatus status_;
  int restarts_left_ = 1;
  bool offers_prompts_ = false;  // the prompts capability, from its initialize answer
  std::function<void(ServerChange)> on_change_;
  // Last, so it is destroyed first: its transport's threads call back into the members above
  // until ~Client has joined them.
  std::shared_ptr<Client> client_;
};

}  // namespace nib::mcp
