#include "session/session_writer.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <utility>

#include "util/secret_redaction.hpp"

namespace nib::session {
namespace {

// Session files hold whatever the agent read (code, keys in .env files): owner only.
constexpr mode_t kSessionFileMode = 0600;
// How far back open_existing() reads at a time while looking for the last newline.
constexpr std::size_t kTailScanBytes = 64 * 1024;

std::string errno_text() {
  return std::strerror(errno);
}

// Writes all of `data` at the end of `fd` (opened with O_APPEND), retrying short writes. When
// it fails part-way, cuts the partial data off again and reports the error.
util::Status append_all(int fd, std::string_view data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t written = ::write(fd, data.data() + done, data.size() - done);
    if (written >= 0) {
      done += static_cast<std::size_t>(written);
      continue;
    }
    if (errno == EINTR) continue;
    const std::string error = errno_text();
    if (done > 0) {
      // With O_APPEND the offset is the end of what this call wrote.
      const off_t end = ::lseek(fd, 0, SEEK_CUR);
      if (end >= 0) (void)::ftruncate(fd, end - static_cast<off_t>(done));
    }
    return util::Status::failure(error);
  }
  return util::Status::success();
}

// The length of `fd`'s content up to and including its last newline; -1 on a read error.
off_t complete_lines_length(int fd, off_t size) {
  char buffer[kTailScanBytes];
  off_t end = size;
  while (end > 0) {
    const off_t start =
        end > static_cast<off_t>(kTailScanBytes) ? end - static_cast<off_t>(kTailScanBytes) : 0;
    const ssize_t got = ::pread(fd, buffer, static_cast<std::size_t>(end - start), start);
    if (got != end - start) return -1;
    for (off_t i = got; i > 0; --i) {
      if (buffer[i - 1] == '\n') return start + i;
    }
    end = start;
  }
  return 0;
}

}  // namespace

util::Result<SessionWriter> SessionWriter::create(const std::filesystem::path& file,
                                                  const SessionHeader& header) {
  using Result = util::Result<SessionWriter>;
  std::error_code exists_error;
  if (std::filesystem::exists(file, exists_error)) {
    return Result::failure("cannot create " + file.string() + ": it exists already");
  }
  const std::filesystem::path temporary = file.string() + ".tmp";
  const int fd = ::open(temporary.c_str(), O_RDWR | O_APPEND | O_CREAT | O_TRUNC | O_CLOEXEC,
                        kSessionFileMode);
  if (fd < 0) return Result::failure("cannot create " + temporary.string() + ": " + errno_text());
  SessionWriter writer(file, fd);        // closes fd on every early return
  (void)::flock(fd, LOCK_EX | LOCK_NB);  // nobody else can know the file yet
  const auto fail = [&](const std::string& error) {
    ::unlink(temporary.c_str());
    return Result::failure(error);
  };
  if (const util::Status written = append_all(fd, header_line(header)); !written.ok()) {
    return fail("cannot write " + temporary.string() + ": " + written.error());
  }
  if (::rename(temporary.c_str(), file.c_str()) != 0) {
    return fail("cannot create " + file.string() + ": " + errno_text());
  }
  return Result(std::move(writer));
}

util::Result<SessionWriter> SessionWriter::open_existing(const std::filesystem::path& file) {
  using Result = util::Result<SessionWriter>;
  const int fd = ::open(file.c_str(), O_RDWR | O_APPEND | O_CLOEXEC);
  if (fd < 0) return Result::failure("cannot open " + file.string() + ": " + errno_text());
  SessionWriter writer(file, fd);
  // Taken before anything is cut or appended: a second writer would interleave its lines with
  // the first one's, or cut off a line the first is still writing as if it were torn.
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) {
      return Result::failure("the session " + file.string() +
                             " is in use by another nib process; start a new session (leave "
                             "out -c, -r and --session) or wait until the other one ends");
    }
    return Result::failure("cannot lock " + file.string() + ": " + errno_text());
  }
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    return Result::failure("cannot open " + file.string() + ": " + errno_text());
  }
  const off_t complete = complete_lines_length(fd, status.st_size);
  if (complete < 0) return Result::failure("cannot read " + file.string() + ": " + errno_text());
  if (complete == 0) {
    return Result::failure(file.string() + ": not a session file: it has no complete header line");
  }
  if (complete < status.st_size) {
    if (::ftruncate(fd, complete) != 0 || ::fdatasync(fd) != 0) {
      return Result::failure("cannot remove the cut-off last line of " + file.string() + ": " +
                             errno_text());
    }
  }
  return Result(std::move(writer));
}

SessionWriter::SessionWriter(SessionWriter&& other) noexcept
    : file_(std::move(other.file_)), fd_(std::exchange(other.fd_, -1)) {}

SessionWriter& SessionWriter::operator=(SessionWriter&& other) noexcept {
  if (this != &other) {
    close();
    file_ = std::move(other.file_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

SessionWriter::~SessionWriter() {
  close();
}

void SessionWriter::close() {
  if (fd_ < 0) return;
  // Once per run, off the turn's path: the disk copy catches up with the page cache.
  (void)::fdatasync(fd_);
  ::close(fd_);
  fd_ = -1;
}

util::Status SessionWriter::append(const SessionEntry& entry) {
  if (fd_ < 0) return util::Status::failure("the session file is not open");
  // The keys nib holds never reach the file, whichever message carried them.
  const util::Status written = append_all(fd_, util::redact_secrets(entry_line(entry)));
  if (!written.ok())
    return util::Status::failure("cannot write " + file_.string() + ": " + written.error());
  return util::Status::success();
}

}  // namespace nib::session
