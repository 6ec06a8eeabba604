#pragma once
// One streaming request to a model service, whatever its wire protocol: POST the body, parse
// the reply as server-sent events, feed them to the protocol's assembler, and afterwards say
// how the exchange ended (finished, aborted, HTTP error, broken stream ...) on the assembled
// message. Each protocol supplies only its request body and its assembler.
//
// Thread-safety: exchange_sse may run on several threads at once with separate assemblers.

#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/messages.hpp"
#include "net/http_stream.hpp"
#include "net/sse_parser.hpp"

namespace nib::provider {

// The protocol-specific half of an exchange: turns events into an AssistantMessage.
class StreamAssembler {
 public:
  virtual ~StreamAssembler() = default;
  // Consumes one event. Returns false when nothing more should be read: the reply is complete
  // (complete() is true) or the stream reported an error or sent something unreadable
  // (error() says what). Once it returned false, exchange_sse feeds it nothing more, and
  // assemblers ignore (return false for) any event fed after that anyway.
  virtual bool consume(const net::SseEvent& event) = 0;
  // True once the reply is known to be whole.
  virtual bool complete() const = 0;
  // A failure reported by or found in the stream; empty when none.
  virtual const std::string& error() const = 0;
  // The kind of that failure (e.g. an "overloaded" error event is kOverloaded).
  virtual core::ErrorKind error_kind() const { return core::ErrorKind::kOther; }
  // True once any event was consumed.
  virtual bool saw_events() const = 0;
  // The message assembled so far; stop_reason follows the service when complete().
  virtual core::AssistantMessage take_message() = 0;
};

// `base_url` (trailing slashes dropped) followed by `path` ("/chat/completions").
std::string endpoint_url(std::string base_url, std::string_view path);

// Makes assembled tool calls usable: a call whose arguments stayed empty gets "{}" (services
// stream no arguments for a tool without parameters), and one without an id gets
// "call_<position among the calls>" so that its result can refer to it.
void complete_tool_calls(std::vector<core::AssistantBlock>& blocks);

// Posts `request` (through `pool`), streams the reply into `assembler` and returns its message
// with the outcome applied:
// - aborted by `stop`: kAborted, keeping what arrived;
// - HTTP >= 400: kError "HTTP <status> from <url>: <service message>", its kind and Retry-After;
// - an error in the stream: kError with the assembler's message and kind;
// - a transport failure before any event: kError kConnection "request to <url> failed: ...";
// - a stream that ends early: kError "stream ended before the reply was complete";
// - an event larger than kMaxSseEventBytes: kError naming the limit;
// - a successful reply that is not an event stream: kError naming its content type.
// A transport failure after the reply was complete loses nothing, and neither do bytes that
// follow the protocol's end event: they are never read.
core::AssistantMessage exchange_sse(const net::HttpRequest& request, std::stop_token stop,
                                    net::ConnectionPool& pool, StreamAssembler& assembler);

}  // namespace nib::provider
