#pragma once
// An MCP client for one server connection: the lifecycle (initialize, then
// notifications/initialized), requests with a deadline and a stop token (either sends
// notifications/cancelled and returns at once), tools/list and prompts/list with pagination,
// and the server's own messages (ping is answered; notifications/tools/list_changed and
// notifications/prompts/list_changed are passed on; other requests are refused as not
// supported). When the connection closes (the server
// died), every request in flight fails at once with the reason, and later ones fail too: the
// owner reconnects with a new Client (server_connection.hpp).
//
// Thread-safe: requests may be made from several threads at once.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock.hpp"
#include "mcp/transport.hpp"
#include "util/result.hpp"

namespace nib::mcp {

struct ServerHello {
  std::string protocol_version;
  std::string server_name;
  std::string server_version;
  std::string instructions;
  bool has_tools = false;
  bool has_prompts = false;
};

struct ServerTool {
  std::string name;
  std::string title;
  std::string description;
  nlohmann::json input_schema;
  bool read_only = false;  // annotations.readOnlyHint
};

struct PromptArgument {
  std::string name;
  std::string description;
  bool required = false;
};

struct ServerPrompt {
  std::string name;
  std::string description;
  std::vector<PromptArgument> arguments;
};

// Why a request failed; `message` is written for the model and for people.
struct RequestFailure {
  enum class Kind {
    kError,     // the server answered with an error
    kTimedOut,  // no answer within the time allowed (the server was asked to cancel)
    kStopped,   // the stop token fired (the server was asked to cancel)
    kClosed,    // the connection closed before the answer (the server died)
  };
  Kind kind = Kind::kError;
  std::string message;
};

class Client {
 public:
  explicit Client(std::unique_ptr<Transport> transport, core::Clock& clock = core::steady_clock());
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Opens the transport and runs the initialize handshake, within `timeout`.
  util::Result<ServerHello> connect(std::stop_token stop, std::chrono::milliseconds timeout);

  // One request and its result; on failure `failure` (when given) says what kind it was.
  util::Result<nlohmann::json> request(const std::string& method, nlohmann::json params,
                                       std::stop_token stop, std::chrono::milliseconds timeout,
                                       RequestFailure* failure = nullptr);

  // Every page of tools/list (at most kMaxListPages).
  util::Result<std::vector<ServerTool>> list_tools(std::stop_token stop,
                                                   std::chrono::milliseconds timeout);
  // Every page of prompts/list.
  util::Result<std::vector<ServerPrompt>> list_prompts(std::stop_token stop,
                                                       std::chrono::milliseconds timeout);

  // Called (on a transport thread) when the server says its tool or prompt list changed.
  enum class ListKind { kTools, kPrompts };
  void set_on_list_changed(std::function<void(ListKind)> callback);
  // Called (on a transport thread) once, when the connection closes by itself.
  void set_on_closed(std::function<void(const std::string& reason)> callback);

  // True once the connection closed by itself; closed_reason() says why.
  bool closed() const;
  std::string closed_reason() const;
  // The transport's diagnostics (the end of the server's stderr, skipped stdout lines).
  std::string diagnostics() const;

 private:
  struct Pending {
    std::optional<Incoming> response;
  };
  void on_message(Incoming message);
  void on_closed(const std::string& reason);
  // The next page of a list request: its items and the cursor of the one after.
  util::Result<nlohmann::json> list_page(const std::string& method, const std::string& cursor,
                                         std::stop_token stop, std::chrono::milliseconds timeout);
  template <typename Item>
  util::Result<std::vector<Item>> list_all(const std::string& method, const char* field,
                                           Item (*parse)(const nlohmann::json&),
                                           std::stop_token stop, std::chrono::milliseconds timeout);

  std::unique_ptr<Transport> transport_;
  core::Clock& clock_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::int64_t next_id_ = 1;
  std::map<std::int64_t, Pending> pending_;
  bool closed_ = false;
  std::string closed_reason_;
  std::function<void(ListKind)> on_list_changed_;
  std::function<void(const std::string&)> on_closed_callback_;
};

}  // namespace nib::mcp
