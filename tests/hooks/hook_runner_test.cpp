#include "hooks/hook_runner.hpp"

#include <gtest/gtest.h>

#include <future>

#include "hooks/hook_test_support.hpp"
#include "support/fake_clock.hpp"

namespace nib::hooks {
namespace {

using namespace std::chrono_literals;

class HookRunnerTest : public HookTest {};

TEST_F(HookRunnerTest, TheHookReadsItsInputAndKnowsTheProjectDirectory) {
  const HookRun run = run_hook(
      hook(R"sh(cat; echo; echo "$CLAUDE_PROJECT_DIR|$NIB_PROJECT_DIR|$(pwd)" >&2; exit 3)sh"),
      R"({"tool_name":"Bash"})", settings(), {});
  EXPECT_EQ(run.end, HookRun::End::kExited);
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_EQ(run.stdout_text, "{\"tool_name\":\"Bash\"}\n");
  const std::string dir = dir_.path().string();
  EXPECT_EQ(run.stderr_text, dir + "|" + dir + "|" + dir + "\n");
}

TEST_F(HookRunnerTest, TheCommandRunsUnderShAsClaudeCodeRunsIt) {
  const HookRun run = run_hook(hook("echo $0"), "{}", settings(), {});
  EXPECT_EQ(run.stdout_text, "/bin/sh\n");
}

TEST_F(HookRunnerTest, AMissingProgramIsTheShellsExit127) {
  const HookRun run = run_hook(hook("/no/such/hook --check"), "{}", settings(), {});
  EXPECT_EQ(run.end, HookRun::End::kExited);
  EXPECT_EQ(run.exit_code, 127);
  EXPECT_NE(run.stderr_text.find("/no/such/hook"), std::string::npos);
}

TEST_F(HookRunnerTest, AnUnsupportedHookDoesNotStart) {
  HookCommand prompt_hook = hook("(prompt hook)");
  prompt_hook.unsupported = "it is a \"prompt\" hook, and nib runs only \"command\" hooks";
  const HookRun run = run_hook(prompt_hook, "{}", settings(), {});
  EXPECT_EQ(run.end, HookRun::End::kNotStarted);
  EXPECT_EQ(describe_end(run, prompt_hook),
            "could not be started (it is a \"prompt\" hook, and nib runs only \"command\" hooks)");
}

TEST_F(HookRunnerTest, TheTimeoutKillsTheHookOnTheClockItIsGiven) {
  testing::FakeClock clock;
  HookRunSettings fake = settings();
  fake.clock = &clock;
  HookCommand slow = hook("sleep 1000");
  slow.timeout = 500ms;  // before the runner's first check for stopped processes, at 1 s
  auto run = std::async(std::launch::async, [&] {
    HookRun result = run_hook(slow, "{}", fake, {});
    clock.stop_awaiting();
    return result;
  });
  const auto poll = clock.await_blocked_poll();
  ASSERT_TRUE(poll && poll->deadline);
  EXPECT_EQ(*poll->deadline - poll->began, 500ms);
  clock.advance(500ms);
  const HookRun result = run.get();
  EXPECT_EQ(result.end, HookRun::End::kTimedOut);
  EXPECT_EQ(describe_end(result, slow), "timed out after 0.5 s");
}

TEST_F(HookRunnerTest, StoppingTheRunKillsTheHook) {
  std::stop_source stop;
  const auto gate = dir_.path() / "started";
  testing::make_fifo(gate);
  auto run = std::async(std::launch::async, [&] {
    return run_hook(hook("echo go > started; sleep 1000"), "{}", settings(), stop.get_token());
  });
  EXPECT_EQ(testing::read_fifo_line(gate), "go");
  stop.request_stop();
  EXPECT_EQ(run.get().end, HookRun::End::kAborted);
}

}  // namespace
}  // namespace nib::hooks
