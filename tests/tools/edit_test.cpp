// Tests of the edit tool: replacing text in files the model has read, keeping everything else.

#include "tools/edit.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "core/schema_validator.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"
#include "support/tool_claims.hpp"
#include "tools/limits.hpp"
#include "tools/path.hpp"
#include "tools/read.hpp"
#include "tools/write.hpp"

namespace nib::tools {
namespace {

using nlohmann::json;

using testing::contains;

std::string contents(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

class EditToolTest : public ::testing::Test {
 protected:
  core::ToolOutput run(const core::ToolPtr& tool, const json& args) {
    return tool->execute(args, {}, {"call-1", dir_.path()});
  }
  core::ToolOutput read(const std::string& path) {
    auto output = run(read_, {{"path", path}});
    EXPECT_FALSE(output.is_error) << output.output;
    return output;
  }
  core::ToolOutput edit(const std::string& path, const std::string& old_text,
                        const std::string& new_text) {
    return run(edit_, {{"path", path}, {"oldText", old_text}, {"newText", new_text}});
  }
  // Writes `content` to `name` and reads it with the read tool, as the model would.
  std::filesystem::path seen_file(const std::string& name, const std::string& content) {
    const auto path = dir_.write(name, content);
    read(name);
    return path;
  }

  testing::TempDir dir_;
  std::shared_ptr<FileTracker> files_ = std::make_shared<FileTracker>();
  core::ToolPtr read_ = make_read_tool(files_);
  core::ToolPtr edit_ = make_edit_tool(files_);
  core::ToolPtr write_ = make_write_tool(files_);
};

TEST_F(EditToolTest, SpecDescribesTheRealBehaviour) {
  const auto& spec = edit_->spec();
  EXPECT_EQ(spec.name, "edit");
  EXPECT_FALSE(spec.concurrency_safe);
  EXPECT_TRUE(contains(spec.description, "exactly once"));
  EXPECT_TRUE(contains(spec.description, "Read the file first"));
  EXPECT_TRUE(contains(spec.description, "tolerant match"));
  EXPECT_TRUE(contains(spec.description, "16 MB"));
  const auto compiled = core::CompiledSchema::compile(spec.parameters);
  ASSERT_TRUE(compiled.ok()) << compiled.error();
  const auto& schema = compiled.value();
  EXPECT_TRUE(schema->validate({{"path", "a"}, {"oldText", "x"}, {"newText", "y"}}).empty());
  EXPECT_TRUE(
      schema->validate({{"path", "a"}, {"edits", {{{"oldText", "x"}, {"newText", "y"}}}}}).empty());
  EXPECT_FALSE(schema->validate({{"path", "a"}, {"edits", json::array()}}).empty());
  EXPECT_FALSE(schema->validate({{"path", "a"}, {"edits", {{{"oldText", "x"}}}}}).empty());
}

TEST_F(EditToolTest, ClaimsItsFileExclusively) {
  const auto claims =
      testing::call_claims(*edit_, {{"path", "./a//b.txt"}}, {"call-1", dir_.path()});
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].key, core::file_claim_key(dir_.path() / "a/b.txt"));
  EXPECT_TRUE(claims[0].exclusive);
}

TEST_F(EditToolTest, ReplacesOneOccurrenceAndConfirmsBriefly) {
  const auto path = seen_file("app.cpp", "int a = 1;\nint b = 2;\nint c = 3;\n");
  const auto output = edit("app.cpp", "int b = 2;", "int b = 20;");
  EXPECT_FALSE(output.is_error) << output.output;
  EXPECT_EQ(output.output, "Edited app.cpp: 1 edit applied.");
  EXPECT_FALSE(output.content);
  EXPECT_EQ(contents(path), "int a = 1;\nint b = 20;\nint c = 3;\n");
  ASSERT_TRUE(output.display);
  EXPECT_EQ(*output.display,
            "--- app.cpp\n+++ app.cpp\n@@ -1,3 +1,3 @@\n int a = 1;\n-int b = 2;\n+int b = "
            "20;\n int c = 3;\n");
}

TEST_F(EditToolTest, AppliesSeveralEditsTogether) {
  const auto path = seen_file("src/app.cpp", "one\ntwo\nthree\nfour\n");
  const auto output = run(edit_, {{"path", "src/app.cpp"},
                                  {"edits",
                                   {{{"oldText", "four"}, {"newText", "FOUR"}},
                                    {{"oldText", "one\n"}, {"newText", "ONE\nONE-B\n"}}}}});
  EXPECT_FALSE(output.is_error) << output.output;
  EXPECT_EQ(output.output, "Edited src/app.cpp: 2 edits applied.");
  EXPECT_EQ(contents(path), "ONE\nONE-B\ntwo\nthree\nFOUR\n");
}

TEST_F(EditToolTest, NothingChangesWhenOneOfSeveralEditsFails) {
  const std::string original = "alpha\nbeta\ngamma\n";
  const auto path = seen_file("f.txt", original);
  const auto output = run(edit_, {{"path", "f.txt"},
                                  {"edits",
                                   {{{"oldText", "alpha"}, {"newText", "ALPHA"}},
                                    {{"oldText", "delta"}, {"newText", "DELTA"}}}}});
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(output.output.starts_with("Could not edit f.txt: edits[1]: oldText was not found"))
      << output.output;
  EXPECT_TRUE(output.output.ends_with("None of the edits were applied. The file was not changed."))
      << output.output;
  EXPECT_EQ(contents(path), original);
}

TEST_F(EditToolTest, ReportsNotFoundWithTheClosestRegion) {
  seen_file("f.txt", "fn main() {\n    println!(\"hi\");\n}\n");
  const auto output = edit("f.txt", "fn main() {\n    println!(\"hello\");\n}", "x");
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(contains(output.output, "lines 1-3")) << output.output;
  EXPECT_TRUE(contains(output.output, "2\t    println!(\"hi\");")) << output.output;
}

TEST_F(EditToolTest, ReportsAmbiguityWithCountAndLines) {
  const auto path = seen_file("f.txt", "x = 1\ny = 2\nx = 1\n");
  const auto output = edit("f.txt", "x = 1", "x = 3");
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(contains(output.output, "found 2 times, at lines 1, 3")) << output.output;
  EXPECT_TRUE(contains(output.output, "Add more surrounding lines")) << output.output;
  EXPECT_EQ(contents(path), "x = 1\ny = 2\nx = 1\n");
}

TEST_F(EditToolTest, RejectsOverlapsAndEmptyOldText) {
  seen_file("f.txt", "abc def\n");
  const auto overlap =
      run(edit_,
          {{"path", "f.txt"},
           {"edits",
            {{{"oldText", "abc d"}, {"newText", "x"}}, {{"oldText", "c def"}, {"newText", "y"}}}}});
  EXPECT_TRUE(overlap.is_error);
  EXPECT_TRUE(contains(overlap.output, "edits[0] and edits[1] overlap")) << overlap.output;
  const auto empty = edit("f.txt", "", "text");
  EXPECT_TRUE(empty.is_error);
  EXPECT_TRUE(contains(empty.output, "use the write tool")) << empty.output;
  EXPECT_EQ(contents(dir_.path() / "f.txt"), "abc def\n");
}

TEST_F(EditToolTest, RejectsBadArguments) {
  seen_file("f.txt", "abc\n");
  EXPECT_TRUE(contains(run(edit_, {{"path", "f.txt"}, {"oldText", "abc"}}).output, "newText"));
  EXPECT_TRUE(contains(run(edit_, {{"path", "f.txt"}}).output, "oldText must be a string"));
  EXPECT_TRUE(contains(run(edit_, {{"path", "f.txt"},
                                   {"oldText", "a"},
                                   {"newText", "b"},
                                   {"edits", {{{"oldText", "b"}, {"newText", "c"}}}}})
                           .output,
                       "not both"));
  EXPECT_TRUE(
      contains(run(edit_, {{"path", " "}, {"oldText", "a"}, {"newText", "b"}}).output, "blank"));
  EXPECT_EQ(contents(dir_.path() / "f.txt"), "abc\n");
}

TEST_F(EditToolTest, ToleratesDifferencesAndSaysSo) {
  const std::string original = "a = 1\n\tprint(\"x\")  \nb = 2\n";
  const auto path = seen_file("f.py", original);
  const auto output = edit("f.py", "    print(“x”)", "    print(\"y\")\n    print(\"z\")");
  EXPECT_FALSE(output.is_error) << output.output;
  EXPECT_TRUE(contains(output.output, "did not match exactly")) << output.output;
  EXPECT_TRUE(contains(output.output, "now lines 2-3")) << output.output;
  EXPECT_TRUE(contains(output.output, "re-indented")) << output.output;
  // The file's tab replaces the model's four spaces; the trailing spaces after the matched text
  // and every other line are untouched.
  EXPECT_EQ(contents(path), "a = 1\n\tprint(\"y\")\n\tprint(\"z\")  \nb = 2\n");
}

TEST_F(EditToolTest, KeepsCrlfLineEndings) {
  const auto path = seen_file("win.txt", "one\r\ntwo\r\nthree\r\n");
  // The model saw "one\ntwo\nthree" and writes plain "\n".
  const auto output = edit("win.txt", "one\ntwo", "one\ntwo and a half\n2.75");
  EXPECT_FALSE(output.is_error) << output.output;
  EXPECT_EQ(contents(path), "one\r\ntwo and a half\r\n2.75\r\nthree\r\n");
  // Text sent with "\r\n" is understood too.
  EXPECT_FALSE(edit("win.txt", "2.75\r\nthree", "three").is_error);
  EXPECT_EQ(contents(path), "one\r\ntwo and a half\r\nthree\r\n");
}

TEST_F(EditToolTest, KeepsMixedLineEndingsLineByLine) {
  const auto path = seen_file("mixed.txt", "a\r\nb\nc\r\nd\n");
  EXPECT_FALSE(edit("mixed.txt", "b\nc", "B\nC").is_error);
  EXPECT_EQ(contents(path), "a\r\nB\nC\r\nd\n");
}

TEST_F(EditToolTest, KeepsTheByteOrderMarkAndAMissingFinalNewline) {
  const auto path = seen_file("bom.txt", "\xEF\xBB\xBFstart\r\nend");
  EXPECT_FALSE(edit("bom.txt", "start", "begin").is_error);
  EXPECT_FALSE(edit("bom.txt", "end", "finish").is_error);
  EXPECT_EQ(contents(path),
            "\xEF\xBB\xBF"
            "begin\r\nfinish");
}

TEST_F(EditToolTest, KeepsPermissions) {
  const auto path = seen_file("run.sh", "echo hi\n");
  ASSERT_EQ(chmod(path.c_str(), 0750), 0);
  read("run.sh");  // chmod alone does not change the tracked state, but be explicit
  EXPECT_FALSE(edit("run.sh", "hi", "hello").is_error);
  struct stat info {};
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0750u);
  EXPECT_EQ(contents(path), "echo hello\n");
}

TEST_F(EditToolTest, KeepsTheInodeOfAFileWithOtherHardLinks) {
  const auto path = seen_file("code.c", "int x = 1;\n");
  const auto other = dir_.path() / "linked.c";
  std::filesystem::create_hard_link(path, other);
  struct stat before {};
  ASSERT_EQ(stat(path.c_str(), &before), 0);
  const auto output = edit("code.c", "1", "2");
  EXPECT_FALSE(output.is_error) << output.output;
  EXPECT_EQ(contents(other), "int x = 2;\n");
  struct stat after {};
  ASSERT_EQ(stat(path.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(after.st_nlink, 2u);
}

TEST_F(EditToolTest, EditsASymlinksTargetAndKeepsTheLink) {
  const auto target = dir_.write("real/target.txt", "value = 1\n");
  std::filesystem::create_symlink("real/target.txt", dir_.path() / "link.txt");
  read("link.txt");
  const auto output = edit("link.txt", "1", "2");
  EXPECT_FALSE(output.is_error) << output.output;
  EXPECT_TRUE(std::filesystem::is_symlink(dir_.path() / "link.txt"));
  EXPECT_EQ(contents(target), "value = 2\n");
  // Reading the target itself counts for the link too: both name the same file.
  EXPECT_FALSE(edit("real/target.txt", "2", "3").is_error);
}

TEST_F(EditToolTest, RefusesAFileThatWasNeverRead) {
  const auto path = dir_.write("unread.txt", "content\n");
  const auto output = edit("unread.txt", "content", "changed");
  EXPECT_TRUE(output.is_error);
  EXPECT_EQ(output.output,
            "Refusing to edit unread.txt: you have not read it in this session, so its current "
            "content is unknown to you. Read it first with the read tool, then retry.");
  EXPECT_EQ(contents(path), "content\n");
}

TEST_F(EditToolTest, RefusesAFileChangedSinceItWasRead) {
  const auto path = seen_file("f.txt", "version 1\n");
  dir_.write("f.txt", "version 2\n");  // same size, likely the same mtime tick
  const auto output = edit("f.txt", "version", "release");
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(contains(output.output, "has changed on disk since you last read or wrote it"))
      << output.output;
  EXPECT_EQ(contents(path), "version 2\n");
  read("f.txt");
  EXPECT_FALSE(edit("f.txt", "version", "release").is_error);
}

TEST_F(EditToolTest, ItsOwnWritesCountAsSeen) {
  const auto path = seen_file("f.txt", "a\nb\n");
  EXPECT_FALSE(edit("f.txt", "a", "A").is_error);
  EXPECT_FALSE(edit("f.txt", "b", "B").is_error);
  EXPECT_FALSE(run(write_, {{"path", "f.txt"}, {"content", "new\n"}}).is_error);
  EXPECT_FALSE(edit("f.txt", "new", "newer").is_error);
  EXPECT_EQ(contents(path), "newer\n");
}

TEST_F(EditToolTest, APartialReadCountsAsSeen) {
  std::string text;
  for (int i = 1; i <= 100; ++i) text += "line " + std::to_string(i) + "\n";
  const auto path = dir_.write("long.txt", text);
  run(read_, {{"path", "long.txt"}, {"offset", 10}, {"limit", 5}});
  EXPECT_FALSE(edit("long.txt", "line 99\n", "line 99!\n").is_error);
}

TEST_F(EditToolTest, AMissingFileSuggestsWrite) {
  const auto output = edit("missing.txt", "a", "b");
  EXPECT_TRUE(output.is_error);
  EXPECT_EQ(output.output,
            "File not found: missing.txt. edit changes existing files; to create one, use write.");
}

TEST_F(EditToolTest, ADirectoryIsNotEdited) {
  std::filesystem::create_directory(dir_.path() / "sub");
  const auto output = edit("sub", "a", "b");
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(contains(output.output, "sub is a directory")) << output.output;
}

TEST_F(EditToolTest, AReadOnlyFileIsNotChanged) {
  if (geteuid() == 0) GTEST_SKIP() << "root may write anything";
  const auto path = seen_file("ro.txt", "fixed\n");
  ASSERT_EQ(chmod(path.c_str(), 0444), 0);
  const auto output = edit("ro.txt", "fixed", "changed");
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(output.output.starts_with("Permission denied: ro.txt is not writable"))
      << output.output;
  EXPECT_EQ(contents(path), "fixed\n");
}

TEST_F(EditToolTest, AnAbortBeforeWritingChangesNothing) {
  const auto path = seen_file("f.txt", "a\n");
  std::stop_source stop;
  stop.request_stop();
  const auto output = edit_->execute({{"path", "f.txt"}, {"oldText", "a"}, {"newText", "b"}},
                                     stop.get_token(), {"call-1", dir_.path()});
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(output.output.starts_with("Aborted")) << output.output;
  EXPECT_EQ(contents(path), "a\n");
}

// --- preview_change: what the approval question shows before the call runs

TEST_F(EditToolTest, ThePreviewIsTheDiffTheEditThenAppliesAndChangesNothing) {
  const std::string original = "int a = 1;\nint b = 2;\nint c = 3;\n";
  const auto path = seen_file("app.cpp", original);
  struct stat before {};
  ASSERT_EQ(stat(path.c_str(), &before), 0);
  const json args = {{"path", "app.cpp"}, {"oldText", "int b = 2;"}, {"newText", "int b = 20;"}};
  const auto preview = edit_->preview_change(args, {"call-1", dir_.path()}, {});
  ASSERT_TRUE(preview);
  EXPECT_EQ(preview->failure, "");
  EXPECT_EQ(preview->summary, "");
  EXPECT_EQ(preview->omitted_lines, 0u);
  EXPECT_EQ(preview->diff,
            "--- app.cpp\n+++ app.cpp\n@@ -1,3 +1,3 @@\n int a = 1;\n-int b = 2;\n+int b = "
            "20;\n int c = 3;\n");
  struct stat after {};
  ASSERT_EQ(stat(path.c_str(), &after), 0);
  EXPECT_EQ(contents(path), original);
  EXPECT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);

  const auto output = run(edit_, args);
  EXPECT_FALSE(output.is_error) << output.output;
  EXPECT_EQ(output.display, preview->diff) << "the preview is what was applied";
}

TEST_F(EditToolTest, ThePreviewOfAnEditThatFindsNothingSaysWhyInsteadOfADiff) {
  seen_file("f.txt", "alpha\nbeta\n");
  const auto preview = edit_->preview_change(
      {{"path", "f.txt"}, {"oldText", "gamma"}, {"newText", "x"}}, {"call-1", dir_.path()}, {});
  ASSERT_TRUE(preview);
  EXPECT_EQ(preview->diff, "");
  EXPECT_TRUE(preview->failure.starts_with("Could not edit f.txt: oldText was not found"))
      << preview->failure;
}

TEST_F(EditToolTest, ThePreviewOfAnAmbiguousEditSaysHowOftenItMatches) {
  seen_file("f.txt", "x = 1\ny = 2\nx = 1\n");
  const auto preview = edit_->preview_change(
      {{"path", "f.txt"}, {"oldText", "x = 1"}, {"newText", "x = 3"}}, {"call-1", dir_.path()}, {});
  ASSERT_TRUE(preview);
  EXPECT_EQ(preview->diff, "");
  EXPECT_TRUE(contains(preview->failure, "found 2 times, at lines 1, 3")) << preview->failure;
}

TEST_F(EditToolTest, ThePreviewOfSeveralEditsShowsThemAllInOneDiff) {
  // nib's edit has no replace_all: several occurrences are changed by listing each in edits.
  seen_file("f.txt", "one\n2\n3\n4\n5\n6\n7\n8\n9\none more\n");
  const auto preview =
      edit_->preview_change({{"path", "f.txt"},
                             {"edits",
                              {{{"oldText", "one\n"}, {"newText", "ONE\n"}},
                               {{"oldText", "one more"}, {"newText", "ONE MORE"}}}}},
                            {"call-1", dir_.path()}, {});
  ASSERT_TRUE(preview);
  EXPECT_EQ(preview->diff,
            "--- f.txt\n+++ f.txt\n@@ -1,4 +1,4 @@\n-one\n+ONE\n 2\n 3\n 4\n"
            "@@ -7,4 +7,4 @@\n 7\n 8\n 9\n-one more\n+ONE MORE\n");
}

TEST_F(EditToolTest, ThePreviewSaysWhenTheTextWasFoundOnlyTolerantly) {
  seen_file("f.py", "name = \"a\"\n");
  const auto preview = edit_->preview_change(
      {{"path", "f.py"}, {"oldText", "name = \u201ca\u201d"}, {"newText", "name = \"b\""}},
      {"call-1", dir_.path()}, {});
  ASSERT_TRUE(preview);
  EXPECT_EQ(preview->summary, "Found ignoring whitespace, quote and dash differences.");
  EXPECT_TRUE(contains(preview->diff, "-name = \"a\"\n+name = \"b\"\n")) << preview->diff;
}

TEST_F(EditToolTest, ThePreviewOfAnUnreadFileSaysTheEditWouldBeRefused) {
  dir_.write("f.txt", "alpha\n");
  const auto preview = edit_->preview_change(
      {{"path", "f.txt"}, {"oldText", "alpha"}, {"newText", "beta"}}, {"call-1", dir_.path()}, {});
  ASSERT_TRUE(preview);
  EXPECT_TRUE(contains(preview->failure, "you have not read it")) << preview->failure;
}

TEST_F(EditToolTest, AHugeEditsPreviewKeepsTheFirstLinesAndCountsTheRest) {
  std::string original;
  for (int i = 0; i < 500; ++i) original += "line " + std::to_string(i) + "\n";
  seen_file("big.txt", original);
  std::string replaced = original;
  for (char& c : replaced) c = c == 'l' ? 'L' : c;
  const auto preview =
      edit_->preview_change({{"path", "big.txt"}, {"oldText", original}, {"newText", replaced}},
                            {"call-1", dir_.path()}, {});
  ASSERT_TRUE(preview);
  EXPECT_EQ(static_cast<std::size_t>(std::count(preview->diff.begin(), preview->diff.end(), '\n')),
            kPreviewDiffLines);
  // 2 file headers, 1 hunk header, 500 removed and 500 added lines.
  EXPECT_EQ(preview->omitted_lines, 1003 - kPreviewDiffLines);
}

}  // namespace
}  // namespace nib::tools

namespace nib::tools {
namespace {

// An editor holding buffers of its own (editor_files.hpp), unsaved: read, edit and write work on
// them, judged on the file on disk.
class EditorBufferTest : public ::testing::Test {
 protected:
  EditorBufferTest() {
    editor_->read = [this](const std::filesystem::path& path,
                           std::stop_token) -> util::Result<std::string> {
      const auto found = buffers_.find(path);
      if (found == buffers_.end()) return util::Result<std::string>::failure("not open");
      return found->second;
    };
    editor_->write = [this](const std::filesystem::path& path, const std::string& text,
                            std::stop_token) {
      buffers_[path] = text;
      return util::Status::success();
    };
  }
  core::ToolOutput run(const core::ToolPtr& tool, const json& args) {
    return tool->execute(args, {}, {"call-1", dir_.path()});
  }

  testing::TempDir dir_;
  std::map<std::filesystem::path, std::string> buffers_;
  std::shared_ptr<EditorFiles> editor_ = std::make_shared<EditorFiles>();
  std::shared_ptr<FileTracker> files_ = std::make_shared<FileTracker>();
  core::ToolPtr read_ = make_read_tool(files_, editor_);
  core::ToolPtr edit_ = make_edit_tool(files_, editor_);
  core::ToolPtr write_ = make_write_tool(files_, editor_);
};

TEST_F(EditorBufferTest, ReadAndEditWorkOnTheBufferAndLeaveTheFileToTheEditor) {
  const auto path = dir_.write("a.txt", "on disk\n");
  buffers_[path] = "unsaved\nsecond\n";
  const auto read = run(read_, {{"path", "a.txt"}});
  ASSERT_FALSE(read.is_error) << read.output;
  EXPECT_TRUE(contains(read.output, "unsaved"));
  const auto edited = run(edit_, {{"path", "a.txt"}, {"oldText", "second"}, {"newText", "2nd"}});
  ASSERT_FALSE(edited.is_error) << edited.output;
  EXPECT_EQ(buffers_[path], "unsaved\n2nd\n");
  EXPECT_EQ(contents(path), "on disk\n");
  // The edit's own result counts as seen: a second edit needs no new read.
  const auto again = run(edit_, {{"path", "a.txt"}, {"oldText", "2nd"}, {"newText", "two"}});
  EXPECT_FALSE(again.is_error) << again.output;
  EXPECT_EQ(buffers_[path], "unsaved\ntwo\n");
}

TEST_F(EditorBufferTest, ABufferChangedSinceTheReadIsNotEdited) {
  const auto path = dir_.write("a.txt", "x\n");
  buffers_[path] = "typed by the user\n";
  ASSERT_FALSE(run(read_, {{"path", "a.txt"}}).is_error);
  buffers_[path] = "typed by the user, and more\n";
  const auto edited = run(edit_, {{"path", "a.txt"}, {"oldText", "typed"}, {"newText", "written"}});
  EXPECT_TRUE(edited.is_error);
  EXPECT_TRUE(contains(edited.output, "has changed")) << edited.output;
  EXPECT_EQ(buffers_[path], "typed by the user, and more\n");
}

TEST_F(EditorBufferTest, AnEditorThatCannotGiveTheTextChangesNothing) {
  const auto path = dir_.write("a.txt", "x\n");
  const auto read = run(read_, {{"path", "a.txt"}});
  EXPECT_TRUE(read.is_error);
  EXPECT_TRUE(contains(read.output, "from the editor: not open")) << read.output;
  const auto written = run(write_, {{"path", "a.txt"}, {"content", "y\n"}});
  EXPECT_TRUE(written.is_error);
  EXPECT_EQ(contents(path), "x\n");
  EXPECT_TRUE(buffers_.empty());
}

}  // namespace
}  // namespace nib::tools
