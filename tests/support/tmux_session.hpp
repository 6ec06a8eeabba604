#pragma once
// TmuxSession: runs a program (usually the real nib binary) in a real terminal — a detached tmux
// server on a private socket — so an end-to-end test can type, press keys, resize, and read the
// screen the way a user sees it. Each session has its own server in a fresh temporary directory,
// so tests never touch the user's tmux and can run in parallel.
//
// The screen of another process can only be observed by looking: wait_for() polls capture-pane
// every ~20 ms, and its timeout is a hang guard, not a speed assertion.
//
// Thread-safety: const methods may be called from any thread (each runs its own tmux client);
// construction and destruction belong to one owner.

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/temp_dir.hpp"

namespace nib::testing {

struct TmuxOptions {
  std::vector<std::string> command;  // program and arguments, run directly (no shell); empty: sh
  std::map<std::string, std::string> env;  // added to the program's environment
  std::filesystem::path cwd;               // working directory (and HOME); empty: the test's
  int columns = 100;
  int rows = 30;
};

// Whether `pid` is a live process: not gone and not a zombie (Linux, from /proc).
bool process_running(pid_t pid);

class TmuxSession {
 public:
  // True when a working `tmux` is on PATH; tests GTEST_SKIP when it is not.
  static bool available();

  // Starts the server and the program in a window of exactly columns x rows. The program's
  // environment holds only PATH, HOME (= cwd), LANG=C.UTF-8, TERM=xterm-256color, tmux's own
  // TMUX/TMUX_PANE and `options.env`, so a developer's keys and settings never leak in. The pane
  // stays after the program exits (remain-on-exit) so its status can be read; 10000 lines of
  // history are kept; extended keys are on, so a program that asks gets S-Enter as CSI 13;2u.
  // Throws std::runtime_error when tmux fails.
  explicit TmuxSession(const TmuxOptions& options);
  // Kills the server; whatever is left of the program's session after a short grace (say it
  // ignored SIGHUP) is killed with SIGKILL, as is the server.
  ~TmuxSession();
  TmuxSession(const TmuxSession&) = delete;
  TmuxSession& operator=(const TmuxSession&) = delete;

  // Types `text` literally (send-keys -l): UTF-8 characters, no key names.
  void type(std::string_view text) const;
  // Presses one key by its tmux name: "Enter", "Escape", "C-c", "Up", "BSpace", "Tab", "S-Enter".
  void press(const std::string& key) const;
  // Writes exactly `bytes` to the program's terminal (send-keys -H), e.g. a bracketed paste or
  // "\x1b[13;2u".
  void send_raw(std::string_view bytes) const;

  // The visible rows (capture-pane -p), each ending in '\n', trailing spaces trimmed.
  std::string screen() const;
  // The visible rows with SGR escape sequences for colours and attributes (capture-pane -p -e).
  std::string screen_with_colors() const;
  // The scrollback followed by the visible rows.
  std::string history() const;

  // Polls screen() until `condition` holds; false if `timeout` passes first.
  bool wait_for(const std::function<bool(const std::string& screen)>& condition,
                std::chrono::milliseconds timeout = std::chrono::seconds(20)) const;
  // wait_for() the screen to contain `text`.
  bool wait_for_text(std::string_view text,
                     std::chrono::milliseconds timeout = std::chrono::seconds(20)) const;

  // Resizes the window and returns once the program's terminal has the new size (and the
  // program its SIGWINCH), so keys sent afterwards arrive after the resize.
  void resize(int columns, int rows) const;

  // Waits until the program has exited and tmux has its exit status; false if `timeout` passes
  // first.
  bool wait_for_exit(std::chrono::milliseconds timeout = std::chrono::seconds(20)) const;
  // The program's exit status once it has exited (128 + signal when a signal ended it); nullopt
  // while it runs or tmux has not collected the status yet (wait_for_exit() waits for that).
  std::optional<int> exit_status() const;
  // The program's process id.
  pid_t pane_pid() const { return pane_pid_; }

 private:
  // Runs `tmux -S <socket> args...` and returns its stdout; throws when it fails.
  std::string tmux(const std::vector<std::string>& args) const;
  // The value of a tmux format for the pane (display-message -p).
  std::string pane_format(const std::string& format) const;
  // Kills the server, then whatever is left of the program's session and the server.
  void shut_down() noexcept;

  TempDir dir_;
  std::filesystem::path socket_;
  std::vector<std::string> environment_;  // of every tmux client, and so of the server
  pid_t pane_pid_ = -1;
  pid_t server_pid_ = -1;
  std::string pane_tty_;  // the program's terminal, /dev/pts/N
};

}  // namespace nib::testing
