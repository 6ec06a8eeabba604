#pragma once
// SessionWriter: appends entries to a session file (session_file.hpp), each durable before
// append() returns, so that nothing the user saw is lost when nib is killed.
//
// Durability policy: each entry is one write() of the whole line, newline included, to a file
// opened with O_APPEND; the file is fdatasync()ed when the writer closes.
// - One write() with O_APPEND: lines of two writers never interleave, and the kernel's page
//   cache keeps everything written, whatever happens to the process (kill -9, a crash). Only a
//   kill during a write of a very large line (images: the kernel checks for a fatal signal
//   between pages) can leave a partial last line, which loading ignores and open_existing()
//   cuts off.
// - No fdatasync() per entry, nor when the file is created: it costs from a fraction of a
//   millisecond to tens of milliseconds per call on real disks, on the loop's thread (twice a
//   turn) or before the first request, and it only adds safety against a power loss or a
//   kernel crash, where the last seconds of a conversation may be lost anyway. The sync on
//   close bounds that window to the run in progress.
// - A write that fails part-way removes its partial line again, so a later entry cannot be glued
//   onto it into a corrupt middle line.
//
// One writer per file at a time, across processes: a writer holds an exclusive flock on its file
// for as long as it lives (the kernel drops it when the process dies, kill -9 included), and
// open_existing() refuses a file another writer holds.
//
// Not thread-safe: one owner, like std::unique_ptr (the loop emits every event on one thread).

#include <filesystem>

#include "session/session_file.hpp"
#include "util/result.hpp"

namespace nib::session {

class SessionWriter {
 public:
  // Creates `file` (its directory must exist, the file must not) holding just `header`, with
  // owner-only permissions: sessions hold code and secrets seen by the agent. The file appears
  // complete or not at all (written under a temporary name, then renamed), so a crash here
  // cannot leave a headerless file that --continue would trip over.
  static util::Result<SessionWriter> create(const std::filesystem::path& file,
                                            const SessionHeader& header);

  // Opens an existing session file to append to. A last line without its newline (cut off by a
  // crash) is removed first: the next line would otherwise complete it into a corrupt line.
  // Fails, saying so, when another writer (another nib) holds the file.
  static util::Result<SessionWriter> open_existing(const std::filesystem::path& file);

  SessionWriter(SessionWriter&& other) noexcept;
  SessionWriter& operator=(SessionWriter&& other) noexcept;
  SessionWriter(const SessionWriter&) = delete;
  SessionWriter& operator=(const SessionWriter&) = delete;
  ~SessionWriter();

  // Appends `entry` as one line and makes it durable. When the write fails, the file is left as
  // it was.
  util::Status append(const SessionEntry& entry);

  const std::filesystem::path& file() const { return file_; }

 private:
  SessionWriter(std::filesystem::path file, int fd) : file_(std::move(file)), fd_(fd) {}
  void close();

  std::filesystem::path file_;
  int fd_ = -1;
};

}  // namespace nib::session
