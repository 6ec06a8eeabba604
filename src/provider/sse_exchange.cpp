#include "provider/sse_exchange.hpp"

#include <vector>

#include "provider/service_error.hpp"
#include "util/byte_size.hpp"

namespace nib::provider {
namespace {

std::string http_error_message(const net::HttpStreamResult& result, const std::string& url,
                               const std::string& detail) {
  std::string message = "HTTP " + std::to_string(result.status) + " from " + url + ": " + detail;
  if (const std::string retry_after = result.header("retry-after"); !retry_after.empty()) {
    message += " (Retry-After: " + retry_after + ")";
  }
  return message;
}

}  // namespace

StreamAssembler::StreamAssembler(core::DeltaSink on_delta) : reply_(std::move(on_delta)) {}

bool StreamAssembler::consume(const net::SseEvent& event) {
  if (ended_) return false;
  saw_events_ = true;
  ended_ = !read_event(event);
  if (reply_.over_limit() && error_.empty()) error_ = reply_.limit_error();
  ended_ = ended_ || !error_.empty();
  return !ended_;
}

std::string endpoint_url(std::string base_url, std::string_view path) {
  while (!base_url.empty() && base_url.back() == '/') base_url.pop_back();
  return base_url + std::string(path);
}

core::AssistantMessage exchange_sse(const net::HttpRequest& request, const ReplySource& source,
                                    std::stop_token stop, net::ConnectionPool& pool,
                                    StreamAssembler& assembler) {
  net::SseParser parser;
  std::string body_start;  // quoted when a successful reply turns out not to be a stream
  // Once the assembler has asked for nothing more, nothing more reaches it: not the rest of
  // the events of the same read, nor the leftover partial line at the end of the transfer
  // (bytes after the protocol's end event, a "[DONE]", a second body).
  bool assembler_ended = false;
  std::string oversized_event;  // set when an event outgrew the parser's limit
  const auto deliver = [&](const std::vector<net::SseEvent>& events) {
    for (const net::SseEvent& event : events) {
      if (!assembler.consume(event)) {
        assembler_ended = true;
        return;
      }
    }
  };
  const net::HttpStreamResult result = net::http_post_stream(
      request, stop,
      [&](std::string_view bytes) {
        if (body_start.size() < net::kErrorBodyExcerptBytes) {
          body_start.append(bytes.substr(0, net::kErrorBodyExcerptBytes - body_start.size()));
        }
        deliver(parser.feed(bytes));
        // A complete reply is left to end normally, keeping its connection for the next turn.
        if (assembler_ended) {
          return assembler.complete() ? net::BodyAction::kComplete : net::BodyAction::kStop;
        }
        if (parser.overflowed()) {
          oversized_event = "the service sent a stream event larger than " +
                            util::format_byte_size(parser.max_event_bytes()) +
                            ", so nib stopped reading the stream";
          return net::BodyAction::kStop;
        }
        return net::BodyAction::kContinue;
      },
      &pool);
  const bool ended_cleanly = !result.aborted && !result.stopped_by_callback &&
                             result.transport_error.empty() && result.status < 400;
  if (ended_cleanly && !assembler_ended) deliver(parser.finish());

  core::AssistantMessage message = assembler.take_message();
  message.model = source.model;
  message.api = source.api;
  const std::string& url = request.url;
  if (result.aborted) {
    message.stop_reason = core::StopReason::kAborted;
  } else if (result.status >= 400) {
    const std::string detail = error_detail(result.error_body);
    fail_message(message, http_error_message(result, url, detail),
                 http_error_kind(result.status, detail));
    message.retry_after = retry_after_of(result);
  } else if (!oversized_event.empty()) {
    fail_message(message, oversized_event, core::ErrorKind::kOther);
  } else if (!assembler.error().empty()) {
    fail_message(message, assembler.error(), assembler.error_kind());
  } else if (assembler.complete()) {
    // A transport failure after the reply was whole (a reset instead of the final event) loses
    // nothing.
  } else if (!result.transport_error.empty()) {
    if (assembler.saw_events()) {
      fail_message(message, "stream ended before the reply was complete: " + result.transport_error,
                   core::ErrorKind::kOther);
    } else {
      fail_message(message, "request to " + url + " failed: " + result.transport_error,
                   core::ErrorKind::kConnection);
    }
  } else if (!assembler.saw_events()) {
    const std::string content_type = result.header("content-type");
    fail_message(message,
                 "the service at " + url + " did not reply with an event stream (HTTP " +
                     std::to_string(result.status) + ", content-type " +
                     (content_type.empty() ? "none" : content_type) +
                     "): " + error_detail(body_start),
                 core::ErrorKind::kOther);
  } else {
    fail_message(message, "stream ended before the reply was complete", core::ErrorKind::kOther);
  }
  return message;
}

}  // namespace nib::provider
