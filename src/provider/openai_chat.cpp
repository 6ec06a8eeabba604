#include "provider/openai_chat.hpp"

#include <algorithm>

#include "provider/http_stream.hpp"
#include "provider/openai_chat_stream.hpp"
#include "provider/sse_parser.hpp"
#include "util/utf8.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;

// How much of a service's error text goes into an error message.
constexpr std::size_t kErrorDetailBytes = 1000;

std::string clip(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) {
    text.remove_suffix(1);
  }
  const std::size_t keep = util::utf8_prefix_length(text, kErrorDetailBytes);
  std::string out = util::sanitize_utf8(text.substr(0, keep));
  if (keep < text.size()) out += "...";
  return out;
}

// The service's own explanation from an error body: `error.message` (OpenAI and most
// compatible servers), a string `error`, or `message` / `detail`; otherwise the raw text.
std::string error_detail(const std::string& body) {
  if (body.empty()) return "(empty body)";
  const json parsed = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_object()) {
    const auto error = parsed.find("error");
    if (error != parsed.end() && error->is_object()) {
      const auto message = error->find("message");
      if (message != error->end() && message->is_string()) return clip(message->get<std::string>());
    }
    if (error != parsed.end() && error->is_string()) return clip(error->get<std::string>());
    for (const char* name : {"message", "detail"}) {
      const auto field = parsed.find(name);
      if (field != parsed.end() && field->is_string()) return clip(field->get<std::string>());
    }
  }
  return clip(body);
}

std::string http_error_message(const HttpStreamResult& result, const std::string& url) {
  std::string message = "HTTP " + std::to_string(result.status) + " from " + url + ": " +
                        error_detail(result.error_body);
  if (const std::string retry_after = result.header("retry-after"); !retry_after.empty()) {
    message += " (Retry-After: " + retry_after + ")";
  }
  return message;
}

std::string endpoint(std::string base_url) {
  while (!base_url.empty() && base_url.back() == '/') base_url.pop_back();
  return base_url + "/chat/completions";
}

}  // namespace

OpenAIChatProvider::OpenAIChatProvider(OpenAIChatConfig config)
    : config_(std::move(config)),
      url_(endpoint(config_.base_url)),
      token_limit_field_(token_limit_field_for(config_.base_url)) {}

core::AssistantMessage OpenAIChatProvider::stream(const core::ProviderRequest& request,
                                                  std::stop_token stop,
                                                  const core::DeltaSink& on_delta) {
  HttpRequest http;
  http.url = url_;
  // Invalid UTF-8 in the history (say, from a tool's output) is replaced rather than thrown on.
  http.body = build_chat_request(request, token_limit_field_)
                  .dump(-1, ' ', false, json::error_handler_t::replace);
  http.bearer_token = config_.api_key;
  http.headers = config_.extra_headers;

  SseParser parser;
  ChatStreamAssembler assembler(on_delta);
  std::string body_start;  // quoted when a successful reply turns out not to be a stream
  const HttpStreamResult result = http_post_stream(
      http, stop,
      [&](std::string_view bytes) {
        if (body_start.size() < kErrorBodyExcerptBytes) {
          body_start.append(bytes.substr(0, kErrorBodyExcerptBytes - body_start.size()));
        }
        for (const SseEvent& event : parser.feed(bytes)) {
          // After "[DONE]" the response is left to end normally, keeping its connection.
          if (!assembler.consume(event)) {
            return assembler.complete() ? BodyAction::kComplete : BodyAction::kStop;
          }
        }
        return BodyAction::kContinue;
      },
      &connections_);
  const bool ended_cleanly = !result.aborted && !result.stopped_by_callback &&
                             result.transport_error.empty() && result.status < 400;
  if (ended_cleanly) {
    for (const SseEvent& event : parser.finish()) {
      if (!assembler.consume(event)) break;
    }
  }

  core::AssistantMessage message = assembler.take_message();
  message.model = request.model.id;
  const auto fail = [&message](std::string error) {
    message.stop_reason = core::StopReason::kError;
    message.error_message = std::move(error);
  };
  if (result.aborted) {
    message.stop_reason = core::StopReason::kAborted;
  } else if (result.status >= 400) {
    fail(http_error_message(result, url_));
  } else if (!assembler.error().empty()) {
    fail(assembler.error());
  } else if (assembler.complete()) {
    // A transport failure after the finish_reason (e.g. a reset instead of the final "[DONE]")
    // loses nothing.
  } else if (!result.transport_error.empty()) {
    fail(assembler.saw_events()
             ? "stream ended before the reply was complete: " + result.transport_error
             : "request to " + url_ + " failed: " + result.transport_error);
  } else if (!assembler.saw_events()) {
    std::string content_type = result.header("content-type");
    fail("the service at " + url_ + " did not reply with an event stream (HTTP " +
         std::to_string(result.status) + ", content-type " +
         (content_type.empty() ? "none" : content_type) + "): " + error_detail(body_start));
  } else {
    fail("stream ended before the reply was complete");
  }
  return message;
}

}  // namespace nib::provider
