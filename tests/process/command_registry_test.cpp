#include "process/command_registry.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <optional>
#include <string>

#include "process/command_registry_store.hpp"
#include "process/process_reaper.hpp"
#include "process/process_test_util.hpp"
#include "process/subprocess.hpp"
#include "support/scoped_places.hpp"
#include "support/temp_dir.hpp"

namespace nib::process {
namespace {

namespace fs = std::filesystem;
using registry::EntryKind;
using registry::EntryName;

// True when `pid` has exited (it may remain a zombie until its parent reaps it).
bool dead(pid_t pid) {
  const auto info = read_process(pid);
  return !info || has_exited(*info);
}

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(EntryName, RoundTripsAndRejectsOtherFiles) {
  for (const EntryKind kind : {EntryKind::kCommand, EntryKind::kTemporary, EntryKind::kEnded}) {
    const EntryName name{123, 4567, 8, kind};
    const std::string text = registry::entry_file_name(name);
    const auto parsed = registry::parse_entry_name(text);
    ASSERT_TRUE(parsed.has_value()) << text;
    EXPECT_EQ(parsed->owner_pid, 123);
    EXPECT_EQ(parsed->owner_start_time, 4567u);
    EXPECT_EQ(parsed->number, 8u);
    EXPECT_EQ(parsed->kind, kind);
  }
  EXPECT_EQ(registry::entry_file_name({1, 2, 3, EntryKind::kCommand}), "1-2-3.cmd");
  for (const char* other : {"1-2-3", "1-2-3.txt", "1-2.cmd", "a-2-3.cmd", ".", "1-2-3.cmd~"}) {
    EXPECT_FALSE(registry::parse_entry_name(other).has_value()) << other;
  }
}

TEST(StoredEntry, RoundTripsAndKeepsOnlyTheCommandsStart) {
  const std::string command = std::string(kRecordedCommandBytes - 1, 'x') + "é and more";
  const registry::StoredEntry entry{{77, 88, "boot", "pid:[1]"},
                                    {.started_after = 98,
                                     .leader = 99,
                                     .leader_start_time = 100,
                                     .tag = "77-88-1",
                                     .call_id = "call_1",
                                     .command = command},
                                    "session-id"};
  bool other_version = true;
  const auto decoded = registry::decode_entry(registry::encode_entry(entry), other_version);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_FALSE(other_version);
  EXPECT_EQ(decoded->owner.pid, 77);
  EXPECT_EQ(decoded->owner.start_time, 88u);
  EXPECT_EQ(decoded->owner.boot_id, "boot");
  EXPECT_EQ(decoded->owner.pid_namespace, "pid:[1]");
  EXPECT_EQ(decoded->record.started_after, 98u);
  EXPECT_EQ(decoded->record.leader, 99);
  EXPECT_EQ(decoded->record.leader_start_time, 100u);
  EXPECT_EQ(decoded->record.tag, "77-88-1");
  EXPECT_EQ(decoded->record.call_id, "call_1");
  EXPECT_EQ(decoded->label, "session-id");
  // The two-byte "é" would straddle the limit: the cut keeps whole characters.
  EXPECT_EQ(decoded->record.command, std::string(kRecordedCommandBytes - 1, 'x'));
}

TEST(StoredEntry, TellsDamageFromAnotherVersion) {
  bool other_version = false;
  EXPECT_FALSE(registry::decode_entry(R"({"version": 99})", other_version).has_value());
  EXPECT_TRUE(other_version);
  for (const char* damaged : {"", "{", R"({"version": 1})", "[1]"}) {
    EXPECT_FALSE(registry::decode_entry(damaged, other_version).has_value()) << damaged;
    EXPECT_FALSE(other_version) << damaged;
  }
}

TEST(RegistryDirectories, FollowTheRuntimeDirectoryAndSweepTheFallbacksToo) {
  const std::string uid = std::to_string(::geteuid());
  {
    testing::ScopedPlaces runtime(&util::UserPlaces::runtime_dir, "/run/elsewhere");
    const RegistryDirectories directories = registry_directories();
    EXPECT_EQ(directories.registration, "/run/elsewhere/nib/commands");
    EXPECT_EQ(directories.swept,
              (std::vector<fs::path>{"/run/elsewhere/nib/commands", "/tmp/nib-" + uid + "/commands",
                                     "/run/user/" + uid + "/nib/commands"}));
  }
  testing::ScopedPlaces no_runtime(&util::UserPlaces::runtime_dir, "");
  EXPECT_EQ(registry_directories().registration, "/tmp/nib-" + uid + "/commands");
}

class CommandRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(become_subreaper()); }
  void TearDown() override {
    forget_all_commands();
    kill_all_descendants();
    for (SpawnedProcess& process : spawned_) {
      int status = 0;
      pollfd entry{process.pidfd.get(), POLLIN, 0};
      ::poll(&entry, 1, -1);
      reap_registered(process.pid, &status);
    }
  }

  fs::path registry_dir() const { return runtime_.path() / "nib" / "commands"; }
  RegistryDirectories directories() const { return {registry_dir(), {registry_dir()}}; }

  // Starts `command` in bash with `tag` in its environment; returns the shell's pid.
  pid_t start(const std::string& command, const std::string& tag) {
    spawned_.push_back(testing::started(
        spawn_process({.argv = {"/bin/bash", "-c", command},
                       .cwd = dir_.path(),
                       .environment = merge_environment(environ, {{kCommandTagVariable, tag}})})));
    EXPECT_GT(spawned_.back().pid, 0);
    return spawned_.back().pid;
  }

  // Kills and reaps the process `start` started.
  void end(pid_t pid) {
    const auto found = std::find_if(spawned_.begin(), spawned_.end(),
                                    [pid](const SpawnedProcess& p) { return p.pid == pid; });
    ASSERT_NE(found, spawned_.end());
    ::kill(pid, SIGKILL);
    pollfd entry{found->pidfd.get(), POLLIN, 0};
    ::poll(&entry, 1, -1);
    int status = 0;
    reap_registered(pid, &status);
    spawned_.erase(found);
  }

  // Records a command of the nib `owner` by hand, as that nib would have once its shell
  // `leader` (0: not started yet) had started; the time before the shell started is the
  // shell's start time unless given.
  void record(const registry::NibIdentity& owner, pid_t leader, const std::string& tag,
              const std::string& label, std::uint64_t number = 1,
              std::optional<std::uint64_t> started_after = std::nullopt) {
    const UniqueFd dir = registry::open_registry_dir(registry_dir(), /*create=*/true);
    ASSERT_TRUE(dir.valid());
    const std::uint64_t leader_start_time = leader > 0 ? read_process(leader)->start_time : 0;
    const CommandRecord command{started_after.value_or(leader_start_time),
                                leader,
                                leader_start_time,
                                tag,
                                "call_7",
                                "sleep 1000"};
    EntryName name{owner.pid, owner.start_time, number, EntryKind::kCommand};
    const std::string file = registry::entry_file_name(name);
    name.kind = EntryKind::kTemporary;
    ASSERT_TRUE(registry::write_entry_file(dir.get(), file, registry::entry_file_name(name),
                                           registry::encode_entry({owner, command, label})));
  }

  // A nib that has died: this process's pid with another start time (the pid was reused).
  static registry::NibIdentity dead_nib() {
    registry::NibIdentity nib = registry::this_nib();
    nib.start_time += 1;
    return nib;
  }

  testing::TempDir dir_;
  testing::TempDir runtime_;
  testing::ScopedPlaces runtime_places_{&util::UserPlaces::runtime_dir, runtime_.path()};
  std::vector<SpawnedProcess> spawned_;
};

TEST_F(CommandRegistryTest, ACommandIsRecordedPrivatelyUntilItsTreeIsKilled) {
  const CommandEntryId id = register_command({.started_after = boot_time_ticks(), .tag = "t-1"});
  ASSERT_NE(id, 0u);
  const pid_t shell = start("sleep 1000", "t-1");
  command_started(id, shell, read_process(shell)->start_time);
  const auto files = files_in(registry_dir());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(registry::parse_entry_name(files[0])->kind, EntryKind::kCommand);
  struct stat info {};
  ASSERT_EQ(::stat(registry_dir().c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0700u);
  ASSERT_EQ(::stat((registry_dir() / files[0]).c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  const UniqueFd dir = registry::open_registry_dir(registry_dir(), /*create=*/false);
  bool other_version = false;
  const auto stored =
      registry::decode_entry(*registry::read_entry_file(dir.get(), files[0]), other_version);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->record.leader, shell) << "the shell was added once it had started";
  EXPECT_EQ(stored->record.tag, "t-1");
  command_ended(id, /*tree_killed=*/true);
  EXPECT_TRUE(files_in(registry_dir()).empty());
}

TEST_F(CommandRegistryTest, ACommandMovedIntoTheBackgroundIsRecordedAsItsJob) {
  const CommandEntryId id =
      register_command({.started_after = boot_time_ticks(), .tag = "t-9", .call_id = "call_3"});
  ASSERT_NE(id, 0u);
  command_became_job(id, 4);
  const auto files = files_in(registry_dir());
  ASSERT_EQ(files.size(), 1u);
  const UniqueFd dir = registry::open_registry_dir(registry_dir(), /*create=*/false);
  bool other_version = false;
  const auto stored =
      registry::decode_entry(*registry::read_entry_file(dir.get(), files[0]), other_version);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->record.job_id, 4) << "a crash's notice names the job";
  EXPECT_EQ(stored->record.call_id, "call_3");
  command_ended(id, /*tree_killed=*/true);
  EXPECT_TRUE(files_in(registry_dir()).empty());
}

TEST_F(CommandRegistryTest, AnEndedCommandStaysRecordedWhileItsGroupRuns) {
  const pid_t shell = start("sleep 1000", "t-2");
  const CommandEntryId id = register_command({.leader = shell, .tag = "t-2"});
  command_ended(id, /*tree_killed=*/false);
  settle_ended_commands(scan_processes());
  EXPECT_EQ(files_in(registry_dir()).size(), 1u) << "its process group still has a member";
  end(shell);
  settle_ended_commands(scan_processes());
  EXPECT_TRUE(files_in(registry_dir()).empty());
}

TEST_F(CommandRegistryTest, ASweepEndsADeadNibsCommandAndLeavesANoticeForItsSession) {
  const std::string fifo = (dir_.path() / "gate").string();
  testing::make_fifo(fifo);
  // A shell with a grandchild in a session of its own, as a dead nib's command may leave.
  const pid_t shell = start("setsid sleep 1000 & echo $! > " + fifo + "; sleep 1000", "dead-1");
  const pid_t grandchild = std::stoi(testing::read_fifo_line(fifo));
  record(dead_nib(), shell, "dead-1", "session-a");

  const auto ended = end_commands_of_dead_nibs(directories());
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].label, "session-a");
  EXPECT_EQ(ended[0].call_id, "call_7");
  EXPECT_EQ(ended[0].command, "sleep 1000");
  EXPECT_TRUE(dead(shell));
  EXPECT_TRUE(dead(grandchild));

  EXPECT_TRUE(take_ended_commands("session-b", directories()).empty());
  const auto taken = take_ended_commands("session-a", directories());
  ASSERT_EQ(taken.size(), 1u);
  EXPECT_EQ(taken[0].call_id, "call_7");
  EXPECT_TRUE(take_ended_commands("session-a", directories()).empty()) << "taken once";
  EXPECT_TRUE(files_in(registry_dir()).empty());
}

TEST_F(CommandRegistryTest, ACommandRecordedBeforeItsShellStartedIsEndedByItsTag) {
  // The nib died between recording the command and adding the shell's pid to the entry.
  const std::uint64_t before = boot_time_ticks();
  const pid_t shell = start("sleep 1000", "dead-6");
  record(dead_nib(), 0, "dead-6", "s", 1, before);
  EXPECT_EQ(end_commands_of_dead_nibs(directories()).size(), 1u);
  EXPECT_TRUE(dead(shell));
}

TEST_F(CommandRegistryTest, ACommandWithoutALabelLeavesNoNotice) {
  const pid_t shell = start("sleep 1000", "dead-2");
  record(dead_nib(), shell, "dead-2", "");
  EXPECT_EQ(end_commands_of_dead_nibs(directories()).size(), 1u);
  EXPECT_TRUE(dead(shell));
  EXPECT_TRUE(files_in(registry_dir()).empty());
}

TEST_F(CommandRegistryTest, ALivingNibsCommandsAreLeftAlone) {
  const pid_t shell = start("sleep 1000", "alive-1");
  record(registry::this_nib(), shell, "alive-1", "session-a");
  EXPECT_TRUE(end_commands_of_dead_nibs(directories()).empty());
  EXPECT_FALSE(dead(shell));
  EXPECT_EQ(files_in(registry_dir()).size(), 1u);
}

TEST_F(CommandRegistryTest, AReusedPidIsNeverTouched) {
  // The recorded shell has gone and its pid now belongs to an unrelated process (another start
  // time, no tag); a process with the tag that started before the command was recorded is no
  // part of it either (its start time gives it away).
  const pid_t unrelated = start("sleep 1000", "someone-else");
  const pid_t older_tagged = start("sleep 1000", "dead-3");
  const pid_t shell = start("sleep 1000", "unrelated-tag");
  const UniqueFd dir = registry::open_registry_dir(registry_dir(), /*create=*/true);
  // Recorded after all three started (1000 clock ticks, seconds, from now), its shell later.
  const std::uint64_t later = read_process(shell)->start_time + 1000;
  const CommandRecord command{later, unrelated, later + 1, "dead-3", "call_7", "sleep 1000"};
  const registry::NibIdentity owner = dead_nib();
  ASSERT_TRUE(registry::write_entry_file(
      dir.get(), registry::entry_file_name({owner.pid, owner.start_time, 1, EntryKind::kCommand}),
      "temporary", registry::encode_entry({owner, command, "s"})));
  EXPECT_EQ(end_commands_of_dead_nibs(directories()).size(), 1u);
  EXPECT_FALSE(dead(unrelated));
  EXPECT_FALSE(dead(older_tagged));
  EXPECT_FALSE(dead(shell));
}

TEST_F(CommandRegistryTest, EntriesOfAnotherBootGoAndOfAnotherPidNamespaceStay) {
  const pid_t shell = start("sleep 1000", "dead-4");
  registry::NibIdentity earlier_boot = dead_nib();
  earlier_boot.boot_id = "another boot";
  record(earlier_boot, shell, "dead-4", "s", 1);
  registry::NibIdentity container = dead_nib();
  container.pid_namespace = "pid:[1]";
  record(container, shell, "dead-4", "s", 2);
  EXPECT_TRUE(end_commands_of_dead_nibs(directories()).empty());
  EXPECT_FALSE(dead(shell));
  const auto files = files_in(registry_dir());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(registry::parse_entry_name(files[0])->number, 2u);
}

TEST_F(CommandRegistryTest, ADirectoryOthersMayEnterIsNotTrusted) {
  const pid_t shell = start("sleep 1000", "dead-5");
  record(dead_nib(), shell, "dead-5", "s");
  ASSERT_EQ(::chmod(registry_dir().c_str(), 0755), 0);
  EXPECT_TRUE(end_commands_of_dead_nibs(directories()).empty());
  EXPECT_FALSE(dead(shell));
}

TEST_F(CommandRegistryTest, OldNoticesAndDeadNibsHalfWrittenFilesAreRemoved) {
  const UniqueFd dir = registry::open_registry_dir(registry_dir(), /*create=*/true);
  const registry::NibIdentity owner = dead_nib();
  const std::string notice =
      registry::entry_file_name({owner.pid, owner.start_time, 1, EntryKind::kEnded});
  const std::string fresh_notice =
      registry::entry_file_name({owner.pid, owner.start_time, 2, EntryKind::kEnded});
  const std::string half_written =
      registry::entry_file_name({owner.pid, owner.start_time, 3, EntryKind::kTemporary});
  for (const std::string& name : {notice, fresh_notice, half_written}) {
    runtime_.write(fs::path("nib/commands") / name, "{}");
  }
  const auto old = std::chrono::system_clock::now() - kEndedNoticeLifetime - std::chrono::hours(1);
  const timespec times[2] = {{std::chrono::system_clock::to_time_t(old), 0},
                             {std::chrono::system_clock::to_time_t(old), 0}};
  ASSERT_EQ(::utimensat(dir.get(), notice.c_str(), times, 0), 0);
  end_commands_of_dead_nibs(directories());
  EXPECT_EQ(files_in(registry_dir()), std::vector<std::string>{fresh_notice});
}

}  // namespace
}  // namespace nib::process
