#pragma once
// How JSON-RPC messages travel between nib and one MCP server: the seam between the client
// (client.hpp) and stdio (stdio_transport.hpp) or streamable HTTP (http_transport.hpp), so the
// client is tested against an in-memory transport.
//
// Thread-safety: send(), abandon() and close() may be called from any thread; the handlers are
// called from the transport's own threads, never while the caller of send() holds a lock of the
// transport's.

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "mcp/json_rpc.hpp"
#include "util/result.hpp"

namespace nib::mcp {

struct TransportHandlers {
  // A message from the server. A transport that cannot deliver a request's answer (an HTTP
  // failure) delivers a synthesized error response for it instead (no_answer), so every
  // request is answered one way or the other.
  std::function<void(Incoming)> on_message;
  // The connection is gone for good (the process exited, the session was refused): why, for
  // people. Called at most once, and not after close().
  std::function<void(const std::string& reason)> on_closed;
};

class Transport {
 public:
  virtual ~Transport() = default;

  // Connects (stdio: starts the server); a failure says why it could not. Called once.
  virtual util::Status open(TransportHandlers handlers) = 0;
  // Sends one message; a failure when it could not be handed over (the server is gone).
  virtual util::Status send(const nlohmann::json& message) = 0;
  // The client no longer waits for the answer to request `id` (cancelled): a transport that
  // holds a stream open for it may end that stream.
  virtual void abandon(const nlohmann::json& /*id*/) {}
  // Ends the connection (stdio: kills the server and waits for it). Idempotent.
  virtual void close() = 0;
  // What the server said on the side, for failure messages: the end of its stderr and the
  // stdout lines that were not JSON-RPC. Empty when there is nothing.
  virtual std::string diagnostics() const { return {}; }
};

}  // namespace nib::mcp
