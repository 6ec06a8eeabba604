#include "sandbox/command_sandbox.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>

#include "sandbox/sandbox_test_support.hpp"

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;
using process::CommandEnd;
using process::CommandResult;

// A TCP listener on 127.0.0.1 of the host (outside every sandbox), on a port the kernel picks.
class HostListener {
 public:
  HostListener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::listen(fd_, 8);
    socklen_t length = sizeof address;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
  }
  ~HostListener() { ::close(fd_); }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

// True when a TCP connection to 127.0.0.1:port succeeds from the host.
bool host_connects(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool connected = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return connected;
}

using CommandSandboxTest = testing::SandboxedCommandTest;

TEST_F(CommandSandboxTest, TheTreeAndTheTempDirectoriesAreWritable) {
  const CommandResult result =
      run("echo made > inside.txt && echo t > \"${TMPDIR:-/tmp}/nib-$$\" "
          "&& rm \"${TMPDIR:-/tmp}/nib-$$\" && cat inside.txt");
  EXPECT_EQ(exit_code(result), 0) << result.stderr_capture.tail();
  EXPECT_EQ(result.stdout_capture.tail(), "made\n");
  EXPECT_EQ(testing::file_contents(tree_.tree() / "inside.txt"), "made\n");
}

TEST_F(CommandSandboxTest, WritingOutsideTheTreeFails) {
  fs::create_symlink(tree_.outside(), tree_.tree() / "link");
  const std::string home = std::getenv("HOME") != nullptr ? std::getenv("HOME") : "/root";
  for (const std::string& target :
       std::vector<std::string>{"/etc/nib-sandbox-escape", home + "/nib-sandbox-escape",
                                "../outside/escape", "link/escape", "/usr/nib-sandbox-escape"}) {
    const CommandResult result = run("echo escaped > '" + target + "'");
    EXPECT_NE(exit_code(result), 0) << target;
    EXPECT_NE(result.stderr_capture.tail().find("Read-only file system"), std::string::npos)
        << target << ": " << result.stderr_capture.tail();
  }
  EXPECT_FALSE(fs::exists("/etc/nib-sandbox-escape"));
  EXPECT_FALSE(fs::exists(home + "/nib-sandbox-escape"));
  EXPECT_TRUE(fs::is_empty(tree_.outside()));
}

TEST_F(CommandSandboxTest, ExistingConfigurationInTheTreeIsReadOnly) {
  fs::create_directories(tree_.tree() / ".git/hooks");
  fs::create_directories(tree_.tree() / ".claude/hooks");
  fs::create_directories(tree_.tree() / ".nib");
  for (const char* file : {".git/config", ".nib/settings.json", ".claude/settings.json",
                           ".claude/hooks/check.sh", ".mcp.json"}) {
    std::ofstream(tree_.tree() / file) << "{}";
  }
  for (const std::string& target : std::vector<std::string>{
           ".git/hooks/pre-commit", ".git/config", ".nib/settings.json", ".nib/settings.local.json",
           ".claude/settings.json", ".claude/settings.local.json", ".claude/hooks/check.sh",
           ".mcp.json"}) {
    const CommandResult result = run("echo planted >> " + target);
    EXPECT_NE(exit_code(result), 0) << target;
  }
  EXPECT_EQ(exit_code(run("mv .git/hooks .git/hooks.old || rm -rf .git/hooks")), 1);
  EXPECT_FALSE(fs::exists(tree_.tree() / ".git/hooks/pre-commit"));
  EXPECT_EQ(testing::file_contents(tree_.tree() / ".mcp.json"), "{}");
  EXPECT_EQ(testing::file_contents(tree_.tree() / ".claude/hooks/check.sh"), "{}");
  // The rest of .git stays writable: commits work.
  EXPECT_EQ(exit_code(run("echo ref > .git/HEAD")), 0);
}

TEST_F(CommandSandboxTest, MissingConfigurationCannotBeCreatedAndLeavesNothingBehind) {
  fs::create_directories(tree_.tree() / ".git");
  std::ofstream(tree_.tree() / ".git/config") << "[core]\n";
  for (const std::string& target :
       std::vector<std::string>{".nib/settings.json", ".mcp.json", ".claude/settings.json",
                                ".git/hooks/post-checkout"}) {
    const CommandResult result = run("mkdir -p $(dirname " + target + ") && echo x > " + target);
    EXPECT_NE(exit_code(result), 0) << target;
  }
  EXPECT_FALSE(fs::is_regular_file(tree_.tree() / ".mcp.json"));
  EXPECT_FALSE(fs::exists(tree_.tree() / ".nib/settings.json"));
  sandbox_.reset();  // nib's exit: the empty placeholders go
  for (const char* placeholder : {".nib", ".mcp.json", ".claude", ".git/hooks"}) {
    EXPECT_FALSE(fs::exists(tree_.tree() / placeholder)) << placeholder;
  }
  EXPECT_TRUE(fs::exists(tree_.tree() / ".git/config"));
}

TEST_F(CommandSandboxTest, AGitFileOfAWorktreeIsReadOnly) {
  std::ofstream(tree_.tree() / ".git") << "gitdir: /somewhere/else\n";
  EXPECT_NE(exit_code(run("echo 'gitdir: /tmp/planted' > .git")), 0);
  EXPECT_EQ(testing::file_contents(tree_.tree() / ".git"), "gitdir: /somewhere/else\n");
}

TEST_F(CommandSandboxTest, ALoopbackServerOutsideCannotBeReached) {
  const HostListener listener;
  const std::string connect = "exec 3<>/dev/tcp/127.0.0.1/" + std::to_string(listener.port());
  EXPECT_NE(exit_code(run(connect)), 0);
  // The host's network, when the call asks for it.
  EXPECT_EQ(exit_code(run(connect, {.network = true})), 0);
}

TEST_F(CommandSandboxTest, LoopbackWorksBetweenSandboxedCommandsAndNowhereElse) {
  testing::make_fifo(tree_.tree() / "ready");
  // A server in one command, on a port the kernel picks, which it reports through the FIFO.
  auto server = std::async(std::launch::async, [&] {
    return run(
        "exec /usr/bin/python3 -c 'import socket\n"
        "s = socket.socket(); s.bind((\"127.0.0.1\", 0)); s.listen(1)\n"
        "open(\"ready\", \"w\").write(str(s.getsockname()[1]) + \"\\n\")\n"
        "c, _ = s.accept(); c.sendall(b\"hello from the other command\\n\"); c.close()'");
  });
  const std::string port = testing::read_fifo_line(tree_.tree() / "ready");
  ASSERT_FALSE(port.empty());
  EXPECT_FALSE(host_connects(std::stoi(port))) << "the server is not on the host's loopback";
  const CommandResult client = run("exec 3<>/dev/tcp/127.0.0.1/" + port + " && cat <&3");
  EXPECT_EQ(exit_code(client), 0) << client.stderr_capture.tail();
  EXPECT_EQ(client.stdout_capture.tail(), "hello from the other command\n");
  EXPECT_EQ(exit_code(server.get()), 0);
}

TEST_F(CommandSandboxTest, ProcessesOutsideCannotBeSeenOrKilled) {
  const CommandResult result = run("kill -KILL " + std::to_string(::getpid()) + "; ls /proc");
  EXPECT_EQ(result.end, CommandEnd::kExited);
  EXPECT_NE(result.stderr_capture.tail().find("No such process"), std::string::npos)
      << result.stderr_capture.tail();
  // Only the sandbox's own processes are in its /proc.
  EXPECT_EQ(result.stdout_capture.tail().find(std::to_string(::getpid()) + "\n"),
            std::string::npos);
}

// One pid namespace for all of nib's commands: a pid one command prints means the same
// process to the next, as outside the sandbox.
TEST_F(CommandSandboxTest, APidOneCommandPrintsMeansTheSameProcessToTheNext) {
  const CommandResult started = run("sleep 300 > /dev/null 2>&1 & echo $!");
  ASSERT_EQ(exit_code(started), 0);
  const std::string pid =
      started.stdout_capture.tail().substr(0, started.stdout_capture.tail().find('\n'));
  ASSERT_FALSE(pid.empty());
  const CommandResult seen = run("cat /proc/" + pid + "/cmdline | tr '\\0' ' '");
  EXPECT_EQ(seen.stdout_capture.tail(), "sleep 300 ") << seen.stderr_capture.tail();
  EXPECT_EQ(exit_code(run("kill " + pid)), 0);
  EXPECT_NE(exit_code(run("sleep 0.2; kill -0 " + pid)), 0) << "it was killed";
}

// A sandboxed command cannot reach a socket of the host by its path (tmux's, the session
// bus, an agent's): it cannot make a unix socket at all. Judged on the host: the listener
// got no connection.
TEST_F(CommandSandboxTest, AHostUnixSocketCannotBeReachedByItsPath) {
  const fs::path path = tree_.outside() / "host.sock";
  const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", path.c_str());
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  const CommandResult tried =
      run("python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); "
          "s.send(b\"x\")' " +
          path.string());
  EXPECT_NE(exit_code(tried), 0);
  EXPECT_NE(tried.stderr_capture.tail().find("PermissionError"), std::string::npos)
      << tried.stderr_capture.tail();
  EXPECT_LT(::accept(listener, nullptr, nullptr), 0) << "the host's socket was reached";
  ::close(listener);
  // A socket pair reaches nothing and stays possible (interpreters and test runners use it).
  EXPECT_EQ(exit_code(run("python3 -c 'import socket; socket.socketpair()'")), 0);
}

TEST_F(CommandSandboxTest, SocketsTheSettingsNameLiftTheFilterAndHideTheUsersOwn) {
  sandbox_ = std::make_unique<CommandSandbox>(
      tree_.options({.unix_sockets = {tree_.outside() / "db.sock"}}));
  fs::create_directories(runtime_.path() / "bus-dir");
  std::ofstream(runtime_.path() / "bus-dir" / "marker") << "x";
  EXPECT_EQ(exit_code(run("python3 -c 'import socket; socket.socket(socket.AF_UNIX)'")), 0);
  EXPECT_NE(exit_code(run("ls " + (runtime_.path() / "bus-dir/marker").string())), 0)
      << "the runtime directory is hidden";
}

// The secret places the sandbox is given are hidden from commands: the file is not there.
TEST_F(CommandSandboxTest, HiddenPlacesAreEmptyInside) {
  fs::create_directories(tree_.outside() / "home/.ssh");
  std::ofstream(tree_.outside() / "home/.ssh/id_rsa") << "KEY\n";
  std::ofstream(tree_.outside() / "home/.netrc") << "password x\n";
  auto options = tree_.options();
  options.hidden = {tree_.outside() / "home/.ssh", tree_.outside() / "home/.netrc",
                    tree_.outside() / "home/.aws"};
  sandbox_ = std::make_unique<CommandSandbox>(options);
  const CommandResult read = run("cat " + (tree_.outside() / "home/.ssh/id_rsa").string() +
                                 "; cat " + (tree_.outside() / "home/.netrc").string() +
                                 "; ls -A " + (tree_.outside() / "home/.ssh").string());
  EXPECT_EQ(read.stdout_capture.tail(), "");
  EXPECT_NE(read.stderr_capture.tail().find("No such file"), std::string::npos);
}

// A home directory inside a temp directory (HOME=/tmp/u) stays read-only there, but for a
// writable place in it; the rest of the temp directory stays writable.
TEST_F(CommandSandboxTest, AHomeInATempDirectoryStaysReadOnly) {
  testing::TempDir home;  // under /tmp
  std::ofstream(home.path() / ".bashrc") << "# own\n";
  fs::create_directories(home.path() / "work");
  auto options = tree_.options();
  options.home = home.path();
  options.settings.writable_paths = {home.path() / "work"};
  sandbox_ = std::make_unique<CommandSandbox>(options);
  const CommandResult result = run("echo pwned >> " + (home.path() / ".bashrc").string() +
                                   "; echo made > " + (home.path() / "work/made").string() +
                                   "; echo t > \"${TMPDIR:-/tmp}/nib-home-$$\" && rm "
                                   "\"${TMPDIR:-/tmp}/nib-home-$$\" && echo temp");
  EXPECT_EQ(testing::file_contents(home.path() / ".bashrc"), "# own\n");
  EXPECT_EQ(testing::file_contents(home.path() / "work/made"), "made\n");
  EXPECT_EQ(result.stdout_capture.tail(), "temp\n") << result.stderr_capture.tail();
}

// A command killed by a signal is reported as killed by it, as outside the sandbox, not as
// bubblewrap's exit status 128+N.
TEST_F(CommandSandboxTest, ADeathBySignalIsReportedAsOne) {
  const CommandResult killed = run("kill -TERM $$");
  EXPECT_EQ(killed.end, CommandEnd::kSignaled);
  EXPECT_EQ(killed.signal, SIGTERM);
  const CommandResult exited = run("exit 143");
  EXPECT_EQ(exited.end, CommandEnd::kExited);
  EXPECT_EQ(exited.exit_code, 143);
}

TEST_F(CommandSandboxTest, ACBuildAndAPythonTestRunPassInside) {
  std::ofstream(tree_.tree() / "hello.c") << "#include <stdio.h>\n"
                                             "int main(void) { puts(\"built\"); return 0; }\n";
  const CommandResult build = run("cc -O2 -o hello hello.c && ./hello");
  EXPECT_EQ(exit_code(build), 0) << build.stderr_capture.tail();
  EXPECT_EQ(build.stdout_capture.tail(), "built\n");

  std::ofstream(tree_.tree() / "test_sum.py") << "import unittest\n"
                                                 "class Sum(unittest.TestCase):\n"
                                                 "    def test_sum(self):\n"
                                                 "        self.assertEqual(sum([1, 2]), 3)\n";
  const CommandResult tests =
      run("env -u PYTHONDONTWRITEBYTECODE /usr/bin/python3 -m unittest -v test_sum");
  EXPECT_EQ(exit_code(tests), 0) << tests.stderr_capture.tail();
  EXPECT_NE(tests.stderr_capture.tail().find("OK"), std::string::npos);
  EXPECT_TRUE(fs::is_directory(tree_.tree() / "__pycache__"));
}

TEST_F(CommandSandboxTest, CachesPointAtThePrivateWritableDirectory) {
  const CommandResult result =
      run("for v in XDG_CACHE_HOME npm_config_cache GOCACHE GOPATH CARGO_HOME PIP_CACHE_DIR "
          "CCACHE_DIR; do touch \"${!v}/probe\" && echo \"${!v}\"; done");
  EXPECT_EQ(exit_code(result), 0) << result.stderr_capture.tail();
  const std::string listed = result.stdout_capture.tail();
  EXPECT_NE(listed.find((tree_.cache() / "go-build").string()), std::string::npos) << listed;
  EXPECT_NE(listed.find((tree_.cache() / "cargo").string()), std::string::npos) << listed;
  EXPECT_TRUE(fs::exists(tree_.cache() / "npm" / "probe"));
}

TEST_F(CommandSandboxTest, ExtraWritablePathsFromTheSettingsAreWritable) {
  sandbox_ = std::make_unique<CommandSandbox>(tree_.options({.writable_paths = {tree_.outside()}}));
  EXPECT_EQ(exit_code(run("echo shared > ../outside/allowed")), 0);
  EXPECT_EQ(testing::file_contents(tree_.outside() / "allowed"), "shared\n");
}

TEST_F(CommandSandboxTest, NetworkOnInTheSettingsGivesTheHostNetwork) {
  sandbox_ = std::make_unique<CommandSandbox>(tree_.options({.network = true}));
  const HostListener listener;
  EXPECT_EQ(exit_code(run("exec 3<>/dev/tcp/127.0.0.1/" + std::to_string(listener.port()))), 0);
}

TEST_F(CommandSandboxTest, ExcludedCommandsRunOutside) {
  sandbox_ = std::make_unique<CommandSandbox>(
      tree_.options({.excluded_commands = {"docker", "git push"}}));
  using core::Confinement;
  EXPECT_EQ(sandbox_->confinement("docker ps", {}), Confinement::kUnconfinedExcluded);
  EXPECT_EQ(sandbox_->confinement("  git push origin main", {}), Confinement::kUnconfinedExcluded);
  EXPECT_EQ(sandbox_->confinement("dockerd", {}), Confinement::kSandboxed);
  EXPECT_EQ(sandbox_->confinement("git status", {.network = true}), Confinement::kSandboxedNetwork);
  EXPECT_EQ(sandbox_->confinement("git status", {.unsandboxed = true}),
            Confinement::kUnconfinedAsked);
}

TEST_F(CommandSandboxTest, TheNamespacesHoldersEndWithTheirOwnerHoweverItEnds) {
  auto shared = SharedNamespaces::create(::geteuid() != 0);
  ASSERT_TRUE(shared.ok()) << shared.error();
  const pid_t holder = shared.value()->holder();
  const pid_t init = shared.value()->init();
  EXPECT_FALSE(testing::process_gone(holder));
  EXPECT_FALSE(testing::process_gone(init));
  shared.value().reset();
  EXPECT_TRUE(testing::process_gone(holder));
  EXPECT_TRUE(testing::process_gone(init));

  // An owner killed with SIGKILL: the lifeline reaches end-of-file and both exit.
  int report[2];
  ASSERT_EQ(::pipe2(report, O_CLOEXEC), 0);
  const pid_t owner = ::fork();
  if (owner == 0) {
    auto orphaned = SharedNamespaces::create(::geteuid() != 0);
    const pid_t held[2] = {orphaned.ok() ? orphaned.value()->holder() : -1,
                           orphaned.ok() ? orphaned.value()->init() : -1};
    [[maybe_unused]] const auto written = ::write(report[1], held, sizeof held);
    ::pause();
    ::_exit(0);
  }
  ::close(report[1]);
  pid_t orphans[2] = {-1, -1};
  ASSERT_EQ(::read(report[0], orphans, sizeof orphans), static_cast<ssize_t>(sizeof orphans));
  ::close(report[0]);
  ASSERT_GT(orphans[0], 0);
  ASSERT_GT(orphans[1], 0);
  const int holder_fd = static_cast<int>(::syscall(SYS_pidfd_open, orphans[0], 0));
  const int init_fd = static_cast<int>(::syscall(SYS_pidfd_open, orphans[1], 0));
  ASSERT_GE(holder_fd, 0);
  ASSERT_GE(init_fd, 0);
  ::kill(owner, SIGKILL);
  ::waitpid(owner, nullptr, 0);
  for (const int fd : {holder_fd, init_fd}) {
    pollfd exited{fd, POLLIN, 0};
    EXPECT_EQ(::poll(&exited, 1, 30000), 1) << "a holder outlived its owner";
    ::close(fd);
  }
  ::waitpid(orphans[0], nullptr, 0);  // adopted by this process, the subreaper
}

}  // namespace
}  // namespace nib::sandbox
