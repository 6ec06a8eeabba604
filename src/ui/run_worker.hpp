#pragma once
// The interactive mode's second thread: runs one job at a time (an agent run, a compaction)
// while the UI thread keeps reading keys and drawing, and carries everything that crosses
// between the two:
// - to the UI: the run's events and notices, approval questions, "the job finished" — queued
//   and announced through the wake callback (the UI drains them on its own thread);
// - to the job: the user's steering messages (taken at turn boundaries), approval answers and
//   the abort (the job's stop token).
// Thread-safe: every public member may be called from either thread, as its comment says.

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "core/events.hpp"
#include "core/tool_call.hpp"
#include "permissions/approval_policy.hpp"

namespace nib::ui {

// A line of information from a job (e.g. "Compacted the conversation").
struct JobNotice {
  std::string text;
  bool is_error = false;
};
struct JobFinished {};
// An approval question is the gate's (permissions/approval_policy.hpp): the UI puts it to the
// user and answers.
using WorkerMessage =
    std::variant<core::Event, JobNotice, permissions::ApprovalQuestion, JobFinished>;

class RunWorker {
 public:
  // `wake` is called (from the job's thread) after something was queued for the UI.
  explicit RunWorker(std::function<void()> wake);
  ~RunWorker();  // aborts a running job and waits for it

  // UI thread. Starts `job` on the worker thread; false while another job runs.
  bool start(std::function<void(std::stop_token)> job);
  bool busy() const;
  // UI thread. Asks the job to stop (its stop token fires; a pending approval is refused).
  void abort();
  // UI thread. Waits until the running job (if any) has returned.
  void wait();
  // UI thread. Everything queued for the UI since the last call, in order.
  std::vector<WorkerMessage> take_messages();

  // Job thread. Queues an event or notice for the UI.
  void post(WorkerMessage message);

  // UI thread: a message for the model, delivered at the next turn boundary.
  void queue_steering(std::string text);
  // Job thread (the loop's take_steering): the queued messages, now delivered.
  std::vector<core::UserMessage> take_steering();
  // UI thread: the messages still queued, taken back (the run ended before delivering them).
  std::vector<std::string> take_back_steering();
  std::vector<std::string> queued_steering() const;

  // Job thread (the approval policy's AskUser): puts the question to the UI and waits for the
  // answer; kInterrupted when `stop` fires first. Callable from several threads at once (a
  // run's subagents): one question is put at a time, the others wait their turn.
  permissions::ApprovalReply ask_approval(const permissions::ApprovalQuestion& question,
                                          std::stop_token stop);
  // UI thread: the answer to the pending question.
  void answer_approval(permissions::ApprovalReply reply);

 private:
  std::function<void()> wake_;
  mutable std::mutex mutex_;
  std::condition_variable_any answered_;
  std::mutex asking_;  // held by the one ask_approval whose question is on screen
  std::deque<WorkerMessage> to_ui_;
  std::vector<std::string> steering_;
  std::optional<permissions::ApprovalReply> answer_;
  bool busy_ = false;
  std::jthread thread_;
};

}  // namespace nib::ui
