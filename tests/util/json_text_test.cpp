#include "util/json_text.hpp"

#include <gtest/gtest.h>

#include "util/utf8.hpp"

namespace nib::util {
namespace {

using nlohmann::json;

// A string value holding bytes that are not UTF-8: a lone continuation byte, a lead byte cut
// off by the end, and 0xFF, which UTF-8 never uses.
json json_text_invalid_sample() {
  return json{{"out", std::string("ok \x80 caf\xC3")}, {"bin", std::string("\xFF")}};
}

TEST(JsonTextTest, IsDumpByteForByteForValidText) {
  const json value = {{"b", {1, 2.5, nullptr}}, {"a", "é \"q\" \n"}, {"c", json::object()}};
  EXPECT_EQ(json_text(value), value.dump());
  EXPECT_EQ(json_text(value, 2), value.dump(2));
  EXPECT_EQ(json_text(json("ż")), "\"ż\"");  // not "\u017c": characters stay as they are
  EXPECT_EQ(json_text(json{{"k", 1}}), R"({"k":1})");
  EXPECT_EQ(json_text(json{{"k", 1}}, 2), "{\n  \"k\": 1\n}");
}

TEST(JsonTextTest, InvalidUtf8BecomesReplacementCharactersInsteadOfThrowing) {
  const json value = json_text_invalid_sample();
  EXPECT_THROW((void)value.dump(), json::type_error);  // why the helper exists
  std::string text;
  ASSERT_NO_THROW(text = json_text(value));
  EXPECT_TRUE(is_valid_utf8(text)) << text;
  EXPECT_EQ(text, "{\"bin\":\"\xEF\xBF\xBD\",\"out\":\"ok \xEF\xBF\xBD caf\xEF\xBF\xBD\"}");
  ASSERT_NO_THROW(text = json_text(value, 2));
  EXPECT_TRUE(is_valid_utf8(text)) << text;
  // What it writes is JSON again, with the replacement characters in the strings.
  EXPECT_EQ(json::parse(text)["out"], "ok \xEF\xBF\xBD caf\xEF\xBF\xBD");
}

TEST(JsonTextTest, ReplacesInvalidBytesInKeysAndNestedValuesToo) {
  json value = json::object();
  value[std::string("k\xFE")] = json::array({std::string("\xE2\x82"), "fine"});
  const std::string text = json_text(value);
  EXPECT_TRUE(is_valid_utf8(text)) << text;
  EXPECT_EQ(text, "{\"k\xEF\xBF\xBD\":[\"\xEF\xBF\xBD\",\"fine\"]}");
}

}  // namespace
}  // namespace nib::util
