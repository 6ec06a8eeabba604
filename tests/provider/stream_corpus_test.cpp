// The stream corpus (tests/provider/stream_corpus/*.sse, see its README.md): each recorded
// stream shape goes through the real exchange path (the protocol's provider posting to the mock
// server over HTTP) as written, with its writes cut at random byte boundaries (several seeds),
// and with CRLF line ends; every way, the reply and the deltas passed on must be the same.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "provider/anthropic.hpp"
#include "provider/openai_chat.hpp"
#include "provider/openai_responses.hpp"
#include "support/provider_fixture.hpp"

namespace nib::provider {
namespace {

using testing::MockReply;

enum class Protocol { kChat, kResponses, kAnthropic };

struct ExpectedCall {
  std::string id;
  std::string name;
  std::string arguments;
};

struct CorpusCase {
  const char* file;  // in tests/provider/stream_corpus/
  Protocol protocol;
  std::string text;      // core::assistant_text of the reply
  std::string thinking;  // the thinking blocks' texts, joined
  std::vector<ExpectedCall> calls;
  core::StopReason stop = core::StopReason::kEndTurn;
  core::Usage usage;               // checked when any count is set
  bool text_deltas_add_up = true;  // false where a finished item overrides its deltas
};

// How many random splits each case is sent with, with LF and with CRLF line ends.
constexpr std::uint32_t kSplitSeeds = 8;

std::filesystem::path corpus_dir() {
  return std::filesystem::path(NIB_SOURCE_DIR) / "tests" / "provider" / "stream_corpus";
}

std::string read_corpus(const char* file) {
  std::ifstream in(corpus_dir() / file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

core::Usage usage(std::int64_t input, std::int64_t output) {
  core::Usage counts;
  counts.input_tokens = input;
  counts.output_tokens = output;
  return counts;
}

const std::vector<CorpusCase>& corpus() {
  static const std::vector<CorpusCase> cases = {
      {"chat_text.sse",
       Protocol::kChat,
       "Hello there, grüß dich 😀!",
       "",
       {},
       core::StopReason::kEndTurn,
       usage(19, 10)},
      {"chat_done_then_more.sse",
       Protocol::kChat,
       "Hello there, grüß dich 😀!",
       "",
       {},
       core::StopReason::kEndTurn,
       usage(19, 10)},
      {"chat_tool_calls.sse",
       Protocol::kChat,
       "",
       "",
       {{"call_DdmO9pD3xa9XTPNJ32zg2hcA", "get_weather", R"({"location": "Paris, France"})"},
        {"call_ABCDEFGHIJKLMNOPQRSTUVWX", "get_weather",
         R"({"location": "Tōkyō", "unit": "celsius"})"}},
       core::StopReason::kToolUse,
       usage(82, 42)},
      {"chat_mistral_thinking.sse",
       Protocol::kChat,
       "2 + 2 = 4.",
       "The user asks for 2 + 2. Doubling 2 is 4.",
       {},
       core::StopReason::kEndTurn,
       usage(14, 36)},
      {"chat_content_parts_unknown.sse", Protocol::kChat, "See the manual, page 3.",
       "a string, not a list"},
      {"chat_two_choices.sse",
       Protocol::kChat,
       "Choice zero speaks.",
       "",
       {},
       core::StopReason::kEndTurn,
       usage(20, 9)},
      {"chat_empty_reply.sse",
       Protocol::kChat,
       "",
       "",
       {},
       core::StopReason::kEndTurn,
       usage(11, 1)},
      {"responses_text.sse",
       Protocol::kResponses,
       "Hi there, grüß dich 😀",
       "",
       {},
       core::StopReason::kEndTurn,
       usage(37, 11)},
      {"responses_completed_then_done.sse",
       Protocol::kResponses,
       "Hi there, grüß dich 😀",
       "",
       {},
       core::StopReason::kEndTurn,
       usage(37, 11)},
      {"responses_completed_then_cut.sse",
       Protocol::kResponses,
       "Hi there, grüß dich 😀",
       "",
       {},
       core::StopReason::kEndTurn,
       usage(37, 11)},
      {"responses_second_response.sse",
       Protocol::kResponses,
       "Hi there, grüß dich 😀",
       "",
       {},
       core::StopReason::kEndTurn,
       usage(37, 11)},
      {"responses_commentary_then_answer.sse",
       Protocol::kResponses,
       "I'll look that up.\n\nFound it.",
       "",
       {{"call_lookup", "lookup", R"({"q":"weather"})"}},
       core::StopReason::kToolUse},
      {"responses_two_messages.sse", Protocol::kResponses, "First part.\n\nSecond part."},
      {"responses_web_search.sse",
       Protocol::kResponses,
       "It is sunny in New York, with a high of 24 °C.",
       "",
       {},
       core::StopReason::kEndTurn,
       usage(320, 40)},
      {"responses_done_differs.sse",
       Protocol::kResponses,
       "Hello world",
       "",
       {},
       core::StopReason::kEndTurn,
       {},
       /*text_deltas_add_up=*/false},
      {"responses_items_without_deltas.sse",
       Protocol::kResponses,
       "No deltas, only the item.",
       "",
       {{"call_7", "read", R"({"path":"a.txt"})"}},
       core::StopReason::kToolUse},
      {"responses_completed_only.sse",
       Protocol::kResponses,
       "Listed in the completed response only.",
       "",
       {},
       core::StopReason::kEndTurn,
       usage(5, 8)},
      {"responses_reasoning_then_text.sse", Protocol::kResponses, "42",
       "**Planning** the answer\n\nThen checking it"},
      {"anthropic_text.sse",
       Protocol::kAnthropic,
       "Hello there!",
       "",
       {},
       core::StopReason::kEndTurn,
       usage(11, 6)},
      {"anthropic_tool_use.sse",
       Protocol::kAnthropic,
       "I'll check the current weather in Paris for you.",
       "",
       {{"toolu_01NRLabsLyVHZPKxbKvkfSMn", "get_weather", R"({"location": "Paris"})"}},
       core::StopReason::kToolUse,
       usage(377, 65)},
      {"anthropic_web_search.sse",
       Protocol::kAnthropic,
       "I'll check the weather in New York.\n\nToday in New York it is sunny, with a high of "
       "24 °C.",
       "",
       {},
       core::StopReason::kEndTurn,
       usage(2679, 510)},
      {"anthropic_thinking.sse", Protocol::kAnthropic, "The answer is 7.",
       "Let me solve this step by step."},
      {"anthropic_stop_then_more.sse",
       Protocol::kAnthropic,
       "Hello there!",
       "",
       {},
       core::StopReason::kEndTurn,
       usage(11, 6)},
      {"anthropic_restart.sse",
       Protocol::kAnthropic,
       "Fresh answer.",
       "",
       {{"toolu_fresh", "read", R"({"path": "b.txt"})"}},
       core::StopReason::kToolUse,
       usage(400, 30)},
      {"anthropic_content_in_start.sse",
       Protocol::kAnthropic,
       "Carried in message_start, continued.",
       "",
       {{"toolu_after", "ls", "{}"}},
       core::StopReason::kToolUse},
  };
  return cases;
}

// One way of writing a case's stream to the wire.
struct Delivery {
  std::string name;
  std::optional<std::uint32_t> split_seed;
  bool crlf = false;
};

std::vector<Delivery> deliveries() {
  std::vector<Delivery> out = {{"one write", std::nullopt, false},
                               {"one write, CRLF", std::nullopt, true}};
  for (std::uint32_t seed = 1; seed <= kSplitSeeds; ++seed) {
    out.push_back({"split seed " + std::to_string(seed), seed, false});
    out.push_back({"split seed " + std::to_string(seed) + ", CRLF", seed, true});
  }
  return out;
}

class StreamCorpusTest : public testing::ProviderFixture,
                         public ::testing::WithParamInterface<CorpusCase> {
 protected:
  StreamCorpusTest() : ProviderFixture("corpus-model") {}

  std::unique_ptr<core::Provider> provider(Protocol protocol) {
    switch (protocol) {
      case Protocol::kChat:
        return std::make_unique<OpenAIChatProvider>(OpenAIChatConfig{server_.base_url(), "", {}});
      case Protocol::kResponses:
        return std::make_unique<OpenAIResponsesProvider>(
            OpenAIResponsesConfig{server_.base_url(), "", {}});
      case Protocol::kAnthropic:
        return std::make_unique<AnthropicProvider>(AnthropicConfig{server_.origin(), "", {}});
    }
    return nullptr;
  }

  // The deltas after the last ReplyRestartEvent: what the reply's sinks are left showing.
  std::vector<core::Event> live_deltas() const {
    auto last = deltas_.begin();
    for (auto it = deltas_.begin(); it != deltas_.end(); ++it) {
      if (std::holds_alternative<core::ReplyRestartEvent>(*it)) last = it + 1;
    }
    return {last, deltas_.end()};
  }
};

std::string thinking_of(const core::AssistantMessage& message) {
  std::string out;
  for (const auto& block : message.blocks) {
    if (const auto* thinking = std::get_if<core::ThinkingBlock>(&block)) out += thinking->text;
  }
  return out;
}

TEST_P(StreamCorpusTest, EveryDeliveryGivesTheSameReply) {
  const CorpusCase& expected = GetParam();
  const std::string stream = read_corpus(expected.file);
  ASSERT_FALSE(stream.empty()) << "cannot read " << expected.file;
  auto under_test = provider(expected.protocol);
  for (const Delivery& delivery : deliveries()) {
    SCOPED_TRACE(std::string(expected.file) + ", " + delivery.name);
    MockReply reply = MockReply::raw_stream(stream);
    reply.split_seed = delivery.split_seed;
    reply.crlf = delivery.crlf;
    server_.enqueue(reply);
    deltas_.clear();
    const core::AssistantMessage message = stream_with(*under_test);

    EXPECT_EQ(message.stop_reason, expected.stop) << message.error_message;
    EXPECT_EQ(message.error_message, "");
    EXPECT_EQ(core::assistant_text(message), expected.text);
    EXPECT_EQ(thinking_of(message), expected.thinking);
    const auto calls = core::tool_calls_of(message);
    ASSERT_EQ(calls.size(), expected.calls.size());
    for (std::size_t i = 0; i < calls.size(); ++i) {
      EXPECT_EQ(calls[i].id, expected.calls[i].id);
      EXPECT_EQ(calls[i].name, expected.calls[i].name);
      EXPECT_EQ(calls[i].arguments, expected.calls[i].arguments);
    }
    if (expected.usage.input_tokens != 0 || expected.usage.output_tokens != 0) {
      EXPECT_EQ(message.usage.input_tokens, expected.usage.input_tokens);
      EXPECT_EQ(message.usage.output_tokens, expected.usage.output_tokens);
    }
    EXPECT_EQ(core::is_empty_reply(message), expected.text.empty() && expected.calls.empty() &&
                                                 expected.stop == core::StopReason::kEndTurn);

    // What the sinks were shown adds up to the message.
    std::string text;
    std::string thinking;
    std::map<int, std::string> arguments;
    for (const core::Event& event : live_deltas()) {
      if (const auto* delta = std::get_if<core::TextDeltaEvent>(&event)) text += delta->text;
      if (const auto* delta = std::get_if<core::ThinkingDeltaEvent>(&event)) {
        thinking += delta->text;
      }
      if (const auto* delta = std::get_if<core::ToolCallDeltaEvent>(&event)) {
        arguments[delta->index] += delta->fragment;
      }
    }
    if (expected.text_deltas_add_up) {
      EXPECT_EQ(text, expected.text);
    }
    EXPECT_EQ(thinking, expected.thinking);
    for (std::size_t i = 0; i < calls.size(); ++i) {
      const std::string& streamed = arguments[static_cast<int>(i)];
      // A call without arguments is given "{}" only in the message.
      EXPECT_EQ(streamed.empty() ? "{}" : streamed, calls[i].arguments);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, StreamCorpusTest, ::testing::ValuesIn(corpus()),
                         [](const ::testing::TestParamInfo<CorpusCase>& info) {
                           std::string name = info.param.file;
                           name = name.substr(0, name.find('.'));
                           return name;
                         });

TEST(StreamCorpusFilesTest, EveryFileHasACase) {
  // A corpus file without an expectation would silently test nothing.
  std::set<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(corpus_dir())) {
    if (entry.path().extension() == ".sse") files.insert(entry.path().filename().string());
  }
  std::set<std::string> cases;
  for (const CorpusCase& each : corpus()) cases.insert(each.file);
  EXPECT_EQ(files, cases);
}

}  // namespace
}  // namespace nib::provider
