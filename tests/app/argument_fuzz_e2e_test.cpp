// A property of the whole pipeline, through the real binary: whatever arguments a model sends a
// tool — every field of every registered tool (the built-ins, task, the job tools, skill,
// todo_write, web_fetch, an MCP server's tool) with its type changed, set to null or missing,
// and argument texts that are not objects at all — every call gets a result, the run goes on
// to its end, and nothing ends it with an internal error. Print mode shows each call as it
// starts (its presenter runs on arguments that may be anything), which is where a tool's own
// code once read them unvalidated.

#include <gtest/gtest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "support/fake_mcp_server.hpp"
#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

// Values of every JSON type, and numbers that break the usual bounds.
std::vector<json> odd_values() {
  return {json(nullptr), json(7),       json(1.5),           json("1"),
          json(true),    json::array(), json::object(),      json(-1),
          json(1e300),   json("x"),     json::array({1, 2}), json(std::string(300, 'z'))};
}

// The JSON type names a value may be for `schema` ("type": a name or a list); empty: any.
std::set<std::string> allowed_types(const json& schema) {
  std::set<std::string> types;
  if (!schema.is_object() || !schema.contains("type")) return types;
  const json& type = schema["type"];
  if (type.is_string()) types.insert(type.get<std::string>());
  if (type.is_array()) {
    for (const json& name : type) types.insert(name.get<std::string>());
  }
  return types;
}

bool fits_type(const json& value, const std::set<std::string>& types) {
  if (types.empty()) return true;
  if (value.is_null()) return types.contains("null");
  if (value.is_boolean()) return types.contains("boolean");
  if (value.is_number_integer()) return types.contains("integer") || types.contains("number");
  if (value.is_number()) return types.contains("number");
  if (value.is_string()) return types.contains("string");
  if (value.is_array()) return types.contains("array");
  return types.contains("object");
}

// Argument texts that cannot pass `parameters`: not objects, a field of another type (the
// other required fields left out, so none of them can run), an object missing what is required.
std::vector<std::string> broken_arguments(const json& parameters) {
  std::vector<std::string> texts = {"null", "[]", "\"text\"", "7", "{", "{\"a\":"};
  const json properties = parameters.value("properties", json::object());
  const json required = parameters.value("required", json::array());
  // No text at all stands for no arguments, as "{}" does (services send it for such calls).
  if (!required.empty()) texts.insert(texts.end(), {"{}", ""});
  for (const auto& [name, schema] : properties.items()) {
    const std::set<std::string> types = allowed_types(schema);
    for (const json& value : odd_values()) {
      // A value of a right type might pass (and run the tool); a wrong type never does.
      if (fits_type(value, types)) continue;
      json args = json::object();
      args[name] = value;
      texts.push_back(args.dump());
    }
  }
  return texts;
}

class ArgumentFuzzTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // A skill, so that the skill tool is offered; an MCP server with a tool.
    dir_.write(".nib/skills/demo/SKILL.md",
               "---\nname: demo\ndescription: A demo skill\n---\nDo the demo.\n");
    dir_.write("servers.json", json{{"mcpServers", {{"fake", fake_mcp_server("normal")}}}}.dump());
    dir_.write(".nib/settings.json", R"({"permissions": {"allow": ["mcp__fake"]}})");
  }
  NibResult run() {
    return run_nib({"-p", "go", "--mcp-config", "servers.json"}, dir_.path(),
                   {{"OPENAI_BASE_URL", server_.base_url()}, {"NIB_MODEL", "mock"}});
  }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(ArgumentFuzzTest, EveryCallGetsAResultWhateverItsArguments) {
  // First the tools as the model is offered them.
  server_.enqueue(MockReply::text("hello"));
  ASSERT_EQ(run().exit_code, 0);
  json offered = server_.requests().at(0).body["tools"];
  // The MCP server's tool may join after the first request; its schema is the fixture's.
  offered.push_back({{"function",
                      {{"name", "mcp__fake__echo"},
                       {"parameters",
                        {{"type", "object"},
                         {"properties", {{"text", {{"type", "string"}}}}},
                         {"required", {"text"}}}}}}});
  std::vector<MockToolCall> calls;
  std::set<std::string> tools;
  for (const json& tool : offered) {
    const std::string name = tool["function"]["name"];
    tools.insert(name);
    for (const std::string& arguments : broken_arguments(tool["function"]["parameters"])) {
      calls.push_back({"call_" + std::to_string(calls.size()), name, arguments});
    }
  }
  for (const char* expected :
       {"read", "bash", "edit", "write", "grep", "find", "ls", "web_fetch", "todo_write",
        "job_output", "job_kill", "job_list", "task", "skill", "mcp__fake__echo"}) {
    EXPECT_TRUE(tools.contains(expected)) << expected << " is not among the tools fuzzed";
  }
  ASSERT_GT(calls.size(), 100u);

  const std::size_t before = server_.requests().size();
  server_.enqueue(MockReply::tool_calls(calls, 64));
  server_.enqueue(MockReply::text("done"));
  const NibResult result = run();
  EXPECT_EQ(result.exit_code, 0) << result.err.substr(0, 2000);
  EXPECT_EQ(result.err.find("internal error"), std::string::npos) << result.err.substr(0, 2000);
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), before + 2);
  std::map<std::string, json> answered;
  for (const json& message : requests.back().body["messages"]) {
    if (message["role"] == "tool") answered[message["tool_call_id"]] = message;
  }
  for (const MockToolCall& call : calls) {
    const auto found = answered.find(call.id);
    ASSERT_NE(found, answered.end()) << call.name << " " << call.arguments << " got no result";
    const std::string content = found->second["content"].dump();
    EXPECT_TRUE(content.find("Error") != std::string::npos ||
                content.find("invalid") != std::string::npos)
        << call.name << " " << call.arguments << ": " << content;
  }
}

}  // namespace
}  // namespace nib::testing
