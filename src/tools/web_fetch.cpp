#include "tools/web_fetch.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "tools/limits.hpp"
#include "tools/os_argument.hpp"
#include "tools/web_content.hpp"
#include "tools/web_url.hpp"
#include "util/ascii.hpp"
#include "util/byte_size.hpp"
#include "util/fd_io.hpp"

namespace nib::tools {
namespace {

using core::ToolOutput;
using nlohmann::json;

// Characters of an HTTP error's body shown with the error: enough for a service's message.
constexpr std::size_t kErrorExcerptChars = 1000;
// A cut text ends at a line break when one is this close to the limit, so that the last line
// shown is whole.
constexpr std::size_t kLineBreakSearchChars = 2000;

std::string count_text(std::size_t count) {
  return util::format_count(count);
}

std::string description() {
  return "Fetch an http(s) URL as text: HTML as Markdown-like text, PDFs as text. At most "
         "max_chars characters (default " +
         count_text(kWebFetchDefaultMaxChars) + ", at most " + count_text(kWebFetchMaxChars) +
         "); a longer page's full text is saved to a file the result names: read or grep it "
         "rather than fetching again. Private and local addresses are refused; no cookies or "
         "credentials are sent.";
}

json parameters() {
  return {
      {"type", "object"},
      {"properties",
       {{"url", {{"type", "string"}}},
        {"max_chars", {{"type", "integer"}, {"minimum", 1}, {"maximum", kWebFetchMaxChars}}}}},
      {"required", {"url"}},
  };
}

bool starts_character(char byte) {
  return (static_cast<unsigned char>(byte) & 0xC0) != 0x80;
}

// Characters (code points) of UTF-8 `text`.
std::size_t char_count(std::string_view text) {
  std::size_t count = 0;
  for (const char c : text) count += starts_character(c) ? 1 : 0;
  return count;
}

// The byte length of the first `chars` characters of `text`, moved back to just after a line
// break when one is in the last tenth of them (and at most kLineBreakSearchChars back).
std::size_t cut_length(std::string_view text, std::size_t chars) {
  std::size_t length = 0;
  for (std::size_t seen = 0; length < text.size(); ++length) {
    if (starts_character(text[length]) && seen++ == chars) break;
  }
  if (length == 0 || length == text.size()) return length;
  const std::size_t newline = text.rfind('\n', length - 1);
  if (newline != std::string_view::npos &&
      length - newline <= std::min(kLineBreakSearchChars, length / 10)) {
    return newline + 1;
  }
  return length;
}

// Saves `text` in a new log; its path, or the reason it could not be saved.
util::Result<std::filesystem::path> save_text(const WebFetchOptions& options,
                                              std::string_view text) {
  using Result = util::Result<std::filesystem::path>;
  auto log = options.create_log("web_fetch");
  if (!log.ok()) return Result::failure(log.error());
  if (!util::write_all(log.value().fd.get(), text)) {
    return Result::failure("cannot write " + log.value().path.string() + ": " +
                           std::strerror(errno));
  }
  return log.value().path;
}

std::string header(const FetchOutcome& fetched, const WebContent& content) {
  std::string text = "URL: " + fetched.chain.back();
  if (fetched.chain.size() > 1) text += "\nRedirected from: " + fetched.chain.front();
  text += "\nType: " + (content.mime.empty() ? std::string("unknown") : content.mime) + ", " +
          (fetched.cut ? "more than " : "") + util::format_byte_size(fetched.body.size());
  if (!content.title.empty()) text += "\nTitle: " + content.title;
  return text + "\n\n";
}

class WebFetchTool final : public core::Tool {
 public:
  explicit WebFetchTool(WebFetchOptions options)
      : Tool({.name = "web_fetch",
              .description = description(),
              .parameters = parameters(),
              .concurrency_safe = true,
              .access = core::AccessKind::kNetwork}),
        options_(std::move(options)) {}

  // The URL, and its host as the transfer will reach it (libcurl's parser): a URL it cannot
  // parse names no host, and the call fails before it reaches anything.
  core::CallAccess access(const json& args, const core::ToolContext& /*context*/) const override {
    core::CallAccess access;
    if (const auto url = args.find("url"); url != args.end() && url->is_string()) {
      access.url = url->get<std::string>();
      if (auto parsed = parse_web_url(access.url); parsed.ok()) {
        access.host = util::ascii_lower(parsed.value().host);
      }
    }
    return access;
  }

  ToolOutput execute(const json& args, std::stop_token stop,
                     const core::ToolContext& context) override {
    if (auto refusal = nul_refusal(args, {"url"})) return ToolOutput::error("Error: " + *refusal);
    auto parsed = parse_web_url(args.value("url", ""));
    if (!parsed.ok()) return ToolOutput::error("Error: " + parsed.error());
    std::size_t max_chars = kWebFetchDefaultMaxChars;
    if (const auto given = args.find("max_chars"); given != args.end() && given->is_number()) {
      if (given->get<double>() < 1)
        return ToolOutput::error("Error: max_chars must be at least 1.");
      max_chars = std::min(given->get<std::size_t>(), kWebFetchMaxChars);
    }

    FetchPolicy policy = options_.fetch;
    if (context.check_follow_up) {
      // Each redirect's target is judged as a call fetching it would be.
      policy.check_redirect = [&](const std::string& target) {
        json follow_up = args;
        follow_up["url"] = target;
        return context.check_follow_up(follow_up, stop);
      };
    }
    FetchOutcome fetched = fetch_web_page(parsed.value().url, policy, stop);
    if (!fetched.error.empty()) return failure(fetched, stop);
    const WebContent content =
        web_content({fetched.body, fetched.content_type, fetched.chain.back(), fetched.cut}, stop);
    if (stop.stop_requested()) {
      return ToolOutput::error("Aborted: reading " + fetched.chain.back() + " was stopped.");
    }

    std::string text = header(fetched, content);
    std::vector<std::string> notes = content.notes;
    if (fetched.cut) {
      notes.push_back("The response is larger than " +
                      util::format_byte_size(options_.fetch.max_bytes) + ": only its first " +
                      util::format_byte_size(options_.fetch.max_bytes) +
                      " were downloaded and converted.");
    }
    const std::size_t total = char_count(content.text);
    if (total <= max_chars) {
      text += content.text;
    } else {
      const std::size_t length = cut_length(content.text, max_chars);
      text += content.text.substr(0, length);
      std::string note = "Showing the first " +
                         count_text(char_count(content.text.substr(0, length))) + " of " +
                         count_text(total) + " characters.";
      auto saved = save_text(options_, content.text);
      if (saved.ok()) {
        note += " Full text: " + saved.value().string() + std::string(process::kReadLogHint);
      } else {
        note += " The full text could not be saved: " + saved.error() + ".";
      }
      notes.push_back(std::move(note));
    }
    while (!text.empty() && text.back() == '\n') text.pop_back();
    for (const std::string& note : notes) text += "\n\n[" + note + "]";
    return ToolOutput{text};
  }

  std::string describe_call(const json& args) const override {
    const auto url = args.find("url");
    return url != args.end() && url->is_string() ? url->get<std::string>() : "";
  }

 private:
  // The error for a failed fetch; an HTTP error shows the start of what the server said.
  ToolOutput failure(const FetchOutcome& fetched, std::stop_token stop) const {
    std::string message = "Error: " + fetched.error;
    if (fetched.status >= 400 && !fetched.body.empty()) {
      const WebContent content =
          web_content({fetched.body, fetched.content_type, fetched.chain.back(), true}, stop);
      if (content.kind != WebContentKind::kBinary && !content.text.empty()) {
        message += " The response began:\n\n" +
                   content.text.substr(0, cut_length(content.text, kErrorExcerptChars));
      }
    }
    return ToolOutput::error(message);
  }

  const WebFetchOptions options_;
};

}  // namespace

core::ToolPtr make_web_fetch_tool(WebFetchOptions options) {
  return std::make_shared<WebFetchTool>(std::move(options));
}

}  // namespace nib::tools
