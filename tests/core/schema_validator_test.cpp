// Tests of the messages schema validation gives the model for tool arguments.

#include "core/schema_validator.hpp"

#include <gtest/gtest.h>

namespace nib::core {
namespace {

using nlohmann::json;

// The one error `instance` has against `schema`, as "pointer: message".
std::string only_error(const json& schema, const json& instance) {
  const auto compiled = CompiledSchema::compile(schema);
  EXPECT_TRUE(compiled.ok()) << compiled.error();
  if (!compiled.ok()) return compiled.error();
  const auto errors = compiled.value()->validate(instance);
  EXPECT_EQ(errors.size(), 1u) << instance.dump();
  if (errors.empty()) return "(valid)";
  return errors.front().path + ": " + errors.front().message;
}

json object_with(const json& property) {
  return {{"type", "object"}, {"properties", {{"n", property}}}};
}

TEST(SchemaValidatorTest, NamesIntegerBoundsAsIntegers) {
  const json at_least_one = object_with({{"type", "integer"}, {"minimum", 1}});
  EXPECT_EQ(only_error(at_least_one, {{"n", 0}}), "/n: must be ≥ 1, got 0");
  EXPECT_EQ(only_error(at_least_one, {{"n", -3}}), "/n: must be ≥ 1, got -3");
  const json at_most = object_with({{"type", "integer"}, {"maximum", 2000}});
  EXPECT_EQ(only_error(at_most, {{"n", 5000}}), "/n: must be ≤ 2000, got 5000");
  // A whole bound written as a float is still a whole number.
  EXPECT_EQ(only_error(object_with({{"type", "integer"}, {"minimum", 1.0}}), {{"n", 0}}),
            "/n: must be ≥ 1, got 0");
}

TEST(SchemaValidatorTest, NamesExclusiveAndFractionalBoundsAsWritten) {
  const json above_zero = object_with({{"type", "number"}, {"exclusiveMinimum", 0}});
  EXPECT_EQ(only_error(above_zero, {{"n", 0}}), "/n: must be > 0, got 0");
  EXPECT_EQ(only_error(above_zero, {{"n", -0.5}}), "/n: must be > 0, got -0.5");
  const json below = object_with({{"type", "number"}, {"exclusiveMaximum", 2.5}});
  EXPECT_EQ(only_error(below, {{"n", 3}}), "/n: must be < 2.5, got 3");
  // More decimals than valijson's own text keeps.
  const json tiny = object_with({{"type", "number"}, {"minimum", 0.0000001}});
  EXPECT_EQ(only_error(tiny, {{"n", 0}}), "/n: must be ≥ 1e-07, got 0");
}

TEST(SchemaValidatorTest, LeavesOtherMessagesAlone) {
  EXPECT_EQ(only_error(object_with({{"type", "string"}}), {{"n", 1}}),
            "/n: expected \"string\", got integer");
  EXPECT_EQ(only_error(object_with({{"type", "string"}, {"minLength", 2}}), {{"n", "a"}}),
            "/n: String should be no fewer than 2 characters in length.");
}

}  // namespace
}  // namespace nib::core
