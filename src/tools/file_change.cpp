#include "tools/file_change.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>
#include <vector>

#include "process/atomic_write.hpp"
#include "process/unique_fd.hpp"
#include "tools/path.hpp"
#include "tools/text_page.hpp"

namespace nib::tools {
namespace {

using core::ToolOutput;

std::string error_text(int error_number) {
  return std::system_category().message(error_number);
}

// Why `shown` could not be looked at (`reading` false: stat failed) or read (`reading` true), for
// `tool` ("edit", "write"), which must read a file before it replaces it.
ToolOutput access_failure(int error_number, const std::string& shown, std::string_view tool,
                          bool reading) {
  const std::string action(tool);
  switch (error_number) {
    case EACCES:
    case EPERM:
      if (reading) {
        return ToolOutput::error("Permission denied: " + shown + " cannot be read, and " + action +
                                 " reads a file before replacing it (to check that it is the "
                                 "version you saw). Nothing was changed.");
      }
      return ToolOutput::error("Permission denied: cannot " + action + " " + shown +
                               " (a directory on its path cannot be searched).");
    case ENOTDIR:
      return ToolOutput::error("Cannot " + action + " " + shown +
                               ": a part of the path before the last is a file, not a directory.");
    default:
      return ToolOutput::error("Cannot " + action + " " + shown + ": " +
                               (reading ? "reading it failed: " : "") + error_text(error_number) +
                               ".");
  }
}

std::optional<ToolOutput> refuse_unless_regular(const struct stat& info, const std::string& shown) {
  if (S_ISREG(info.st_mode)) return std::nullopt;
  if (S_ISDIR(info.st_mode)) {
    return ToolOutput::error(shown + " is a directory, not a file. Give the path of a file.");
  }
  return ToolOutput::error(shown +
                           " is not a regular file (it is a FIFO, socket or device); edit and "
                           "write change regular files only.");
}

// Reads the whole of `fd` (expected to hold `size` bytes) with `stop` checked between blocks.
// std::monostate when stopped; an errno value when a read fails.
std::variant<std::string, int, std::monostate> read_whole(int fd, std::uint64_t size,
                                                          std::stop_token stop) {
  std::string bytes;
  bytes.reserve(static_cast<std::size_t>(size));
  std::vector<char> buffer(kReadChunkBytes);
  while (true) {
    if (stop.stop_requested()) return std::monostate{};
    const ssize_t count = read(fd, buffer.data(), buffer.size());
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) return errno;
    if (count == 0) return bytes;
    bytes.append(buffer.data(), static_cast<std::size_t>(count));
  }
}

// True when `now` describes the same, unmodified file as `before`.
bool same_file_state(const struct stat& before, const struct stat& now) {
  return before.st_dev == now.st_dev && before.st_ino == now.st_ino &&
         before.st_size == now.st_size && before.st_mtim.tv_sec == now.st_mtim.tv_sec &&
         before.st_mtim.tv_nsec == now.st_mtim.tv_nsec;
}

}  // namespace

std::variant<CurrentFile, ToolOutput> load_current_file(const std::filesystem::path& requested,
                                                        std::string shown,
                                                        std::uint64_t max_load_bytes,
                                                        std::string_view tool, std::stop_token stop,
                                                        const EditorFiles* editor) {
  CurrentFile file;
  file.shown = std::move(shown);
  file.target = resolve_file(requested);
  // Look before opening: opening a FIFO or a device can block or have side effects.
  if (stat(file.target.c_str(), &file.info) != 0) {
    if (errno == ENOENT) return file;
    return access_failure(errno, file.shown, tool, /*reading=*/false);
  }
  if (auto refusal = refuse_unless_regular(file.info, file.shown)) return std::move(*refusal);
  const auto read_failure = [&](int error_number) {
    return access_failure(error_number, file.shown, tool, /*reading=*/true);
  };
  const process::UniqueFd fd(
      open(file.target.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (!fd.valid()) return read_failure(errno);
  if (fstat(fd.get(), &file.info) != 0) return read_failure(errno);
  if (auto refusal = refuse_unless_regular(file.info, file.shown)) return std::move(*refusal);
  file.exists = true;

  const auto aborted = [&] {
    return ToolOutput::error("Aborted: " + file.shown + " was not changed.");
  };
  if (static_cast<std::uint64_t>(file.info.st_size) > max_load_bytes) {
    auto state = file_state_of(fd.get(), file.info, stop);
    if (!state) return stop.stop_requested() ? aborted() : read_failure(errno);
    file.state = *state;
    return file;
  }
  auto bytes = read_whole(fd.get(), static_cast<std::uint64_t>(file.info.st_size), stop);
  if (std::holds_alternative<std::monostate>(bytes)) return aborted();
  if (const int* error = std::get_if<int>(&bytes)) return read_failure(*error);
  file.bytes = std::move(std::get<std::string>(bytes));
  if (editor != nullptr && editor->read) {
    auto held = editor->read(file.target, stop);
    if (!held.ok()) {
      return ToolOutput::error("Cannot read " + file.shown + " from the editor: " + held.error() +
                               ". It was not changed.");
    }
    file.bytes = std::move(held.value());
  }
  file.loaded = true;
  file.state = file_state(file.info, file.bytes);
  return file;
}

std::optional<ToolOutput> refuse_unless_seen(const FileTracker& tracker, const CurrentFile& file,
                                             std::string_view action) {
  switch (tracker.check(file.target, file.state)) {
    case Freshness::kUnchanged:
      return std::nullopt;
    case Freshness::kNeverSeen:
      return ToolOutput::error("Refusing to " + std::string(action) + " " + file.shown +
                               ": you have not read it in this session, so its current content "
                               "is unknown to you. Read it first with the read tool, then retry.");
    case Freshness::kChanged:
      break;
  }
  return ToolOutput::error("Refusing to " + std::string(action) + " " + file.shown +
                           ": it has changed on disk since you last read or wrote it (by the "
                           "user, a formatter or a command). Read it again, then redo the " +
                           std::string(action) + " against its current content.");
}

std::optional<ToolOutput> replace_file(FileTracker& tracker, const CurrentFile& file,
                                       std::string_view bytes, bool create_parents,
                                       const EditorFiles* editor) {
  const std::string not_changed = " " + file.shown + " was not changed.";
  // Between loading the file and now, someone else may have written it: do not overwrite that.
  struct stat now {};
  const bool exists_now = stat(file.target.c_str(), &now) == 0;
  if (file.exists && (!exists_now || !same_file_state(file.info, now))) {
    return ToolOutput::error(file.shown +
                             " changed on disk while this call was working on it, so it was "
                             "left alone. Read it again, then retry.");
  }
  if (!file.exists && exists_now) {
    return ToolOutput::error(file.shown +
                             " was created by something else while this call was working on "
                             "it, so it was left alone. Read it, then retry.");
  }
  if (file.exists && access(file.target.c_str(), W_OK) != 0) {
    return ToolOutput::error("Permission denied: " + file.shown + " is not writable (" +
                             error_text(errno) + ")." + not_changed);
  }
  if (create_parents && !file.exists) {
    std::error_code error;
    std::filesystem::create_directories(file.target.parent_path(), error);
    if (error) {
      return ToolOutput::error("Cannot create the directory " +
                               escape_name(file.target.parent_path().native()) + " for " +
                               file.shown + ": " + error.message() + ".");
    }
  }
  if (editor != nullptr && editor->write) {
    const util::Status given = editor->write(file.target, std::string(bytes), {});
    if (!given.ok()) {
      return ToolOutput::error("Cannot write " + file.shown +
                               " through the editor: " + given.error() + "." + not_changed);
    }
    // The editor may or may not have saved it: its identity on disk as it is now, its text as
    // the editor holds it (what the next load sees).
    struct stat saved {};
    const bool on_disk = stat(file.target.c_str(), &saved) == 0;
    tracker.record(file.target, file_state(on_disk ? saved : file.info, bytes));
    return std::nullopt;
  }
  const process::AtomicWriteResult written = process::atomic_write(
      file.target, bytes, file.exists ? std::optional(file.info) : std::nullopt);
  if (!written.ok()) {
    const std::string outcome =
        written.in_place ? " " + file.shown +
                               " was being written in place (it has other hard links), so it "
                               "may now hold part of the new content: read it before retrying."
                         : not_changed;
    return ToolOutput::error("Cannot write " + file.shown + ": could not " +
                             escape_name(written.failed_step) + ": " +
                             error_text(written.error_number) + "." + outcome);
  }
  tracker.record(file.target, file_state(written.written, bytes));
  return std::nullopt;
}

}  // namespace nib::tools
