#include "session/session_summary.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>

#include "session/session_file.hpp"
#include "util/utf8.hpp"

namespace nib::session {
namespace {

constexpr const char* kCutMarker = "…";

// Counts the complete lines of the rest of `in` that begin with kMessageLinePrefix, reading in
// chunks and keeping only each line's first bytes.
std::size_t count_message_lines(std::ifstream& in) {
  const std::string_view prefix = kMessageLinePrefix;
  std::string chunk(kSummaryScanChunkBytes, '\0');
  std::string head;  // the current line's first bytes, up to prefix.size()
  std::size_t count = 0;
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    const auto size = static_cast<std::size_t>(in.gcount());
    std::size_t pos = 0;
    while (pos < size) {
      const void* newline = std::memchr(chunk.data() + pos, '\n', size - pos);
      const std::size_t end =
          newline == nullptr
              ? size
              : static_cast<std::size_t>(static_cast<const char*>(newline) - chunk.data());
      if (head.size() < prefix.size()) {
        head.append(chunk, pos, std::min(prefix.size() - head.size(), end - pos));
      }
      if (newline == nullptr) break;  // the line goes on in the next chunk
      if (head == prefix) ++count;
      head.clear();
      pos = end + 1;
    }
  }
  return count;
}

}  // namespace

std::string prompt_preview(const std::string& text, std::size_t max_bytes) {
  std::string_view rest = text;
  std::string_view line;
  while (!rest.empty()) {
    const std::size_t newline = rest.find('\n');
    line = rest.substr(0, newline);
    rest = newline == std::string_view::npos ? std::string_view() : rest.substr(newline + 1);
    const auto first = line.find_first_not_of(" \t\r\f\v");
    if (first == std::string_view::npos) {
      line = {};
      continue;
    }
    line = line.substr(first, line.find_last_not_of(" \t\r\f\v") - first + 1);
    break;
  }
  std::string out = util::sanitize_utf8(line);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  if (out.size() <= max_bytes) return out;
  out.resize(util::utf8_prefix_length(out, max_bytes));
  return out + kCutMarker;
}

SessionSummary summarize_session(const std::filesystem::path& file) {
  SessionSummary summary;
  summary.file = file;
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    summary.error = "cannot open " + file.string() + ": " + std::strerror(errno);
    return summary;
  }
  std::string line;
  if (!std::getline(in, line) || in.eof()) {
    summary.error = file.string() + ": not a session file: it has no complete header line";
    return summary;
  }
  auto header = parse_header_line(line);
  if (!header.ok()) {
    summary.error = file.string() + ":1: " + header.error();
    return summary;
  }
  summary.id = header.value().id;
  summary.cwd = header.value().cwd;
  summary.started_at = header.value().started_at;

  // Parse lines only until the first user prompt (usually the second line); count the rest.
  while (std::getline(in, line) && !in.eof()) {
    if (!line.starts_with(kMessageLinePrefix)) continue;
    ++summary.message_count;
    auto entry = parse_entry_line(line);
    if (!entry.ok()) continue;  // the count only needs the line's kind; loading reports errors
    const auto& message = std::get<MessageEntry>(entry.value()).message;
    if (const auto* user = std::get_if<core::UserMessage>(&message)) {
      summary.first_prompt = prompt_preview(core::content_text(user->content));
      summary.message_count += count_message_lines(in);
      break;
    }
  }
  if (in.bad()) summary.error = "cannot read " + file.string() + ": " + std::strerror(errno);
  return summary;
}

}  // namespace nib::session
