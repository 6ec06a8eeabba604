// End-to-end: what a session costs and what it keeps, through the real nib binary and the mock
// model over each wire protocol: the request prefix the services cache stays byte-identical
// from turn to turn (MCP servers coming and going, a skill loaded), the spending cap stops a run
// cleanly, and compaction carries the task, the plan and the files in hand past two summaries.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "support/fake_mcp_server.hpp"
#include "support/mock_anthropic_replies.hpp"
#include "support/mock_model_server.hpp"
#include "support/mock_responses_replies.hpp"
#include "support/nib_process.hpp"
#include "support/small_window_models.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

enum class Protocol { kChat, kResponses, kAnthropic };

// `value` without its "cache_control" members: the breakpoints move from turn to turn, but
// they mark the prefix rather than being part of it.
json without_breakpoints(json value) {
  if (value.is_object()) {
    value.erase("cache_control");
    for (auto& [key, member] : value.items()) member = without_breakpoints(member);
  } else if (value.is_array()) {
    for (auto& item : value) item = without_breakpoints(item);
  }
  return value;
}

// The parts of a request the service caches as a prefix, in the service's order.
struct CachedPrefix {
  json tools;
  json system;
  json turns;  // the messages (Chat: after the system message) or input items
  std::vector<std::string> tool_names;
};

CachedPrefix cached_prefix(Protocol protocol, const json& body) {
  CachedPrefix prefix;
  prefix.tools = without_breakpoints(body.value("tools", json::array()));
  for (const json& tool : prefix.tools) {
    prefix.tool_names.push_back(tool.contains("function") ? tool["function"].value("name", "")
                                                          : tool.value("name", ""));
  }
  switch (protocol) {
    case Protocol::kChat:
      prefix.system = body["messages"][0];
      prefix.turns = json(body["messages"].begin() + 1, body["messages"].end());
      break;
    case Protocol::kResponses:
      prefix.system = body["instructions"];
      prefix.turns = body["input"];
      break;
    case Protocol::kAnthropic:
      prefix.system = without_breakpoints(body["system"]);
      prefix.turns = without_breakpoints(body["messages"]);
      break;
  }
  return prefix;
}

class CostContextTest : public ::testing::TestWithParam<Protocol> {
 protected:
  Protocol protocol() const { return GetParam(); }

  MockReply calls(const std::vector<MockToolCall>& calls) const {
    switch (protocol()) {
      case Protocol::kChat:
        return MockReply::tool_calls(calls);
      case Protocol::kResponses:
        return responses_function_calls(calls);
      case Protocol::kAnthropic:
        return anthropic_tool_use(calls);
    }
    return {};
  }
  MockReply text(const std::string& text) const {
    switch (protocol()) {
      case Protocol::kChat:
        return MockReply::text(text);
      case Protocol::kResponses:
        return responses_text(text);
      case Protocol::kAnthropic:
        return anthropic_text(text);
    }
    return {};
  }

  NibResult run(std::vector<std::string> args) {
    std::map<std::string, std::string> env = {{"HOME", dir_.path().string()},
                                              {"XDG_DATA_HOME", (dir_.path() / "data").string()}};
    switch (protocol()) {
      case Protocol::kChat:
        env["OPENAI_BASE_URL"] = server_.base_url();
        args.insert(args.end(), {"--model", "mock-model"});
        break;
      case Protocol::kResponses:
        env["OPENAI_BASE_URL"] = server_.base_url();
        args.insert(args.end(), {"--api", "openai-responses", "--model", "gpt-5.4"});
        break;
      case Protocol::kAnthropic:
        env["ANTHROPIC_BASE_URL"] = server_.origin();
        env["ANTHROPIC_API_KEY"] = "sk-ant-test";
        args.insert(args.end(), {"--model", "claude-sonnet-4-6"});
        break;
    }
    return run_nib(args, dir_.path(), env);
  }

  MockModelServer server_;
  TempDir dir_;
};

// Consecutive requests share everything the earlier one sent: the tools in the same order, the
// same system prompt, and its turns, byte for byte. Only a server whose tools arrive changes
// the tools (once); a skill loaded, a server crashing and restarting, and calls of every kind
// only append.
TEST_P(CostContextTest, EachRequestExtendsThePreviousOneByteForByte) {
  dir_.write("notes.txt", "the answer is 42\n");
  dir_.write(".claude/skills/demo/SKILL.md",
             "---\nname: demo\ndescription: A demo skill. Use it for demos.\n---\nSay DEMO.\n");
  dir_.write("servers.json", json{{"mcpServers", {{"fake", fake_mcp_server("normal")}}}}.dump());
  dir_.write(".nib/settings.json", R"({"permissions": {"allow": ["mcp__fake"]}})");
  server_.enqueue(calls({{"c1", "read", R"({"path":"notes.txt"})"}}));
  server_.enqueue(calls({{"c2", "bash", R"({"command":"echo hi"})"}}));
  server_.enqueue(calls({{"c3", "skill", R"({"name":"demo"})"}}));
  server_.enqueue(calls({{"c4", "mcp__fake__echo", R"({"text":"one"})"}}));
  server_.enqueue(calls({{"c5", "mcp__fake__crash", "{}"}}));
  server_.enqueue(calls({{"c6", "mcp__fake__echo", R"({"text":"two"})"}}));
  server_.enqueue(text("done"));
  const NibResult result = run({"-p", "work", "--mcp-config", "servers.json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;

  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 7u);
  int tool_changes = 0;
  for (std::size_t i = 1; i < requests.size(); ++i) {
    const CachedPrefix before = cached_prefix(protocol(), requests[i - 1].body);
    const CachedPrefix after = cached_prefix(protocol(), requests[i].body);
    if (before.tool_names != after.tool_names) {
      ++tool_changes;
      // Built-in tools first, in their order; the server's come after them.
      ASSERT_GT(after.tool_names.size(), before.tool_names.size());
      EXPECT_TRUE(
          std::equal(before.tool_names.begin(), before.tool_names.end(), after.tool_names.begin()))
          << "request " << i;
    } else {
      EXPECT_EQ(before.tools.dump(), after.tools.dump()) << "request " << i;
      EXPECT_EQ(before.system.dump(), after.system.dump()) << "request " << i;
    }
    ASSERT_LE(before.turns.size(), after.turns.size()) << "request " << i;
    for (std::size_t t = 0; t < before.turns.size(); ++t) {
      EXPECT_EQ(before.turns[t].dump(), after.turns[t].dump()) << "request " << i << " turn " << t;
    }
  }
  EXPECT_LE(tool_changes, 1) << "the server's tools arrive once";
  if (protocol() == Protocol::kResponses) {
    const json key = requests[0].body["prompt_cache_key"];
    ASSERT_TRUE(key.is_string());
    for (const auto& request : requests) EXPECT_EQ(request.body["prompt_cache_key"], key);
  }
  if (protocol() == Protocol::kAnthropic) {
    EXPECT_TRUE(requests[0].body["system"][0].contains("cache_control"));
    EXPECT_TRUE(requests[0].body["tools"].back().contains("cache_control"));
  }
}

// A priced model with a cap: the run stops between turns once the cap is reached, every call
// has its result in the saved session, the exit status says why, and -c goes on.
TEST_P(CostContextTest, TheSpendingCapStopsTheRunCleanlyAndTheSessionGoesOn) {
  const std::string api = protocol() == Protocol::kChat        ? "openai-chat"
                          : protocol() == Protocol::kResponses ? "openai-responses"
                                                               : "anthropic-messages";
  // $10,000 per million input tokens: each mock request (12 prompt tokens) costs $0.12.
  dir_.write(".nib/models.json",
             json{{"providers",
                   {{"priced",
                     {{"api", api},
                      {"baseUrl",
                       protocol() == Protocol::kAnthropic ? server_.origin() : server_.base_url()},
                      {"defaultModel", "priced-model"},
                      {"models", {{{"id", "priced-model"}, {"cost", {{"input", 10000}}}}}}}}}}}
                 .dump());
  dir_.write(".nib/settings.json", R"({"provider": "priced", "maxBudgetUsd": 100})");
  for (int i = 0; i < 5; ++i) {
    server_.enqueue(calls({{"c" + std::to_string(i), "bash", R"({"command":"echo step"})"}}));
  }
  std::map<std::string, std::string> env = {{"HOME", dir_.path().string()},
                                            {"XDG_DATA_HOME", (dir_.path() / "data").string()}};
  const NibResult stopped =
      run_nib({"-p", "many steps", "--max-budget-usd", "0.3"}, dir_.path(), env);
  EXPECT_EQ(stopped.exit_code, 3) << stopped.err;
  EXPECT_TRUE(contains(stopped.err, "the spending cap of $0.30 was reached ($0.3600 spent)"))
      << stopped.err;
  EXPECT_TRUE(contains(stopped.err, "nib -c")) << stopped.err;
  ASSERT_EQ(server_.requests().size(), 3u);

  server_.enqueue(text("finished"));
  const NibResult resumed = run_nib({"-c", "-p", "go on"}, dir_.path(), env);
  EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(resumed.out, "finished\n");
  const std::string resent = server_.requests().at(3).raw_body;
  for (const char* id : {"c0", "c1", "c2"}) {
    EXPECT_TRUE(contains(resent, id)) << "call " << id << " and its result were saved";
  }
  EXPECT_TRUE(contains(resent, "step")) << "the last call's result was saved";
}

INSTANTIATE_TEST_SUITE_P(Protocols, CostContextTest,
                         ::testing::Values(Protocol::kChat, Protocol::kResponses,
                                           Protocol::kAnthropic),
                         [](const auto& info) {
                           switch (info.param) {
                             case Protocol::kChat:
                               return std::string("Chat");
                             case Protocol::kResponses:
                               return std::string("Responses");
                             case Protocol::kAnthropic:
                               return std::string("Anthropic");
                           }
                           return std::string("Unknown");
                         });

class CompactionCarryTest : public ::testing::Test {
 protected:
  std::map<std::string, std::string> env() const {
    return {{"HOME", dir_.path().string()}, {"XDG_DATA_HOME", (dir_.path() / "data").string()}};
  }
  MockModelServer server_;
  TempDir dir_;
};

// A cap on a model whose prices nib does not know cannot be enforced: said at start.
TEST_F(CompactionCarryTest, ACapOnAnUnpricedModelSaysItCannotBeEnforced) {
  server_.enqueue(MockReply::text("ok"));
  auto environment = env();
  environment["OPENAI_BASE_URL"] = server_.base_url();
  environment["NIB_MODEL"] = "local-model";
  const NibResult result = run_nib({"-p", "hi", "--max-budget-usd", "1"}, dir_.path(), environment);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(contains(result.err, "the spending cap cannot be enforced")) << result.err;
  EXPECT_TRUE(contains(result.err, "local-model")) << result.err;
}

// Two compactions in one run: after both, the request still holds the user's first request
// verbatim, the plan, and the file read before the second, as it is now; the PreCompact hooks
// saw what was carried each time.
TEST_F(CompactionCarryTest, TheTaskThePlanAndTheFilesInHandSurviveTwoCompactions) {
  dir_.write(".nib/models.json", small_window_models(server_.base_url()));
  dir_.write(".nib/settings.json",
             R"({"provider": "small", "compaction": {"threshold": 0.5, "keepRecentTokens": 200}})");
  dir_.write(".claude/settings.json", R"({"hooks": {"PreCompact": [{"hooks": [{"type": "command",
      "command": "cat >> precompact.jsonl; echo >> precompact.jsonl"}]}]}})");
  dir_.write("alpha.txt", std::string(7000, 'a') + "\n");
  dir_.write("beta.txt", std::string(7000, 'b') + "\n");
  const std::string task = "TASK: rename foo to bar everywhere, then run the tests";
  server_.enqueue(
      MockReply::tool_calls({{"p1", "todo_write",
                              R"({"items":[{"content":"Find every foo","status":"in_progress"},)"
                              R"({"content":"Rename to bar","status":"pending"}]})"}}));
  server_.enqueue(MockReply::tool_calls({{"r1", "read", R"({"path":"alpha.txt"})"}}));
  server_.enqueue(MockReply::text("SUMMARY ONE"));  // compaction 1
  server_.enqueue(MockReply::tool_calls({{"r2", "read", R"({"path":"beta.txt"})"}}));
  server_.enqueue(MockReply::text("SUMMARY TWO"));  // compaction 2
  server_.enqueue(MockReply::text("All renamed."));
  const NibResult result = run_nib({"-p", task}, dir_.path(), env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "All renamed.\n");

  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 6u) << result.err;
  EXPECT_TRUE(contains(requests[4].raw_body, "SUMMARY ONE"))
      << "the second summary folds in the first";
  const std::string last = requests[5].body["messages"].dump();
  EXPECT_TRUE(contains(last, "SUMMARY TWO"));
  EXPECT_FALSE(contains(last, "SUMMARY ONE")) << "the first summary was summarised";
  EXPECT_TRUE(contains(last, "<first-request>\\n" + task + "\\n</first-request>")) << last;
  EXPECT_TRUE(contains(last, "- [in_progress] Find every foo\\n- [pending] Rename to bar")) << last;
  EXPECT_TRUE(contains(last, "<file path=\\\"alpha.txt\\\">\\n" + std::string(100, 'a'))) << last;

  // Before and after each compaction, the user is told.
  std::size_t notices = 0;
  for (std::size_t at = 0; (at = result.err.find("compacted: ~", at)) != std::string::npos; ++at) {
    ++notices;
  }
  EXPECT_EQ(notices, 2u) << result.err;
  EXPECT_TRUE(contains(result.err, "carrying the first request")) << result.err;

  std::ifstream hooks_log(dir_.path() / "precompact.jsonl");
  std::vector<json> inputs;
  for (std::string line; std::getline(hooks_log, line);) {
    if (!line.empty()) inputs.push_back(json::parse(line));
  }
  ASSERT_EQ(inputs.size(), 2u);
  for (const json& input : inputs) {
    EXPECT_EQ(input["hook_event_name"], "PreCompact");
    EXPECT_EQ(input["trigger"], "auto");
    EXPECT_EQ(input["first_request"], task);
    EXPECT_TRUE(contains(input["plan"].get<std::string>(), "Find every foo"));
  }
  EXPECT_EQ(inputs[1]["attached_files"], json::array({"alpha.txt"}));
}

}  // namespace
}  // namespace nib::testing
