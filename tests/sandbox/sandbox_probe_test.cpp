#include "sandbox/sandbox_probe.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "process/command_registry.hpp"
#include "process/process_reaper.hpp"
#include "sandbox/command_sandbox.hpp"
#include "sandbox/landlock_rules.hpp"
#include "sandbox/sandbox_test_support.hpp"
#include "support/scoped_places.hpp"
#include "support/temp_dir.hpp"

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// A system where bubblewrap cannot create namespaces: a fake bwrap that fails the way the real
// one does there, and the kernel settings that cause it.
class NoNamespacesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(process::become_subreaper());
    const fs::path fake = dir_.write(
        "bwrap",
        "#!/bin/sh\n"
        "echo 'bwrap: No permissions to create new namespace, likely because the kernel does "
        "not allow non-privileged user namespaces.' >&2\n"
        "exit 1\n");
    fs::permissions(fake, fs::perms::owner_all);
    probe_.bubblewrap = fake;
    probe_.sysctl_root = dir_.path() / "sys";
    dir_.write("sys/kernel/apparmor_restrict_unprivileged_userns", "1\n");
  }
  void TearDown() override {
    process::kill_all_descendants();
    process::forget_all_commands();
  }

  testing::TempDir dir_;
  testing::TempDir runtime_;
  testing::ScopedPlaces runtime_places_{&util::UserPlaces::runtime_dir, runtime_.path()};
  ProbeOptions probe_;
};

TEST_F(NoNamespacesTest, WithLandlockTheVerdictNamesTheCauseTheFixAndWhatIsLost) {
  probe_.landlock_abi = 6;
  const ProbeVerdict verdict = probe_sandbox(probe_);
  EXPECT_EQ(verdict.confinement, Confinement::kLandlock);
  EXPECT_THAT(verdict.line, HasSubstr("kernel.apparmor_restrict_unprivileged_userns=1"));
  EXPECT_THAT(verdict.line,
              HasSubstr("fix: sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0"));
  EXPECT_THAT(verdict.line, HasSubstr(".git/hooks"));
  EXPECT_EQ(verdict.line.find('\n'), std::string::npos);
}

TEST_F(NoNamespacesTest, AnotherCauseQuotesBubblewrap) {
  fs::remove(dir_.path() / "sys/kernel/apparmor_restrict_unprivileged_userns");
  probe_.landlock_abi = 0;
  const ProbeVerdict verdict = probe_sandbox(probe_);
  EXPECT_EQ(verdict.confinement, Confinement::kNone);
  EXPECT_THAT(verdict.line, HasSubstr("No permissions to create new namespace"));
  EXPECT_THAT(verdict.line, HasSubstr("Landlock is not available"));
}

TEST_F(NoNamespacesTest, MissingBubblewrapSaysHowToInstallIt) {
  probe_.bubblewrap = dir_.path() / "missing-bwrap";
  probe_.landlock_abi = 0;
  const ProbeVerdict verdict = probe_sandbox(probe_);
  EXPECT_EQ(verdict.confinement, Confinement::kNone);
  EXPECT_THAT(verdict.line, HasSubstr("apt install bubblewrap"));
}

TEST_F(NoNamespacesTest, WithoutLandlockNothingRunsAndTheRefusalCarriesTheLine) {
  probe_.landlock_abi = 0;
  testing::SandboxTree tree;
  SandboxOptions options = tree.options();
  options.probe = probe_;
  const CommandSandbox sandbox(options);
  EXPECT_FALSE(sandbox.active());
  const process::CommandResult result =
      testing::run_with(&sandbox, "echo ran > ran.txt", tree.tree());
  EXPECT_EQ(result.end, process::CommandEnd::kNotStarted);
  EXPECT_THAT(result.error, HasSubstr("kernel.apparmor_restrict_unprivileged_userns=1"));
  EXPECT_FALSE(fs::exists(tree.tree() / "ran.txt"));
}

TEST_F(NoNamespacesTest, LandlockConfinesWritesToTheTree) {
  if (landlock_abi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  testing::SandboxTree tree;
  SandboxOptions options = tree.options();
  options.probe = probe_;
  const CommandSandbox sandbox(options);
  ASSERT_EQ(sandbox.verdict().confinement, Confinement::kLandlock) << sandbox.verdict().line;
  const auto inside =
      testing::run_with(&sandbox, "echo ok > inside.txt && cat inside.txt", tree.tree());
  EXPECT_EQ(inside.exit_code, 0) << inside.stderr_capture.tail() << inside.error;
  EXPECT_EQ(inside.stdout_capture.tail(), "ok\n");
  const auto outside = testing::run_with(&sandbox, "echo escaped > ../outside/escape", tree.tree());
  EXPECT_NE(outside.exit_code, 0);
  EXPECT_THAT(outside.stderr_capture.tail(), HasSubstr("Permission denied"));
  EXPECT_TRUE(fs::is_empty(tree.outside()));
  const auto etc = testing::run_with(&sandbox, "echo x > /etc/nib-landlock-escape", tree.tree());
  EXPECT_NE(etc.exit_code, 0);
  EXPECT_FALSE(fs::exists("/etc/nib-landlock-escape"));
  // Output to /dev/null still works, and so does a C build.
  std::ofstream(tree.tree() / "hello.c") << "int main(void) { return 0; }\n";
  const auto build =
      testing::run_with(&sandbox, "cc -o hello hello.c > /dev/null && ./hello", tree.tree());
  EXPECT_EQ(build.exit_code, 0) << build.stderr_capture.tail();
}

// Landlock grants only, so a home directory in a temp directory is kept read-only by granting
// the temp directory's other entries one by one: they stay writable, the home does not.
TEST_F(NoNamespacesTest, LandlockKeepsAHomeInATempDirectoryReadOnly) {
  if (landlock_abi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  testing::SandboxTree tree;
  testing::TempDir home;    // under /tmp
  testing::TempDir beside;  // another entry of /tmp
  std::ofstream(home.path() / ".bashrc") << "# own\n";
  SandboxOptions options = tree.options();
  options.probe = probe_;
  options.home = home.path();
  const CommandSandbox sandbox(options);
  ASSERT_EQ(sandbox.verdict().confinement, Confinement::kLandlock) << sandbox.verdict().line;
  const auto result = testing::run_with(&sandbox,
                                        "echo pwned >> " + (home.path() / ".bashrc").string() +
                                            "; echo ok > " + (beside.path() / "made").string() +
                                            " && cat " + (beside.path() / "made").string(),
                                        tree.tree());
  EXPECT_EQ(result.stdout_capture.tail(), "ok\n") << result.stderr_capture.tail();
  EXPECT_EQ(testing::file_contents(home.path() / ".bashrc"), "# own\n");
}

TEST_F(NoNamespacesTest, LandlockSignalScopeKeepsProcessesOutsideSafe) {
  if (landlock_abi() < 6) GTEST_SKIP() << "this kernel's Landlock cannot scope signals";
  testing::SandboxTree tree;
  SandboxOptions options = tree.options();
  options.probe = probe_;
  const CommandSandbox sandbox(options);
  const auto result = testing::run_with(
      &sandbox, "kill -0 " + std::to_string(::getpid()) + " && echo reachable", tree.tree());
  EXPECT_NE(result.exit_code, 0);
  EXPECT_THAT(result.stderr_capture.tail(), HasSubstr("Operation not permitted"));
}

TEST(SandboxProbeTest, TheRealSystemHasBubblewrap) {
  ASSERT_TRUE(process::become_subreaper());
  const ProbeVerdict verdict = probe_sandbox();
  EXPECT_EQ(verdict.confinement, Confinement::kBubblewrap) << verdict.line;
  EXPECT_THAT(verdict.line, HasSubstr("bubblewrap"));
}

// A fake bubblewrap that counts its runs in `runs` and exits with `status`.
fs::path counting_bubblewrap(testing::TempDir& dir, int status) {
  const fs::path fake =
      dir.write("bwrap", "#!/bin/sh\necho run >> '" + (dir.path() / "runs").string() + "'\nexit " +
                             std::to_string(status) + "\n");
  fs::permissions(fake, fs::perms::owner_all);
  return fake;
}

std::size_t runs_of(const testing::TempDir& dir) {
  std::ifstream in(dir.path() / "runs");
  std::size_t lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

TEST(SandboxProbeMemoryTest, APassingProbeIsRememberedUntilTheProgramChanges) {
  ASSERT_TRUE(process::become_subreaper());
  testing::TempDir dir;
  const ProbeOptions options{.bubblewrap = counting_bubblewrap(dir, 0),
                             .memory = dir.path() / "memory" / "sandbox-probe"};
  EXPECT_EQ(probe_sandbox(options).confinement, Confinement::kBubblewrap);
  EXPECT_EQ(runs_of(dir), 1u);
  const ProbeVerdict remembered = probe_sandbox(options);
  EXPECT_EQ(remembered.confinement, Confinement::kBubblewrap);
  EXPECT_EQ(remembered.bubblewrap, options.bubblewrap);
  EXPECT_EQ(remembered.line, probe_sandbox({.bubblewrap = options.bubblewrap}).line);
  EXPECT_EQ(runs_of(dir), 2u) << "the run without memory probed; the remembered one did not";

  // Another program at the same path (a new inode and size): probed again.
  counting_bubblewrap(dir, 0);
  std::ofstream(options.bubblewrap, std::ios::app) << "# upgraded\n";
  EXPECT_EQ(probe_sandbox(options).confinement, Confinement::kBubblewrap);
  EXPECT_EQ(runs_of(dir), 3u);
}

TEST(SandboxProbeMemoryTest, AFailingProbeIsNeverRemembered) {
  ASSERT_TRUE(process::become_subreaper());
  testing::TempDir dir;
  const ProbeOptions options{.bubblewrap = counting_bubblewrap(dir, 1),
                             .landlock_abi = 0,
                             .memory = dir.path() / "sandbox-probe"};
  EXPECT_EQ(probe_sandbox(options).confinement, Confinement::kNone);
  EXPECT_EQ(probe_sandbox(options).confinement, Confinement::kNone);
  EXPECT_EQ(runs_of(dir), 2u);
  EXPECT_FALSE(fs::exists(options.memory));
}

}  // namespace
}  // namespace nib::sandbox
