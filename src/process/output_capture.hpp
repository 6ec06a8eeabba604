#pragma once
// OutputCapture: one output stream of a command, kept in bounded memory however much it
// prints. It keeps the end of the stream in a fixed-size ring, and its first lines and the
// excerpts around lines that look like failures as they stream past (excerpt_collector.hpp),
// so that a digest of a long stream (output_digest.hpp) needs nothing that is no longer in
// memory. It counts bytes and lines, and writes the stream's first bytes (at most a cap) to a
// private log file, which is created only once the stream is longer than what the model can
// see, so short commands do no disk I/O. Not thread-safe: one owner feeds it and reads it.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "process/excerpt_collector.hpp"
#include "process/limits.hpp"
#include "process/temp_log.hpp"
#include "process/unique_fd.hpp"

namespace nib::process {

// Memory kept for a stream's end: twice what the model sees, so that output still fills the
// view after escape sequences (colours, progress bars) are stripped from it.
inline constexpr std::size_t kTailBufferBytes = 2 * kMaxOutputBytes;

// Opens the file that will hold a stream's full output (see create_private_log).
using LogOpener = std::function<util::Result<LogFile>()>;

struct CaptureLimits {
  std::size_t tail_bytes = kTailBufferBytes;  // the ring's size
  std::size_t spill_lines = kMaxOutputLines;  // more lines than this cannot all be shown
  std::size_t max_log_bytes = kMaxLogBytes;   // the log keeps at most this many first bytes
  ExcerptLimits excerpts = {};
};

class OutputCapture {
 public:
  explicit OutputCapture(LogOpener open_log, CaptureLimits limits = {});
  OutputCapture(OutputCapture&&) = default;
  OutputCapture& operator=(OutputCapture&&) = default;
  ~OutputCapture();

  // Adds bytes the stream produced. Starts the log once the stream no longer fits in memory or
  // has more lines than can be shown.
  void append(std::string_view bytes);

  std::uint64_t total_bytes() const { return total_bytes_; }
  std::uint64_t total_lines() const { return collector_.lines(); }
  // True when tail() is the whole stream.
  bool complete() const { return total_bytes_ <= limits_.tail_bytes; }
  // The last min(total_bytes, tail_bytes) bytes, in order.
  std::string tail() const;

  // Makes sure the log exists (creating it from memory if it was not needed so far), so the
  // model can be pointed at the full stream. No effect when the log could not be created.
  void ensure_log();
  // Ends the stream and logging; when the log holds only the start of the stream, appends a
  // note saying so.
  void finish();
  // The first lines and the excerpts; complete once finish() has run.
  const ExcerptCollector& collector() const { return collector_; }

  // The log's path, when there is one.
  const std::optional<std::filesystem::path>& log_path() const { return log_path_; }
  std::uint64_t log_bytes() const { return log_bytes_; }
  // Lines the log holds completely (its newlines).
  std::uint64_t log_lines() const { return log_newlines_; }
  // True when the log holds less than the whole stream (the size cap or a write error).
  bool log_partial() const { return log_path_.has_value() && log_bytes_ < total_bytes_; }
  // Why the log could not be created or completed; empty when all went well.
  const std::string& log_error() const { return log_error_; }

 private:
  void push_tail(std::string_view bytes);
  void start_log();
  void write_log(std::string_view bytes);

  LogOpener open_log_;
  CaptureLimits limits_;
  std::string ring_;           // grows up to tail_bytes, then wraps at ring_next_
  std::size_t ring_next_ = 0;  // where the next byte goes once the ring is full
  std::uint64_t total_bytes_ = 0;
  ExcerptCollector collector_;
  bool log_started_ = false;  // start_log() ran (whether or not it succeeded)
  UniqueFd log_fd_;
  std::optional<std::filesystem::path> log_path_;
  std::uint64_t log_bytes_ = 0;
  std::uint64_t log_newlines_ = 0;
  std::string log_error_;
};

}  // namespace nib::process
