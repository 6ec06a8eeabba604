#include "process/output_capture.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/fd_io.hpp"

namespace nib::process {
namespace {

// Counts '\n' eight bytes at a time: a flooding command's every byte passes through here, and
// a plain byte loop (which -O2 does not vectorise) would dominate nib's CPU time.
std::uint64_t count_newlines(std::string_view bytes) {
  constexpr std::uint64_t kNewlines = 0x0A0A0A0A0A0A0A0AULL;
  constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  std::uint64_t count = 0;
  std::size_t pos = 0;
  for (; pos + 8 <= bytes.size(); pos += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes.data() + pos, sizeof word);
    const std::uint64_t x = word ^ kNewlines;  // bytes equal to '\n' become zero
    // Exactly the zero bytes get their high bit set in ~(...): no borrow crosses bytes.
    const std::uint64_t zero_high_bits = ~(((x & kLow7) + kLow7) | x | kLow7);
    // One bit per byte, summed into the top byte by the multiply (no popcount instruction
    // is assumed: without -mpopcnt it becomes a slow library call).
    count += ((zero_high_bits >> 7) * 0x0101010101010101ULL) >> 56;
  }
  for (; pos < bytes.size(); ++pos) count += bytes[pos] == '\n' ? 1 : 0;
  return count;
}

}  // namespace

OutputCapture::OutputCapture(LogOpener open_log, CaptureLimits limits)
    : open_log_(std::move(open_log)), limits_(limits), collector_(limits.excerpts) {}

OutputCapture::~OutputCapture() = default;

void OutputCapture::append(std::string_view bytes) {
  if (bytes.empty()) return;
  collector_.append(bytes);
  // Decide before pushing: the ring still holds every byte so far and becomes the log's start.
  if (!log_started_ && (total_bytes_ + bytes.size() > limits_.tail_bytes ||
                        collector_.lines() > limits_.spill_lines)) {
    start_log();
  }
  write_log(bytes);
  total_bytes_ += bytes.size();
  push_tail(bytes);
}

void OutputCapture::push_tail(std::string_view bytes) {
  const std::size_t capacity = limits_.tail_bytes;
  if (capacity == 0) return;
  if (bytes.size() >= capacity) {
    ring_.assign(bytes.substr(bytes.size() - capacity));
    ring_next_ = 0;
    return;
  }
  if (ring_.size() < capacity) {
    const std::size_t fill = std::min(capacity - ring_.size(), bytes.size());
    ring_.append(bytes.substr(0, fill));
    bytes.remove_prefix(fill);
  }
  while (!bytes.empty()) {
    const std::size_t step = std::min(capacity - ring_next_, bytes.size());
    std::memcpy(ring_.data() + ring_next_, bytes.data(), step);
    ring_next_ = (ring_next_ + step) % capacity;
    bytes.remove_prefix(step);
  }
}

std::string OutputCapture::tail() const {
  if (ring_.size() < limits_.tail_bytes || ring_next_ == 0) return ring_;
  std::string ordered;
  ordered.reserve(ring_.size());
  ordered.append(ring_, ring_next_, std::string::npos);
  ordered.append(ring_, 0, ring_next_);
  return ordered;
}

void OutputCapture::start_log() {
  log_started_ = true;
  auto log = open_log_ ? open_log_() : util::Result<LogFile>::failure("no log file available");
  if (!log.ok()) {
    log_error_ = log.error();
    return;
  }
  log_fd_ = std::move(log.value().fd);
  log_path_ = std::move(log.value().path);
  // Only called while the ring still holds the whole stream.
  write_log(tail());
}

void OutputCapture::write_log(std::string_view bytes) {
  if (!log_fd_.valid() || log_bytes_ >= limits_.max_log_bytes) return;
  const auto room = static_cast<std::size_t>(limits_.max_log_bytes - log_bytes_);
  const std::string_view part = bytes.substr(0, std::min(room, bytes.size()));
  if (!util::write_all(log_fd_.get(), part)) {
    log_error_ = std::string("writing the log failed: ") + std::strerror(errno);
    log_fd_.reset();
    return;
  }
  log_bytes_ += part.size();
  log_newlines_ += count_newlines(part);
}

void OutputCapture::ensure_log() {
  if (!log_started_) start_log();
}

void OutputCapture::finish() {
  collector_.finish();
  if (log_fd_.valid() && log_bytes_ < total_bytes_) {
    const std::string note = "\n[nib: this log holds only the first " + std::to_string(log_bytes_) +
                             " bytes of " + std::to_string(total_bytes_) +
                             "; the rest was not kept]\n";
    util::write_all(log_fd_.get(), note);
  }
  log_fd_.reset();
}

}  // namespace nib::process
