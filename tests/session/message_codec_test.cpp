#include "session/message_codec.hpp"

#include <gtest/gtest.h>

#include "session/sample_messages.hpp"

namespace nib::session {
namespace {

using nlohmann::json;

// Through text, as a session file stores it.
core::Message round_trip(const core::Message& message) {
  const std::string text = encode_message(message).dump();
  auto decoded = decode_message(json::parse(text));
  EXPECT_TRUE(decoded.ok()) << decoded.error() << "\n" << text;
  return decoded.ok() ? decoded.value() : core::Message{};
}

void expect_round_trip(const core::Message& message) {
  EXPECT_TRUE(round_trip(message) == message) << encode_message(message).dump(2);
}

TEST(MessageCodecTest, UserTextAndImageBlocksRoundTrip) {
  expect_round_trip(
      core::UserMessage{{core::TextBlock{"look at this"},
                         core::ImageBlock{"iVBORw0KGgo=", "image/png"}, core::TextBlock{""}}});
  expect_round_trip(core::UserMessage{});
}

TEST(MessageCodecTest, AssistantWithEveryBlockKindAndFieldRoundTrips) {
  core::AssistantMessage message;
  message.blocks = {
      core::ThinkingBlock{"pondering", "sig-abc", false},
      core::ThinkingBlock{"", "encrypted-data", true},
      core::TextBlock{"I'll read it."},
      core::ToolCall{"call_1", "read", R"({"path":"a.txt"})"},
      core::ToolCall{"call_2", "bash", R"({"command": "ls", )"},  // cut off: not JSON
      core::ToolCall{"call_3", "apply_patch", R"({"input":"*** Begin Patch\n"})", true},
  };
  message.stop_reason = core::StopReason::kToolUse;
  message.usage = core::Usage{1200, 345, 1000, 200};
  message.model = "claude-x";
  message.api = "anthropic-messages";
  expect_round_trip(message);
}

TEST(MessageCodecTest, HostedWebSearchesAndCitationsRoundTrip) {
  core::AssistantMessage message;
  message.api = "anthropic-messages";
  message.blocks = {
      core::WebSearchBlock{.id = "srvtoolu_1",
                           .query = "shannon birth date",
                           .results = {{"Claude Shannon", "https://example.org/shannon"},
                                       {"", "https://example.org/untitled"}},
                           .error = {},
                           .replay = R"([{"type":"server_tool_use"},{"type":"x"}])"},
      core::WebSearchBlock{.id = "srvtoolu_2",
                           .query = "",
                           .results = {},
                           .error = "max_uses_exceeded",
                           .replay = {}},
      core::TextBlock{"Based on the results, "},
      core::TextBlock{.text = "he was born in 1916",
                      .citations = {{"https://example.org/shannon", "Claude Shannon",
                                     R"({"encrypted_index":"Eo8B"})"},
                                    {"https://example.org/other", "", ""}},
                      .glued = true},
  };
  expect_round_trip(message);
}

TEST(MessageCodecTest, EveryStopReasonAndErrorKindRoundTrips) {
  for (const auto reason :
       {core::StopReason::kEndTurn, core::StopReason::kToolUse, core::StopReason::kMaxTokens,
        core::StopReason::kAborted, core::StopReason::kError}) {
    core::AssistantMessage message;
    message.stop_reason = reason;
    expect_round_trip(message);
  }
  for (const auto kind :
       {core::ErrorKind::kNone, core::ErrorKind::kRateLimited, core::ErrorKind::kOverloaded,
        core::ErrorKind::kServer, core::ErrorKind::kConnection, core::ErrorKind::kContextOverflow,
        core::ErrorKind::kOther}) {
    core::AssistantMessage message;
    message.stop_reason = core::StopReason::kError;
    message.error_message = "the service said no";
    message.error_kind = kind;
    message.retry_after = std::chrono::milliseconds(1500);
    expect_round_trip(message);
  }
}

TEST(MessageCodecTest, ToolResultsRoundTripWithExitCodesAndImages) {
  core::ToolResultMessage message;
  message.results = {
      core::ToolResult{"call_1", "bash", core::text_content("out\nerr"), false, 0},
      core::ToolResult{"call_2", "bash", core::text_content("killed"), true, -9},
      core::ToolResult{"call_3",
                       "read",
                       {core::TextBlock{"an image:"}, core::ImageBlock{"R0lGOD==", "image/gif"}},
                       false,
                       std::nullopt},
      core::ToolResult{"call_4", "ls", {}, true, std::nullopt},
  };
  expect_round_trip(message);
}

TEST(MessageCodecTest, AwkwardTextSurvives) {
  std::string text = "quotes \" backslash \\ newline\n tab\t nul";
  text += '\0';
  text += " end, unicode: żółw 🐢";
  expect_round_trip(core::UserMessage{core::text_content(text)});
}

TEST(MessageCodecTest, DefaultFieldsAreLeftOutOfTheEncoding) {
  core::AssistantMessage message;
  message.blocks = {core::ThinkingBlock{"t", "s", false}};
  const json encoded = encode_message(message);
  EXPECT_FALSE(encoded.contains("error_message"));
  EXPECT_FALSE(encoded.contains("error_kind"));
  EXPECT_FALSE(encoded.contains("retry_after_ms"));
  EXPECT_FALSE(encoded["content"][0].contains("redacted"));
  message.blocks = {core::ToolCall{"c", "ls", "{}"}};
  EXPECT_FALSE(encode_message(message)["content"][0].contains("freeform"));
  const json result =
      encode_message(core::ToolResultMessage{{core::ToolResult{"c", "ls", {}, false, {}}}});
  EXPECT_FALSE(result["results"][0].contains("exit_code"));
  EXPECT_EQ(result["results"][0]["is_error"], false);
}

TEST(MessageCodecTest, ErrorsNameTheOffendingField) {
  const auto error_of = [](const char* text) {
    auto decoded = decode_message(json::parse(text));
    EXPECT_FALSE(decoded.ok()) << text;
    return decoded.error();
  };
  EXPECT_EQ(error_of("[]"), "message: expected an object");
  EXPECT_EQ(error_of(R"({"content":[]})"), "role: missing");
  EXPECT_EQ(error_of(R"({"role":"system"})"), "role: unknown role \"system\"");
  EXPECT_EQ(error_of(R"({"role":"user","content":[{"type":"text","text":"a"},{"type":"video"}]})"),
            "content[1].type: unknown content block type \"video\"");
  EXPECT_EQ(error_of(R"({"role":"user","content":[{"type":"text","text":5}]})"),
            "content[0].text: expected a string");
  EXPECT_EQ(error_of(R"({"role":"assistant","content":[],"stop_reason":"done","usage":{}})"),
            "stop_reason: unknown value \"done\"");
  EXPECT_EQ(error_of(R"({"role":"assistant","content":[],"stop_reason":"end_turn","usage":{},
                         "error_kind":"meteor"})"),
            "error_kind: unknown value \"meteor\"");
  EXPECT_EQ(error_of(R"({"role":"assistant","content":[],"stop_reason":"end_turn",
                         "usage":{"input_tokens":"many"}})"),
            "usage.input_tokens: expected a whole number");
  EXPECT_EQ(error_of(R"({"role":"assistant","content":[{"type":"tool_call","name":"ls"}],
                         "stop_reason":"tool_use","usage":{}})"),
            "content[0].id: missing");
  EXPECT_EQ(error_of(R"({"role":"tool_result","results":[{"tool_call_id":"c","content":[],
                         "exit_code":99999999999}]})"),
            "results[0].exit_code: out of range");
  EXPECT_EQ(error_of(R"({"role":"tool_result","results":[{"tool_call_id":"c","content":[],
                         "is_error":"yes"}]})"),
            "results[0].is_error: expected true or false");
}

TEST(MessageCodecTest, DecodingNeverThrows) {
  for (const char* text :
       {"null", "1", "\"user\"", R"({"role":1})", R"({"role":"user"})",
        R"({"role":"user","content":{}})", R"({"role":"user","content":[1]})",
        R"({"role":"assistant","content":[],"stop_reason":"end_turn"})",
        R"({"role":"assistant","content":[],"stop_reason":"end_turn","usage":3})",
        R"({"role":"tool_result","results":[{"content":[]}]})",
        R"({"role":"assistant","content":[],"stop_reason":"end_turn",
                               "usage":{"output_tokens":18446744073709551615}})"}) {
    EXPECT_NO_THROW({
      const auto decoded = decode_message(json::parse(text));
      EXPECT_FALSE(decoded.ok()) << text;
    });
  }
}

TEST(MessageCodecTest, UnknownExtraFieldsAreIgnored) {
  const auto decoded =
      decode_message(json::parse(R"({"role":"user","content":[],"added_later":true})"));
  EXPECT_TRUE(decoded.ok()) << decoded.error();
}

}  // namespace
}  // namespace nib::session
