#include "provider/service_error.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <ctime>

#include <nlohmann/json.hpp>

#include "util/json_depth.hpp"
#include "util/text_cut.hpp"
#include "util/utf8.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// A non-negative decimal number of whole units, or nullopt.
std::optional<long long> whole_number(const std::string& text) {
  if (text.empty() || text.size() > 12) return std::nullopt;
  long long value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

// An IMF-fixdate ("Wed, 21 Oct 2015 07:28:00 GMT") as a time point.
std::optional<std::chrono::system_clock::time_point> http_date(const std::string& text) {
  std::tm parts{};
  const char* end = strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &parts);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return std::chrono::system_clock::from_time_t(timegm(&parts));
}

}  // namespace

std::string clip_detail(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) {
    text.remove_suffix(1);
  }
  return util::sanitize_utf8(util::cut_text(text, kErrorDetailBytes));
}

std::string error_detail(const std::string& body) {
  if (body.empty()) return "(empty body)";
  const json parsed = util::parse_untrusted_json(body);
  if (parsed.is_object()) {
    const auto error = parsed.find("error");
    if (error != parsed.end() && error->is_object()) {
      const auto message = error->find("message");
      if (message != error->end() && message->is_string()) {
        return clip_detail(message->get<std::string>());
      }
    }
    if (error != parsed.end() && error->is_string()) return clip_detail(error->get<std::string>());
    for (const char* name : {"message", "detail"}) {
      const auto field = parsed.find(name);
      if (field != parsed.end() && field->is_string()) {
        return clip_detail(field->get<std::string>());
      }
    }
  }
  return clip_detail(body);
}

std::optional<std::chrono::milliseconds> retry_after_of(const net::HttpStreamResult& result,
                                                        std::chrono::system_clock::time_point now) {
  if (const auto ms = whole_number(result.header("retry-after-ms"))) {
    return std::chrono::milliseconds(*ms);
  }
  const std::string value = result.header("retry-after");
  if (const auto seconds = whole_number(value)) return std::chrono::seconds(*seconds);
  if (const auto when = http_date(value)) {
    return std::max(std::chrono::milliseconds(0),
                    std::chrono::duration_cast<std::chrono::milliseconds>(*when - now));
  }
  return std::nullopt;
}

bool mentions_context_overflow(std::string_view text) {
  static constexpr std::array kPhrases = {
      "context_length_exceeded",             // OpenAI error code
      "maximum context length",              // OpenAI, vLLM
      "prompt is too long",                  // Anthropic
      "exceeds the context window",          // OpenAI Responses
      "input is too long",                   // Anthropic (Bedrock wording)
      "exceeds the available context size",  // llama.cpp
      "context window",                      // generic
      "too many tokens",                     // generic
      "context length",                      // Ollama and others
  };
  const std::string folded = lower(text);
  return std::any_of(kPhrases.begin(), kPhrases.end(),
                     [&](const char* phrase) { return folded.find(phrase) != std::string::npos; });
}

core::ErrorKind http_error_kind(long status, std::string_view detail) {
  if (status == 429) {
    // OpenAI answers a 429 also for an exhausted quota, which waiting does not fix.
    return lower(detail).find("quota") != std::string::npos ? core::ErrorKind::kOther
                                                            : core::ErrorKind::kRateLimited;
  }
  if (status == 503 || status == 529) return core::ErrorKind::kOverloaded;
  if (status >= 500) return core::ErrorKind::kServer;
  if (mentions_context_overflow(detail)) return core::ErrorKind::kContextOverflow;
  return core::ErrorKind::kOther;
}

core::ErrorKind stream_error_kind(std::string_view type_and_message) {
  const std::string folded = lower(type_and_message);
  const auto says = [&folded](const char* word) { return folded.find(word) != std::string::npos; };
  if (says("overloaded")) return core::ErrorKind::kOverloaded;
  if (says("rate_limit") || says("rate limit")) return core::ErrorKind::kRateLimited;
  if (mentions_context_overflow(folded)) return core::ErrorKind::kContextOverflow;
  if (says("server_error") || says("api_error") || says("internal error")) {
    return core::ErrorKind::kServer;
  }
  return core::ErrorKind::kOther;
}

void fail_message(core::AssistantMessage& message, std::string error, core::ErrorKind kind) {
  message.stop_reason = core::StopReason::kError;
  // Said plainly, since the cure (a shorter conversation, compaction) is not in the service's
  // words.
  message.error_message =
      kind == core::ErrorKind::kContextOverflow
          ? "the conversation is larger than the model's context window: " + error
          : std::move(error);
  message.error_kind = kind;
}

}  // namespace nib::provider
