// Background jobs against real processes: each test gates on FIFOs, never on sleeps, and
// leaves no process behind.

#include "process/job_table.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>

#include "process/command_registry.hpp"
#include "process/job_test_util.hpp"
#include "process/proc_table.hpp"
#include "process/process_reaper.hpp"
#include "process/process_test_util.hpp"
#include "process/spawn_thread.hpp"
#include "support/fake_clock.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"
#include "tools/limits.hpp"

namespace nib::process {
namespace {

using namespace std::chrono_literals;
using testing::contains;

// Long enough never to end a test that works; only a hang guard.
constexpr auto kGuard = 60s;

class JobTableTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(become_subreaper()); }
  void TearDown() override {
    jobs_.reset();
    kill_all_descendants();
    forget_all_commands();
  }

  CommandRequest request(const std::string& command) const {
    return {.command = command, .cwd = dir_.path(), .environment = {{"NIB", "1"}}};
  }
  std::shared_ptr<Job> start(const std::string& command) {
    auto started = jobs_->start(request(command));
    EXPECT_TRUE(started.ok()) << started.error();
    return started.ok() ? jobs_->find(started.value().id) : nullptr;
  }
  std::filesystem::path fifo(const std::string& name) const {
    const auto path = dir_.path() / name;
    testing::make_fifo(path);
    return path;
  }
  // Reads new output until the job's state satisfies `done` (each read waits for a change).
  template <typename Done>
  JobRead read_until(Job& job, Done done) {
    JobRead read;
    std::string all;
    for (int i = 0; i < 10000; ++i) {
      read = job.read_new(kGuard, {}, kMaxOutputBytes, kMaxOutputLines);
      all += read.output.text;
      if (done(read, all)) break;
    }
    read.output.text = all;
    return read;
  }

  testing::JobScratch scratch_;
  testing::TempDir& dir_ = scratch_.dir;
  core::PendingNotices& notices_ = scratch_.notices;
  std::unique_ptr<JobTable> jobs_ = std::make_unique<JobTable>(scratch_.options());
};

bool pid_ended(pid_t pid) {
  const auto info = read_process(pid);
  return !info || has_exited(*info);
}

// The number of threads this process runs now.
std::size_t running_threads() {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    ++count;
  }
  return count;
}

// The thread that starts background jobs' processes starts with the first of them: a run that
// starts none (most do) pays for no thread.
TEST(SpawnThreadTest, StartsWithTheFirstSpawn) {
  const std::size_t before = running_threads();
  SpawnThread spawner;
  EXPECT_EQ(running_threads(), before);
  SpawnedProcess process = testing::started(spawner.spawn({.argv = {"/bin/true"}, .cwd = "/"}));
  EXPECT_EQ(running_threads(), before + 1);
  pollfd exited{process.pidfd.get(), POLLIN, 0};
  ASSERT_EQ(::poll(&exited, 1, -1), 1);
  EXPECT_EQ(reap_registered(process.pid, nullptr), ReapStatus::kReaped);
}

TEST_F(JobTableTest, AJobThatExitsQuicklyLeavesANoticeWithItsStatusAndLastLines) {
  const auto job = start("echo first; echo to-stderr >&2; exit 3");
  ASSERT_TRUE(job);
  job->wait_finished({});
  const JobSnapshot done = job->snapshot();
  EXPECT_EQ(done.status.end, JobEnd::kExited);
  EXPECT_EQ(done.status.exit_code, 3);
  EXPECT_EQ(testing::file_contents(done.log), "first\nto-stderr\n") << "both streams, in order";
  const auto notices = notices_.take_all();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_TRUE(contains(notices[0], "Background job 1 (`echo first; echo to-stderr >&2; exit 3`)"))
      << notices[0];
  EXPECT_TRUE(contains(notices[0], "exited with status 3")) << notices[0];
  EXPECT_TRUE(contains(notices[0], "first\nto-stderr\n")) << notices[0];
  EXPECT_EQ(jobs_->running(), 0u);
}

TEST_F(JobTableTest, ReadsOnlyWhatIsNewAndAWaitReturnsAsSoonAsOutputComes) {
  const auto gate = fifo("gate");
  const auto job = start("echo one; cat " + gate.string() + "; exec sleep 1000");
  ASSERT_TRUE(job);
  const JobRead first = read_until(
      *job, [](const JobRead&, const std::string& all) { return contains(all, "one\n"); });
  EXPECT_EQ(first.output.text, "one\n");
  EXPECT_EQ(job->read_new(0ms, {}, kMaxOutputBytes, kMaxOutputLines).output.text, "")
      << "nothing new since the last read";
  std::thread writer([&] { std::ofstream(gate) << "two\n"; });
  // A wait as long as the longest allowed: the test would run into its time limit unless the
  // wait ends when the output arrives.
  const JobRead second = job->read_new(tools::kMaxJobWait, {}, kMaxOutputBytes, kMaxOutputLines);
  writer.join();
  EXPECT_EQ(second.output.text, "two\n");
  EXPECT_FALSE(second.waited_in_vain);
  EXPECT_EQ(second.job.status.end, JobEnd::kRunning);
}

TEST_F(JobTableTest, AWaitEndsWhenStopIsRequested) {
  const auto job = start("exec sleep 1000");
  ASSERT_TRUE(job);
  std::stop_source stop;
  std::thread stopper([&] { stop.request_stop(); });
  const JobRead read =
      job->read_new(tools::kMaxJobWait, stop.get_token(), kMaxOutputBytes, kMaxOutputLines);
  stopper.join();
  EXPECT_EQ(read.job.status.end, JobEnd::kRunning);
}

TEST_F(JobTableTest, ADaemonKeepsItsJobRunningAfterTheShellExitsUntilJobKillEndsIt) {
  const auto sync = fifo("sync");
  const auto job = start("setsid sleep 1000 & echo $! > " + sync.string() + "; echo shell-done");
  ASSERT_TRUE(job);
  const pid_t daemon = std::stoi(testing::read_fifo_line(sync));
  const JobRead read = read_until(
      *job, [](const JobRead& read, const std::string&) { return read.job.status.shell_exited; });
  EXPECT_TRUE(read.job.status.shell_exited);
  EXPECT_EQ(read.job.status.end, JobEnd::kRunning) << "the daemon it started still runs";
  EXPECT_FALSE(pid_ended(daemon));
  EXPECT_EQ(jobs_->running(), 1u);

  const JobStatus status = job->kill("job_kill", kGuard);
  EXPECT_EQ(status.end, JobEnd::kKilled);
  EXPECT_EQ(status.killed_by, "job_kill");
  EXPECT_TRUE(pid_ended(daemon));
  EXPECT_EQ(jobs_->running(), 0u);
}

TEST_F(JobTableTest, AChildLeftInTheShellsGroupKeepsTheJobRunning) {
  const auto sync = fifo("sync");
  const auto job = start("sleep 1000 & echo $! > " + sync.string());
  ASSERT_TRUE(job);
  const pid_t child = std::stoi(testing::read_fifo_line(sync));
  const JobRead read = read_until(
      *job, [](const JobRead& read, const std::string&) { return read.job.status.shell_exited; });
  EXPECT_EQ(read.job.status.end, JobEnd::kRunning);
  ::kill(child, SIGKILL);  // it ends by itself: the job then finishes with the shell's status
  job->wait_finished({});
  EXPECT_EQ(job->snapshot().status.end, JobEnd::kExited);
}

TEST_F(JobTableTest, AJobThatIgnoresSigtermIsKilledWithItsWholeTree) {
  const auto sync = fifo("sync");
  const auto job = start("trap '' TERM; sh -c 'trap \"\" TERM; exec sleep 1000' & echo $! > " +
                         sync.string() + "; while true; do sleep 1; done");
  ASSERT_TRUE(job);
  const pid_t child = std::stoi(testing::read_fifo_line(sync));
  const pid_t shell = job->snapshot().pid;
  ::kill(-shell, SIGTERM);  // ignored by both
  const JobStatus status = job->kill("job_kill", kGuard);
  EXPECT_EQ(status.end, JobEnd::kKilled);
  EXPECT_TRUE(pid_ended(child));
  EXPECT_TRUE(testing::process_gone(-shell)) << "nothing is left in its group";
}

TEST_F(JobTableTest, SixteenRunAtOnceAndTheSeventeenthIsRefused) {
  std::vector<pid_t> pids;
  for (std::size_t i = 0; i < kMaxRunningJobs; ++i) {
    const auto job = start("exec sleep 1000");
    ASSERT_TRUE(job);
    pids.push_back(job->snapshot().pid);
  }
  EXPECT_EQ(jobs_->running(), kMaxRunningJobs);
  const auto refused = jobs_->start(request("echo seventeen"));
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(contains(refused.error(), "16 background jobs are running")) << refused.error();

  jobs_->find(1)->kill("job_kill", kGuard);
  EXPECT_TRUE(jobs_->start(request("echo now-there-is-room")).ok());
  jobs_.reset();  // nib's exit
  for (const pid_t pid : pids) EXPECT_TRUE(pid_ended(pid)) << pid;
}

TEST_F(JobTableTest, DestroyingTheTableEndsEveryJobAndItsRegistryEntries) {
  const auto sync = fifo("sync");
  const auto job = start("setsid sleep 1000 & echo $! > " + sync.string() + "; exec sleep 1000");
  ASSERT_TRUE(job);
  const pid_t daemon = std::stoi(testing::read_fifo_line(sync));
  const pid_t shell = job->snapshot().pid;
  jobs_.reset();
  EXPECT_TRUE(pid_ended(daemon));
  EXPECT_TRUE(pid_ended(shell));
  EXPECT_TRUE(std::filesystem::is_empty(registry_directories().registration));
}

TEST_F(JobTableTest, AJobIsRecordedInTheRegistryAsAJobWhileItRuns) {
  const auto job = start("exec sleep 1000");
  ASSERT_TRUE(job);
  bool found = false;
  for (const auto& entry :
       std::filesystem::directory_iterator(registry_directories().registration)) {
    const std::string text = testing::file_contents(entry.path());
    found |= contains(text, "\"job\":1") && contains(text, "exec sleep 1000");
  }
  EXPECT_TRUE(found);
  job->kill("job_kill", kGuard);
  EXPECT_TRUE(job->wait_cleaned_up(kGuard));
  EXPECT_TRUE(std::filesystem::is_empty(registry_directories().registration));
}

TEST_F(JobTableTest, AJobThatPrintsForeverKeepsItsLogAtTheCap) {
  const auto job = start("yes 0123456789abcdefghijklmnopqrstuvwxyz");
  ASSERT_TRUE(job);
  std::size_t largest_read = 0;
  for (JobRead read; read.job.output.bytes <= kMaxLogBytes + 1024 * 1024;) {
    read = job->read_new(kGuard, {}, kMaxOutputBytes, kMaxOutputLines);
    largest_read = std::max(largest_read, read.output.text.size());
  }
  EXPECT_LE(largest_read, kMaxOutputBytes) << "each read is bounded";
  job->kill("job_kill", kGuard);
  const auto size = std::filesystem::file_size(job->snapshot().log);
  EXPECT_GT(size, kMaxLogBytes);
  EXPECT_LT(size, kMaxLogBytes + 200) << "the file stops at the cap, with a note";
}

TEST_F(JobTableTest, AfterItsShellExitsAJobIsCheckedOnTheClockUntilNothingOfItRuns) {
  testing::FakeClock clock;
  JobTableOptions options = scratch_.options();
  options.clock = &clock;
  jobs_ = std::make_unique<JobTable>(options);
  const auto gate = fifo("gate");
  const auto cat_pid = fifo("cat-pid");
  // The shell exits at once; the cat it leaves behind holds the job until the gate opens.
  const auto job =
      start("cat " + gate.string() + " > /dev/null & echo $! > " + cat_pid.string() + "; exit 0");
  ASSERT_TRUE(job);
  const pid_t cat = std::stoi(testing::read_fifo_line(cat_pid));
  std::optional<testing::FakeClock::Poll> settle_wait;
  do {  // the watcher's waits while the shell runs have no deadline
    settle_wait = clock.await_blocked_poll();
  } while (settle_wait && !settle_wait->deadline);
  ASSERT_TRUE(settle_wait);
  EXPECT_EQ(settle_wait->deadline, settle_wait->began + kJobSettleInterval)
      << "once the shell has exited, the next look is one settle interval away";
  EXPECT_FALSE(job->finished()) << "its cat still runs";

  { std::ofstream(gate) << "done\n"; }
  while (!pid_ended(cat)) std::this_thread::yield();  // the cat has read it and ended
  clock.advance(kJobSettleInterval);
  job->wait_finished({});
  clock.stop_awaiting();
  const JobSnapshot done = job->snapshot();
  EXPECT_EQ(done.status.end, JobEnd::kExited);
  EXPECT_EQ(done.status.exit_code, 0);
}

TEST_F(JobTableTest, AKilledJobsNoticeSaysWhoKilledIt) {
  const auto job = start("exec sleep 1000");
  ASSERT_TRUE(job);
  job->kill("the user (/jobs kill)", kGuard);
  const auto notices = notices_.take_all();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_TRUE(contains(notices[0], "killed by nib (the user (/jobs kill))")) << notices[0];
  EXPECT_TRUE(contains(notices[0], "It printed nothing")) << notices[0];
}

TEST_F(JobTableTest, ListenersHearEachStartAndEndWhileTheyAreRegistered) {
  std::mutex mutex;
  std::condition_variable changed;
  int heard = 0;
  int heard_later = 0;
  auto hear = [&](int& count) {
    return [&] {
      const std::lock_guard lock(mutex);
      ++count;
      changed.notify_all();
    };
  };
  const JobTable::Listener lasting(*jobs_, hear(heard));
  { const JobTable::Listener brief(*jobs_, hear(heard_later)); }
  const auto job = start("exit 0");
  ASSERT_TRUE(job);
  std::unique_lock lock(mutex);
  EXPECT_TRUE(changed.wait_for(lock, kGuard, [&] { return heard == 2; }))
      << "a start and an end; heard " << heard;
  EXPECT_EQ(heard_later, 0) << "a listener gone hears nothing";
}

}  // namespace
}  // namespace nib::process
