#include "tools/subprocess.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "tools/process_reaper.hpp"

namespace nib::tools {
namespace {

// A bigger pipe means fewer wake-ups when a command floods its output; the kernel's
// unprivileged maximum (fs.pipe-max-size) is 1 MiB by default. Failure only costs speed.
constexpr int kPipeBytes = 1024 * 1024;

// Moves `fd` to a number >= 3, so the child's dup2 onto 0..2 cannot clobber it (this matters
// when nib itself was started with a standard descriptor closed).
bool move_above_standard(UniqueFd& fd) {
  if (fd.get() > STDERR_FILENO) return true;
  const int moved = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  if (moved < 0) return false;
  fd.reset(moved);
  return true;
}

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

bool make_pipe(Pipe& pipe) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  pipe.read_end.reset(fds[0]);
  pipe.write_end.reset(fds[1]);
  ::fcntl(pipe.write_end.get(), F_SETPIPE_SZ, kPipeBytes);
  return move_above_standard(pipe.read_end) && move_above_standard(pipe.write_end) &&
         ::fcntl(pipe.read_end.get(), F_SETFL, O_NONBLOCK) == 0;
}

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (const std::string& text : strings) pointers.push_back(const_cast<char*>(text.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

// posix_spawn's attribute and file-action objects, destroyed on every path.
struct SpawnSetup {
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_t actions;
  SpawnSetup() {
    posix_spawnattr_init(&attributes);
    posix_spawn_file_actions_init(&actions);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

// Fills `setup`; returns 0 or an errno value.
int prepare(SpawnSetup& setup, const SpawnRequest& request, const Pipe& out, const Pipe& err) {
  // A new session: no controlling terminal (nothing can prompt on /dev/tty) and a process
  // group of its own. Signals blocked or ignored in nib (SIGPIPE, say) must not be inherited:
  // `yes | head` relies on SIGPIPE killing `yes`.
  sigset_t empty;
  sigset_t all;
  sigemptyset(&empty);
  sigfillset(&all);
  int rc = posix_spawnattr_setflags(
      &setup.attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  if (rc == 0) rc = posix_spawnattr_setsigmask(&setup.attributes, &empty);
  if (rc == 0) rc = posix_spawnattr_setsigdefault(&setup.attributes, &all);
  posix_spawn_file_actions_t* actions = &setup.actions;
  if (rc == 0)
    rc = posix_spawn_file_actions_addopen(actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (rc == 0) rc = posix_spawn_file_actions_adddup2(actions, out.write_end.get(), STDOUT_FILENO);
  if (rc == 0) rc = posix_spawn_file_actions_adddup2(actions, err.write_end.get(), STDERR_FILENO);
  if (rc == 0) rc = posix_spawn_file_actions_addchdir_np(actions, request.cwd.c_str());
  // Descriptors another thread opened without O_CLOEXEC must not leak into the command either.
  if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(actions, STDERR_FILENO + 1);
  return rc;
}

}  // namespace

const EnvironmentOverrides& non_interactive_environment() {
  static const EnvironmentOverrides overrides = {
      {"NIB", "1"},  // lets scripts know nib runs them
      // Test runners and package managers skip watch modes, prompts and spinners (npx then
      // installs without asking, so npm_config_yes is not needed on top).
      {"CI", "1"},
      // Anything that would open an editor returns at once: commits without -m abort with
      // "empty message", rebases keep their todo list.
      {"GIT_EDITOR", "true"},
      {"EDITOR", "true"},
      {"VISUAL", "true"},
      {"GIT_TERMINAL_PROMPT", "0"},  // git fails instead of asking for credentials
      // No pagers; systemd and others fall back to PAGER, so SYSTEMD_PAGER is not needed.
      {"PAGER", "cat"},
      {"GIT_PAGER", "cat"},
      {"DEBIAN_FRONTEND", "noninteractive"},
      // There is no terminal: fewer colour codes and cursor tricks to strip from the output.
      {"TERM", "dumb"},
      {"NO_COLOR", "1"},
  };
  return overrides;
}

std::vector<std::string> merge_environment(const char* const* base,
                                           const EnvironmentOverrides& overrides) {
  std::vector<std::string> merged;
  for (const char* const* entry = base; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text = *entry;
    const std::string_view name = text.substr(0, text.find('='));
    bool replaced = false;
    for (const auto& [override_name, value] : overrides) replaced |= override_name == name;
    if (!replaced) merged.emplace_back(text);
  }
  for (const auto& [name, value] : overrides) merged.push_back(name + "=" + value);
  return merged;
}

SpawnedProcess spawn_process(const SpawnRequest& request) {
  SpawnedProcess process;
  Pipe out;
  Pipe err;
  if (!make_pipe(out) || !make_pipe(err)) {
    process.error = std::string("cannot create pipes: ") + std::strerror(errno);
    return process;
  }
  SpawnSetup setup;
  int rc = prepare(setup, request, out, err);
  if (rc == 0) {
    std::vector<char*> argv = c_strings(request.argv);
    std::vector<char*> envp = c_strings(request.environment);
    process.pid = spawn_registered([&] {
      pid_t pid = -1;
      rc = posix_spawn(&pid, argv[0], &setup.actions, &setup.attributes, argv.data(), envp.data());
      return rc == 0 ? pid : -1;
    });
  }
  if (rc != 0) {
    process.pid = -1;
    process.error = std::strerror(rc);
    return process;
  }
  // A pidfd makes the exit pollable next to the pipes. The pid cannot be reused before this:
  // the child stays a zombie until its owner reaps it.
  // (glibc 2.36's <sys/pidfd.h> lacks extern "C", hence the raw system call.)
  if (request.open_pidfd) {
    process.pidfd.reset(static_cast<int>(::syscall(SYS_pidfd_open, process.pid, 0)));
  }
  process.stdout_fd = std::move(out.read_end);
  process.stderr_fd = std::move(err.read_end);
  return process;
}

}  // namespace nib::tools
