#include "sandbox/shared_namespaces.hpp"

#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "process/process_reaper.hpp"
#include "sandbox/wait_child.hpp"

namespace nib::sandbox {
namespace {

// The holder runs a handful of system calls; a small stack of its own is plenty.
constexpr std::size_t kHolderStackBytes = 64 * 1024;

// Prepared by the parent; the holder (a copy of nib's memory, no CLONE_VM) only reads it.
struct HolderSetup {
  bool map_user;
  char uid_map[64];  // "UID UID 1": nib's uid, mapped to itself
  char gid_map[64];
  int lifeline;  // read end
  int report;    // write end: two ints, 0 or the errno of the failed step and the step's index,
                 // then init's pid
};

// Steps of the holder, named for the parent's error message.
constexpr const char* kSteps[] = {"deny setgroups",           "map the user id",
                                  "map the group id",         "bring up the loopback interface",
                                  "create the pid namespace", "map init's user id",
                                  "map init's group id"};
constexpr int kStepCount = sizeof kSteps / sizeof kSteps[0];

[[gnu::no_sanitize_address, gnu::no_sanitize_thread, gnu::no_sanitize_undefined]] bool write_file(
    const char* path, const char* text) {
  const long fd = ::syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CLOEXEC, 0);
  if (fd < 0) return false;
  std::size_t length = 0;
  while (text[length] != '\0') ++length;
  const long written = ::syscall(SYS_write, fd, text, length);
  ::syscall(SYS_close, fd);
  return written == static_cast<long>(length);
}

// "/proc/<pid>/<name>" into `out` (at least 64 bytes), with no library call.
[[gnu::no_sanitize_address, gnu::no_sanitize_thread, gnu::no_sanitize_undefined]] void proc_path(
    char* out, long pid, const char* name) {
  const char prefix[] = "/proc/";
  std::size_t at = 0;
  for (const char* c = prefix; *c != '\0'; ++c) out[at++] = *c;
  char digits[24];
  std::size_t count = 0;
  do {
    digits[count++] = static_cast<char>('0' + pid % 10);
    pid /= 10;
  } while (pid > 0);
  while (count > 0) out[at++] = digits[--count];
  out[at++] = '/';
  for (const char* c = name; *c != '\0'; ++c) out[at++] = *c;
  out[at] = '\0';
}

[[gnu::no_sanitize_address, gnu::no_sanitize_thread, gnu::no_sanitize_undefined]] bool
bring_up_loopback() {
  const long fd = ::syscall(SYS_socket, AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  ifreq request{};
  request.ifr_name[0] = 'l';
  request.ifr_name[1] = 'o';
  bool ok = ::syscall(SYS_ioctl, fd, SIOCGIFFLAGS, &request) == 0;
  request.ifr_flags = static_cast<short>(request.ifr_flags | IFF_UP);
  ok = ok && ::syscall(SYS_ioctl, fd, SIOCSIFFLAGS, &request) == 0;
  ::syscall(SYS_close, fd);
  return ok;
}

[[gnu::no_sanitize_address, gnu::no_sanitize_thread, gnu::no_sanitize_undefined]] int report(
    const HolderSetup& setup, int error, int step) {
  const int message[2] = {error, step};
  ::syscall(SYS_write, setup.report, message, sizeof message);
  return error;
}

// Every descriptor but `keep` goes.
[[gnu::no_sanitize_address, gnu::no_sanitize_thread, gnu::no_sanitize_undefined]] void
close_all_but(int keep) {
  if (keep > 0) ::syscall(SYS_close_range, 0, keep - 1, 0);
  ::syscall(SYS_close_range, keep + 1, ~0U, 0);
}

// Waits for the lifeline to end (nib closed it or died).
[[gnu::no_sanitize_address, gnu::no_sanitize_thread, gnu::no_sanitize_undefined]] void
await_lifeline_end(int lifeline) {
  char byte;
  while (::syscall(SYS_read, lifeline, &byte, 1) != 0) {
    if (errno != EINTR) break;
  }
}

// init, pid 1 of the commands' pid namespace: reaps the orphans the commands leave behind
// (SIGCHLD, blocked, arrives through a signalfd) until the lifeline ends; its exit then ends
// every process left in the namespace.
[[gnu::no_sanitize_address, gnu::no_sanitize_thread, gnu::no_sanitize_undefined]] void init_main(
    int lifeline) {
  close_all_but(lifeline);
  std::uint64_t child_signal = 1ULL << (SIGCHLD - 1);
  const long signals =
      ::syscall(SYS_signalfd4, -1, &child_signal, sizeof child_signal, SFD_CLOEXEC);
  for (;;) {
    while (::syscall(SYS_wait4, -1, nullptr, WNOHANG | __WALL, nullptr) > 0) {
    }
    pollfd fds[2] = {{lifeline, POLLIN, 0}, {static_cast<int>(signals), POLLIN, 0}};
    if (::syscall(SYS_ppoll, fds, signals >= 0 ? 2 : 1, nullptr, nullptr, 0) < 0) continue;
    if (fds[0].revents != 0) break;
    if (fds[1].revents != 0) {
      signalfd_siginfo info;
      ::syscall(SYS_read, signals, &info, sizeof info);
    }
  }
  ::syscall(SYS_exit_group, 0);
}

// The holder, from clone to its end: raw system calls only (it is a copy of a multi-threaded
// process, where locks may be held by threads that do not exist in the copy).
[[gnu::no_sanitize_address, gnu::no_sanitize_thread, gnu::no_sanitize_undefined]] int holder_main(
    void* argument) {
  const HolderSetup& setup = *static_cast<const HolderSetup*>(argument);
  // Every signal stays blocked (the parent blocked them before clone): none of nib's handlers
  // runs here, and SIGINT from the terminal cannot end the holder. A session of its own keeps
  // it out of nib's process group.
  ::syscall(SYS_setsid);
  if (setup.map_user) {
    if (!write_file("/proc/self/setgroups", "deny")) return report(setup, errno, 0);
    if (!write_file("/proc/self/uid_map", setup.uid_map)) return report(setup, errno, 1);
    if (!write_file("/proc/self/gid_map", setup.gid_map)) return report(setup, errno, 2);
  }
  if (!bring_up_loopback()) return report(setup, errno, 3);
  // init: a fork (no CLONE_VM, so no stack of its own is needed) into the new pid namespace.
  const long flags = CLONE_NEWPID | (setup.map_user ? CLONE_NEWUSER : 0) | SIGCHLD;
  const long init = ::syscall(SYS_clone, flags, 0, nullptr, nullptr, 0);
  if (init < 0) return report(setup, errno, 4);
  if (init == 0) {
    init_main(setup.lifeline);
    return 0;
  }
  if (setup.map_user) {
    char path[64];
    proc_path(path, init, "uid_map");
    if (!write_file(path, setup.uid_map)) return report(setup, errno, 5);
    proc_path(path, init, "gid_map");
    if (!write_file(path, setup.gid_map)) return report(setup, errno, 6);
  }
  report(setup, 0, 0);
  const int pid = static_cast<int>(init);
  ::syscall(SYS_write, setup.report, &pid, sizeof pid);
  close_all_but(setup.lifeline);
  await_lifeline_end(setup.lifeline);
  // init ends on the same signal; waiting for it keeps it from becoming nib's zombie.
  ::syscall(SYS_wait4, init, nullptr, __WALL, nullptr);
  ::syscall(SYS_exit_group, 0);
  return 0;
}

std::string errno_text(int error) {
  return std::strerror(error);
}

// Opens /proc/<pid>/ns/<name>.
util::Result<process::UniqueFd> open_namespace(pid_t pid, const char* name) {
  const std::string path = "/proc/" + std::to_string(pid) + "/ns/" + name;
  process::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) {
    return util::Result<process::UniqueFd>::failure(std::string("cannot open the ") + name +
                                                    " namespace: " + errno_text(errno));
  }
  return fd;
}

}  // namespace

util::Result<std::unique_ptr<SharedNamespaces>> SharedNamespaces::create(
    bool with_user_namespaces) {
  using Result = util::Result<std::unique_ptr<SharedNamespaces>>;
  int lifeline[2];
  int report[2];
  if (::pipe2(lifeline, O_CLOEXEC) != 0) return Result::failure("cannot create a pipe");
  process::UniqueFd lifeline_read(lifeline[0]);
  process::UniqueFd lifeline_write(lifeline[1]);
  if (::pipe2(report, O_CLOEXEC) != 0) return Result::failure("cannot create a pipe");
  process::UniqueFd report_read(report[0]);
  process::UniqueFd report_write(report[1]);

  HolderSetup setup{.map_user = with_user_namespaces,
                    .uid_map = {},
                    .gid_map = {},
                    .lifeline = lifeline_read.get(),
                    .report = report_write.get()};
  std::snprintf(setup.uid_map, sizeof setup.uid_map, "%u %u 1", ::getuid(), ::getuid());
  std::snprintf(setup.gid_map, sizeof setup.gid_map, "%u %u 1", ::getgid(), ::getgid());
  void* stack = ::mmap(nullptr, kHolderStackBytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) return Result::failure("cannot allocate a stack: " + errno_text(errno));
  const int flags = CLONE_NEWNET | (with_user_namespaces ? CLONE_NEWUSER : 0) | SIGCHLD;
  sigset_t all;
  sigset_t previous;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &previous);
  int clone_error = 0;
  const pid_t pid = process::spawn_registered([&] {
    const pid_t child =
        ::clone(holder_main, static_cast<char*>(stack) + kHolderStackBytes, flags, &setup);
    clone_error = errno;
    return child;
  });
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  ::munmap(stack, kHolderStackBytes);  // the holder has a copy of its own
  if (pid < 0) return Result::failure("cannot create the namespaces: " + errno_text(clone_error));
  std::unique_ptr<SharedNamespaces> shared(new SharedNamespaces());
  shared->holder_ = pid;
  shared->lifeline_ = std::move(lifeline_write);
  lifeline_read.reset();
  report_write.reset();
  int message[2] = {EIO, 0};
  const ssize_t got = ::read(report_read.get(), message, sizeof message);
  if (got != static_cast<ssize_t>(sizeof message) || message[0] != 0) {
    // The holder has exited (or will, with the lifeline closed): the destructor reaps it.
    const int step = got == static_cast<ssize_t>(sizeof message) ? message[1] : 0;
    return Result::failure(std::string("the namespaces' holder could not ") +
                           kSteps[step < 0 || step >= kStepCount ? 0 : step] + ": " +
                           errno_text(message[0]));
  }
  int init = -1;
  if (::read(report_read.get(), &init, sizeof init) != static_cast<ssize_t>(sizeof init)) {
    return Result::failure("the namespaces' holder did not say which process is init");
  }
  shared->init_ = init;
  // Orphans of sandboxed commands go to init: they are the commands' still (process_reaper.hpp).
  process::add_adopter(init);
  const auto take = [](util::Result<process::UniqueFd> opened, process::UniqueFd& into) {
    if (!opened.ok()) return util::Status::failure(opened.error());
    into = std::move(opened.value());
    return util::Status::success();
  };
  util::Status opened = util::Status::success();
  if (with_user_namespaces) {
    if (opened.ok()) opened = take(open_namespace(pid, "user"), shared->user_namespace_);
    if (opened.ok()) opened = take(open_namespace(init, "user"), shared->setup_user_namespace_);
  }
  if (opened.ok()) opened = take(open_namespace(pid, "net"), shared->network_namespace_);
  if (opened.ok()) opened = take(open_namespace(init, "pid"), shared->pid_namespace_);
  if (!opened.ok()) return Result::failure(opened.error());
  return shared;
}

SharedNamespaces::~SharedNamespaces() {
  if (init_ > 0) process::remove_adopter(init_);
  lifeline_.reset();  // the holder and init end
  if (holder_ > 0) wait_registered_child(holder_);
}

std::vector<int> SharedNamespaces::to_enter(bool shared_network) const {
  if (!shared_network) return {};
  std::vector<int> namespaces;
  if (user_namespace_.valid()) namespaces.push_back(user_namespace_.get());
  namespaces.push_back(network_namespace_.get());
  return namespaces;
}

}  // namespace nib::sandbox
