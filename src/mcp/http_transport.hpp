#pragma once
// The streamable HTTP transport (MCP 2025-06-18 and 2025-11-25): every message is POSTed to the
// server's one endpoint, accepting "application/json, text/event-stream"; a request's answer
// comes back as a JSON body or as an SSE stream of messages ending with it; a notification is
// answered 202 with no body. The Mcp-Session-Id the server hands out with initialize's answer
// is sent with every later message, and MCP-Protocol-Version once it is agreed.
//
// Each POST runs on a thread of its own, so a long call never holds up another message and a
// cancelled request's stream is ended (abandon). An HTTP or connection failure answers the
// request with an error response (no_answer); a 404 once a session exists means the server
// forgot it: the connection is closed (on_closed) so that the client reconnects. Not done: the
// optional GET stream for server-initiated messages, and DELETE of the session at close.
//
// Thread-safe (see transport.hpp).

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "mcp/transport.hpp"

namespace nib::mcp {

struct HttpEndpoint {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;  // e.g. Authorization (expanded)
  std::string label;                                         // the server's name, for messages
};

std::unique_ptr<Transport> make_http_transport(HttpEndpoint endpoint);

}  // namespace nib::mcp
