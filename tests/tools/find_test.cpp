// Tests of the find tool: name versus path patterns, sorting, limits, hidden and ignored entries,
// and the notes and errors the model sees.

#include "tools/find.hpp"

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

class FindToolTest : public ::testing::Test {
 protected:
  core::ToolOutput find(json args, std::stop_token stop = {}) {
    return tool_->execute(args, stop, {"call-1", dir_.path()});
  }
  void touch(const std::string& relative) { dir_.write(relative, "x"); }

  testing::TempDir dir_;
  core::ToolPtr tool_ = make_find_tool();
};

TEST_F(FindToolTest, SpecDescribesPatternsAndLimits) {
  const auto& spec = tool_->spec();
  EXPECT_EQ(spec.name, "find");
  EXPECT_TRUE(spec.concurrency_safe);
  EXPECT_TRUE(contains(spec.description, "name at any depth"));
  EXPECT_TRUE(contains(spec.description, "relative to `path`"));
  EXPECT_TRUE(contains(spec.description, "default " + std::to_string(kFindDefaultLimit)));
  EXPECT_TRUE(contains(spec.description, ".gitignore"));
  const auto compiled = core::CompiledSchema::compile(spec.parameters);
  ASSERT_TRUE(compiled.ok()) << compiled.error();
  const auto& schema = compiled.value();
  EXPECT_TRUE(schema->validate({{"pattern", "*.c"}}).empty());
  EXPECT_TRUE(schema->validate({{"pattern", "*.c"}, {"path", "src"}, {"limit", 5}}).empty());
  EXPECT_FALSE(schema->validate(json::object()).empty());
  EXPECT_FALSE(schema->validate({{"pattern", "*.c"}, {"limit", 0}}).empty());
}

TEST_F(FindToolTest, NamePatternMatchesAtAnyDepthSortedAndRelative) {
  touch("z.cpp");
  touch("src/walk.cpp");
  touch("src/walk.hpp");
  touch("src/tools/a.cpp");
  touch("b.cpp.txt");
  const auto result = find({{"pattern", "*.cpp"}});
  EXPECT_FALSE(result.is_error);
  EXPECT_EQ(result.output, "src/tools/a.cpp\nsrc/walk.cpp\nz.cpp\n");
}

TEST_F(FindToolTest, PathPatternMatchesTheRelativePath) {
  touch("src/walk.cpp");
  touch("src/tools/a.cpp");
  touch("tests/tools/a_test.cpp");
  EXPECT_EQ(find({{"pattern", "src/*.cpp"}}).output, "src/walk.cpp\n");
  EXPECT_EQ(find({{"pattern", "src/**/*.cpp"}}).output, "src/tools/a.cpp\nsrc/walk.cpp\n");
  EXPECT_EQ(find({{"pattern", "**/tools/*"}}).output, "src/tools/a.cpp\ntests/tools/a_test.cpp\n");
  EXPECT_EQ(find({{"pattern", "./src/*.cpp"}}).output, "src/walk.cpp\n");
  // An absolute pattern inside the searched directory is taken relative to it.
  EXPECT_EQ(find({{"pattern", (dir_.path() / "src/*.cpp").string()}}).output, "src/walk.cpp\n");
}

TEST_F(FindToolTest, DirectoriesAreListedWithASlash) {
  touch("src/tools/a.cpp");
  touch("tools.txt");
  EXPECT_EQ(find({{"pattern", "tools*"}}).output, "src/tools/\ntools.txt\n");
  EXPECT_EQ(find({{"pattern", "tools*/"}}).output, "src/tools/\n");
}

TEST_F(FindToolTest, SearchesTheGivenPathAndResultsAreRelativeToIt) {
  touch("src/tools/a.cpp");
  touch("other/b.cpp");
  EXPECT_EQ(find({{"pattern", "*.cpp"}, {"path", "src"}}).output, "tools/a.cpp\n");
  EXPECT_EQ(find({{"pattern", "*.cpp"}, {"path", (dir_.path() / "src").string()}}).output,
            "tools/a.cpp\n");
}

TEST_F(FindToolTest, LimitKeepsTheFirstPathsInOrderAndSaysSo) {
  for (int i = 0; i < 30; ++i) touch("f" + std::to_string(100 + i) + ".txt");
  const auto result = find({{"pattern", "*.txt"}, {"limit", 3}});
  EXPECT_FALSE(result.is_error);
  EXPECT_TRUE(result.output.starts_with("f100.txt\nf101.txt\nf102.txt\n\n")) << result.output;
  EXPECT_TRUE(contains(result.output, "[Showing the first 3 of 30 matches (limit=3)"));
  EXPECT_TRUE(contains(result.output, "Use a larger limit, or narrow the pattern or the path."));
}

TEST_F(FindToolTest, OutputStaysWithinTheByteLimit) {
  const std::string long_name(200, 'n');
  const std::size_t count = process::kMaxOutputBytes / 200 + 20;
  for (std::size_t i = 0; i < count; ++i) touch(long_name + std::to_string(1000 + i));
  const auto result = find({{"pattern", "n*"}});
  EXPECT_LE(result.output.size(), process::kMaxOutputBytes + 300);
  EXPECT_TRUE(contains(result.output, "of " + std::to_string(count) + " matches (50 KB output"))
      << result.output.substr(result.output.size() - 300);
}

TEST_F(FindToolTest, HiddenAndIgnoredEntriesAreSkippedUnlessAsked) {
  touch(".env.local");
  touch(".github/ci.local");
  dir_.write(".gitignore", "build/\n");
  touch("build/out.local");
  touch("main.local");
  EXPECT_EQ(find({{"pattern", "*.local"}}).output, "main.local\n");
  EXPECT_EQ(find({{"pattern", "*.local"}, {"include_hidden", true}}).output,
            ".env.local\n.github/ci.local\nmain.local\n");
  EXPECT_EQ(find({{"pattern", "*.local"}, {"include_ignored", true}}).output,
            "build/out.local\nmain.local\n");
}

TEST_F(FindToolTest, NoMatchExplainsWhatWasSkipped) {
  touch("main.c");
  const auto result = find({{"pattern", "*.rs"}});
  EXPECT_FALSE(result.is_error);
  EXPECT_TRUE(
      contains(result.output, "No files or directories match \"*.rs\" in the working directory."));
  EXPECT_TRUE(contains(result.output, "include_hidden=true"));
  EXPECT_TRUE(contains(result.output, "include_ignored=true"));
  const auto everything =
      find({{"pattern", "*.rs"}, {"include_hidden", true}, {"include_ignored", true}});
  EXPECT_FALSE(contains(everything.output, "Skipped"));
}

TEST_F(FindToolTest, SymlinkLoopReturnsNormally) {
  touch("a/file.txt");
  fs::create_directory_symlink(".", dir_.path() / "a/self");
  const auto result = find({{"pattern", "*"}});
  EXPECT_FALSE(result.is_error);
  EXPECT_EQ(result.output, "a/\na/file.txt\na/self/\n");
}

TEST_F(FindToolTest, FifoIsNotAMatchAndDoesNotBlock) {
  touch("data.txt");
  ASSERT_EQ(mkfifo((dir_.path() / "pipe.txt").c_str(), 0600), 0);
  EXPECT_EQ(find({{"pattern", "*.txt"}}).output, "data.txt\n");
}

TEST_F(FindToolTest, APathThatIsNotADirectorySaysSo) {
  ASSERT_EQ(mkfifo((dir_.path() / "pipe").c_str(), 0600), 0);
  const auto fifo = find({{"pattern", "*"}, {"path", "pipe"}});
  EXPECT_TRUE(fifo.is_error);
  EXPECT_TRUE(
      fifo.output.starts_with("pipe is a FIFO (named pipe), not a directory: find searches "
                              "the tree below a directory."))
      << fifo.output;
  touch("file.txt");
  const auto file = find({{"pattern", "*"}, {"path", "file.txt"}});
  EXPECT_TRUE(file.is_error);
  EXPECT_TRUE(file.output.starts_with("file.txt is a file, not a directory")) << file.output;
}

TEST_F(FindToolTest, MissingPathIsAnError) {
  const auto result = find({{"pattern", "*"}, {"path", "nope"}});
  EXPECT_TRUE(result.is_error);
  EXPECT_TRUE(contains(result.output, "Path not found: nope")) << result.output;
}

TEST_F(FindToolTest, BadArgumentsAreErrors) {
  EXPECT_TRUE(find({{"pattern", "  "}}).is_error);
  EXPECT_TRUE(find(json::object()).is_error);
}

TEST_F(FindToolTest, StopTokenAbortsTheSearch) {
  touch("a.txt");
  std::stop_source source;
  source.request_stop();
  const auto result = find({{"pattern", "*"}}, source.get_token());
  EXPECT_TRUE(result.is_error);
  EXPECT_TRUE(contains(result.output, "Aborted"));
}

}  // namespace
}  // namespace nib::tools
