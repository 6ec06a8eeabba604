#include "extensions/definition_files.hpp"

#include <gtest/gtest.h>

#include "extensions/limits.hpp"
#include "support/temp_dir.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::vector<std::string> relative_paths(const std::vector<fs::path>& paths, const fs::path& base) {
  std::vector<std::string> out;
  for (const auto& path : paths) out.push_back(path.lexically_relative(base).string());
  return out;
}

TEST(DefinitionFilesTest, FoldersComeInTheFormatsOrder) {
  const ExtensionRoots roots{"/work", "/cfg/nib", "/home/u"};
  std::vector<std::string> paths;
  for (const auto& folder : definition_folders(roots, "agents", ScopeOrder::kProjectFirst)) {
    paths.push_back(folder.path.string());
  }
  EXPECT_EQ(paths, (std::vector<std::string>{"/work/.nib/agents", "/work/.claude/agents",
                                             "/cfg/nib/agents", "/home/u/.claude/agents"}));
  const auto skills = definition_folders(roots, "skills", ScopeOrder::kUserFirst);
  ASSERT_EQ(skills.size(), 4u);
  EXPECT_EQ(skills[0].origin, Origin::kUserNib);
  EXPECT_EQ(skills[1].origin, Origin::kUserClaude);
  EXPECT_EQ(skills[2].origin, Origin::kProjectNib);
  EXPECT_EQ(skills[3].origin, Origin::kProjectClaude);
  // An empty root is not searched.
  EXPECT_EQ(definition_folders({"/work", "", ""}, "agents", ScopeOrder::kProjectFirst).size(), 2u);
}

TEST(DefinitionFilesTest, AHomeDirectoryThatIsTheProjectIsSearchedOnce) {
  const auto commands = definition_folders({"/home/u", "/cfg/nib", "/home/u/"}, "commands",
                                           ScopeOrder::kProjectFirst);
  ASSERT_EQ(commands.size(), 3u);
  EXPECT_EQ(commands[1].path, "/home/u/.claude/commands");
  EXPECT_EQ(commands[1].origin, Origin::kProjectClaude);
  const auto skills =
      definition_folders({"/home/u", "/cfg/nib", "/home/u"}, "skills", ScopeOrder::kUserFirst);
  ASSERT_EQ(skills.size(), 3u);
  EXPECT_EQ(skills[1].origin, Origin::kUserClaude);
}

TEST(DefinitionFilesTest, ListsMarkdownFilesSortedAndRecursively) {
  TempDir dir;
  dir.write("b.md", "");
  dir.write("a.md", "");
  dir.write("notes.txt", "");
  dir.write(".hidden.md", "");
  dir.write(".git/x.md", "");
  dir.write("sub/c.md", "");
  dir.write("sub/deeper/d.md", "");
  std::vector<Problem> problems;
  EXPECT_EQ(relative_paths(markdown_files(dir.path(), true, problems), dir.path()),
            (std::vector<std::string>{"a.md", "b.md", "sub/c.md", "sub/deeper/d.md"}));
  EXPECT_EQ(relative_paths(markdown_files(dir.path(), false, problems), dir.path()),
            (std::vector<std::string>{"a.md", "b.md"}));
  EXPECT_TRUE(markdown_files(dir.path() / "missing", true, problems).empty());
  EXPECT_TRUE(problems.empty());
}

TEST(DefinitionFilesTest, ALoopOfSymbolicLinksEndsAtTheDepthLimit) {
  TempDir dir;
  dir.write("a.md", "");
  fs::create_directory_symlink(dir.path(), dir.path() / "loop");
  std::vector<Problem> problems;
  const auto files = markdown_files(dir.path(), true, problems);
  EXPECT_EQ(files.size(), kMaxDefinitionFolderDepth + 1);
  EXPECT_TRUE(problems.empty());
}

TEST(DefinitionFilesTest, TooManyFilesAreReported) {
  TempDir dir;
  for (std::size_t i = 0; i <= kMaxDefinitionFilesPerFolder; ++i) {
    dir.write("f" + std::to_string(i) + ".md", "");
  }
  std::vector<Problem> problems;
  EXPECT_EQ(markdown_files(dir.path(), true, problems).size(), kMaxDefinitionFilesPerFolder);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].message.find("the rest were not read"), std::string::npos);
}

TEST(DefinitionFilesTest, NamesFollowClaudeCodesRule) {
  EXPECT_TRUE(is_valid_name("code-reviewer"));
  EXPECT_TRUE(is_valid_name("a"));
  EXPECT_TRUE(is_valid_name("v2-helper"));
  EXPECT_TRUE(is_valid_name("2fa"));
  EXPECT_TRUE(is_valid_name(std::string(64, 'a')));
  EXPECT_FALSE(is_valid_name(std::string(65, 'a')));
  EXPECT_FALSE(is_valid_name(""));
  EXPECT_FALSE(is_valid_name("Code-Reviewer"));
  EXPECT_FALSE(is_valid_name("code reviewer"));
  EXPECT_FALSE(is_valid_name("code_reviewer"));
  EXPECT_FALSE(is_valid_name("-reviewer"));
  EXPECT_FALSE(is_valid_name("reviewer-"));
  EXPECT_FALSE(is_valid_name("r\xC3\xA9viseur"));
}

TEST(DefinitionFilesTest, TrimsBlankLinesAroundTheBody) {
  EXPECT_EQ(trimmed_body("\n\n  indented first\nsecond\n\n  \n"), "  indented first\nsecond");
  EXPECT_EQ(trimmed_body(" \n\t\n"), "");
  EXPECT_EQ(trimmed_body("x"), "x");
}

struct Named {
  std::string name;
  Origin origin;
  fs::path file;
};

TEST(DefinitionFilesTest, KeepsTheFirstOfEachNameAndReportsTwinsInOneFolder) {
  std::vector<Problem> problems;
  const auto kept = keep_first_of_each_name(
      std::vector<Named>{{"b", Origin::kProjectNib, "p/b.md"},
                         {"a", Origin::kProjectNib, "p/a.md"},
                         {"a", Origin::kProjectNib, "p/sub/a.md"},
                         {"a", Origin::kUserNib, "u/a.md"},
                         {"b", Origin::kBuiltin, ""}},
      [](const Named& named) -> const std::string& { return named.name; }, problems);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].file, "p/a.md");
  EXPECT_EQ(kept[1].file, "p/b.md");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].text(),
            "p/sub/a.md: \"a\" is also defined in p/a.md, which is used; rename one of them");
}

}  // namespace
}  // namespace nib::extensions
