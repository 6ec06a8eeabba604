#pragma once
// One page of lines from a text file, read as a stream: the file is scanned in large blocks
// with memchr, only the lines of the page are kept, and the lines after it are only counted.
// So a page near the end of a multi-gigabyte file costs one sequential scan and a few MB of
// memory. Thread-safe: functions share no state.
//
// Presentation, decided here once for every caller: lines are returned as they are (no line
// numbers, so that text copied from them matches the file exactly), joined by "\n"; a "\r"
// before "\n" is dropped, because models cannot reliably write it back (so an edit tool must
// match CRLF lines ignoring it, and keep each line's ending); a UTF-8 byte order mark at the
// start is dropped; invalid UTF-8 is replaced by U+FFFD.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>

#include "tools/limits.hpp"

namespace nib::tools {

// Bytes read per read(2) call: large enough that scanning 2 GB takes a few thousand calls.
inline constexpr std::size_t kReadChunkBytes = 1024 * 1024;

struct PageRequest {
  std::size_t offset = 1;            // first line, 1-based
  std::optional<std::size_t> limit;  // lines wanted; unlimited up to max_lines
  std::size_t max_lines = process::kMaxOutputLines;
  std::size_t max_bytes = process::kMaxOutputBytes;  // of `text`
  std::size_t chunk_bytes = kReadChunkBytes;
};

// Why the page stopped where it did.
enum class PageEnd {
  kEndOfFile,  // the last line of the file is on the page
  kLimit,      // the request's limit was reached
  kMaxLines,   // max_lines was reached
  kMaxBytes,   // the next line would not fit in max_bytes
  kCutLine,    // the page's only line is longer than max_bytes and was cut
};

enum class PageStatus {
  kOk,
  kPastEnd,  // offset is beyond the last line; total_lines says how many there are
  kAborted,  // stop was requested
  kIoError,  // a read failed; error_number says why
};

struct TextPage {
  PageStatus status = PageStatus::kOk;
  int error_number = 0;
  std::string text;            // the shown lines, joined by "\n"
  std::size_t first_line = 0;  // 1-based numbers of the shown lines; 0 when none
  std::size_t last_line = 0;
  std::size_t total_lines = 0;  // in the whole file (a last line without "\n" counts)
  PageEnd end = PageEnd::kEndOfFile;
  // For kCutLine: the cut line's length and how much of it `text` shows, both in bytes of the
  // file (after the byte order mark, without the line end).
  std::uint64_t cut_line_bytes = 0;
  std::uint64_t cut_shown_bytes = 0;
  bool had_bom = false;  // the file starts with a UTF-8 byte order mark
  // Shown lines that end with "\r\n" (shown without the "\r") and with "\n" alone, so that a
  // caller can say that the file's line ends are not what the text shows.
  std::size_t crlf_lines = 0;
  std::size_t lf_lines = 0;
};

// Where a page's bytes come from: fills `buffer` with up to `size` bytes at `offset` and returns
// how many (0 at the end), or -1 with errno set. The file in production, a fake in tests.
using ReadAt = std::function<long(char* buffer, std::size_t size, std::uint64_t offset)>;

// Reads the page `request` asks for, scanning from offset 0 of `read_at`. `stop` is checked
// before every block.
TextPage read_text_page(const ReadAt& read_at, const PageRequest& request, std::stop_token stop);

// read_text_page() over `fd`, with pread (the descriptor's file offset is left alone).
TextPage read_text_page(int fd, const PageRequest& request, std::stop_token stop);

}  // namespace nib::tools
