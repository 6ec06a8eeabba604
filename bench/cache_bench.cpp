// cache_bench: what the services' prompt caches can reuse of nib's requests, for each protocol
// (OpenAI Chat Completions through a project models.json provider, OpenAI Responses with
// gpt-5.4, Anthropic Messages with a Claude model), running the real nib binary (NIB_BINARY)
// against the in-process mock model server:
//   1. the fixed cost of a request: the bytes of the system prompt's text and of the tool
//      schemas (compact JSON) in the first request, which every request carries;
//   2. a 20-turn `nib -p` session (19 tool calls, reads of a small file and `echo N` commands in
//      turn, then a text answer): for each request after the first, the hit rate, the share of
//      it that repeats the request before it from its start (the longest common prefix over the
//      later request's length), of the prompt as a service caches it: the tools, the system
//      prompt, then each message (input item), as compact JSON without "cache_control" members,
//      which mark Anthropic's breakpoints and move from turn to turn. Whatever changes early in
//      the prompt (tools in another order, a system prompt that differs) shows as a low rate.
//      Beside: how many requests begin with the whole request before them, and whether the
//      requests name one prompt_cache_key.
// The session is saved, as a user's would be, under a temporary HOME and XDG directories.
// Prints a table, then one "summary<TAB>metric<TAB>value<TAB>target<TAB>verdict" line per
// figure. Not a test: the figures are bytes, not timings, but depend on what nib sends.
//
// Usage: cache_bench [--nib PATH] [--turns N]
//   --nib: the binary to measure (default NIB_BINARY, this build's nib)

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_stats.hpp"
#include "nib_run.hpp"
#include "support/mock_anthropic_replies.hpp"
#include "support/mock_model_server.hpp"
#include "support/mock_responses_replies.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"

namespace nib::bench {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;  // keeps the members in the order nib wrote them
using testing::MockModelServer;
using testing::MockReply;
using testing::MockToolCall;
using testing::NibProcess;
using testing::RecordedRequest;
using testing::TempDir;

// nib's targets: the fixed part of a request stays small, and no request's prompt departs
// early from the one before it.
constexpr double kFixedCostTargetKB = 12.0;
constexpr double kMinHitRateTarget = 0.9;

// The binary under test: NIB_BINARY unless --nib names another.
fs::path nib_binary = NIB_BINARY;

enum class Protocol { kChat, kResponses, kAnthropic };

struct ProtocolCase {
  const char* name;
  Protocol protocol;
};
constexpr ProtocolCase kProtocols[] = {{"openai-chat", Protocol::kChat},
                                       {"openai-responses", Protocol::kResponses},
                                       {"anthropic-messages", Protocol::kAnthropic}};

// The call of turn `turn` (from 1): a read of the small file and `echo N` in turn.
MockToolCall call_of_turn(Protocol protocol, int turn) {
  const std::string id =
      (protocol == Protocol::kAnthropic ? "toolu_" : "call_") + std::to_string(turn);
  if (turn % 2 == 1) return {id, "read", R"({"path":"notes.txt"})"};
  return {id, "bash", R"({"command":"echo )" + std::to_string(turn) + R"("})"};
}

MockReply tool_reply(Protocol protocol, const MockToolCall& call) {
  switch (protocol) {
    case Protocol::kChat:
      return MockReply::tool_calls({call});
    case Protocol::kResponses:
      return testing::responses_function_calls({call});
    case Protocol::kAnthropic:
      return testing::anthropic_tool_use({call});
  }
  throw std::logic_error("unknown protocol");
}

MockReply text_reply(Protocol protocol) {
  switch (protocol) {
    case Protocol::kChat:
      return MockReply::text("done");
    case Protocol::kResponses:
      return testing::responses_text("done");
    case Protocol::kAnthropic:
      return testing::anthropic_text("done");
  }
  throw std::logic_error("unknown protocol");
}

// Runs one `nib -p` session of `turns` model requests over `protocol` and returns the requests.
std::vector<RecordedRequest> run_session(Protocol protocol, int turns) {
  TempDir home;
  TempDir work;
  work.write("notes.txt", "a small file the model reads again and again\n");
  MockModelServer server;
  for (int turn = 1; turn < turns; ++turn) {
    server.enqueue(tool_reply(protocol, call_of_turn(protocol, turn)));
  }
  server.enqueue(text_reply(protocol));

  // A runtime directory of its own: no other nib's command registry is shared.
  const fs::path runtime = home.path() / "run";
  fs::create_directory(runtime);
  fs::permissions(runtime, fs::perms::owner_all);
  std::map<std::string, std::string> env{{"HOME", home.path().string()},
                                         {"XDG_CONFIG_HOME", (home.path() / "config").string()},
                                         {"XDG_DATA_HOME", (home.path() / "data").string()},
                                         {"XDG_CACHE_HOME", (home.path() / "cache").string()},
                                         {"XDG_RUNTIME_DIR", runtime.string()}};
  std::vector<std::string> args{"-p", "Read notes.txt and run a few commands"};
  switch (protocol) {
    case Protocol::kChat:
      work.write(".nib/models.json",
                 R"({"providers": {"mock": {"api": "openai-chat", "baseUrl": ")" +
                     server.base_url() +
                     R"(", "defaultModel": "mock-model", "models": [{"id": "mock-model", )"
                     R"("contextWindow": 200000}]}}})");
      args.insert(args.end(), {"--provider", "mock"});
      break;
    case Protocol::kResponses:
      env["OPENAI_BASE_URL"] = server.base_url();
      env["NIB_MODEL"] = "gpt-5.4";
      args.insert(args.end(), {"--api", "openai-responses"});
      break;
    case Protocol::kAnthropic:
      env["ANTHROPIC_BASE_URL"] = server.origin();
      env["ANTHROPIC_API_KEY"] = "sk-ant-bench";
      args.insert(args.end(), {"--model", "claude-sonnet-4-6"});
      break;
  }
  NibProcess process(args, work.path(), env, nib_binary);
  finish_successfully(process, "session");
  std::vector<RecordedRequest> requests = server.requests();
  if (requests.size() != static_cast<std::size_t>(turns)) {
    throw std::runtime_error("expected " + std::to_string(turns) + " requests, the mock got " +
                             std::to_string(requests.size()));
  }
  return requests;
}

// Removes every "cache_control" member, at any depth.
void drop_cache_control(ordered_json& value) {
  if (value.is_object()) value.erase("cache_control");
  if (!value.is_structured()) return;
  for (ordered_json& member : value) drop_cache_control(member);
}

// A system prompt's text: a string, or the "text" of each block or part of an array.
std::string text_of(const ordered_json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string text;
  if (!content.is_array()) return text;
  for (const ordered_json& part : content) {
    if (part.is_object()) text += part.value("text", "");
  }
  return text;
}

// One request as a service's prompt cache sees it.
struct Prompt {
  std::string tools;      // the tools' JSON
  std::string system;     // the system prompt's text
  std::string text;       // tools + system + every message or input item
  std::string cache_key;  // prompt_cache_key ("" when absent)
};

Prompt prompt_of(Protocol protocol, const std::string& raw_body) {
  ordered_json body = ordered_json::parse(raw_body);
  drop_cache_control(body);
  Prompt prompt;
  if (body.contains("tools")) prompt.tools = body["tools"].dump();
  if (body.contains("prompt_cache_key")) prompt.cache_key = text_of(body["prompt_cache_key"]);
  ordered_json messages = ordered_json::array();
  switch (protocol) {
    case Protocol::kChat:
      // The system prompt is the first message.
      for (const ordered_json& message : body["messages"]) {
        if (message.value("role", "") == "system" && messages.empty() && prompt.system.empty()) {
          prompt.system = text_of(message.at("content"));
        } else {
          messages.push_back(message);
        }
      }
      break;
    case Protocol::kResponses:
      prompt.system = text_of(body["instructions"]);
      messages = body["input"];
      break;
    case Protocol::kAnthropic:
      prompt.system = text_of(body["system"]);
      messages = body["messages"];
      break;
  }
  prompt.text = prompt.tools + prompt.system;
  for (const ordered_json& message : messages) prompt.text += message.dump();
  return prompt;
}

// The share of `later` that repeats `earlier` from the start.
double hit_rate(const std::string& earlier, const std::string& later) {
  if (later.empty()) return 1.0;
  const auto differ = std::mismatch(earlier.begin(), earlier.end(), later.begin(), later.end());
  return static_cast<double>(differ.second - later.begin()) / static_cast<double>(later.size());
}

struct ProtocolFigures {
  std::size_t system_bytes = 0;
  std::size_t tools_bytes = 0;
  std::vector<double> hit_rates;  // request k against request k-1, k = 2..turns
  std::size_t kept = 0;           // requests that begin with the whole request before them
  std::string cache_key;          // "none", "one per session" or "differs"
};

ProtocolFigures measure(Protocol protocol, int turns) {
  const std::vector<RecordedRequest> requests = run_session(protocol, turns);
  std::vector<Prompt> prompts;
  for (const RecordedRequest& request : requests) {
    prompts.push_back(prompt_of(protocol, request.raw_body));
  }
  ProtocolFigures figures;
  figures.system_bytes = prompts.front().system.size();
  figures.tools_bytes = prompts.front().tools.size();
  for (std::size_t k = 1; k < prompts.size(); ++k) {
    figures.hit_rates.push_back(hit_rate(prompts[k - 1].text, prompts[k].text));
    if (prompts[k].text.starts_with(prompts[k - 1].text)) ++figures.kept;
  }
  const bool one_key = std::all_of(prompts.begin(), prompts.end(), [&](const Prompt& prompt) {
    return prompt.cache_key == prompts.front().cache_key;
  });
  figures.cache_key = !one_key                            ? "differs"
                      : prompts.front().cache_key.empty() ? "none"
                                                          : "one per session";
  return figures;
}

int run(int argc, char** argv) {
  int turns = 20;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--nib" && has_value) {
      nib_binary = fs::absolute(argv[++i]);  // nib runs in a temp directory
    } else if (arg == "--turns" && has_value) {
      turns = std::max(std::atoi(argv[++i]), 2);
    } else {
      std::cerr << "usage: cache_bench [--nib PATH] [--turns N]\n";
      return 2;
    }
  }

  std::printf(
      "cache_bench: a request's fixed cost (bytes of the first request), the hit rate of\n"
      "requests 2..%d of a %d-turn session against the request before each, and how many\n"
      "of them begin with the whole request before them (kept)\n",
      turns, turns);
  std::printf("  %-20s %8s %8s %8s   %8s %8s %8s %7s   %s\n", "protocol", "system", "tools",
              "fixed", "hit min", "median", "mean", "kept", "prompt_cache_key");
  std::vector<double> fixed_kb, min_rate;  // per protocol, for the summary lines
  for (const ProtocolCase& protocol : kProtocols) {
    const ProtocolFigures figures = measure(protocol.protocol, turns);
    const Stats rates = stats_of(figures.hit_rates);
    const std::size_t fixed = figures.system_bytes + figures.tools_bytes;
    const std::string kept =
        std::to_string(figures.kept) + "/" + std::to_string(figures.hit_rates.size());
    std::printf("  %-20s %8zu %8zu %8zu   %7.2f%% %7.2f%% %7.2f%% %7s   %s\n", protocol.name,
                figures.system_bytes, figures.tools_bytes, fixed, 100 * rates.min,
                100 * rates.median, 100 * rates.mean, kept.c_str(), figures.cache_key.c_str());
    fixed_kb.push_back(static_cast<double>(fixed) / 1024.0);
    min_rate.push_back(rates.min);
  }
  for (std::size_t i = 0; i < fixed_kb.size(); ++i) {
    print_summary(std::string("cache fixed cost, ") + kProtocols[i].name, fixed_kb[i], "KB",
                  kFixedCostTargetKB);
    // A rate is better higher: print_summary's "value < target" does not fit.
    std::printf("summary\tcache hit rate min, %s\t%.1f %%\t> %g %%\t%s\n", kProtocols[i].name,
                100 * min_rate[i], 100 * kMinHitRateTarget,
                min_rate[i] > kMinHitRateTarget ? "ok" : "MISSED");
  }
  return 0;
}

}  // namespace
}  // namespace nib::bench

int main(int argc, char** argv) {
  return nib::bench::bench_main("cache_bench", nib::bench::run, argc, argv);
}
