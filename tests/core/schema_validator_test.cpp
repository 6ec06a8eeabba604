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

// The model is told which properties are unknown and which it may use, not valijson's "could
// not be validated using 'properties' or 'additionalProperties' constraints".
TEST(SchemaValidatorTest, NamesUnknownPropertiesAndTheAllowedOnes) {
  const json closed = {{"type", "object"},
                       {"properties", {{"id", {{"type", "integer"}}}, {"wait_s", json::object()}}},
                       {"additionalProperties", false}};
  EXPECT_EQ(only_error(closed, {{"id", 1}, {"colour", "red"}}),
            ": unknown property \"colour\" (allowed: id, wait_s)");
  EXPECT_EQ(only_error(closed, {{"id", 1}, {"a", 1}, {"b", 2}}),
            ": unknown properties \"a\", \"b\" (allowed: id, wait_s)");
  const json nested = {{"type", "object"}, {"properties", {{"item", closed}}}};
  EXPECT_EQ(only_error(nested, {{"item", {{"id", 1}, {"x", 0}}}}),
            "/item: unknown property \"x\" (allowed: id, wait_s)");
}

TEST(SchemaValidatorTest, NamesTheAllowedValuesOfAnEnum) {
  const json status = object_with({{"enum", {"pending", "in_progress", "completed"}}});
  EXPECT_EQ(only_error(status, {{"n", "done"}}),
            "/n: must be one of \"pending\", \"in_progress\", \"completed\"; got \"done\"");
}

// Property names with "/" and "~" are single tokens of the error's pointer, and a schema that
// does not describe the value cannot make the message builder throw.
TEST(SchemaValidatorTest, OddPropertyNamesAreEscapedAndNeverThrow) {
  const json odd = {{"type", "object"},
                    {"properties", {{"a/b", {{"type", "integer"}}}, {"a", {{"type", "array"}}}}},
                    {"additionalProperties", {{"type", "integer"}}}};
  EXPECT_EQ(only_error(odd, {{"a/b", "x"}}), "/a~1b: expected \"integer\", got string");
  EXPECT_EQ(only_error(odd, {{"a", json::array()}, {"a/x", "y"}}),
            "/a~1x: expected \"integer\", got string");
}

}  // namespace
}  // namespace nib::core
