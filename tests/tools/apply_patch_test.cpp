// The apply_patch tool (tools/apply_patch.hpp): operations on real files, judged as edit's are,
// applied whole or not at all; judged on the files, not on the tool's text. Besides the cases
// below, a scenario suite in the shape of Codex's (tests/tools/fixtures/apply_patch; see
// ApplyPatchScenarioTest at the end).

#include "tools/apply_patch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

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

// A new file gets the line ends git would give it on checkout; a replaced one keeps its own.
TEST_F(ApplyPatchToolTest, NewFilesGetGitsLineEndsAndReplacedFilesKeepTheirs) {
  const auto git = [&](const std::string& arguments) {
    const std::string command =
        "git -C '" + dir_.path().string() + "' " + arguments + " >/dev/null 2>&1";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
  };
  git("init -q");
  dir_.write(".gitattributes", "*.bat eol=crlf\n*.sh eol=lf\nraw/* -text\n");
  dir_.write("old.txt", "a\r\nb\r\nc\n");
  read("old.txt");
  auto output = patch(
      "*** Begin Patch\n*** Add File: run.bat\n+@echo off\n+exit\n"
      "*** Add File: plain.txt\n+x\n+y\n"
      "*** Add File: old.txt\n+new\n+lines\n*** End Patch");
  ASSERT_FALSE(output.is_error) << output.output;
  EXPECT_EQ(file_text(dir_.path() / "run.bat"), "@echo off\r\nexit\r\n");
  EXPECT_EQ(file_text(dir_.path() / "plain.txt"), "x\ny\n");
  EXPECT_EQ(file_text(dir_.path() / "old.txt"), "new\r\nlines\r\n");

  git("config core.autocrlf true");
  output = patch(
      "*** Begin Patch\n*** Add File: deep/dir/text.txt\n+x\n*** Add File: build.sh\n+y\n"
      "*** Add File: raw/blob.txt\n+z\n*** End Patch");
  ASSERT_FALSE(output.is_error) << output.output;
  EXPECT_EQ(file_text(dir_.path() / "deep/dir/text.txt"), "x\r\n");
  EXPECT_EQ(file_text(dir_.path() / "build.sh"), "y\n");
  EXPECT_EQ(file_text(dir_.path() / "raw/blob.txt"), "z\n");

  git("config core.autocrlf false");
  git("config core.eol crlf");
  dir_.write(".gitattributes", "*.txt text\n");
  output =
      patch("*** Begin Patch\n*** Add File: eol.txt\n+x\n*** Add File: eol.md\n+y\n*** End Patch");
  ASSERT_FALSE(output.is_error) << output.output;
  EXPECT_EQ(file_text(dir_.path() / "eol.txt"), "x\r\n");
  EXPECT_EQ(file_text(dir_.path() / "eol.md"), "y\n");  // not text by any attribute
}

// The approval question shows the plan execute() follows; the transcript shows what it did.
TEST_F(ApplyPatchToolTest, ThePreviewIsThePatchsPlanAndTheResultShowsItsDiff) {
  dir_.write("a.txt", "one\ntwo\n");
  dir_.write("gone.txt", "bye\n");
  read("a.txt");
  read("gone.txt");
  const json args = {{"input",
                      "*** Begin Patch\n*** Update File: a.txt\n one\n-two\n+2\n"
                      "*** Add File: n.txt\n+new\n*** Delete File: gone.txt\n*** End Patch"}};
  const auto preview = tool_->preview_change(args, {"call-1", dir_.path()}, {});
  ASSERT_TRUE(preview.has_value());
  EXPECT_EQ(preview->failure, "");
  EXPECT_EQ(preview->summary, "3 files: M a.txt, A n.txt, D gone.txt.");
  EXPECT_NE(preview->diff.find("--- a.txt\n+++ a.txt\n"), std::string::npos) << preview->diff;
  EXPECT_NE(preview->diff.find("-two\n+2\n"), std::string::npos) << preview->diff;
  EXPECT_NE(preview->diff.find("--- /dev/null\n+++ n.txt\n"), std::string::npos);
  EXPECT_NE(preview->diff.find("--- gone.txt\n+++ /dev/null\n"), std::string::npos);
  EXPECT_EQ(file_text(dir_.path() / "a.txt"), "one\ntwo\n");  // a preview changes nothing

  const auto output = tool_->execute(args, {}, {"call-1", dir_.path()});
  ASSERT_FALSE(output.is_error) << output.output;
  ASSERT_TRUE(output.display.has_value());
  EXPECT_EQ(*output.display, preview->diff);

  const auto failing = tool_->preview_change(
      {{"input", "*** Begin Patch\n*** Update File: a.txt\n-absent\n+x\n*** End Patch"}},
      {"call-2", dir_.path()}, {});
  ASSERT_TRUE(failing.has_value());
  EXPECT_NE(failing->failure.find("Failed to find expected lines in a.txt"), std::string::npos)
      << failing->failure;
}

// The scenarios of tests/tools/fixtures/apply_patch, one directory each, as Codex keeps its own
// (codex-rs/apply-patch/tests/fixtures/scenarios):
//   before/  the tree the patch is applied to (absent: an empty tree);
//   patch    the tool's input, byte for byte;
//   after/   every regular file the tree must then hold, byte for byte, and no other (absent: no
//            file; directories left empty do not count);
//   error    present when the call must fail: text its output must contain (final newlines
//            aside). The tree must then be as it was, so after/ equals before/ (a patch applies
//            whole or changes nothing);
//   output   optional: the whole output of a successful call.
// Every file counts as read (UnseenFiles::kTrustCurrent): the scenarios judge the patch, not
// the read-before-edit rule.
std::filesystem::path apply_patch_scenario_root() {
  return std::filesystem::path(std::string(NIB_SOURCE_DIR) + "/tests/tools/fixtures/apply_patch");
}

// The regular files under `root` (recursively) by their path relative to it, '/'-separated, with
// their bytes; none when `root` does not exist.
std::map<std::string, std::string> apply_patch_scenario_files(const std::filesystem::path& root) {
  std::map<std::string, std::string> files;
  if (!std::filesystem::is_directory(root)) return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    files[entry.path().lexically_relative(root).generic_string()] = file_text(entry.path());
  }
  return files;
}

std::string without_final_newlines(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

TEST(ApplyPatchScenarioTest, EveryScenarioGivesItsTreeByteForByte) {
  const std::filesystem::path root = apply_patch_scenario_root();
  std::vector<std::filesystem::path> scenarios;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    if (entry.is_directory()) scenarios.push_back(entry.path());
  }
  std::sort(scenarios.begin(), scenarios.end());
  ASSERT_GE(scenarios.size(), 30u) << "scenarios in " << root;

  for (const std::filesystem::path& scenario : scenarios) {
    const std::string name = scenario.filename().string();
    SCOPED_TRACE(name);
    if (!std::filesystem::is_regular_file(scenario / "patch")) {
      ADD_FAILURE() << name << ": no patch file";
      continue;
    }
    const auto before = apply_patch_scenario_files(scenario / "before");
    const auto expected = apply_patch_scenario_files(scenario / "after");
    const bool must_fail = std::filesystem::exists(scenario / "error");
    if (must_fail) {
      EXPECT_EQ(before, expected) << name << ": a failing patch changes nothing, so after/ must "
                                  << "equal before/";
    }

    testing::TempDir tree;
    if (std::filesystem::is_directory(scenario / "before")) {
      std::filesystem::copy(scenario / "before", tree.path(),
                            std::filesystem::copy_options::recursive);
    }
    ASSERT_EQ(apply_patch_scenario_files(tree.path()), before) << name << ": copying before/";
    const core::ToolPtr tool =
        make_apply_patch_tool(std::make_shared<FileTracker>(UnseenFiles::kTrustCurrent));
    const core::ToolOutput output = tool->execute(json{{"input", file_text(scenario / "patch")}},
                                                  {}, core::ToolContext{"call-1", tree.path()});

    EXPECT_EQ(output.is_error, must_fail) << name << ": " << output.output;
    if (must_fail) {
      const std::string error = without_final_newlines(file_text(scenario / "error"));
      EXPECT_NE(output.output.find(error), std::string::npos)
          << name << ": the output lacks \"" << error << "\"; it is:\n"
          << output.output;
    } else if (std::filesystem::exists(scenario / "output")) {
      EXPECT_EQ(output.output, file_text(scenario / "output")) << name;
    } else {
      EXPECT_TRUE(output.output.starts_with("Success. Updated the following files:\n"))
          << name << ": " << output.output;
    }

    const auto actual = apply_patch_scenario_files(tree.path());
    for (const auto& [path, bytes] : expected) {
      const auto found = actual.find(path);
      if (found == actual.end()) {
        ADD_FAILURE() << name << ": " << path << " is missing";
        continue;
      }
      EXPECT_EQ(found->second, bytes) << name << ": " << path << " differs";
    }
    for (const auto& [path, bytes] : actual) {
      EXPECT_TRUE(expected.contains(path))
          << name << ": " << path << " should not be there; it holds:\n"
          << bytes;
    }
  }
}

}  // namespace
}  // namespace nib::tools
