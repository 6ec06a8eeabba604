// nib-exec: runs a sandboxed command and says how it ended. bubblewrap, which stands between nib
// and the command, reports a command killed by signal N as the exit status 128+N, exactly as if
// it had exited with that status; this helper, the command's parent inside the sandbox, sees
// the true wait status and writes it to the descriptor it is given ("exit N" or "signal N"),
// which nib reads (sandbox/command_sandbox.hpp). Then it ends as the command did.
//
// Usage: nib-exec FD PROGRAM [ARGUMENTS...]
// Plain system calls and libc only: it starts with every command, so it must start fast.

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc < 3) {
    static const char kUsage[] = "usage: nib-exec FD PROGRAM [ARGUMENTS...]\n";
    [[maybe_unused]] const ssize_t wrote = write(STDERR_FILENO, kUsage, sizeof kUsage - 1);
    return 127;
  }
  const int report = std::atoi(argv[1]);
  // The command must not hold the report open (a background process would keep it so).
  fcntl(report, F_SETFD, FD_CLOEXEC);
  const pid_t child = fork();
  if (child < 0) return 127;
  if (child == 0) {
    execv(argv[2], argv + 2);
    std::perror(argv[2]);
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return 127;
  }
  char text[32];
  const int length = WIFSIGNALED(status)
                         ? std::snprintf(text, sizeof text, "signal %d\n", WTERMSIG(status))
                         : std::snprintf(text, sizeof text, "exit %d\n",
                                         WIFEXITED(status) ? WEXITSTATUS(status) : 0);
  [[maybe_unused]] const ssize_t wrote = write(report, text, static_cast<std::size_t>(length));
  close(report);
  if (WIFSIGNALED(status)) {
    // End by the same signal, as a shell's parent would see it.
    signal(WTERMSIG(status), SIG_DFL);
    raise(WTERMSIG(status));
    return 128 + WTERMSIG(status);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}
