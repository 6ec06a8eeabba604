#include "tools/text_page.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <string_view>
#include <vector>

#include "util/utf8.hpp"

namespace nib::tools {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The longest prefix of `raw` whose sanitized form fits in `budget` bytes: that form, and how
// many bytes of `raw` it covers. Never splits a character.
std::pair<std::string, std::size_t> sanitized_prefix(std::string_view raw, std::size_t budget) {
  std::string text;
  std::size_t pos = 0;
  while (pos < raw.size()) {
    const std::size_t length = util::utf8_sequence_length(raw, pos);
    const std::string_view piece = length == 0 ? kReplacement : raw.substr(pos, length);
    if (text.size() + piece.size() > budget) break;
    text += piece;
    pos += std::max<std::size_t>(length, 1);
  }
  return {std::move(text), pos};
}

// Collects the lines of the page as the scan hands them over, and decides where it ends.
class PageBuilder {
 public:
  PageBuilder(const PageRequest& request, TextPage& page)
      : request_(request),
        page_(page),
        wanted_(std::min(request.limit.value_or(std::numeric_limits<std::size_t>::max()),
                         request.max_lines)),
        closed_(wanted_ == 0) {}

  // True while `line` belongs on the page, i.e. it should be collected.
  bool wants(std::size_t line) const { return !closed_ && line >= request_.offset; }

  // Bytes of a line worth keeping: a line longer than this cannot fit whole, and its
  // beginning (if it is shown cut) never needs more.
  std::size_t keep_bytes() const { return request_.max_bytes + 4; }

  // Adds line `number`, of which `raw` holds the first keep_bytes() bytes out of `length`, and
  // which ended as `ending` ("\r\n", "\n", or "" at the end of the file).
  void add(std::size_t number, std::string_view raw, std::uint64_t length,
           std::string_view ending) {
    const std::size_t separator = shown_ > 0 ? 1 : 0;
    if (raw.size() == length) {
      std::string text = util::sanitize_utf8(raw);
      if (page_.text.size() + separator + text.size() <= request_.max_bytes) {
        if (separator) page_.text += '\n';
        page_.text += text;
        count_ending(ending);
        if (shown_++ == 0) page_.first_line = number;
        page_.last_line = number;
        if (shown_ == wanted_) {
          close(request_.limit && *request_.limit <= request_.max_lines ? PageEnd::kLimit
                                                                        : PageEnd::kMaxLines);
        }
        return;
      }
    }
    if (shown_ > 0) return close(PageEnd::kMaxBytes);
    // Too long to show whole even alone: show its beginning.
    auto [text, covered] = sanitized_prefix(raw, request_.max_bytes);
    page_.text = std::move(text);
    page_.first_line = page_.last_line = number;
    page_.cut_line_bytes = length;
    page_.cut_shown_bytes = covered;
    count_ending(ending);
    close(PageEnd::kCutLine);
  }

 private:
  void count_ending(std::string_view ending) {
    if (ending == "\r\n") ++page_.crlf_lines;
    if (ending == "\n") ++page_.lf_lines;
  }

  void close(PageEnd end) {
    closed_ = true;
    page_.end = end;
  }

  const PageRequest& request_;
  TextPage& page_;
  const std::size_t wanted_;
  std::size_t shown_ = 0;
  bool closed_;
};

}  // namespace

TextPage read_text_page(const ReadAt& read_at, const PageRequest& request, std::stop_token stop) {
  TextPage page;
  PageBuilder builder(request, page);

  char head[kBom.size()];
  std::uint64_t position = 0;
  if (read_at(head, sizeof head, 0) == static_cast<long>(sizeof head) &&
      std::string_view(head, sizeof head) == kBom) {
    page.had_bom = true;
    position = kBom.size();
  }

  std::vector<char> buffer(std::max<std::size_t>(request.chunk_bytes, 1));
  std::size_t line_number = 1;
  std::string line;  // the current line's first keep_bytes(), when it is wanted
  std::uint64_t line_length = 0;
  bool line_started = false;  // bytes of the current line have been seen
  char last_byte = 0;         // the current line's last byte so far

  const auto end_line = [&](bool newline) {
    if (builder.wants(line_number)) {
      const bool crlf = newline && last_byte == '\r';
      if (crlf) {  // the "\r" belongs to the line end
        if (line.size() == line_length) line.pop_back();
        --line_length;
      }
      builder.add(line_number, line, line_length, crlf ? "\r\n" : newline ? "\n" : "");
    }
    line.clear();
    line_length = 0;
    line_started = false;
    last_byte = 0;
    ++line_number;
  };

  for (;;) {
    if (stop.stop_requested()) {
      page.status = PageStatus::kAborted;
      return page;
    }
    const long count = read_at(buffer.data(), buffer.size(), position);
    if (count < 0) {
      page.status = PageStatus::kIoError;
      page.error_number = errno;
      return page;
    }
    if (count == 0) break;
    position += static_cast<std::uint64_t>(count);
    const char* cursor = buffer.data();
    const char* const end = cursor + count;
    while (cursor < end) {
      const auto* newline = static_cast<const char*>(std::memchr(cursor, '\n', end - cursor));
      const char* const piece_end = newline != nullptr ? newline : end;
      if (piece_end > cursor) {
        if (builder.wants(line_number)) {
          const std::size_t room =
              builder.keep_bytes() - std::min(builder.keep_bytes(), line.size());
          line.append(cursor, std::min<std::size_t>(room, piece_end - cursor));
          line_length += piece_end - cursor;
        }
        line_started = true;
        last_byte = piece_end[-1];
      }
      if (newline == nullptr) break;
      end_line(true);
      cursor = newline + 1;
    }
  }
  if (line_started) end_line(false);  // a last line without "\n"

  page.total_lines = line_number - 1;
  if (request.offset > std::max<std::size_t>(page.total_lines, 1)) {
    page.status = PageStatus::kPastEnd;
    page.text.clear();
    page.first_line = page.last_line = 0;
  } else if (page.last_line == page.total_lines && page.end != PageEnd::kCutLine) {
    page.end = PageEnd::kEndOfFile;
  }
  return page;
}

TextPage read_text_page(int fd, const PageRequest& request, std::stop_token stop) {
  posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);  // a hint only; failure changes nothing
  const ReadAt read_at = [fd](char* buffer, std::size_t size, std::uint64_t offset) -> long {
    for (;;) {
      const ssize_t count = pread(fd, buffer, size, static_cast<off_t>(offset));
      if (count >= 0 || errno != EINTR) return count;
    }
  };
  return read_text_page(read_at, request, std::move(stop));
}

}  // namespace nib::tools
