#include "support/tmux_session.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include "support/spawn.hpp"
#include "util/utf8.hpp"

namespace nib::testing {
namespace {

// The one session, window and pane of the private server.
constexpr const char* kTarget = "nib";
// How often wait_for() and wait_for_exit() look again.
constexpr auto kPollInterval = std::chrono::milliseconds(20);
// How long a program gets to end on the hang-up before teardown kills it.
constexpr auto kTeardownGrace = std::chrono::seconds(2);
// A hang guard for the terminal to take a new size (tmux applies it within 250 ms).
constexpr auto kResizeTimeout = std::chrono::seconds(20);
// tmux passes a command's arguments in one message of at most 16 KiB, so long input goes in
// pieces: bytes of literal text, and bytes of raw input (three argument bytes each in hex).
constexpr std::size_t kTypeChunkBytes = 4096;
constexpr std::size_t kRawChunkBytes = 1024;

// Loaded when the server starts. window-size is set only after the session exists: tmux 3.3a
// crashes when a config sets `window-size manual` before there is a session.
constexpr const char* kConfig =
    "set-option -g default-terminal xterm-256color\n"
    "set-option -g default-shell /bin/sh\n"
    "set-option -g history-limit 10000\n"
    "set-option -g remain-on-exit on\n"
    "set-option -g extended-keys on\n";

struct ProcessResult {
  int status = -1;  // exit status, or -1 when it did not exit normally
  std::string out, err;
};

// Runs `argv` (looked up on PATH) with `environment`, stdin /dev/null, and collects its output.
ProcessResult run_process(const std::vector<std::string>& argv_strings,
                          const std::vector<std::string>& environment) {
  // The server and the program inherit the child's (empty) signal mask.
  const SpawnedProcess process = spawn_with_pipes(argv_strings, environment);
  ProcessResult result;
  pollfd fds[2] = {{process.out_fd, POLLIN, 0}, {process.err_fd, POLLIN, 0}};
  std::string* into[2] = {&result.out, &result.err};
  int open_streams = 2;
  while (open_streams > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[16384];
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds[i].fd = -1;  // poll ignores negative descriptors
        --open_streams;
        continue;
      }
      into[i]->append(buffer, static_cast<std::size_t>(n));
    }
  }
  close(process.out_fd);
  close(process.err_fd);
  int status = 0;
  while (waitpid(process.pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// tmux ends a command at an argument ending in ';' unless it ends in "\;", which it turns
// into ';'. Arguments here are never separators, so a trailing ';' is escaped.
std::string escape_argument(std::string argument) {
  if (!argument.empty() && argument.back() == ';') argument.insert(argument.size() - 1, "\\");
  return argument;
}

// `argument` quoted for /bin/sh.
std::string shell_quote(const std::string& argument) {
  std::string quoted = "'";
  for (const char c : argument) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

// The text of /proc/<pid>/stat, empty when the process is gone. read(2) rather than a stream:
// a process that dies mid-read makes read fail with ESRCH, which std::ifstream turns into an
// exception.
std::string proc_stat(const std::string& pid) {
  const int fd = open(("/proc/" + pid + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  char buffer[1024];
  const ssize_t n = read(fd, buffer, sizeof buffer);
  close(fd);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string();
}

struct ProcStat {
  char state = 0;
  long session = 0;
};

// Parses "pid (comm) state ppid pgrp session ...": comm may hold anything, so after its ')'.
std::optional<ProcStat> parse_proc_stat(const std::string& stat) {
  const std::size_t close_paren = stat.rfind(')');
  if (close_paren == std::string::npos) return std::nullopt;
  ProcStat parsed;
  long parent = 0, group = 0;
  if (std::sscanf(stat.c_str() + close_paren + 1, " %c %ld %ld %ld", &parsed.state, &parent, &group,
                  &parsed.session) != 4) {
    return std::nullopt;
  }
  return parsed;
}

// Live (not zombie) processes in the session `session_id`.
std::vector<pid_t> live_processes_in_session(pid_t session_id) {
  std::vector<pid_t> found;
  std::error_code error;
  for (auto entry = std::filesystem::directory_iterator("/proc", error);
       !error && entry != std::filesystem::directory_iterator(); entry.increment(error)) {
    const std::string name = entry->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto stat = parse_proc_stat(proc_stat(name));
    if (stat && stat->session == session_id && stat->state != 'Z') found.push_back(std::stoi(name));
  }
  return found;
}

std::vector<std::string> client_environment(const std::filesystem::path& home) {
  const char* path = std::getenv("PATH");
  return {"PATH=" + std::string(path ? path : "/usr/bin:/bin"), "HOME=" + home.string(),
          "LANG=C.UTF-8"};
}

}  // namespace

bool process_running(pid_t pid) {
  const auto stat = parse_proc_stat(proc_stat(std::to_string(pid)));
  return stat && stat->state != 'Z';
}

bool TmuxSession::available() {
  static const bool found = [] {
    try {
      return run_process({"tmux", "-V"}, client_environment("/")).status == 0;
    } catch (const std::runtime_error&) {
      return false;
    }
  }();
  return found;
}

TmuxSession::TmuxSession(const TmuxOptions& options) : socket_(dir_.path() / "sock") {
  const std::filesystem::path cwd =
      options.cwd.empty() ? std::filesystem::current_path() : options.cwd;
  environment_ = client_environment(cwd);
  const std::filesystem::path config = dir_.write("tmux.conf", kConfig);
  std::vector<std::string> args{"-f",          config.string(),
                                "new-session", "-d",
                                "-s",          kTarget,
                                "-x",          std::to_string(options.columns),
                                "-y",          std::to_string(options.rows),
                                "-c",          cwd.string()};
  for (const auto& [name, value] : options.env) {
    args.push_back("-e");
    args.push_back(name + "=" + value);
  }
  if (!options.command.empty()) {
    // One shell word list with exec: tmux runs a lone argument through the shell anyway, and
    // exec keeps the program's pid the pane's.
    std::string command = "exec";
    for (const std::string& argument : options.command) command += " " + shell_quote(argument);
    args.push_back(command);
  }
  tmux(args);
  try {
    tmux({"set-option", "-g", "window-size", "manual"});
    pane_pid_ = std::stoi(pane_format("#{pane_pid}"));
    server_pid_ = std::stoi(pane_format("#{pid}"));
    pane_tty_ = pane_format("#{pane_tty}");
  } catch (...) {
    shut_down();
    throw;
  }
}

TmuxSession::~TmuxSession() {
  shut_down();
}

void TmuxSession::shut_down() noexcept {
  try {
    tmux({"kill-server"});
  } catch (const std::exception&) {
    // Already gone; whatever is left is killed below.
  }
  const auto leftovers = [this] {
    std::vector<pid_t> pids = live_processes_in_session(pane_pid_);
    if (process_running(server_pid_)) pids.push_back(server_pid_);
    return pids;
  };
  // A grace for what is left to end on the hang-up, then SIGKILL and the same again for the
  // kills to land, so that when this returns nothing is left (unless the kernel is stuck).
  auto deadline = std::chrono::steady_clock::now() + kTeardownGrace;
  bool killed = false;
  for (std::vector<pid_t> left = leftovers(); !left.empty(); left = leftovers()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      if (killed) break;
      for (const pid_t pid : left) {
        if (pid > 1) kill(pid, SIGKILL);
      }
      killed = true;
      deadline = std::chrono::steady_clock::now() + kTeardownGrace;
    }
    std::this_thread::sleep_for(kPollInterval);
  }
}

std::string TmuxSession::tmux(const std::vector<std::string>& args) const {
  std::vector<std::string> argv{"tmux", "-S", socket_.string()};
  for (const std::string& arg : args) argv.push_back(escape_argument(arg));
  ProcessResult result = run_process(argv, environment_);
  if (result.status != 0) {
    throw std::runtime_error("tmux " + (args.empty() ? "" : args.front()) +
                             " failed: " + result.err);
  }
  return std::move(result.out);
}

std::string TmuxSession::pane_format(const std::string& format) const {
  std::string value = tmux({"display-message", "-p", "-t", kTarget, format});
  while (!value.empty() && value.back() == '\n') value.pop_back();
  return value;
}

void TmuxSession::type(std::string_view text) const {
  while (!text.empty()) {
    std::size_t length = util::utf8_prefix_length(text, kTypeChunkBytes);
    if (length == 0) length = kTypeChunkBytes;  // only a run of stray continuation bytes
    tmux({"send-keys", "-t", kTarget, "-l", "--", std::string(text.substr(0, length))});
    text.remove_prefix(length);
  }
}

void TmuxSession::press(const std::string& key) const {
  tmux({"send-keys", "-t", kTarget, "--", key});
}

void TmuxSession::send_raw(std::string_view bytes) const {
  static constexpr char kHex[] = "0123456789abcdef";
  while (!bytes.empty()) {
    std::vector<std::string> args{"send-keys", "-t", kTarget, "-H"};
    const std::string_view chunk = bytes.substr(0, kRawChunkBytes);
    for (const char c : chunk) {
      const auto byte = static_cast<unsigned char>(c);
      args.push_back({kHex[byte >> 4], kHex[byte & 0xF]});
    }
    tmux(args);
    bytes.remove_prefix(chunk.size());
  }
}

std::string TmuxSession::screen() const {
  return tmux({"capture-pane", "-p", "-t", kTarget});
}

std::string TmuxSession::screen_with_colors() const {
  return tmux({"capture-pane", "-p", "-e", "-t", kTarget});
}

std::string TmuxSession::history() const {
  return tmux({"capture-pane", "-p", "-S", "-", "-E", "-", "-t", kTarget});
}

bool TmuxSession::wait_for(const std::function<bool(const std::string& screen)>& condition,
                           std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition(screen())) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(kPollInterval);
  }
  return true;
}

bool TmuxSession::wait_for_text(std::string_view text, std::chrono::milliseconds timeout) const {
  return wait_for(
      [text](const std::string& screen) { return screen.find(text) != std::string::npos; },
      timeout);
}

void TmuxSession::resize(int columns, int rows) const {
  tmux({"resize-window", "-t", kTarget, "-x", std::to_string(columns), "-y", std::to_string(rows)});
  // tmux sets the terminal's size from its event loop, and holds back a resize that follows
  // another within 250 ms; keys sent meanwhile would reach the program before it. Returning
  // once the terminal has the size (the kernel sends SIGWINCH as it changes) keeps them after.
  const int tty = open(pane_tty_.c_str(), O_RDONLY | O_NOCTTY | O_CLOEXEC);
  if (tty < 0) throw std::runtime_error("cannot open " + pane_tty_);
  const auto deadline = std::chrono::steady_clock::now() + kResizeTimeout;
  winsize size{};
  while (ioctl(tty, TIOCGWINSZ, &size) == 0 && (size.ws_col != columns || size.ws_row != rows) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(kPollInterval);
  }
  close(tty);
  if (size.ws_col != columns || size.ws_row != rows) {
    throw std::runtime_error("the terminal did not take the size " + std::to_string(columns) + "x" +
                             std::to_string(rows));
  }
}

bool TmuxSession::wait_for_exit(std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!exit_status()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(kPollInterval);
  }
  return true;
}

std::optional<int> TmuxSession::exit_status() const {
  const std::string fields = pane_format("#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}");
  const std::size_t first = fields.find(':'), second = fields.find(':', first + 1);
  if (fields.substr(0, first) != "1" || second == std::string::npos) return std::nullopt;
  const std::string status = fields.substr(first + 1, second - first - 1);
  const std::string signal_number = fields.substr(second + 1);
  if (!status.empty()) return std::stoi(status);
  if (!signal_number.empty()) return 128 + std::stoi(signal_number);
  // Dead but not yet reaped. tmux built with libutempter can lose the SIGCHLD of a program
  // that exits while utempter's helper runs (tmux issue #311), and would then never collect the
  // status; a SIGCHLD of our own makes it look again (it reaps with WNOHANG, so this is safe).
  if (server_pid_ > 1) kill(server_pid_, SIGCHLD);
  return std::nullopt;
}

}  // namespace nib::testing
