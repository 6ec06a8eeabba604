#pragma once
// The MCP servers of one nib process: each started on a background thread of its own, all at
// once, so none delays the first prompt; a server's tools join the tool registry as soon as it
// is ready (offered from the next model request on), and the registry's note names the servers
// still connecting, failed or not approved, so the model is told instead of finding tools
// missing. A server that says its tools changed is listed again and its new tools added; one
// that says its prompts changed has them listed again. A server the user approves later (the
// interactive mode's question) starts at once, joining the others.
//
// Thread-safe: statuses(), find() and wait_settled() may be called from any thread; start() and
// start_approved() from the owner's. The registry must outlive the set; the destructor stops the
// background threads and the servers.

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "core/tool_registry.hpp"
#include "mcp/server_connection.hpp"

namespace nib::mcp {

struct ServerSetOptions {
  core::ToolRegistry* registry = nullptr;
  ConnectionOptions connection;
  VariableLookup variables;  // for ${VAR} in the configs
  // Called (from a background thread) after any server's state changed.
  std::function<void()> on_change;
};

class ServerSet {
 public:
  // `servers` to start; `not_approved` are only shown (kNotApproved, with how to approve).
  ServerSet(std::vector<ServerConfig> servers, std::vector<ServerStatus> not_approved,
            ServerSetOptions options);
  ~ServerSet();
  ServerSet(const ServerSet&) = delete;
  ServerSet& operator=(const ServerSet&) = delete;

  // Starts every server on its own thread and returns at once. From then on a call to a tool
  // of a server still connecting ("mcp__<server>__...") waits until that server is ready or
  // failed (the registry's awaiter), instead of failing as an unknown tool.
  void start();
  // Adds `config`, a server shown as not approved until now (its status is dropped): the user
  // approved it. Started at once on a thread of its own (after start(); before, with the rest).
  void start_approved(ServerConfig config);
  // Blocks until no server is connecting any more or `stop` fires (tests, `nib mcp list`).
  void wait_settled(std::stop_token stop);
  // Blocks while the server that the tool or prompt `name` ("mcp__<server>__...") belongs to
  // is connecting, until `stop` fires (the registry's awaiter; a prompt command in print mode);
  // false when no server has that name's prefix.
  bool await_server_of(const std::string& name, std::stop_token stop = {});

  std::vector<ServerStatus> statuses() const;
  // The connection of the server named `name`, or nullptr.
  std::shared_ptr<ServerConnection> find(const std::string& name) const;

 private:
  struct Entry {
    std::shared_ptr<ServerConnection> connection;  // null when the config could not be expanded
    ServerStatus failed_early;                     // its status then
    bool relist_tools = false;
    bool relist_prompts = false;
    std::jthread thread;
  };
  std::unique_ptr<Entry> make_entry(ServerConfig config) const;
  // Starts the entry's thread (the set's mutex not held).
  void launch(Entry& entry);
  void run(Entry& entry, std::stop_token stop);
  // Registers the tools not yet registered; the count registered and what was left out.
  void register_tools(Entry& entry, const std::vector<ServerTool>& tools);
  void changed();
  // The registry's note from the current statuses.
  void update_note();

  ServerSetOptions options_;
  mutable std::mutex mutex_;  // guards the two lists (start_approved changes them) and the flags
  std::vector<ServerStatus> not_approved_;
  std::vector<std::unique_ptr<Entry>> entries_;
  bool started_ = false;
  std::condition_variable changed_;
  std::uint64_t generation_ = 0;  // counts changes, so wait_settled misses none
};

// The note for the model: which servers' tools are not there and why; "" when all are ready.
std::string unavailable_servers_note(const std::vector<ServerStatus>& statuses);

}  // namespace nib::mcp
