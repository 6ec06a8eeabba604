// Tests of the write tool: creating and replacing files, and refusing to clobber unseen ones.

#include "tools/write.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/schema_validator.hpp"
#include "support/file_size_limit.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"
#include "support/tool_claims.hpp"
#include "tools/limits.hpp"
#include "tools/path.hpp"
#include "tools/read.hpp"
#include "util/byte_size.hpp"

namespace nib::tools {
namespace {

using nlohmann::json;

using testing::contains;

std::string disk_contents(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

class WriteToolTest : public ::testing::Test {
 protected:
  core::ToolOutput write(const std::string& path, const std::string& content) {
    return write_->execute({{"path", path}, {"content", content}}, {}, {"call-1", dir_.path()});
  }
  void read(const std::string& path) {
    const auto output = read_->execute({{"path", path}}, {}, {"call-1", dir_.path()});
    EXPECT_FALSE(output.is_error) << output.output;
  }

  testing::TempDir dir_;
  std::shared_ptr<FileTracker> files_ = std::make_shared<FileTracker>();
  core::ToolPtr read_ = make_read_tool(files_);
  core::ToolPtr write_ = make_write_tool(files_);
};

TEST_F(WriteToolTest, SpecAndClaims) {
  const auto& spec = write_->spec();
  EXPECT_EQ(spec.name, "write");
  EXPECT_FALSE(spec.concurrency_safe);
  EXPECT_TRUE(contains(spec.description, "read it"));
  const auto compiled = core::CompiledSchema::compile(spec.parameters);
  ASSERT_TRUE(compiled.ok()) << compiled.error();
  const auto& schema = compiled.value();
  EXPECT_TRUE(schema->validate({{"path", "a"}, {"content", ""}}).empty());
  EXPECT_FALSE(schema->validate({{"path", "a"}}).empty());
  const auto claims = testing::call_claims(*write_, {{"path", "x/y.txt"}}, {"call-1", dir_.path()});
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].key, core::file_claim_key(dir_.path() / "x/y.txt"));
  EXPECT_TRUE(claims[0].exclusive);
}

TEST_F(WriteToolTest, CreatesANewFileAndItsParentDirectories) {
  const auto output = write("deep/er/new.txt", "one\ntwo\nthree");
  EXPECT_FALSE(output.is_error) << output.output;
  EXPECT_EQ(output.output, "Created deep/er/new.txt: 13 bytes, 3 lines.");
  EXPECT_EQ(disk_contents(dir_.path() / "deep/er/new.txt"), "one\ntwo\nthree");
  ASSERT_TRUE(output.display);
  EXPECT_TRUE(output.display->starts_with("--- /dev/null\n+++ deep/er/new.txt\n@@ -0,0 +1,3 @@\n"))
      << *output.display;
}

TEST_F(WriteToolTest, CountsBytesAndLines) {
  EXPECT_EQ(write("empty.txt", "").output, "Created empty.txt: 0 bytes, 0 lines.");
  EXPECT_EQ(write("one.txt", "x\n").output, "Created one.txt: 2 bytes, 1 line.");
}

TEST_F(WriteToolTest, RefusesToOverwriteAFileNeverRead) {
  const auto path = dir_.write("existing.txt", "precious\n");
  const auto output = write("existing.txt", "clobbered\n");
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(output.output.starts_with("Refusing to overwrite existing.txt: you have not read it"))
      << output.output;
  EXPECT_EQ(disk_contents(path), "precious\n");
}

TEST_F(WriteToolTest, OverwritesAFileThatWasRead) {
  const auto path = dir_.write("existing.txt", "old\n");
  ASSERT_EQ(chmod(path.c_str(), 0640), 0);
  read("existing.txt");
  const auto output = write("existing.txt", "new\ncontent\n");
  EXPECT_FALSE(output.is_error) << output.output;
  EXPECT_EQ(output.output, "Overwrote existing.txt: 12 bytes, 2 lines.");
  EXPECT_EQ(disk_contents(path), "new\ncontent\n");
  struct stat info {};
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0640u);
  ASSERT_TRUE(output.display);
  EXPECT_EQ(*output.display,
            "--- existing.txt\n+++ existing.txt\n@@ -1 +1,2 @@\n-old\n+new\n+content\n");
}

TEST_F(WriteToolTest, RefusesAFileChangedSinceItWasRead) {
  const auto path = dir_.write("f.txt", "seen\n");
  read("f.txt");
  dir_.write("f.txt", "SEEN\n");
  const auto output = write("f.txt", "mine\n");
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(contains(output.output, "changed on disk")) << output.output;
  EXPECT_EQ(disk_contents(path), "SEEN\n");
}

TEST_F(WriteToolTest, ItsOwnWriteCountsAsSeen) {
  EXPECT_FALSE(write("f.txt", "first\n").is_error);
  EXPECT_FALSE(write("f.txt", "second\n").is_error);
  EXPECT_EQ(disk_contents(dir_.path() / "f.txt"), "second\n");
}

TEST_F(WriteToolTest, ADeletedFileMayBeWrittenAgain) {
  const auto path = dir_.write("f.txt", "x\n");
  read("f.txt");
  std::filesystem::remove(path);
  EXPECT_FALSE(write("f.txt", "y\n").is_error);
}

TEST_F(WriteToolTest, RefusesADirectory) {
  std::filesystem::create_directory(dir_.path() / "sub");
  const auto output = write("sub", "x");
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(contains(output.output, "sub is a directory")) << output.output;
  EXPECT_TRUE(std::filesystem::is_directory(dir_.path() / "sub"));
  const auto slash = write("newdir/", "x");
  EXPECT_TRUE(slash.is_error);
  EXPECT_TRUE(contains(slash.output, "names a directory")) << slash.output;
}

TEST_F(WriteToolTest, AFileInTheWayOfAParentDirectoryIsAnError) {
  dir_.write("file", "x");
  const auto output = write("file/child.txt", "y");
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(contains(output.output, "not a directory")) << output.output;
}

TEST_F(WriteToolTest, WritesThroughASymlinkToItsTarget) {
  const auto target = dir_.write("real.txt", "old\n");
  std::filesystem::create_symlink("real.txt", dir_.path() / "link.txt");
  read("real.txt");
  EXPECT_FALSE(write("link.txt", "new\n").is_error);
  EXPECT_TRUE(std::filesystem::is_symlink(dir_.path() / "link.txt"));
  EXPECT_EQ(disk_contents(target), "new\n");
  // A dangling link creates its target.
  std::filesystem::create_symlink("made.txt", dir_.path() / "dangling.txt");
  EXPECT_FALSE(write("dangling.txt", "made\n").is_error);
  EXPECT_TRUE(std::filesystem::is_symlink(dir_.path() / "dangling.txt"));
  EXPECT_EQ(disk_contents(dir_.path() / "made.txt"), "made\n");
}

TEST_F(WriteToolTest, KeepsTheInodeOfAFileWithOtherHardLinks) {
  const auto path = dir_.write("data.txt", "old\n");
  const auto other = dir_.path() / "alias.txt";
  std::filesystem::create_hard_link(path, other);
  struct stat before {};
  ASSERT_EQ(stat(path.c_str(), &before), 0);
  read("data.txt");
  const auto output = write("data.txt", "new\n");
  EXPECT_FALSE(output.is_error) << output.output;
  EXPECT_EQ(disk_contents(other), "new\n");
  struct stat after {};
  ASSERT_EQ(stat(path.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  // Its own write counts as seen, as with a replaced file.
  EXPECT_FALSE(write("data.txt", "newer\n").is_error);
}

TEST_F(WriteToolTest, AFailedWriteInPlaceSaysTheFileMayHoldPartOfIt) {
  const auto path = dir_.write("data.txt", "old\n");
  std::filesystem::create_hard_link(path, dir_.path() / "alias.txt");
  read("data.txt");
  core::ToolOutput output;
  {
    const testing::FileSizeLimit limit(8);
    output = write("data.txt", std::string(100, 'x'));
  }
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(output.output.starts_with("Cannot write data.txt: could not write "));
  EXPECT_TRUE(output.output.ends_with(
      ": File too large. data.txt was being written in place (it has other hard links), so it "
      "may now hold part of the new content: read it before retrying."))
      << output.output;
}

TEST_F(WriteToolTest, ErrorsBeforeWritingSayWriteNotRead) {
  std::filesystem::create_symlink("loop", dir_.path() / "loop");
  const auto output = write("loop", "x");
  EXPECT_TRUE(output.is_error);
  EXPECT_EQ(output.output, "Cannot write loop: Too many levels of symbolic links.");
  dir_.write("file", "x");
  EXPECT_EQ(write("file/child.txt", "y").output,
            "Cannot write file/child.txt: a part of the path before the last is a file, not a "
            "directory.");
}

TEST_F(WriteToolTest, AFileThatCannotBeReadIsNamedAsSuch) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads a write-only file anyway";
  const auto path = dir_.write("secret.txt", "x\n");
  ASSERT_EQ(chmod(path.c_str(), 0200), 0);
  EXPECT_EQ(write("secret.txt", "y\n").output,
            "Permission denied: secret.txt cannot be read, and write reads a file before "
            "replacing it (to check that it is the version you saw). Nothing was changed.");
}

TEST_F(WriteToolTest, WritesContentExactlyAsGiven) {
  const std::string content = "\xEF\xBB\xBFwindows\r\nline\r\n";
  EXPECT_FALSE(write("w.txt", content).is_error);
  EXPECT_EQ(disk_contents(dir_.path() / "w.txt"), content);
}

// --- preview_change: what the approval question shows before the call runs

TEST_F(WriteToolTest, ThePreviewOfANewFileIsItsLinesAndCountAndCreatesNothing) {
  const json args = {{"path", "sub/new.txt"}, {"content", "a\nb\nc\n"}};
  const auto preview = write_->preview_change(args, {"call-1", dir_.path()}, {});
  ASSERT_TRUE(preview);
  EXPECT_EQ(preview->failure, "");
  EXPECT_EQ(preview->summary, "New file, 3 lines (6 bytes).");
  EXPECT_EQ(preview->diff, "--- /dev/null\n+++ sub/new.txt\n@@ -0,0 +1,3 @@\n+a\n+b\n+c\n");
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "sub")) << "not even its directory";

  const auto output = write_->execute(args, {}, {"call-1", dir_.path()});
  EXPECT_EQ(output.display, preview->diff) << "the preview is what was written";
}

TEST_F(WriteToolTest, ThePreviewOfAnOverwriteIsTheDiffAgainstTheFile) {
  const auto path = dir_.write("f.txt", "one\ntwo\nthree\n");
  read("f.txt");
  const auto preview = write_->preview_change(
      {{"path", "f.txt"}, {"content", "one\n2\nthree\nfour\n"}}, {"call-1", dir_.path()}, {});
  ASSERT_TRUE(preview);
  EXPECT_EQ(preview->summary, "Overwrites all 3 lines of f.txt with 4 lines.");
  EXPECT_EQ(preview->diff,
            "--- f.txt\n+++ f.txt\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n");
  EXPECT_EQ(disk_contents(path), "one\ntwo\nthree\n");
}

TEST_F(WriteToolTest, ThePreviewOfAnUnreadFileSaysTheWriteWouldBeRefused) {
  dir_.write("f.txt", "mine\n");
  const auto preview =
      write_->preview_change({{"path", "f.txt"}, {"content", "x\n"}}, {"call-1", dir_.path()}, {});
  ASSERT_TRUE(preview);
  EXPECT_EQ(preview->diff, "");
  EXPECT_TRUE(contains(preview->failure, "Refusing to overwrite f.txt")) << preview->failure;
}

TEST_F(WriteToolTest, AHugeWritesPreviewKeepsItsFirstLinesCountsTheRestAndCutsLongLines) {
  std::string content(3000, 'x');
  content += "\n";
  for (int i = 1; i < 10000; ++i) content += "line " + std::to_string(i) + "\n";
  const auto preview = write_->preview_change({{"path", "big.txt"}, {"content", content}},
                                              {"call-1", dir_.path()}, {});
  ASSERT_TRUE(preview);
  EXPECT_EQ(preview->summary,
            "New file, 10000 lines (" + util::format_byte_size(content.size()) + ").");
  EXPECT_EQ(static_cast<std::size_t>(std::count(preview->diff.begin(), preview->diff.end(), '\n')),
            kPreviewDiffLines);
  EXPECT_EQ(preview->omitted_lines, 10003 - kPreviewDiffLines);  // with the 3 header lines
  EXPECT_TRUE(contains(preview->diff, "@@ -0,0 +1,10000 @@\n+xxx")) << preview->diff;
  EXPECT_TRUE(contains(preview->diff, "x…\n+line 1\n")) << "the long line is cut";
  EXPECT_LT(preview->diff.size(), kPreviewDiffLines + kPreviewLineBytes + 40 * 12);
}

TEST_F(WriteToolTest, ThePreviewOverABinaryFileOrOfBinaryContentIsASummaryOnly) {
  ASSERT_FALSE(write("data.bin", std::string("\x7f"
                                             "ELF\0\0\1",
                                             7))
                   .is_error);
  const auto over_binary = write_->preview_change({{"path", "data.bin"}, {"content", "text\n"}},
                                                  {"call-1", dir_.path()}, {});
  ASSERT_TRUE(over_binary);
  EXPECT_EQ(over_binary->diff, "");
  EXPECT_EQ(over_binary->summary,
            "Overwrites data.bin, a binary file of 7 bytes, with 1 line of text (5 bytes).");

  const auto binary = write_->preview_change(
      {{"path", "new.bin"}, {"content", std::string("a\0b", 3)}}, {"call-1", dir_.path()}, {});
  ASSERT_TRUE(binary);
  EXPECT_EQ(binary->diff, "");
  EXPECT_EQ(binary->summary, "Creates new.bin with binary content (3 bytes).");
}

TEST_F(WriteToolTest, ThePreviewOfTheSameContentSaysNothingWouldChange) {
  dir_.write("f.txt", "same\n");
  read("f.txt");
  const auto preview = write_->preview_change({{"path", "f.txt"}, {"content", "same\n"}},
                                              {"call-1", dir_.path()}, {});
  ASSERT_TRUE(preview);
  EXPECT_EQ(preview->diff, "");
  EXPECT_EQ(preview->summary, "The content is the file's as it is: nothing would change.");
}

}  // namespace
}  // namespace nib::tools
