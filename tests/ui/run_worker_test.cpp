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

using permissions::ApprovalAnswer;
using permissions::ApprovalQuestion;

ApprovalQuestion question_for(const std::string& tool) {
  return {"call_1", tool, nlohmann::json::object(), {}};
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

TEST(RunWorker, ApprovalCarriesTheQuestionToTheUiAndTheAnswerBack) {
  UiSide ui;
  std::promise<std::vector<ApprovalAnswer>> answers;
  ui.worker.start([&ui, &answers](std::stop_token stop) {
    std::vector<ApprovalAnswer> out;
    out.push_back(ui.worker.ask_approval(question_for("bash"), stop).answer);
    out.push_back(ui.worker.ask_approval(question_for("edit"), stop).answer);
    answers.set_value(out);
  });
  auto expect_question = [&ui](const std::string& tool) {
    const auto messages = ui.next();
    ASSERT_EQ(messages.size(), 1u);
    const auto* asked = std::get_if<ApprovalQuestion>(&messages[0]);
    ASSERT_NE(asked, nullptr);
    EXPECT_EQ(asked->tool_name, tool);
  };
  expect_question("bash");
  ui.worker.answer_approval(ApprovalAnswer::kNo);
  expect_question("edit");
  ui.worker.answer_approval(ApprovalAnswer::kAlways);
  EXPECT_EQ(answers.get_future().get(),
            (std::vector<ApprovalAnswer>{ApprovalAnswer::kNo, ApprovalAnswer::kAlways}));
  EXPECT_TRUE(std::holds_alternative<JobFinished>(ui.next().at(0)));
}

TEST(RunWorker, AnAbortWhileAskingIsAnInterruptedAnswer) {
  UiSide ui;
  std::promise<ApprovalAnswer> answer;
  ui.worker.start([&ui, &answer](std::stop_token stop) {
    answer.set_value(ui.worker.ask_approval(question_for("write"), stop).answer);
  });
  ASSERT_TRUE(std::holds_alternative<ApprovalQuestion>(ui.next().at(0)));
  ui.worker.abort();
  EXPECT_EQ(answer.get_future().get(), ApprovalAnswer::kInterrupted);
}

}  // namespace
}  // namespace nib::ui
