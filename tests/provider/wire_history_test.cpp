// The history kept serialised between requests (provider/wire_history.hpp): a request built with
// the cache is byte for byte the one built without it, whatever happened to the history in
// between, and a message is serialised again only when it is new or changed.

#include "provider/wire_history.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "provider/anthropic_request.hpp"
#include "provider/openai_chat_request.hpp"
#include "provider/openai_responses_request.hpp"
#include "support/message_builders.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;

core::Message user_says(const std::string& text) {
  return core::UserMessage{core::text_content(text)};
}

core::Message reply_calling(const std::string& id) {
  return testing::assistant_message(
      {core::TextBlock{"Reading."}, core::ToolCall{id, "read", R"({"path":"a.txt"})"}});
}

core::Message result_of(const std::string& id, const std::string& text) {
  return core::ToolResultMessage{{core::ToolResult{id, "read", core::text_content(text)}}};
}

using Builder = std::function<std::string(const core::ProviderRequest&, WireHistory*)>;

struct WireFormat {
  const char* name;
  Builder build;
};

std::vector<WireFormat> wire_formats() {
  return {
      {"chat",
       [](const core::ProviderRequest& request, WireHistory* cache) {
         return build_chat_request(request, ChatDialect::kCompatible, cache);
       }},
      {"responses", [](const core::ProviderRequest& request,
                       WireHistory* cache) { return build_responses_request(request, cache); }},
      {"anthropic", [](const core::ProviderRequest& request,
                       WireHistory* cache) { return build_anthropic_request(request, cache); }},
  };
}

// Builds the request over `history` with `cache` and without any, and insists they agree.
void expect_same_body(const WireFormat& protocol, const std::vector<core::Message>& history,
                      WireHistory& cache, const std::string& when) {
  core::ProviderRequest request = testing::request_over(history, "claude-sonnet-4-5");
  request.system_prompt = "You are nib.";
  const std::string cached = protocol.build(request, &cache);
  EXPECT_EQ(cached, protocol.build(request, nullptr)) << protocol.name << ", " << when;
  EXPECT_TRUE(json::accept(cached)) << protocol.name << ", " << when << ": " << cached;
}

TEST(WireHistoryTest, ACachedRequestIsTheUncachedOneWhateverTheHistoryWentThrough) {
  for (const WireFormat& protocol : wire_formats()) {
    WireHistory cache;
    std::vector<core::Message> history = {user_says("read a.txt")};
    expect_same_body(protocol, history, cache, "first turn");
    for (int turn = 1; turn <= 3; ++turn) {
      const std::string id = "call_" + std::to_string(turn);
      history.push_back(reply_calling(id));
      history.push_back(result_of(id, "line " + std::to_string(turn)));
      expect_same_body(protocol, history, cache, "turn " + std::to_string(turn));
    }
    // A message changed in place (a result's text rewritten), then the history compacted to
    // a summary and a new prompt, then cleared.
    history[2] = result_of("call_1", "rewritten");
    expect_same_body(protocol, history, cache, "after an edit");
    history = {user_says("Summary of the conversation so far."), user_says("go on")};
    expect_same_body(protocol, history, cache, "after compaction");
    history.clear();
    expect_same_body(protocol, history, cache, "after clearing");
    history.push_back(user_says("hello again"));
    expect_same_body(protocol, history, cache, "after a new prompt");
  }
}

TEST(WireHistoryTest, OnlyNewOrChangedMessagesAreSerialisedAgain) {
  WireHistory cache;
  std::vector<core::Message> history = {user_says("a"), reply_calling("c1"), result_of("c1", "x")};
  int serialised = 0;
  const auto visit_all = [&](const std::string& context) {
    std::vector<std::string> seen;
    WireHistory::visit(
        &cache, history, context,
        [&serialised](const core::Message& message) {
          ++serialised;
          return WireItems{std::to_string(message.index())};
        },
        [&seen](const core::Message&, const WireItems& items) { seen.push_back(items.at(0)); });
    return seen;
  };
  EXPECT_EQ(visit_all("images"), (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(serialised, 3);
  history.push_back(user_says("b"));
  visit_all("images");
  EXPECT_EQ(serialised, 4);  // only the new message
  history[1] = reply_calling("c2");
  visit_all("images");
  EXPECT_EQ(serialised, 5);  // only the changed one
  visit_all("no images");
  EXPECT_EQ(serialised, 9);  // another context: everything again
}

TEST(WireHistoryTest, ConversationsAreKeptApart) {
  WireHistory cache;
  const std::vector<core::Message> parent = {user_says("parent task")};
  const std::vector<core::Message> subagent = {user_says("subagent task"), reply_calling("s1")};
  for (const WireFormat& protocol : wire_formats()) {
    for (int round = 0; round < 2; ++round) {
      expect_same_body(protocol, parent, cache, "parent");
      expect_same_body(protocol, subagent, cache, "subagent");
    }
  }
}

TEST(WireHistoryTest, AnthropicBreakpointsLandOnTheLastUserTurnsBlocks) {
  std::vector<core::Message> history = {user_says("one"), reply_calling("c1"), result_of("c1", "x"),
                                        user_says("two")};
  core::ProviderRequest request = testing::request_over(history, "claude-sonnet-4-5");
  WireHistory cache;
  const json body = json::parse(build_anthropic_request(request, &cache));
  const json& messages = body["messages"];
  ASSERT_EQ(messages.size(), 3u);  // user, assistant, user (the results and "two" merged)
  EXPECT_TRUE(messages[0]["content"].back().contains("cache_control"));
  EXPECT_FALSE(messages[1]["content"].back().contains("cache_control"));
  ASSERT_EQ(messages[2]["content"].size(), 2u);
  EXPECT_FALSE(messages[2]["content"][0].contains("cache_control"));
  EXPECT_EQ(messages[2]["content"][1]["cache_control"], json({{"type", "ephemeral"}}));
}

}  // namespace
}  // namespace nib::provider
