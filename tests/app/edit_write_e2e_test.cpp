// End-to-end: the file tools through the real nib binary, where a session's reads, edits and
// writes share one record of what the model has seen; and which of them each model is offered:
// edit and write, or (GPT-family models) apply_patch as a custom tool over the Responses
// protocol.

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "support/mock_model_server.hpp"
#include "support/mock_responses_replies.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

std::string contents(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TEST(EditWriteCommandTest, OneShotEditTrustsTheFileAsItIs) {
  TempDir dir;
  dir.write("a.txt", "hello\n");
  // `nib tool` is one call with no history: nothing the caller saw can be stale, so an unread
  // file is taken as seen (a model session refuses it: EditWriteSessionTest below).
  const auto result = run_nib(
      {"tool", "edit", R"({"path":"a.txt","oldText":"hello","newText":"bye"})"}, dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_EQ(result.out, "Edited a.txt: 1 edit applied.\n");
  EXPECT_EQ(contents(dir.path() / "a.txt"), "bye\n");
}

TEST(EditWriteCommandTest, OneShotWriteReplacesAnExistingFile) {
  TempDir dir;
  dir.write("a.txt", "old\n");
  const auto result =
      run_nib({"tool", "write", R"({"path":"a.txt","content":"new\n"})"}, dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_EQ(contents(dir.path() / "a.txt"), "new\n");
}

TEST(EditWriteCommandTest, WriteCreatesANewFile) {
  TempDir dir;
  const auto result =
      run_nib({"tool", "write", R"({"path":"new/b.txt","content":"x\n"})"}, dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_EQ(result.out, "Created new/b.txt: 2 bytes, 1 line.\n");
  EXPECT_EQ(contents(dir.path() / "new/b.txt"), "x\n");
}

TEST(EditWriteSessionTest, ReadThenEditSucceedsWhereEditAloneWasRefused) {
  MockModelServer server;
  TempDir dir;
  dir.write("app.cfg", "mode = slow\r\nlevel = 1\r\n");
  const std::string edit_args =
      R"({"path":"app.cfg","oldText":"mode = slow","newText":"mode = fast"})";
  server.enqueue(MockReply::tool_calls({{"call_1", "edit", edit_args}}));
  server.enqueue(MockReply::tool_calls({{"call_2", "read", R"({"path":"app.cfg"})"}}));
  server.enqueue(MockReply::tool_calls({{"call_3", "edit", edit_args}}));
  server.enqueue(MockReply::text("done"));
  const auto result = run_nib({"-p", "make it fast"}, dir.path(),
                              {{"OPENAI_BASE_URL", server.base_url()}, {"NIB_MODEL", "mock"}});
  EXPECT_EQ(result.exit_code, 0) << result.err;

  const auto requests = server.requests();
  const auto last_tool_message = [&](std::size_t request) {
    json found;
    for (const auto& message : requests.at(request).body["messages"]) {
      if (message["role"] == "tool") found = message;
    }
    return found["content"].dump();
  };
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_NE(last_tool_message(1).find("Refusing to edit app.cfg"), std::string::npos);
  EXPECT_NE(last_tool_message(3).find("Edited app.cfg: 1 edit applied."), std::string::npos)
      << last_tool_message(3);
  EXPECT_EQ(contents(dir.path() / "app.cfg"), "mode = fast\r\nlevel = 1\r\n");
}

// The tool names a request offered, in order.
std::vector<std::string> offered_tools(const json& body) {
  std::vector<std::string> names;
  for (const json& tool : body["tools"]) {
    names.push_back(tool.contains("function") ? tool["function"]["name"] : tool["name"]);
  }
  return names;
}

bool offers(const json& body, const std::string& name) {
  const auto names = offered_tools(body);
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The input items of a Responses request of one type, in order.
std::vector<json> items_of_type(const json& body, const std::string& type) {
  std::vector<json> items;
  for (const json& item : body["input"]) {
    if (item.value("type", "") == type) items.push_back(item);
  }
  return items;
}

// A GPT-family model over the Responses protocol edits with apply_patch, a custom tool: it
// reads, patches (an update and a new file), is refused a file outside the working tree and a
// protected one (judged on the host: the files are not there, nor the harmless file beside the
// protected one), and the calls go back as custom calls, also on -c.
TEST(ApplyPatchSessionTest, AGptModelEditsWithApplyPatchEndToEnd) {
  MockModelServer server;
  TempDir outer;
  const std::filesystem::path tree = outer.path() / "work";
  std::filesystem::create_directories(tree);
  outer.write("work/a.txt", "one\ntwo\nthree\n");
  const std::string patch =
      "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+2\n"
      "*** Add File: sub/new.txt\n+fresh\n*** End Patch\n";
  const std::string escape = "*** Begin Patch\n*** Add File: ../escape.txt\n+out\n*** End Patch\n";
  server.enqueue(
      MockResponsesStream().function_call({"call_1", "read", R"({"path":"a.txt"})"}).completed());
  server.enqueue(MockResponsesStream()
                     .text("Patching.")
                     .custom_tool_call("call_2", "apply_patch", patch, 5)
                     .completed());
  server.enqueue(
      MockResponsesStream().custom_tool_call("call_3", "apply_patch", escape).completed());
  // A protected path inside the tree, beside a harmless file: the whole patch is refused.
  const std::string protected_patch =
      "*** Begin Patch\n*** Add File: fine.txt\n+ok\n*** Add File: .nib/settings.json\n"
      "+{\"permissions\": {\"defaultMode\": \"yolo\"}}\n*** End Patch\n";
  server.enqueue(
      MockResponsesStream().custom_tool_call("call_4", "apply_patch", protected_patch).completed());
  server.enqueue(responses_text("Done."));
  const std::map<std::string, std::string> env = {
      {"OPENAI_BASE_URL", server.base_url()},
      {"NIB_MODEL", "gpt-5.4"},
      {"XDG_DATA_HOME", (outer.path() / "data").string()}};
  const auto result = run_nib({"-p", "change two", "--api", "openai-responses"}, tree, env);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(contents(tree / "a.txt"), "one\n2\nthree\n");
  EXPECT_EQ(contents(tree / "sub/new.txt"), "fresh\n");
  EXPECT_FALSE(std::filesystem::exists(outer.path() / "escape.txt"));
  EXPECT_FALSE(std::filesystem::exists(tree / ".nib/settings.json"));
  EXPECT_FALSE(std::filesystem::exists(tree / "fine.txt"));

  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 5u);
  const json& first = requests[0].body;
  EXPECT_TRUE(offers(first, "apply_patch"));
  EXPECT_FALSE(offers(first, "edit"));
  EXPECT_FALSE(offers(first, "write"));
  for (const json& tool : first["tools"]) {
    if (tool["name"] != "apply_patch") continue;
    EXPECT_EQ(tool["type"], "custom");
    EXPECT_EQ(tool["format"]["syntax"], "lark");
    EXPECT_NE(tool["format"]["definition"].get<std::string>().find("begin_patch"),
              std::string::npos);
  }
  // The tools' schemas describe them; the system prompt does not list them again.
  const std::string instructions = first["instructions"];
  EXPECT_EQ(instructions.find("Tools:"), std::string::npos) << instructions;

  const auto outputs = items_of_type(requests[4].body, "custom_tool_call_output");
  ASSERT_EQ(outputs.size(), 3u) << requests[4].body.dump(1);
  EXPECT_EQ(outputs[0]["call_id"], "call_2");
  EXPECT_EQ(outputs[0]["output"],
            "Success. Updated the following files:\nA sub/new.txt\nM a.txt\n");
  for (std::size_t refused = 1; refused < 3; ++refused) {
    EXPECT_EQ(outputs[refused]["output"].get<std::string>().find("Success"), std::string::npos)
        << outputs[refused]["output"];
  }
  const auto calls = items_of_type(requests[4].body, "custom_tool_call");
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0]["input"], patch);
  EXPECT_EQ(items_of_type(requests[4].body, "function_call_output").size(), 1u);  // the read

  // The session keeps the custom calls: continued, they go back as they came.
  server.enqueue(responses_text("Still done."));
  const auto again = run_nib({"-c", "-p", "and now?", "--api", "openai-responses"}, tree, env);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  requests = server.requests();
  ASSERT_EQ(requests.size(), 6u);
  EXPECT_EQ(items_of_type(requests[5].body, "custom_tool_call"), calls);
  EXPECT_EQ(items_of_type(requests[5].body, "custom_tool_call_output"), outputs);
}

// Which edit tools a model gets: edit and write by default; apply_patch (a JSON function with
// one string field on Chat Completions) for a GPT-family name or by models.json's editTool,
// which also takes it away again.
TEST(ApplyPatchSessionTest, TheEditToolsFollowTheModelFamilyAndModelsJson) {
  MockModelServer server;
  TempDir dir;
  const std::map<std::string, std::string> env = {
      {"XDG_DATA_HOME", (dir.path() / "data").string()}};
  const auto first_request = [&](const std::string& model) {
    server.enqueue(MockReply::text("ok"));
    const auto result = run_nib({"-p", "hi", "--no-session"}, dir.path(), env);
    EXPECT_EQ(result.exit_code, 0) << model << ": " << result.err;
    return server.requests().back().body;
  };
  const auto models = [&](const std::string& entries) {
    dir.write(".nib/models.json", R"({"providers": {"local": {"api": "openai-chat", "baseUrl": ")" +
                                      server.base_url() + R"(", "defaultModel": "m", "models": [)" +
                                      entries + "]}}}");
    dir.write(".nib/settings.json", R"({"provider": "local"})");
  };

  models(R"({"id": "m"})");
  json body = first_request("m");
  EXPECT_TRUE(offers(body, "edit"));
  EXPECT_TRUE(offers(body, "write"));
  EXPECT_FALSE(offers(body, "apply_patch"));

  models(R"({"id": "m", "editTool": "apply_patch"})");
  body = first_request("m with editTool");
  EXPECT_FALSE(offers(body, "edit"));
  EXPECT_TRUE(offers(body, "apply_patch"));
  for (const json& tool : body["tools"]) {
    if (tool["function"]["name"] != "apply_patch") continue;
    EXPECT_EQ(tool["type"], "function");
    EXPECT_EQ(tool["function"]["parameters"]["required"], json::array({"input"}));
  }

  dir.write(
      ".nib/models.json",
      R"({"providers": {"local": {"api": "openai-chat", "baseUrl": ")" + server.base_url() +
          R"(", "defaultModel": "gpt-5.4", "models": [{"id": "gpt-5.4", "editTool": "edit"}]}}})");
  body = first_request("gpt-5.4 with editTool edit");
  EXPECT_TRUE(offers(body, "edit"));
  EXPECT_FALSE(offers(body, "apply_patch"));

  models(R"({"id": "m"}, {"id": "gpt-5.4"})");
  dir.write(".nib/settings.json", R"({"provider": "local", "model": "gpt-5.4"})");
  body = first_request("gpt-5.4");
  EXPECT_FALSE(offers(body, "edit"));
  EXPECT_FALSE(offers(body, "write"));
  EXPECT_TRUE(offers(body, "apply_patch"));
}

}  // namespace
}  // namespace nib::testing
