// End-to-end: the edit and write tools through the real nib binary, where a session's reads,
// edits and writes share one record of what the model has seen.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "support/mock_model_server.hpp"
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

}  // namespace
}  // namespace nib::testing
