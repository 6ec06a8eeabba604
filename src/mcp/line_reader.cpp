#include "mcp/line_reader.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <vector>

#include "mcp/limits.hpp"
#include "mcp/line_splitter.hpp"
#include "process/unique_fd.hpp"

namespace nib::mcp {

LinesEnd read_lines(int in_fd, std::stop_token stop,
                    const std::function<void(const std::string& line)>& on_line) {
  process::UniqueFd wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  std::stop_callback on_stop(stop, [&wake] {
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t wrote = ::write(wake.get(), &one, sizeof one);
  });
  LineSplitter lines(kMaxLineBytes);
  std::vector<char> buffer(64 * 1024);
  while (!stop.stop_requested()) {
    pollfd fds[2] = {{in_fd, POLLIN, 0}, {wake.get(), POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) continue;
    if (fds[1].revents != 0) break;
    const ssize_t got = ::read(in_fd, buffer.data(), buffer.size());
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) return LinesEnd::kEndOfInput;
    for (const std::string& line :
         lines.feed(std::string_view(buffer.data(), static_cast<std::size_t>(got)))) {
      on_line(line);
    }
  }
  return LinesEnd::kStopped;
}

}  // namespace nib::mcp
