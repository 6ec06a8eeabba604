// Tests of paths as models write them, through every file tool: "@path", no-break spaces, names
// that are not UTF-8 (shown escaped, accepted back), NUL bytes, and "did you mean".

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>

#include "core/claim_table.hpp"
#include "support/scoped_places.hpp"
#include "support/spawn.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"
#include "support/tool_claims.hpp"
#include "tools/edit.hpp"
#include "tools/find.hpp"
#include "tools/grep.hpp"
#include "tools/ls.hpp"
#include "tools/path.hpp"
#include "tools/read.hpp"
#include "tools/write.hpp"
#include "util/utf8.hpp"

namespace nib::tools {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::contains;

const std::string kNarrowNoBreakSpace = "\xE2\x80\xAF";

class ToolPathsTest : public ::testing::Test {
 protected:
  core::ToolOutput run(const core::ToolPtr& tool, const json& args) {
    return tool->execute(args, {}, {"call-1", dir_.path()});
  }

  testing::TempDir dir_;
  std::shared_ptr<FileTracker> files_ = std::make_shared<FileTracker>();
  core::ToolPtr read_ = make_read_tool(files_);
  core::ToolPtr edit_ = make_edit_tool(files_);
  core::ToolPtr write_ = make_write_tool(files_);
  core::ToolPtr ls_ = make_ls_tool();
  core::ToolPtr grep_ = make_grep_tool();
  core::ToolPtr find_ = make_find_tool();
};

TEST_F(ToolPathsTest, ANameThatIsNotUtf8IsShownEscapedAndAcceptedBack) {
  const auto path = dir_.write("caf\xE9.txt", "hello\n");  // Latin-1 "café"
  const std::string shown = "caf\\xe9.txt";
  const auto listing = run(ls_, json::object());
  EXPECT_EQ(listing.output, shown + "\n");
  EXPECT_TRUE(util::is_valid_utf8(listing.output));
  EXPECT_EQ(run(find_, {{"pattern", "*.txt"}}).output, shown + "\n");
  EXPECT_EQ(run(grep_, {{"pattern", "hello"}}).output, shown + ":1: hello");

  EXPECT_EQ(run(read_, {{"path", shown}}).output, "hello");
  const auto edited = run(edit_, {{"path", shown}, {"oldText", "hello"}, {"newText", "bye"}});
  EXPECT_EQ(edited.output, "Edited " + shown + ": 1 edit applied.");
  EXPECT_EQ(testing::file_contents(path), "bye\n");
  const auto written = run(write_, {{"path", shown}, {"content", "again\n"}});
  EXPECT_EQ(written.output, "Overwrote " + shown + ": 6 bytes, 1 line.");
  EXPECT_EQ(testing::file_contents(path), "again\n");
}

TEST_F(ToolPathsTest, AShellHintNamesAnEscapedNameSoThatBashFindsIt) {
  fs::create_directory(dir_.path() / "it's\xFF");
  const std::string output = run(read_, {{"path", "it's\\xff"}}).output;
  const std::string hint = "List it with the ls tool or with bash: ls -la ";
  ASSERT_TRUE(contains(output, hint)) << output;
  const std::string word = output.substr(output.find(hint) + hint.size());
  EXPECT_EQ(word, "$'it\\'s\\xff'");
  // bash itself is the judge of the quoting.
  const auto child =
      testing::spawn_with_pipes({"/bin/bash", "-c", "test -d " + word}, {}, dir_.path());
  close(child.out_fd);
  close(child.err_fd);
  int status = -1;
  ASSERT_EQ(waitpid(child.pid, &status, 0), child.pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << word;
}

TEST_F(ToolPathsTest, TheAtOfAMentionedFileIsDroppedByEveryTool) {
  const auto path = dir_.write("src/app.cpp", "int main() {}\n");
  EXPECT_EQ(run(read_, {{"path", "@src/app.cpp"}}).output, "int main() {}");
  EXPECT_FALSE(
      run(edit_, {{"path", "@src/app.cpp"}, {"oldText", "{}"}, {"newText", "{ return 0; }"}})
          .is_error);
  EXPECT_EQ(testing::file_contents(path), "int main() { return 0; }\n");
  EXPECT_EQ(run(write_, {{"path", "@src/app.cpp"}, {"content", "x\n"}}).output,
            "Overwrote src/app.cpp: 2 bytes, 1 line.");
  EXPECT_EQ(run(ls_, {{"path", "@src"}}).output, "app.cpp\n");
  EXPECT_EQ(run(find_, {{"pattern", "*.cpp"}, {"path", "@src"}}).output, "app.cpp\n");
  EXPECT_EQ(run(grep_, {{"pattern", "x"}, {"path", "@src"}}).output, "src/app.cpp:1: x");
  EXPECT_FALSE(fs::exists(dir_.path() / "@src"));
}

TEST_F(ToolPathsTest, AScreenshotNameIsFoundWithPlainSpaces) {
  dir_.write("Shot 10.00.00" + kNarrowNoBreakSpace + "PM.txt", "pixels\n");
  EXPECT_EQ(run(read_, {{"path", "Shot 10.00.00 PM.txt"}}).output, "pixels");
  EXPECT_EQ(run(grep_, {{"pattern", "pix"}, {"path", "Shot 10.00.00 PM.txt"}}).output,
            "Shot 10.00.00" + kNarrowNoBreakSpace + "PM.txt:1: pixels");
}

TEST_F(ToolPathsTest, WriteCreatesANewFileUnderTheNameAsWritten) {
  fs::create_directory(dir_.path() / "src");
  EXPECT_EQ(run(write_, {{"path", "@src/new.cpp"}, {"content", "x"}}).output,
            "Created src/new.cpp: 1 byte, 1 line.");
  EXPECT_EQ(testing::file_contents(dir_.path() / "src/new.cpp"), "x");
  // Overwriting a file found under another spelling needs a read of that file first.
  dir_.write("Note" + kNarrowNoBreakSpace + "1.txt", "precious\n");
  const auto refused = run(write_, {{"path", "Note 1.txt"}, {"content", "clobbered\n"}});
  EXPECT_TRUE(
      refused.output.starts_with("Refusing to overwrite Note" + kNarrowNoBreakSpace + "1.txt"))
      << refused.output;
  EXPECT_FALSE(fs::exists(dir_.path() / "Note 1.txt"));
}

TEST_F(ToolPathsTest, AnArgumentWithANulIsRefusedBeforeAnythingHappens) {
  const auto important = dir_.write("imp.txt", "keep\n");
  run(read_, {{"path", "imp.txt"}});
  const std::string path("imp.txt\0.bak", 12);
  const auto written = run(write_, {{"path", path}, {"content", "gone"}});
  EXPECT_TRUE(written.is_error);
  EXPECT_TRUE(written.output.starts_with("path holds a NUL character (\\u0000) at byte 7."))
      << written.output;
  EXPECT_EQ(testing::file_contents(important), "keep\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_.path()), fs::directory_iterator()), 1);

  EXPECT_TRUE(run(edit_, {{"path", path}, {"oldText", "keep"}, {"newText", "x"}}).is_error);
  EXPECT_EQ(testing::file_contents(important), "keep\n");
  for (const auto& [tool, args] : std::vector<std::pair<core::ToolPtr, json>>{
           {read_, {{"path", path}}},
           {ls_, {{"path", std::string(".\0/x", 4)}}},
           {find_, {{"pattern", std::string("*\0.txt", 6)}}},
           {find_, {{"pattern", "*"}, {"path", std::string(".\0/x", 4)}}},
           {grep_, {{"pattern", std::string("keep\0", 5)}}},
           {grep_, {{"pattern", "keep"}, {"glob", std::string("*.txt\0", 6)}}},
           {grep_, {{"pattern", "keep"}, {"path", path}}}}) {
    const auto output = run(tool, args);
    EXPECT_TRUE(output.is_error) << tool->spec().name << " " << args.dump();
    EXPECT_TRUE(contains(output.output, "holds a NUL character")) << output.output;
  }
}

TEST_F(ToolPathsTest, ContentMayHoldNulBytes) {
  const std::string data("a\0b", 3);
  EXPECT_FALSE(run(write_, {{"path", "data.bin"}, {"content", data}}).is_error);
  EXPECT_EQ(testing::file_contents(dir_.path() / "data.bin"), data);
}

TEST_F(ToolPathsTest, AMissingPathSuggestsTheClosestNames) {
  dir_.write("src/config.json", "{}\n");
  const std::string hint = " Did you mean config.json? (in src)";
  for (const auto& [tool, args] : std::vector<std::pair<core::ToolPtr, json>>{
           {read_, {{"path", "src/confg.json"}}},
           {edit_, {{"path", "src/confg.json"}, {"oldText", "a"}, {"newText", "b"}}},
           {ls_, {{"path", "src/confg.json"}}},
           {find_, {{"pattern", "*"}, {"path", "src/confg.json"}}},
           {grep_, {{"pattern", "x"}, {"path", "src/confg.json"}}}}) {
    const auto output = run(tool, args);
    EXPECT_TRUE(output.is_error) << tool->spec().name;
    EXPECT_TRUE(contains(output.output, hint)) << tool->spec().name << ": " << output.output;
  }
}

TEST_F(ToolPathsTest, SearchesShareTheirPathSoEditsUnderItWait) {
  fs::create_directories(dir_.path() / "src");
  const auto claims = [this](const core::ToolPtr& tool, const json& args) {
    return testing::call_claims(*tool, args, {"call-1", dir_.path()});
  };
  const auto edit_in_src = claims(edit_, {{"path", "src/app.cpp"}});
  for (const auto& search : {grep_, find_, ls_}) {
    SCOPED_TRACE(search->name());
    const auto pattern = search->name() == "ls" ? json::object() : json{{"pattern", "x"}};
    const auto everywhere = claims(search, pattern);
    ASSERT_EQ(everywhere.size(), 1u) << "the working directory by default";
    EXPECT_EQ(everywhere[0], (core::ResourceClaim{core::file_claim_key(dir_.path()), false}));
    auto in_src = pattern;
    in_src["path"] = "src";
    EXPECT_TRUE(core::claims_conflict(everywhere, edit_in_src));
    EXPECT_TRUE(core::claims_conflict(claims(search, in_src), edit_in_src));
    EXPECT_TRUE(core::claims_conflict(claims(search, in_src), claims(write_, {{"path", "src"}})));
    EXPECT_FALSE(core::claims_conflict(claims(search, in_src), claims(edit_, {{"path", "srcs"}})));
    EXPECT_FALSE(core::claims_conflict(everywhere, claims(read_, {{"path", "src/app.cpp"}})));
  }
}

// What each file tool says its call touches is what it then opens: every spelling a model
// writes resolves there, to the file it means, and a link to where it leads.
TEST_F(ToolPathsTest, EachFileToolsAccessIsTheFileItOpens) {
  fs::create_directories(dir_.path() / "home" / ".ssh");
  const auto key = dir_.write("home/.ssh/id_rsa", "secret\n");
  const auto notes = dir_.write("my" + kNarrowNoBreakSpace + "notes.md", "notes\n");
  fs::create_symlink(dir_.path() / "home/.bashrc", dir_.path() / "dangling");
  const testing::ScopedPlaces home(&util::UserPlaces::home, dir_.path() / "home");
  const core::ToolContext context{"call-1", dir_.path() / "tree"};
  fs::create_directories(context.cwd);
  fs::create_symlink(notes, context.cwd / "link.md");
  struct Case {
    std::string written;
    fs::path path, target;
  };
  const std::vector<Case> cases = {
      {"~/.ssh/id_rsa", key, key},
      {"@~/.ssh/id_rsa", key, key},
      {"@../my notes.md", notes, notes},
      {"link.md", context.cwd / "link.md", notes},
  };
  for (const auto& tool : {read_, grep_, find_, ls_, edit_}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(tool->name() + " " + c.written);
      core::CallAccess access = tool->access({{"path", c.written}, {"pattern", "x"}}, context);
      ASSERT_EQ(access.paths.size(), 1u);
      EXPECT_EQ(access.paths[0].written, c.written);
      EXPECT_EQ(access.paths[0].path, c.path);
      EXPECT_EQ(access.paths[0].target, c.target);
    }
  }
  // write creates what a dangling link names, so that is what it touches.
  const core::CallAccess write =
      write_->access({{"path", "../dangling"}, {"content", "x"}}, context);
  ASSERT_EQ(write.paths.size(), 1u);
  EXPECT_EQ(write.paths[0].path, dir_.path() / "dangling");
  EXPECT_EQ(write.paths[0].target, dir_.path() / "home/.bashrc");
  const core::CallAccess created =
      write_->access({{"path", "@~/new.txt"}, {"content", ""}}, context);
  EXPECT_EQ(created.paths.at(0).path, dir_.path() / "home/new.txt");
}

// A call acts only on the file it was judged on: should the spelling mean another file by the
// time it runs (a link made in between), it refuses rather than act on one nobody judged.
TEST_F(ToolPathsTest, ACallRefusesAFileThatChangedSinceItWasJudged) {
  dir_.write("a.txt", "hello\n");
  core::ToolContext context{"call-1", dir_.path()};
  core::CallAccess judged = write_->access({{"path", "a.txt"}, {"content", "x"}}, context);
  context.access = std::make_shared<const core::CallAccess>(judged);
  fs::remove(dir_.path() / "a.txt");
  fs::create_symlink("/etc/hostname", dir_.path() / "a.txt");
  const auto output = write_->execute({{"path", "a.txt"}, {"content", "x"}}, {}, context);
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(contains(output.output, "not the file this call was checked for")) << output.output;
  EXPECT_TRUE(fs::is_symlink(dir_.path() / "a.txt"));
}

}  // namespace
}  // namespace nib::tools
