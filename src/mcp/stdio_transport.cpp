#include "mcp/stdio_transport.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <future>
#include <mutex>
#include <thread>

#include "mcp/limits.hpp"
#include "mcp/line_splitter.hpp"
#include "mcp/ring_log.hpp"
#include "process/child_watch.hpp"
#include "process/command_registry.hpp"
#include "process/proc_table.hpp"
#include "process/process_reaper.hpp"
#include "process/subprocess.hpp"
#include "util/json_text.hpp"
#include "util/text_cut.hpp"

namespace nib::mcp {
namespace {

using Clock = std::chrono::steady_clock;

// Writes all of `bytes` to the non-blocking `fd`, waiting while the pipe is full up to
// kWriteStallLimit. SIGPIPE (the server closed its stdin) is blocked on this thread and
// consumed, so it is an error here, not the death of the process.
util::Status write_to_server(int fd, std::string_view bytes) {
  sigset_t pipe_signal;
  sigset_t previous;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
  const auto deadline = Clock::now() + kWriteStallLimit;
  util::Status status = util::Status::success();
  while (!bytes.empty()) {
    const ssize_t wrote = ::write(fd, bytes.data(), bytes.size());
    if (wrote > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(wrote));
      continue;
    }
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0 && errno == EAGAIN) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      pollfd entry{fd, POLLOUT, 0};
      if (left.count() <= 0 || ::poll(&entry, 1, static_cast<int>(left.count())) == 0) {
        status = util::Status::failure("the server has not read its input for " +
                                       std::to_string(kWriteStallLimit.count()) + " s");
        break;
      }
      continue;
    }
    status = util::Status::failure(errno == EPIPE ? "the server has closed its input"
                                                  : std::string("cannot write to the server: ") +
                                                        std::strerror(errno));
    break;
  }
  // A SIGPIPE raised by the write is pending on this thread: take it before unblocking.
  const timespec no_wait{0, 0};
  while (::sigtimedwait(&pipe_signal, nullptr, &no_wait) == SIGPIPE) {
  }
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return status;
}

std::string describe_exit(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return std::string("was killed by signal ") + ::strsignal(WTERMSIG(status));
  return "ended";
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
  return text;
}

class StdioTransport final : public Transport {
 public:
  explicit StdioTransport(StdioLaunch launch)
      : launch_(std::move(launch)), stderr_log_(kStderrLogBytes) {}
  ~StdioTransport() override { close(); }

  util::Status open(TransportHandlers handlers) override {
    handlers_ = std::move(handlers);
    wake_.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    if (!wake_.valid()) return util::Status::failure("cannot create an eventfd");
    std::promise<util::Status> started;
    auto started_future = started.get_future();
    io_ = std::thread([this, &started] { run(started); });
    util::Status status = started_future.get();
    if (!status.ok()) {
      io_.join();
    }
    return status;
  }

  util::Status send(const nlohmann::json& message) override {
    std::lock_guard lock(write_mutex_);
    if (!stdin_.valid()) return util::Status::failure("the server is not running");
    return write_to_server(stdin_.get(), util::json_text(message) + "\n");
  }

  void close() override {
    if (closing_.exchange(true)) {
      if (io_.joinable() && io_.get_id() != std::this_thread::get_id()) io_.join();
      return;
    }
    if (wake_.valid()) {
      const std::uint64_t one = 1;
      [[maybe_unused]] const ssize_t wrote = ::write(wake_.get(), &one, sizeof one);
    }
    if (io_.joinable() && io_.get_id() != std::this_thread::get_id()) io_.join();
  }

  std::string diagnostics() const override {
    std::string text;
    {
      std::lock_guard lock(notes_mutex_);
      for (const std::string& note : notes_) text += note + "\n";
    }
    const std::string tail = stderr_log_.tail(kStderrTailBytes);
    if (!tail.empty()) text += "stderr:\n" + tail;
    return text;
  }

 private:
  void note(std::string text) {
    std::lock_guard lock(notes_mutex_);
    // The first few notes say enough; later ones only repeat the kind of trouble.
    if (notes_.size() < kMaxNotes) notes_.push_back(std::move(text));
  }

  // The I/O thread: starts the server (so the parent-death signal ties it to this thread,
  // which lives as long as the connection), then reads until it exits or close() is called.
  void run(std::promise<util::Status>& started) {
    const std::string tag = process::new_command_tag();
    std::vector<std::string> environment = launch_.environment;
    environment.push_back(std::string(process::kCommandTagVariable) + "=" + tag);
    const process::CommandEntryId entry =
        process::register_command({.started_after = process::boot_time_ticks(),
                                   .tag = tag,
                                   .call_id = "mcp server " + launch_.label,
                                   .command = joined(launch_.argv)});
    auto spawned = process::spawn_process({.argv = launch_.argv,
                                           .cwd = launch_.cwd,
                                           .environment = std::move(environment),
                                           .pipe_stdin = true});
    if (!spawned.ok()) {
      process::command_ended(entry, /*tree_killed=*/true);
      started.set_value(util::Status::failure(spawned.error()));
      return;
    }
    process::SpawnedProcess process = std::move(spawned.value());
    const auto info = process::read_process(process.pid);
    process::command_started(entry, process.pid, info ? info->start_time : 0);
    ::fcntl(process.stdin_fd.get(), F_SETFL, O_NONBLOCK);
    {
      std::lock_guard lock(write_mutex_);
      stdin_ = std::move(process.stdin_fd);
    }
    started.set_value(util::Status::success());

    process::ChildWatch watch(process, {process.stdout_fd.get(), process.stderr_fd.get()},
                              core::steady_clock());
    watch.add_wake_fd(wake_.get());
    ServerReader reader(*this);
    watch.run(reader);
    // It exited or closed its stdout: what it wrote before is still in the pipes.
    watch.read_available(reader);
    {
      std::lock_guard lock(write_mutex_);
      stdin_.reset();
    }
    process::kill_process_tree(process.pid, std::string(process::kCommandTagVariable) + "=" + tag);
    const std::string how = reap(process, watch, reader);
    process::command_ended(entry, /*tree_killed=*/true);
    if (!closing_ && handlers_.on_closed) handlers_.on_closed(how);
  }

  // The reader's end policy: stdout's lines are the server's messages, stderr goes to the ring
  // log; the watch is over when the server exits, closes its stdout, or close() is called.
  class ServerReader final : public process::WatchPolicy {
   public:
    explicit ServerReader(StdioTransport& transport)
        : transport_(transport), lines_(kMaxLineBytes) {}

    void on_output(std::size_t pipe, std::string_view bytes) override {
      if (pipe == 0) {
        transport_.deliver(lines_, bytes);
      } else {
        transport_.stderr_log_.append(bytes);
      }
    }
    void on_end(std::size_t pipe) override { stdout_ended_ = stdout_ended_ || pipe == 0; }
    void on_exit(const process::ChildExit& exit, TimePoint) override { exit_ = exit; }
    Next next(TimePoint, const process::WatchState& state) override {
      return {.done = transport_.closing_ || state.exited || stdout_ended_};
    }
    const std::optional<process::ChildExit>& exit() const { return exit_; }

   private:
    StdioTransport& transport_;
    LineSplitter lines_;
    bool stdout_ended_ = false;
    std::optional<process::ChildExit> exit_;
  };

  void deliver(LineSplitter& lines, std::string_view bytes) {
    const std::size_t dropped_before = lines.dropped();
    for (std::string& line : lines.feed(bytes)) {
      auto message = parse_message(line);
      if (!message.ok()) {
        note("stdout line skipped (" + message.error() +
             "): " + util::cut_text(line, kGarbageQuoteBytes));
        continue;
      }
      if (handlers_.on_message) handlers_.on_message(std::move(message.value()));
    }
    if (lines.dropped() > dropped_before) {
      note("stdout line skipped: longer than " + std::to_string(kMaxLineBytes) + " bytes");
    }
  }

  // Waits up to kExitWait for the killed server to exit and reaps it; how it ended.
  std::string reap(process::SpawnedProcess& server, process::ChildWatch& watch,
                   ServerReader& reader) {
    if (!watch.wait_for_exit(reader, core::steady_clock().now() + kExitWait)) {
      process::release_registered(server.pid);
      return "the server did not exit when killed";
    }
    if (!reader.exit()->status_known) return "the server ended";
    return "the server " + describe_exit(reader.exit()->wait_status);
  }

  static constexpr std::size_t kMaxNotes = 10;

  const StdioLaunch launch_;
  TransportHandlers handlers_;
  RingLog stderr_log_;
  process::UniqueFd wake_;
  std::thread io_;
  std::atomic<bool> closing_ = false;
  std::mutex write_mutex_;
  process::UniqueFd stdin_;
  mutable std::mutex notes_mutex_;
  std::vector<std::string> notes_;
};

}  // namespace

util::Result<std::string> find_program(const std::string& program,
                                       const std::vector<std::string>& environment,
                                       const std::filesystem::path& cwd) {
  using Result = util::Result<std::string>;
  if (program.empty()) return Result::failure("the command is empty");
  if (program.find('/') != std::string::npos) {
    const std::filesystem::path path = std::filesystem::path(program).is_absolute()
                                           ? std::filesystem::path(program)
                                           : cwd / program;
    if (::access(path.c_str(), X_OK) != 0) {
      return Result::failure("cannot run " + path.string() + ": " + std::strerror(errno));
    }
    return path.string();
  }
  std::string search = "/usr/local/bin:/usr/bin:/bin";
  for (const std::string& entry : environment) {
    if (entry.rfind("PATH=", 0) == 0) search = entry.substr(5);
  }
  std::string_view rest = search;
  while (true) {
    const std::size_t colon = rest.find(':');
    std::string_view directory = rest.substr(0, colon);
    const std::filesystem::path base = directory.empty() ? cwd : std::filesystem::path(directory);
    const std::filesystem::path candidate = base / program;
    std::error_code error;
    if (::access(candidate.c_str(), X_OK) == 0 &&
        !std::filesystem::is_directory(candidate, error)) {
      return candidate.string();
    }
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return Result::failure("the command \"" + program + "\" was not found in PATH (" + search + ")");
}

std::unique_ptr<Transport> make_stdio_transport(StdioLaunch launch) {
  return std::make_unique<StdioTransport>(std::move(launch));
}

}  // namespace nib::mcp
