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

#include <nlohmann/json.hpp>

#include "core/messages.hpp"
#include "net/http_stream.hpp"
#include "net/sse_parser.hpp"
#include "provider/reply_builder.hpp"

namespace nib::provider {

// The protocol-specific half of an exchange: turns events into an AssistantMessage. The base
// holds what every protocol's assembler keeps alike: the reply being built, the failure found,
// and whether the stream has ended for it. Not thread-safe: one assembler belongs to one
// stream, fed from one thread.
class StreamAssembler {
 public:
  // `on_delta` (may be empty) receives the reply's deltas as the stream is consumed.
  explicit StreamAssembler(core::DeltaSink on_delta);
  virtual ~StreamAssembler() = default;

  // Consumes one event. Returns false when nothing more should be read: the protocol's reading
  // of it said so (read_event()), the stream reported an error or sent something unreadable,
  // or the reply grew past kMaxReplyBytes (error() says what). Once it returned false, every
  // event fed after that is ignored (whatever follows the end: a second body, trailing bytes).
  bool consume(const net::SseEvent& event);
  // True once the reply is known to be whole.
  virtual bool complete() const = 0;
  // A failure reported by or found in the stream; empty when none.
  const std::string& error() const { return error_; }
  // The kind of that failure (e.g. an "overloaded" error event is kOverloaded).
  core::ErrorKind error_kind() const { return error_kind_; }
  // True once any event was consumed.
  bool saw_events() const { return saw_events_; }
  // The message assembled so far; stop_reason follows the service when complete().
  virtual core::AssistantMessage take_message() = 0;

 protected:
  // Reads one event into the reply; false when nothing more should be read (the protocol's
  // end, or a failure recorded in error_).
  virtual bool read_event(const net::SseEvent& event) = 0;

  ReplyBuilder reply_;
  std::string error_;
  core::ErrorKind error_kind_ = core::ErrorKind::kOther;

 private:
  bool saw_events_ = false;
  bool ended_ = false;  // consume() returned false: nothing more is read
};

// Who a reply is from, written on the message exchange_sse() returns.
struct ReplySource {
  std::string model;  // the id of the model asked (core::ModelInfo::id)
  const char* api;    // the protocol's AssistantMessage::api, such as kAnthropicApi
};

// `base_url` (trailing slashes dropped) followed by `path` ("/chat/completions").
std::string endpoint_url(std::string base_url, std::string_view path);

// Posts `request` (through `pool`), streams the reply into `assembler` and returns its message,
// labelled with `source`, with the outcome applied:
// - aborted by `stop`: kAborted, keeping what arrived;
// - HTTP >= 400: kError "HTTP <status> from <url>: <service message>", its kind and Retry-After;
// - an error in the stream: kError with the assembler's message and kind;
// - a transport failure before any event: kError kConnection "request to <url> failed: ...";
// - a stream that ends early: kError "stream ended before the reply was complete";
// - an event larger than kMaxSseEventBytes: kError naming the limit;
// - a successful reply that is not an event stream: kError naming its content type.
// A transport failure after the reply was complete loses nothing, and neither do bytes that
// follow the protocol's end event: they are never read.
core::AssistantMessage exchange_sse(const net::HttpRequest& request, const ReplySource& source,
                                    std::stop_token stop, net::ConnectionPool& pool,
                                    StreamAssembler& assembler);

}  // namespace nib::provider
