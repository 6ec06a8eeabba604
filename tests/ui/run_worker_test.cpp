#include "ui/run_worker.hpp"

#include <gtest/gtest.h>

#include <future>
#include <latch>

namespace nib::ui {
namespace {

// Collects what the worker queues for the UI, and lets a test wait for it.
class UiSide {
 public:
  RunWorker worker{[this] { woken_.release(); }};

  // Waits for the next wake-up and returns what was queued.
  std::vector<WorkerMessage> next() {
    woken_.acquire();
    return worker.take_messages();
  }

 private:
  std::counting_semaphore<1024> woken_{0};
};

core::GateRequest request_for(const std::string& name) {
  return {"call_1", name, nullptr};
}

TEST(RunWorker, RunsOneJobAtATimeAndSaysWhenItFinished) {
  UiSide ui;
  std::latch release(1);
  ASSERT_TRUE(ui.worker.start([&release](std::stop_token) { release.wait(); }));
  EXPECT_TRUE(ui.worker.busy());
  EXPECT_FALSE(ui.worker.start([](std::stop_token) {}));
  release.count_down();
  const auto messages = ui.next();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<JobFinished>(messages[0]));
  EXPECT_FALSE(ui.worker.busy());
  EXPECT_TRUE(ui.worker.start([](std::stop_token) {}));
  ui.worker.wait();
}

TEST(RunWorker, AbortStopsTheJob) {
  UiSide ui;
  std::atomic<bool> stopped = false;
  ui.worker.start([&stopped](std::stop_token stop) {
    std::mutex mutex;
    std::condition_variable_any never;
    std::unique_lock lock(mutex);
    never.wait(lock, stop, [] { return false; });
    stopped = true;
  });
  ui.worker.abort();
  ui.worker.wait();
  EXPECT_TRUE(stopped);
}

TEST(RunWorker, SteeringIsTakenByTheJobOrGivenBack) {
  UiSide ui;
  ui.worker.queue_steering("first");
  ui.worker.queue_steering("second");
  EXPECT_EQ(ui.worker.queued_steering(), (std::vector<std::string>{"first", "second"}));
  const auto taken = ui.worker.take_steering();
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(core::content_text(taken[1].content), "second");
  EXPECT_TRUE(ui.worker.take_steering().empty());
  ui.worker.queue_steering("late");
  EXPECT_EQ(ui.worker.take_back_steering(), (std::vector<std::string>{"late"}));
  EXPECT_TRUE(ui.worker.queued_steering().empty());
}

TEST(RunWorker, ApprovalWaitsForTheAnswerAndRemembersAlways) {
  UiSide ui;
  std::promise<std::vector<core::GateDecision>> decisions;
  ui.worker.start([&ui, &decisions](std::stop_token stop) {
    std::vector<core::GateDecision> out;
    out.push_back(ui.worker.ask_approval(request_for("bash"), "bash rm -rf build", stop));
    out.push_back(ui.worker.ask_approval(request_for("bash"), "bash make", stop));
    out.push_back(ui.worker.ask_approval(request_for("bash"), "bash make", stop));  // always
    decisions.set_value(out);
  });
  auto expect_question = [&ui](const std::string& question) {
    const auto messages = ui.next();
    ASSERT_EQ(messages.size(), 1u);
    const auto* asked = std::get_if<ApprovalQuestion>(&messages[0]);
    ASSERT_NE(asked, nullptr);
    EXPECT_EQ(asked->question, question);
  };
  expect_question("Allow bash rm -rf build?");
  ui.worker.answer_approval(ApprovalAnswer::kNo);
  expect_question("Allow bash make?");
  ui.worker.answer_approval(ApprovalAnswer::kAlways);
  const auto results = decisions.get_future().get();
  ASSERT_EQ(results.size(), 3u);
  EXPECT_TRUE(results[0].block);
  EXPECT_NE(results[0].reason.find("declined"), std::string::npos);
  EXPECT_FALSE(results[1].block);
  EXPECT_FALSE(results[2].block);  // not asked again
  EXPECT_TRUE(std::holds_alternative<JobFinished>(ui.next().at(0)));
}

TEST(RunWorker, AnAbortWhileAskingBlocksTheCall) {
  UiSide ui;
  std::promise<core::GateDecision> decision;
  ui.worker.start([&ui, &decision](std::stop_token stop) {
    decision.set_value(ui.worker.ask_approval(request_for("write"), "write a.txt", stop));
  });
  ASSERT_TRUE(std::holds_alternative<ApprovalQuestion>(ui.next().at(0)));
  ui.worker.abort();
  const core::GateDecision result = decision.get_future().get();
  EXPECT_TRUE(result.block);
  EXPECT_NE(result.reason.find("interrupted"), std::string::npos);
}

}  // namespace
}  // namespace nib::ui
