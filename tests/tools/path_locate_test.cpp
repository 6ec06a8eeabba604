// Tests of finding the file a loosely written path means, "did you mean" suggestions, and the
// claims that follow the same resolution.

#include "tools/path_locate.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/claim_table.hpp"
#include "support/temp_dir.hpp"
#include "tools/path.hpp"
#include "tools/path_access.hpp"

namespace nib::tools {
namespace {

namespace fs = std::filesystem;

const std::string kNbsp = "\xC2\xA0";
const std::string kNnbsp = "\xE2\x80\xAF";

class LocatePathTest : public ::testing::Test {
 protected:
  LocatedPath locate(const std::string& requested, LocateFor purpose = LocateFor::kExisting) {
    return locate_path(requested, dir_.path(), home_.path(), purpose);
  }
  fs::path touch(const std::string& relative) { return dir_.write(relative, "x"); }

  testing::TempDir dir_;
  testing::TempDir home_;
};

TEST_F(LocatePathTest, AnExistingPathIsTakenAsWritten) {
  const auto path = touch("src/main.cpp");
  const auto located = locate("src/main.cpp");
  EXPECT_TRUE(located.exists);
  EXPECT_EQ(located.path, path);
  EXPECT_TRUE(located.ambiguous.empty());
}

TEST_F(LocatePathTest, AMissingPathStaysAsWritten) {
  const auto located = locate("nope/x.txt");
  EXPECT_FALSE(located.exists);
  EXPECT_EQ(located.path, dir_.path() / "nope/x.txt");
}

TEST_F(LocatePathTest, DropsTheAtAUserTypesToMentionAFile) {
  const auto path = touch("src/app.cpp");
  const auto located = locate("@src/app.cpp");
  EXPECT_TRUE(located.exists);
  EXPECT_EQ(located.path, path);
}

TEST_F(LocatePathTest, AFileReallyNamedWithAnAtWins) {
  touch("notes.md");
  const auto at = touch("@notes.md");
  EXPECT_EQ(locate("@notes.md").path, at);
  // npm scopes are directories named "@...".
  const auto scoped = touch("node_modules/@types/node/index.d.ts");
  EXPECT_EQ(locate("node_modules/@types/node/index.d.ts").path, scoped);
}

TEST_F(LocatePathTest, ExpandsHomeAfterTheAt) {
  const auto path = home_.write("todo.md", "x");
  EXPECT_EQ(locate("~/todo.md").path, path);
  EXPECT_EQ(locate("@~/todo.md").path, path);
}

TEST_F(LocatePathTest, PlainSpacesFindAScreenshotNamedWithNarrowNoBreakSpaces) {
  const auto path = touch("Screenshot 2024-05-01 at 10.00.00" + kNnbsp + "PM.png");
  const auto located = locate("Screenshot 2024-05-01 at 10.00.00 PM.png");
  EXPECT_TRUE(located.exists);
  EXPECT_EQ(located.path, path);
  EXPECT_EQ(locate("@Screenshot 2024-05-01 at 10.00.00 PM.png").path, path);
}

TEST_F(LocatePathTest, NoBreakSpacesFindAFileNamedWithPlainSpaces) {
  const auto path = touch("My Notes/a b.txt");
  EXPECT_EQ(locate("My" + kNbsp + "Notes/a" + kNnbsp + "b.txt").path, path);
}

TEST_F(LocatePathTest, SeveralFilesThatFitAreAmbiguous) {
  touch("a b.txt");
  touch("a" + kNbsp + "b.txt");
  const auto located = locate("a" + kNnbsp + "b.txt");
  EXPECT_FALSE(located.exists);
  EXPECT_EQ(located.path, dir_.path() / ("a" + kNnbsp + "b.txt"));
  ASSERT_EQ(located.ambiguous.size(), 2u);
  const std::string message = ambiguous_path_message("a" + kNnbsp + "b.txt", located, dir_.path());
  // The names differ only in invisible characters, so the message writes them as escapes.
  EXPECT_NE(message.find("\"a b.txt\""), std::string::npos) << message;
  EXPECT_NE(message.find("\"a\\u00a0b.txt\""), std::string::npos) << message;
  EXPECT_NE(message.find("\"a\\u202fb.txt\" exactly"), std::string::npos) << message;
  // Spelled exactly, each is found.
  EXPECT_TRUE(locate("a b.txt").exists);
}

TEST_F(LocatePathTest, EscapedBytesFindANameThatIsNotUtf8) {
  const auto path = touch("bad\xFFname/f\xE9.txt");
  EXPECT_EQ(locate("bad\\xffname/f\\xe9.txt").path, path);
  EXPECT_EQ(locate("bad\\xFFname/f\\xE9.txt").path, path);  // either case of hex
  // The escape form is what display_path() shows.
  EXPECT_EQ(display_path(path, dir_.path()), "bad\\xffname/f\\xe9.txt");
}

TEST_F(LocatePathTest, APathHoldingANulIsNotLookedUp) {
  touch("imp.txt");
  const auto located = locate(std::string("imp.txt\0.bak", 12));
  EXPECT_FALSE(located.exists);
}

TEST_F(LocatePathTest, ANewFileGoesIntoTheDirectoryThePathMeans) {
  fs::create_directories(dir_.path() / "src");
  fs::create_directories(dir_.path() / ("My" + kNbsp + "Dir"));
  EXPECT_EQ(locate("@src/new.cpp", LocateFor::kCreate).path, dir_.path() / "src/new.cpp");
  EXPECT_EQ(locate("My Dir/new.txt", LocateFor::kCreate).path,
            dir_.path() / ("My" + kNbsp + "Dir") / "new.txt");
  // A new file's own name is kept as written, the "@" included.
  EXPECT_EQ(locate("@new.txt", LocateFor::kCreate).path, dir_.path() / "@new.txt");
  EXPECT_EQ(locate("a b.txt", LocateFor::kCreate).path, dir_.path() / "a b.txt");
  // Without an existing directory, the path as written.
  EXPECT_EQ(locate("@deep/er/x.txt", LocateFor::kCreate).path, dir_.path() / "@deep/er/x.txt");
  // kExisting leaves a missing file as written.
  EXPECT_EQ(locate("@src/new.cpp").path, dir_.path() / "@src/new.cpp");
}

TEST_F(LocatePathTest, AnExistingFileWinsOverCreatingOne) {
  const auto path = touch("Report" + kNnbsp + "final.txt");
  const auto located = locate("Report final.txt", LocateFor::kCreate);
  EXPECT_TRUE(located.exists);
  EXPECT_EQ(located.path, path);
}

class DidYouMeanTest : public LocatePathTest {
 protected:
  std::string suggest(const std::string& requested) {
    return did_you_mean(dir_.path() / requested, dir_.path());
  }
};

TEST_F(DidYouMeanTest, SuggestsANameThatDiffersInCase) {
  touch("docs/README.md");
  EXPECT_EQ(suggest("docs/readme.md"), " Did you mean README.md? (in docs)");
}

TEST_F(DidYouMeanTest, SuggestsTyposAndOtherExtensionsClosestFirst) {
  touch("config.json");
  touch("config.yaml");
  touch("unrelated.txt");
  EXPECT_EQ(suggest("confg.json"), " Did you mean config.json? (in the working directory)");
  // Same stem: yaml is two letters from toml, json (another extension) comes after it.
  EXPECT_EQ(suggest("config.toml"),
            " Did you mean config.yaml or config.json? (in the working directory)");
}

TEST_F(DidYouMeanTest, SuggestsForTheFirstMissingDirectory) {
  touch("src/main.cpp");
  EXPECT_EQ(suggest("scr/main.cpp"), " Did you mean src/? (in the working directory)");
}

TEST_F(DidYouMeanTest, SaysNothingWhenNothingIsClose) {
  touch("alpha.txt");
  EXPECT_EQ(suggest("zzz.cpp"), "");
  EXPECT_EQ(suggest("a"), "");  // a one-letter name is not a typo of another
}

TEST_F(DidYouMeanTest, NamesAtMostAFewAndShowsUnprintableNamesEscaped) {
  for (const char* name : {"file1", "file2", "file3", "file4", "file5"}) touch(name);
  EXPECT_EQ(suggest("file"), " Did you mean file1, file2 or file3? (in the working directory)");
  touch("raw/caf\xE9");  // Latin-1
  EXPECT_EQ(suggest("raw/cafe"), " Did you mean caf\\xe9? (in raw)");
}

// The claims of a call whose path argument is in `args`: the path as the file tools open it
// and its target (path_access.hpp), exclusive for a writer.
std::vector<core::ResourceClaim> claims(const nlohmann::json& args, const fs::path& cwd,
                                        bool exclusive, std::string_view fallback = {}) {
  core::CallAccess access = path_argument_access(
      args, {"call-1", cwd}, exclusive ? LocateFor::kCreate : LocateFor::kExisting, fallback);
  access.kind = exclusive ? core::AccessKind::kWrite : core::AccessKind::kRead;
  return core::claims_of(access);
}

TEST_F(LocatePathTest, ClaimsAreOnTheFileASpellingMeans) {
  const auto path = touch("notes.md");
  const auto edit = claims({{"path", "@notes.md"}}, dir_.path(), true);
  ASSERT_EQ(edit.size(), 1u);
  EXPECT_EQ(edit[0].key, core::file_claim_key(path));
  EXPECT_TRUE(edit[0].exclusive);
  // So a read of the real name and an edit through "@" conflict.
  const auto read = claims({{"path", "notes.md"}}, dir_.path(), false);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].key, edit[0].key);
  EXPECT_TRUE(claims({{"other", 1}}, dir_.path(), false).empty());
}

TEST_F(LocatePathTest, ClaimsOfANewFileNameTheDirectoryItGoesInto) {
  fs::create_directories(dir_.path() / "src");
  const auto write = claims({{"path", "@src/new.cpp"}}, dir_.path(), true);
  ASSERT_EQ(write.size(), 1u);
  EXPECT_EQ(write[0].key, core::file_claim_key(dir_.path() / "src/new.cpp"));
}

TEST_F(LocatePathTest, ClaimsThroughASymbolicLinkNameItsTargetToo) {
  const auto target = touch("notes.md");
  fs::create_symlink("notes.md", dir_.path() / "link.md");
  const auto read = claims({{"path", "link.md"}}, dir_.path(), false);
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].key, core::file_claim_key(dir_.path() / "link.md")) << "as the tool opens it";
  EXPECT_EQ(read[1].key, core::file_claim_key(target)) << "the file it reads";
  EXPECT_TRUE(core::claims_conflict(read, claims({{"path", "notes.md"}}, dir_.path(), true)));
}

TEST_F(LocatePathTest, ClaimsInALinkedDirectoryNameTheRealOne) {
  fs::create_directories(dir_.path() / "src");
  fs::create_directory_symlink("src", dir_.path() / "alias");
  // A new file's claim resolves the existing part of its path.
  const auto write = claims({{"path", "alias/new.cpp"}}, dir_.path(), true);
  ASSERT_EQ(write.size(), 2u);
  EXPECT_EQ(write[1].key, core::file_claim_key(dir_.path() / "src/new.cpp"));
  EXPECT_TRUE(core::claims_conflict(claims({{"path", "src"}}, dir_.path(), false), write));
  EXPECT_TRUE(core::claims_conflict(claims({{"path", "alias"}}, dir_.path(), false),
                                    claims({{"path", "src/a.cpp"}}, dir_.path(), true)));
}

TEST_F(LocatePathTest, ClaimsOfAMissingOrBlankPathAreTheFallbackOrNothing) {
  const std::vector<core::ResourceClaim> cwd{{core::file_claim_key(dir_.path()), false}};
  EXPECT_EQ(claims(nlohmann::json::object(), dir_.path(), false, "."), cwd);
  EXPECT_EQ(claims({{"path", " "}}, dir_.path(), false, "."), cwd);
  EXPECT_TRUE(claims({{"path", " "}}, dir_.path(), false).empty());
  EXPECT_TRUE(claims(nlohmann::json::object(), dir_.path(), false).empty());
}

}  // namespace
}  // namespace nib::tools
