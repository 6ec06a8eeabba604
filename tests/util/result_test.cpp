#include "util/result.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace nib::util {
namespace {

Result<int> parse_digit(char c) {
  if (c < '0' || c > '9') return Result<int>::failure(std::string("'") + c + "' is not a digit");
  return c - '0';
}

TEST(ResultTest, HoldsTheValueOnSuccess) {
  const Result<int> result = parse_digit('7');
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.value(), 7);
  EXPECT_EQ(result.error(), "");
}

TEST(ResultTest, HoldsTheMessageOnFailure) {
  const Result<int> result = parse_digit('x');
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.error(), "'x' is not a digit");
}

TEST(ResultTest, AFailureWithoutAMessageIsStillAFailure) {
  EXPECT_FALSE(Result<int>::failure("").ok());
  EXPECT_FALSE(Status::failure("").ok());
}

TEST(ResultTest, AValueThatIsAStringIsNotTakenForAnError) {
  const Result<std::string> empty = std::string();
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty.value(), "");
  const Result<std::string> text = std::string("summary");
  EXPECT_EQ(text.value(), "summary");
  EXPECT_EQ(text.error(), "");
}

TEST(ResultTest, AMoveOnlyValueCanBeTakenOut) {
  Result<std::unique_ptr<int>> result = std::make_unique<int>(5);
  ASSERT_TRUE(result.ok());
  const std::unique_ptr<int> taken = std::move(result.value());
  EXPECT_EQ(*taken, 5);
}

TEST(ResultTest, TheValueCanBeChangedInPlace) {
  Result<int> result = 1;
  result.value() += 1;
  EXPECT_EQ(result.value(), 2);
}

TEST(StatusTest, SuccessHasNoMessage) {
  const Status status = Status::success();
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(status.error(), "");
}

TEST(StatusTest, FailureKeepsItsMessage) {
  const Status status = Status::failure("cannot write the file: No space left on device");
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.error(), "cannot write the file: No space left on device");
}

}  // namespace
}  // namespace nib::util
