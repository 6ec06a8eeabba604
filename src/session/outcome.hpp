#pragma once
// Outcome<T> and Status: the session layer reports failures as values (a message naming the
// file, the line and the problem), never as exceptions, because a broken session file is an
// everyday event for an agent that can be killed at any moment. Plain values; thread-safety as
// for the contained type.

#include <optional>
#include <string>
#include <utility>

namespace nib::session {

// Success or an error message; the message is empty exactly on success.
class Status {
 public:
  static Status success() { return Status(); }
  static Status failure(std::string error) { return Status(std::move(error)); }

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  Status() = default;
  explicit Status(std::string error) : error_(std::move(error)) {}

  std::string error_;
};

// A value, or an error message saying why there is none.
template <typename T>
class Outcome {
 public:
  // Success; implicit so that `return value;` reads naturally.
  Outcome(T value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  static Outcome failure(std::string error) { return Outcome(std::nullopt, std::move(error)); }

  bool ok() const { return value_.has_value(); }
  // The value; only valid when ok().
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  // The error message; empty when ok().
  const std::string& error() const { return error_; }

 private:
  Outcome(std::nullopt_t, std::string error) : error_(std::move(error)) {}

  std::optional<T> value_;
  std::string error_;
};

}  // namespace nib::session
