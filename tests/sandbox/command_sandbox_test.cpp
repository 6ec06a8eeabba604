#include "sandbox/command_sandbox.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>

#include "sandbox/sandbox_test_support.hpp"

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;
using tools::CommandEnd;
using tools::CommandResult;

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
  EXPECT_TRUE(sandbox_->runs_outside("docker ps"));
  EXPECT_TRUE(sandbox_->runs_outside("  git push origin main"));
  EXPECT_FALSE(sandbox_->runs_outside("dockerd"));
  EXPECT_FALSE(sandbox_->runs_outside("git status"));
}

TEST_F(CommandSandboxTest, TheNetworkHolderEndsWithItsOwnerHoweverItEnds) {
  auto holder = SharedNetwork::create(::geteuid() != 0);
  ASSERT_TRUE(holder.ok()) << holder.error();
  const pid_t pid = holder.value()->holder();
  EXPECT_FALSE(testing::process_gone(pid));
  holder.value().reset();
  EXPECT_TRUE(testing::process_gone(pid));

  // An owner killed with SIGKILL: the holder's lifeline reaches end-of-file and it exits.
  int report[2];
  ASSERT_EQ(::pipe2(report, O_CLOEXEC), 0);
  const pid_t owner = ::fork();
  if (owner == 0) {
    auto orphaned = SharedNetwork::create(::geteuid() != 0);
    const pid_t held = orphaned.ok() ? orphaned.value()->holder() : -1;
    [[maybe_unused]] const auto written = ::write(report[1], &held, sizeof held);
    ::pause();
    ::_exit(0);
  }
  ::close(report[1]);
  pid_t orphan = -1;
  ASSERT_EQ(::read(report[0], &orphan, sizeof orphan), static_cast<ssize_t>(sizeof orphan));
  ::close(report[0]);
  ASSERT_GT(orphan, 0);
  const int orphan_fd = static_cast<int>(::syscall(SYS_pidfd_open, orphan, 0));
  ASSERT_GE(orphan_fd, 0);
  ::kill(owner, SIGKILL);
  ::waitpid(owner, nullptr, 0);
  pollfd exited{orphan_fd, POLLIN, 0};
  EXPECT_EQ(::poll(&exited, 1, 30000), 1) << "the holder outlived its owner";
  ::close(orphan_fd);
  ::waitpid(orphan, nullptr, 0);  // adopted by this process, the subreaper
}

}  // namespace
}  // namespace nib::sandbox
