#include "ui/run_worker.hpp"

namespace nib::ui {

RunWorker::RunWorker(std::function<void()> wake) : wake_(std::move(wake)) {}

RunWorker::~RunWorker() {
  abort();
  wait();
}

bool RunWorker::start(std::function<void(std::stop_token)> job) {
  {
    const std::lock_guard lock(mutex_);
    if (busy_) return false;
    busy_ = true;
  }
  if (thread_.joinable()) thread_.join();  // the previous job has finished: it said so
  thread_ = std::jthread([this, job = std::move(job)](std::stop_token stop) {
    job(stop);
    {
      const std::lock_guard lock(mutex_);
      busy_ = false;
    }
    post(JobFinished{});
  });
  return true;
}

bool RunWorker::busy() const {
  const std::lock_guard lock(mutex_);
  return busy_;
}

void RunWorker::abort() {
  thread_.request_stop();  // also wakes a pending approval: its wait watches the stop token
}

void RunWorker::wait() {
  if (thread_.joinable()) thread_.join();
}

std::vector<WorkerMessage> RunWorker::take_messages() {
  const std::lock_guard lock(mutex_);
  std::vector<WorkerMessage> messages(std::make_move_iterator(to_ui_.begin()),
                                      std::make_move_iterator(to_ui_.end()));
  to_ui_.clear();
  return messages;
}

void RunWorker::post(WorkerMessage message) {
  {
    const std::lock_guard lock(mutex_);
    to_ui_.push_back(std::move(message));
  }
  wake_();
}

void RunWorker::queue_steering(std::string text) {
  const std::lock_guard lock(mutex_);
  steering_.push_back(std::move(text));
}

std::vector<core::UserMessage> RunWorker::take_steering() {
  const std::lock_guard lock(mutex_);
  std::vector<core::UserMessage> messages;
  for (std::string& text : steering_) messages.push_back({core::text_content(std::move(text))});
  steering_.clear();
  return messages;
}

std::vector<std::string> RunWorker::take_back_steering() {
  const std::lock_guard lock(mutex_);
  return std::exchange(steering_, {});
}

std::vector<std::string> RunWorker::queued_steering() const {
  const std::lock_guard lock(mutex_);
  return steering_;
}

permissions::ApprovalReply RunWorker::ask_approval(const permissions::ApprovalQuestion& question,
                                                   std::stop_token stop) {
  const std::lock_guard one_question(asking_);
  if (stop.stop_requested()) return permissions::ApprovalAnswer::kInterrupted;
  {
    const std::lock_guard lock(mutex_);
    answer_.reset();
  }
  post(question);
  std::unique_lock lock(mutex_);
  answered_.wait(lock, stop, [this] { return answer_.has_value(); });
  if (!answer_) return permissions::ApprovalAnswer::kInterrupted;
  return *std::exchange(answer_, std::nullopt);
}

void RunWorker::answer_approval(permissions::ApprovalReply reply) {
  {
    const std::lock_guard lock(mutex_);
    answer_ = std::move(reply);
  }
  answered_.notify_all();
}

}  // namespace nib::ui
