#pragma once
// Result<T> and Status: how nib reports that a call failed. Plain values; thread-safety as for
// the contained type.
//
// The rule. A function that can fail returns util::Result<T> (a value, or a message saying why
// there is none) or, when there is no value, util::Status. The message names what failed and
// what to do next, written for whoever reads it (a person, or the model); a caller adds the
// context it knows (a "nib: " prefix, a file name) and passes the failure up or shows it. There
// are no `std::string& error` out-parameters, no {optional value, error string} structs, and no
// exceptions crossing a function of ours: an exception a library throws is caught where the
// library is called and turned into a Result; the handler in main() is only a last resort. Kept
// as they are: data-like results in which an error is one field among others that still mean
// something when it is set (CommandResult, HttpStreamResult, a tool's output with is_error,
// SessionSummary, AtomicWriteResult, ImageOutcome), and exceptions private to one file that
// never leave it (message_codec's DecodeError).

#include <optional>
#include <string>
#include <utility>

namespace nib::util {

// Success, or an error message.
class Status {
 public:
  static Status success() { return Status(); }
  static Status failure(std::string error) { return Status(std::move(error)); }

  bool ok() const { return ok_; }
  // The error message; empty when ok().
  const std::string& error() const { return error_; }

 private:
  Status() = default;
  explicit Status(std::string error) : ok_(false), error_(std::move(error)) {}

  bool ok_ = true;
  std::string error_;
};

// A value, or an error message saying why there is none.
template <typename T>
class Result {
 public:
  // Success; implicit so that `return value;` reads naturally.
  Result(T value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  static Result failure(std::string error) { return Result(std::nullopt, std::move(error)); }

  bool ok() const { return value_.has_value(); }
  // The value; only valid when ok().
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  // The error message; empty when ok().
  const std::string& error() const { return error_; }

 private:
  Result(std::nullopt_t, std::string error) : error_(std::move(error)) {}

  std::optional<T> value_;
  std::string error_;
};

}  // namespace nib::util
