#include "process/subprocess.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "process/process_reaper.hpp"

namespace nib::process {
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

// A pipe for the child's stdin: the child reads the read end, nib writes the write end, which
// stays blocking (writes wait for the child to read rather than failing part-way).
bool make_stdin_pipe(Pipe& pipe) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  pipe.read_end.reset(fds[0]);
  pipe.write_end.reset(fds[1]);
  return move_above_standard(pipe.read_end) && move_above_standard(pipe.write_end);
}

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (const std::string& text : strings) pointers.push_back(const_cast<char*>(text.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

// The child's stack: it runs a few system calls and execve, nothing that needs more.
constexpr std::size_t kChildStackBytes = 64 * 1024;

// Everything the child needs, prepared by the parent: the child must not allocate, lock or call
// anything a sanitizer intercepts, since it shares the parent's memory until execve.
struct ChildSetup {
  const char* program;
  char* const* argv;
  char* const* envp;
  const char* cwd;
  int stdin_fd;  // -1: /dev/null
  int stdout_fd;
  int stderr_fd;
  pid_t parent;
  bool parent_death_signal;
  const int* namespaces;  // setns() each, in order
  std::size_t namespace_count;
  int landlock_ruleset;         // -1: none
  const void* seccomp_program;  // a struct sock_fprog, or null
  const int* passed;            // become 3, 4, ... (each above every target number already)
  std::size_t passed_count;
  long max_descriptor;  // for closing descriptors where close_range is missing (Linux < 5.9)
  // Written by the child when a step fails, read by the parent once clone has returned (the
  // child has then exec'd or exited).
  volatile int error;
  const char* volatile failed_step;
};

// The kernel's struct sigaction for rt_sigaction on the generic layout (x86-64, arm64, riscv):
// handler, flags, restorer, mask. glibc's struct differs, and its sigaction() is intercepted by
// sanitizers, which the child must not run.
#if !defined(__x86_64__) && !defined(__aarch64__) && !(defined(__riscv) && __riscv_xlen == 64)
#error "spawn_process resets signal dispositions with the generic kernel sigaction layout"
#endif
struct KernelSigaction {
  void (*handler)(int);
  unsigned long flags;
  void (*restorer)();
  std::uint64_t mask;
};

[[gnu::no_sanitize_address, gnu::no_sanitize_thread, gnu::no_sanitize_undefined]] int fail(
    ChildSetup& setup, const char* step) {
  setup.error = errno;
  setup.failed_step = step;
  ::syscall(SYS_exit_group, 127);
  return 127;
}

// The child, from clone to execve: raw system calls only (see ChildSetup).
[[gnu::no_sanitize_address, gnu::no_sanitize_thread, gnu::no_sanitize_undefined]] int child_main(
    void* argument) {
  ChildSetup& setup = *static_cast<ChildSetup*>(argument);
  // Every signal is blocked (the parent blocked them before clone). Signals nib ignores, say
  // SIGPIPE, must not stay ignored (`yes | head` relies on SIGPIPE killing `yes`), and none
  // of nib's handlers may run here, in memory the parent shares: all back to their defaults.
  const KernelSigaction defaults{SIG_DFL, 0, nullptr, 0};
  for (int signal_number = 1; signal_number < _NSIG; ++signal_number) {
    if (signal_number == SIGKILL || signal_number == SIGSTOP) continue;
    ::syscall(SYS_rt_sigaction, signal_number, &defaults, nullptr, sizeof defaults.mask);
  }
  // A new session: no controlling terminal (nothing can prompt on /dev/tty) and a process
  // group of its own.
  if (::syscall(SYS_setsid) < 0) return fail(setup, "setsid");
  if (setup.parent_death_signal) {
    if (::syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
      return fail(setup, "set the parent-death signal");
    }
    // The parent may have died before the signal was set; then nobody waits for this one.
    if (::syscall(SYS_getppid) != setup.parent) return fail(setup, "find the parent");
  }
  if (setup.stdin_fd >= 0) {
    if (::syscall(SYS_dup3, setup.stdin_fd, STDIN_FILENO, 0) < 0) {
      return fail(setup, "redirect stdin");
    }
  } else {
    const long null_fd = ::syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY, 0);
    if (null_fd < 0) return fail(setup, "open /dev/null");
    if (null_fd != STDIN_FILENO) {
      if (::syscall(SYS_dup3, null_fd, STDIN_FILENO, 0) < 0) return fail(setup, "redirect stdin");
      ::syscall(SYS_close, null_fd);
    }
  }
  if (::syscall(SYS_dup3, setup.stdout_fd, STDOUT_FILENO, 0) < 0 ||
      ::syscall(SYS_dup3, setup.stderr_fd, STDERR_FILENO, 0) < 0) {
    return fail(setup, "redirect the output");
  }
  if (::syscall(SYS_chdir, setup.cwd) != 0) return fail(setup, "enter the directory");
  for (std::size_t i = 0; i < setup.namespace_count; ++i) {
    if (::syscall(SYS_setns, setup.namespaces[i], 0) != 0) return fail(setup, "enter a namespace");
  }
  if (setup.landlock_ruleset >= 0) {
    // Landlock requires no_new_privs (or CAP_SYS_ADMIN); it also keeps a set-user-id program
    // from gaining the rights the ruleset takes away.
    if (::syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        ::syscall(SYS_landlock_restrict_self, setup.landlock_ruleset, 0) != 0) {
      return fail(setup, "apply the Landlock rules");
    }
  }
  if (setup.seccomp_program != nullptr) {
    if (::syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        ::syscall(SYS_prctl, PR_SET_SECCOMP, SECCOMP_MODE_FILTER, setup.seccomp_program, 0, 0) !=
            0) {
      return fail(setup, "apply the socket filter");
    }
  }
  for (std::size_t i = 0; i < setup.passed_count; ++i) {
    const long target = STDERR_FILENO + 1 + static_cast<long>(i);
    if (::syscall(SYS_dup3, setup.passed[i], target, 0) < 0)
      return fail(setup, "pass a descriptor");
  }
  // Descriptors another thread opened without O_CLOEXEC must not leak into the command.
  const unsigned first_closed = STDERR_FILENO + 1 + static_cast<unsigned>(setup.passed_count);
  if (::syscall(SYS_close_range, first_closed, ~0U, 0) != 0) {
    for (long fd = first_closed; fd < setup.max_descriptor; ++fd) ::syscall(SYS_close, fd);
  }
  const std::uint64_t no_signals = 0;
  ::syscall(SYS_rt_sigprocmask, SIG_SETMASK, &no_signals, nullptr, sizeof no_signals);
  ::syscall(SYS_execve, setup.program, setup.argv, setup.envp);
  return fail(setup, "run the program");
}

using CloneFunction = int (*)(int (*)(void*), void*, int, void*, ...);

// glibc's clone. ThreadSanitizer intercepts clone() as if it were fork(): its child resets the
// runtime's state of the calling thread, which under CLONE_VM is the parent thread's own, so
// every synchronisation of that thread afterwards is misread (a race reported on each spawn's
// request). The child here runs no instrumented code, so the TSan build bypasses the interceptor.
CloneFunction libc_clone() {
#if defined(__SANITIZE_THREAD__)
  static const CloneFunction function = [] {
    void* libc = ::dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    void* found = libc != nullptr ? ::dlsym(libc, "clone") : nullptr;
    return found != nullptr ? reinterpret_cast<CloneFunction>(found) : &::clone;
  }();
  return function;
#else
  return &::clone;
#endif
}

// Starts the child described by `setup`; its pid, or why it could not be started.
util::Result<pid_t> clone_child(ChildSetup& setup) {
  using Result = util::Result<pid_t>;
  void* stack = ::mmap(nullptr, kChildStackBytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) {
    return Result::failure(std::string("cannot allocate a stack for the child: ") +
                           std::strerror(errno));
  }
  // The child starts with every signal blocked, so no handler of nib's runs in it.
  sigset_t all;
  sigset_t previous;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &previous);
  // CLONE_VFORK: this thread waits until the child has called execve or exited.
  pid_t pid = libc_clone()(child_main, static_cast<char*>(stack) + kChildStackBytes,
                           CLONE_VM | CLONE_VFORK | SIGCHLD, &setup);
  const int clone_error = errno;
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  ::munmap(stack, kChildStackBytes);
  if (pid < 0)
    return Result::failure(std::string("cannot start a process: ") + std::strerror(clone_error));
  if (setup.failed_step != nullptr) {
    ::waitpid(pid, nullptr, 0);  // it has exited already
    return Result::failure(std::string("cannot ") + setup.failed_step + ": " +
                           std::strerror(setup.error));
  }
  return pid;
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
                                           const EnvironmentOverrides& overrides,
                                           const std::vector<std::string>& withheld) {
  std::vector<std::string> merged;
  for (const char* const* entry = base; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text = *entry;
    const std::string_view name = text.substr(0, text.find('='));
    bool dropped = std::find(withheld.begin(), withheld.end(), name) != withheld.end();
    for (const auto& [override_name, value] : overrides) dropped |= override_name == name;
    if (!dropped) merged.emplace_back(text);
  }
  for (const auto& [name, value] : overrides) merged.push_back(name + "=" + value);
  return merged;
}

util::Result<SpawnedProcess> spawn_process(const SpawnRequest& request) {
  SpawnedProcess process;
  Pipe out;
  Pipe err;
  Pipe in;
  if (!make_pipe(out) || (!request.merge_stderr && !make_pipe(err)) ||
      (request.pipe_stdin && !make_stdin_pipe(in))) {
    return util::Result<SpawnedProcess>::failure(std::string("cannot create pipes: ") +
                                                 std::strerror(errno));
  }
  // The child's dup2 onto 0..2 must not clobber its own stdin source (see move_above_standard).
  UniqueFd stdin_copy;
  if (request.stdin_fd >= 0) {
    stdin_copy.reset(::fcntl(request.stdin_fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1));
    if (!stdin_copy.valid()) {
      return util::Result<SpawnedProcess>::failure(std::string("cannot pass the input: ") +
                                                   std::strerror(errno));
    }
  }
  // Copies of the passed descriptors above the numbers they become, so that placing one never
  // overwrites another still to be placed.
  std::vector<UniqueFd> passed_copies;
  std::vector<int> passed;
  for (const int fd : request.passed_fds) {
    passed_copies.emplace_back(::fcntl(
        fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1 + static_cast<int>(request.passed_fds.size())));
    if (!passed_copies.back().valid()) {
      return util::Result<SpawnedProcess>::failure(std::string("cannot pass a descriptor: ") +
                                                   std::strerror(errno));
    }
    passed.push_back(passed_copies.back().get());
  }
  std::vector<char*> argv = c_strings(request.argv);
  std::vector<char*> envp = c_strings(request.environment);
  ChildSetup setup{.program = argv[0],
                   .argv = argv.data(),
                   .envp = envp.data(),
                   .cwd = request.cwd.c_str(),
                   .stdin_fd = request.pipe_stdin   ? in.read_end.get()
                               : stdin_copy.valid() ? stdin_copy.get()
                                                    : -1,
                   .stdout_fd = out.write_end.get(),
                   .stderr_fd = request.merge_stderr ? out.write_end.get() : err.write_end.get(),
                   .parent = ::getpid(),
                   .parent_death_signal = request.die_with_spawning_thread,
                   .namespaces = request.namespaces_to_enter.data(),
                   .namespace_count = request.namespaces_to_enter.size(),
                   .landlock_ruleset = request.landlock_ruleset,
                   .seccomp_program = request.seccomp_program,
                   .passed = passed.data(),
                   .passed_count = passed.size(),
                   .max_descriptor = ::sysconf(_SC_OPEN_MAX),
                   .error = 0,
                   .failed_step = nullptr};
  // spawn_registered wants the pid alone; the reason for a failure is kept beside it.
  auto child = util::Result<pid_t>::failure("the process was not started");
  process.pid = spawn_registered([&] {
    child = clone_child(setup);
    return child.ok() ? child.value() : -1;
  });
  if (!child.ok()) return util::Result<SpawnedProcess>::failure(child.error());
  // A pidfd makes the exit pollable next to the pipes. The pid cannot be reused before this:
  // the child stays a zombie until its owner reaps it.
  // (glibc 2.36's <sys/pidfd.h> lacks extern "C", hence the raw system call.)
  if (request.open_pidfd) {
    process.pidfd.reset(static_cast<int>(::syscall(SYS_pidfd_open, process.pid, 0)));
  }
  process.stdout_fd = std::move(out.read_end);
  process.stderr_fd = std::move(err.read_end);
  process.stdin_fd = std::move(in.write_end);
  return process;
}

int reported_wait_status(const SpawnedProcess& process, int status) {
  if (!process.exit_report.valid()) return status;
  char text[32] = {};
  const ssize_t got = ::read(process.exit_report.get(), text, sizeof text - 1);
  if (got <= 0) return status;
  int number = 0;
  if (std::sscanf(text, "signal %d", &number) == 1 && number > 0 && number < 128) {
    return number;  // as waitpid reports a death by that signal
  }
  if (std::sscanf(text, "exit %d", &number) == 1 && number >= 0 && number < 256) {
    return number << 8;
  }
  return status;
}

}  // namespace nib::process
