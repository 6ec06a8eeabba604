// Tests of the ls tool: sorting, dotfiles, directory and symlink marks, the limit, and errors.

#include "tools/ls.hpp"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/schema_validator.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"
#include "tools/limits.hpp"

namespace nib::tools {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using testing::contains;

class LsToolTest : public ::testing::Test {
 protected:
  core::ToolOutput ls(json args = json::object(), std::stop_token stop = {}) {
    return tool_->execute(args, stop, {"call-1", dir_.path()});
  }
  void touch(const std::string& relative) { dir_.write(relative, "x"); }

  testing::TempDir dir_;
  core::ToolPtr tool_ = make_ls_tool();
};

TEST_F(LsToolTest, SpecAndSchema) {
  const auto& spec = tool_->spec();
  EXPECT_EQ(spec.name, "ls");
  EXPECT_TRUE(spec.concurrency_safe);
  EXPECT_TRUE(contains(spec.description, "default " + std::to_string(kLsDefaultLimit)));
  const auto compiled = core::CompiledSchema::compile(spec.parameters);
  ASSERT_TRUE(compiled.ok()) << compiled.error();
  const auto& schema = compiled.value();
  EXPECT_TRUE(schema->validate(json::object()).empty());
  EXPECT_TRUE(schema->validate({{"path", "src"}, {"limit", 3}}).empty());
  EXPECT_FALSE(schema->validate({{"limit", 0}}).empty());
}

TEST_F(LsToolTest, ListsSortedWithDotfilesDirectoriesAndSymlinks) {
  touch("b.txt");
  touch(".env");
  touch("src/main.cpp");
  touch("A.md");
  fs::create_symlink("b.txt", dir_.path() / "link");
  fs::create_directory_symlink("src", dir_.path() / "srclink");
  fs::create_symlink("missing", dir_.path() / "dangling");
  ASSERT_EQ(mkfifo((dir_.path() / "pipe").c_str(), 0600), 0);
  const auto result = ls();
  EXPECT_FALSE(result.is_error);
  EXPECT_EQ(result.output,
            ".env\nA.md\nb.txt\ndangling -> missing (broken)\nlink -> b.txt\npipe [FIFO]\nsrc/\n"
            "srclink -> src/\n");
}

TEST_F(LsToolTest, ListsTheGivenPath) {
  touch("src/tools/a.cpp");
  touch("src/b.cpp");
  EXPECT_EQ(ls({{"path", "src"}}).output, "b.cpp\ntools/\n");
  EXPECT_EQ(ls({{"path", (dir_.path() / "src/tools").string()}}).output, "a.cpp\n");
}

TEST_F(LsToolTest, LimitShowsTheFirstEntriesAndTheTotal) {
  for (int i = 0; i < 12; ++i) touch("f" + std::to_string(10 + i));
  const auto result = ls({{"limit", 2}});
  EXPECT_FALSE(result.is_error);
  EXPECT_TRUE(result.output.starts_with("f10\nf11\n\n")) << result.output;
  EXPECT_TRUE(contains(result.output, "[Showing the first 2 of 12 entries (limit=2)"));
}

TEST_F(LsToolTest, EmptyDirectory) {
  fs::create_directories(dir_.path() / "empty");
  const auto result = ls({{"path", "empty"}});
  EXPECT_FALSE(result.is_error);
  EXPECT_EQ(result.output, "empty is an empty directory.");
}

TEST_F(LsToolTest, ErrorsNameThePath) {
  touch("file.txt");
  const auto missing = ls({{"path", "nope"}});
  EXPECT_TRUE(missing.is_error);
  EXPECT_TRUE(contains(missing.output, "Directory not found: nope")) << missing.output;
  const auto file = ls({{"path", "file.txt"}});
  EXPECT_TRUE(file.is_error);
  EXPECT_TRUE(contains(file.output, "file.txt is a file, not a directory. Read it with read."));
  ASSERT_EQ(mkfifo((dir_.path() / "pipe").c_str(), 0600), 0);
  const auto fifo = ls({{"path", "pipe"}});
  EXPECT_TRUE(fifo.is_error);
  EXPECT_TRUE(contains(fifo.output, "pipe is a FIFO, not a directory."));
}

TEST_F(LsToolTest, StopTokenAbortsTheListing) {
  for (int i = 0; i < 3; ++i) touch("f" + std::to_string(i));
  std::stop_source source;
  source.request_stop();
  const auto result = ls({}, source.get_token());
  EXPECT_TRUE(result.is_error);
  EXPECT_TRUE(contains(result.output, "Aborted"));
}

}  // namespace
}  // namespace nib::tools
