#pragma once
// A background job's output, as the model and the user read it: stdout and stderr in the order
// they arrived, cleaned of terminal control sequences (util::sanitize_terminal_output, one
// complete line at a time), written to a private log file (its first kMaxLogBytes, then a note
// saying the log stops there) and kept in memory only as its last kJobTailBytes to
// 2 * kJobTailBytes, so memory stays flat however long the job prints. A reader keeps a
// position and asks for what came after it. Not thread-safe: its job guards it.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "process/temp_log.hpp"

namespace nib::process {

// A place in the cleaned output: the bytes and the complete lines before it.
struct JobLogPosition {
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;
};

// What came after a position, cut to a budget.
struct JobLogSlice {
  std::string text;            // the last part that fits the budget, from a line start if cut
  JobLogPosition shown_from;   // where `text` starts
  JobLogPosition end;          // the position after it: the next read starts here
  std::uint64_t left_out = 0;  // bytes between the asked position and `shown_from`
};

class JobLog {
 public:
  // `log` is the file the cleaned output goes to; an invalid descriptor keeps it in memory only.
  explicit JobLog(LogFile log);

  // Adds raw bytes the job wrote.
  void append(std::string_view raw);
  // Takes the unfinished last line as it is (a prompt, a progress line), so that readers see it.
  void flush_partial_line();

  JobLogPosition end() const { return {total_bytes_, total_lines_}; }
  // What came after `from`: at most `max_bytes` and `max_lines`, the end kept when it is more.
  JobLogSlice since(JobLogPosition from, std::size_t max_bytes, std::size_t max_lines) const;
  // The last `count` lines, the unfinished one included.
  std::vector<std::string> last_lines(std::size_t count) const;

  // Bytes of output held in memory now (the kept end and the unfinished line).
  std::size_t memory_bytes() const { return tail_.capacity() + pending_.capacity(); }

  const std::filesystem::path& path() const { return path_; }
  std::uint64_t logged_bytes() const { return logged_bytes_; }
  // True once the file holds only the start of the output (the cap or a write error).
  bool log_stopped() const { return log_stopped_; }

 private:
  void commit(std::string_view clean);
  void write_file(std::string_view clean);

  UniqueFd fd_;
  std::filesystem::path path_;
  std::string pending_;  // raw bytes of the unfinished last line
  std::string tail_;     // the end of the cleaned output
  std::uint64_t total_bytes_ = 0;
  std::uint64_t total_lines_ = 0;
  std::uint64_t logged_bytes_ = 0;
  bool log_stopped_ = false;
};

}  // namespace nib::process
