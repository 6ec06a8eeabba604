#include "sandbox/shared_network.hpp"

#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "sandbox/wait_child.hpp"
#include "tools/process_reaper.hpp"

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
  int report;    // write end: one int, 0 or the errno of the failed step, then the step's index
};

// Steps of the holder, named for the parent's error message.
constexpr const char* kSteps[] = {"deny setgroups", "map the user id", "map the group id",
                                  "bring up the loopback interface"};

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
  // Every descriptor but the lifeline goes: the holder must not keep a command's pipe open.
  const int low = setup.lifeline < setup.report ? setup.lifeline : setup.report;
  const int high = setup.lifeline < setup.report ? setup.report : setup.lifeline;
  if (low > 0) ::syscall(SYS_close_range, 0, low - 1, 0);
  if (high > low + 1) ::syscall(SYS_close_range, low + 1, high - 1, 0);
  ::syscall(SYS_close_range, high + 1, ~0U, 0);
  report(setup, 0, 0);
  ::syscall(SYS_close, setup.report);
  char byte;
  while (::syscall(SYS_read, setup.lifeline, &byte, 1) != 0) {
    if (errno != EINTR) break;
  }
  ::syscall(SYS_exit_group, 0);
  return 0;
}

std::string errno_text(int error) {
  return std::strerror(error);
}

}  // namespace

util::Result<std::unique_ptr<SharedNetwork>> SharedNetwork::create(bool with_user_namespace) {
  using Result = util::Result<std::unique_ptr<SharedNetwork>>;
  int lifeline[2];
  int report[2];
  if (::pipe2(lifeline, O_CLOEXEC) != 0) return Result::failure("cannot create a pipe");
  tools::UniqueFd lifeline_read(lifeline[0]);
  tools::UniqueFd lifeline_write(lifeline[1]);
  if (::pipe2(report, O_CLOEXEC) != 0) return Result::failure("cannot create a pipe");
  tools::UniqueFd report_read(report[0]);
  tools::UniqueFd report_write(report[1]);

  HolderSetup setup{.map_user = with_user_namespace,
                    .uid_map = {},
                    .gid_map = {},
                    .lifeline = lifeline_read.get(),
                    .report = report_write.get()};
  std::snprintf(setup.uid_map, sizeof setup.uid_map, "%u %u 1", ::getuid(), ::getuid());
  std::snprintf(setup.gid_map, sizeof setup.gid_map, "%u %u 1", ::getgid(), ::getgid());
  void* stack = ::mmap(nullptr, kHolderStackBytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) return Result::failure("cannot allocate a stack: " + errno_text(errno));
  const int flags = CLONE_NEWNET | (with_user_namespace ? CLONE_NEWUSER : 0) | SIGCHLD;
  sigset_t all;
  sigset_t previous;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &previous);
  int clone_error = 0;
  const pid_t pid = tools::spawn_registered([&] {
    const pid_t child =
        ::clone(holder_main, static_cast<char*>(stack) + kHolderStackBytes, flags, &setup);
    clone_error = errno;
    return child;
  });
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  ::munmap(stack, kHolderStackBytes);  // the holder has a copy of its own
  if (pid < 0) {
    return Result::failure("cannot create a network namespace: " + errno_text(clone_error));
  }
  std::unique_ptr<SharedNetwork> network(new SharedNetwork());
  network->holder_ = pid;
  network->lifeline_ = std::move(lifeline_write);
  lifeline_read.reset();
  report_write.reset();
  int message[2] = {EIO, 0};
  const ssize_t got = ::read(report_read.get(), message, sizeof message);
  if (got != static_cast<ssize_t>(sizeof message) || message[0] != 0) {
    // The holder has exited (or will, with the lifeline closed): the destructor reaps it.
    const int step = got == static_cast<ssize_t>(sizeof message) ? message[1] : 0;
    return Result::failure(std::string("the network namespace's holder could not ") +
                           kSteps[step < 0 || step > 3 ? 0 : step] + ": " + errno_text(message[0]));
  }
  const std::string proc = "/proc/" + std::to_string(pid) + "/ns/";
  if (with_user_namespace) {
    network->user_namespace_.reset(::open((proc + "user").c_str(), O_RDONLY | O_CLOEXEC));
    if (!network->user_namespace_.valid()) {
      return Result::failure("cannot open the holder's user namespace: " + errno_text(errno));
    }
    network->descriptors_.push_back(network->user_namespace_.get());
  }
  network->network_namespace_.reset(::open((proc + "net").c_str(), O_RDONLY | O_CLOEXEC));
  if (!network->network_namespace_.valid()) {
    return Result::failure("cannot open the holder's network namespace: " + errno_text(errno));
  }
  network->descriptors_.push_back(network->network_namespace_.get());
  return network;
}

SharedNetwork::~SharedNetwork() {
  lifeline_.reset();  // the holder's read returns end-of-file and it exits
  if (holder_ <= 0) return;
  // It exits within microseconds of the lifeline closing; reaped rather than left a zombie.
  wait_registered_child(holder_);
}

}  // namespace nib::sandbox
