// The apply_patch tool (tools/apply_patch.hpp): operations on real files, judged as edit's are,
// applied whole or not at all; judged on the files, not on the tool's text.

#include "tools/apply_patch.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "support/temp_dir.hpp"
#include "tools/read.hpp"

namespace nib::tools {
namespace {

using nlohmann::json;

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

class ApplyPatchToolTest : public ::testing::Test {
 protected:
  core::ToolOutput patch(const std::string& text) {
    return tool_->execute({{"input", text}}, {}, {"call-1", dir_.path()});
  }
  void read(const std::string& path) {
    const auto output = read_->execute({{"path", path}}, {}, {"call-0", dir_.path()});
    ASSERT_FALSE(output.is_error) << output.output;
  }

  testing::TempDir dir_;
  std::shared_ptr<FileTracker> files_ = std::make_shared<FileTracker>();
  core::ToolPtr read_ = make_read_tool(files_);
  core::ToolPtr tool_ = make_apply_patch_tool(files_);
};

TEST_F(ApplyPatchToolTest, AddsUpdatesMovesAndDeletesInOneCall) {
  dir_.write("a.txt", "one\ntwo\nthree\n");
  dir_.write("b.txt", "bee\n");
  dir_.write("c.txt", "sea\n");
  read("a.txt");
  read("b.txt");
  read("c.txt");
  const auto output = patch(
      "*** Begin Patch\n"
      "*** Update File: a.txt\n one\n-two\n+TWO\n"
      "*** Add File: sub/new.txt\n+fresh\n"
      "*** Update File: b.txt\n*** Move to: moved/b.txt\n-bee\n+buzz\n"
      "*** Delete File: c.txt\n"
      "*** End Patch\n");
  ASSERT_FALSE(output.is_error) << output.output;
  EXPECT_EQ(output.output,
            "Success. Updated the following files:\nA sub/new.txt\nM a.txt\nM moved/b.txt\nD "
            "c.txt\n");
  EXPECT_EQ(file_text(dir_.path() / "a.txt"), "one\nTWO\nthree\n");
  EXPECT_EQ(file_text(dir_.path() / "sub/new.txt"), "fresh\n");
  EXPECT_EQ(file_text(dir_.path() / "moved/b.txt"), "buzz\n");
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "b.txt"));
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "c.txt"));
}

TEST_F(ApplyPatchToolTest, AFailingLaterHunkChangesNothing) {
  dir_.write("a.txt", "one\n");
  dir_.write("b.txt", "bee\n");
  read("a.txt");
  read("b.txt");
  const auto output = patch(
      "*** Begin Patch\n*** Update File: a.txt\n-one\n+ONE\n*** Add File: c.txt\n+new\n"
      "*** Update File: b.txt\n-not there\n+x\n*** End Patch");
  EXPECT_TRUE(output.is_error);
  EXPECT_NE(output.output.find("Failed to find expected lines in b.txt"), std::string::npos)
      << output.output;
  EXPECT_NE(output.output.find("Nothing was changed."), std::string::npos) << output.output;
  EXPECT_EQ(file_text(dir_.path() / "a.txt"), "one\n");
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "c.txt"));
}

TEST_F(ApplyPatchToolTest, AFileNotReadIsNotChangedAndABinaryFileIsRefused) {
  dir_.write("unread.txt", "x\n");
  auto output = patch("*** Begin Patch\n*** Update File: unread.txt\n-x\n+y\n*** End Patch");
  EXPECT_TRUE(output.is_error);
  EXPECT_NE(output.output.find("you have not read it"), std::string::npos) << output.output;
  EXPECT_EQ(file_text(dir_.path() / "unread.txt"), "x\n");
  dir_.write("data.bin", std::string("a\0b\n", 4));
  output = patch("*** Begin Patch\n*** Delete File: data.bin\n*** End Patch");
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "data.bin"));
}

TEST_F(ApplyPatchToolTest, EveryPathIsInTheCallsAccess) {
  const json args = {{"input",
                      "*** Begin Patch\n*** Update File: a.txt\n*** Move to: ../out.txt\n-x\n+y\n"
                      "*** Delete File: b.txt\n*** End Patch"}};
  const core::CallAccess access = tool_->access(args, {"call-1", dir_.path()});
  ASSERT_EQ(access.paths.size(), 3u);
  EXPECT_EQ(access.paths[0].path, dir_.path() / "a.txt");
  EXPECT_EQ(access.paths[1].path, (dir_.path() / "../out.txt").lexically_normal());
  EXPECT_EQ(access.paths[2].path, dir_.path() / "b.txt");
  EXPECT_EQ(tool_->spec().access, core::AccessKind::kWrite);
}

}  // namespace
}  // namespace nib::tools
