#include "app/project_instructions.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"
#include "util/utf8.hpp"

namespace nib::app {
namespace {

using testing::TempDir;

std::vector<std::string> names(const std::vector<InstructionFile>& files,
                               const std::filesystem::path& base) {
  std::vector<std::string> out;
  for (const auto& file : files) out.push_back(file.path.lexically_relative(base).string());
  return out;
}

TEST(ProjectInstructionsTest, LayersFromTheRepositoryTopDownToTheWorkingDirectory) {
  TempDir dir;
  dir.write("global/AGENTS.md", "global rules\n");
  dir.write("repo/.git/HEAD", "ref: refs/heads/main\n");
  dir.write("repo/AGENTS.md", "repo rules\n");
  dir.write("repo/CLAUDE.md", "ignored: AGENTS.md wins in the same directory\n");
  dir.write("repo/src/CLAUDE.md", "src rules\n");
  dir.write("repo/src/app/main.c", "int main;\n");
  dir.write("AGENTS.md", "outside the repository: not read\n");
  const auto files = find_instruction_files(dir.path() / "global", dir.path() / "repo/src/app");
  EXPECT_EQ(names(files, dir.path()),
            (std::vector<std::string>{"global/AGENTS.md", "repo/AGENTS.md", "repo/src/CLAUDE.md"}));
  EXPECT_EQ(files[1].content, "repo rules\n");

  const std::string section = instructions_section(files);
  EXPECT_LT(section.find("global rules"), section.find("repo rules"));
  EXPECT_LT(section.find("repo rules"), section.find("src rules"));
  EXPECT_NE(section.find("## " + (dir.path() / "repo/AGENTS.md").string()), std::string::npos);
}

TEST(ProjectInstructionsTest, OutsideARepositoryOnlyTheWorkingDirectoryCounts) {
  TempDir dir;
  dir.write("AGENTS.md", "parent\n");
  dir.write("work/AGENTS.md", "here\n");
  const auto files = find_instruction_files({}, dir.path() / "work");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].content, "here\n");
}

TEST(ProjectInstructionsTest, NoFilesNoSection) {
  TempDir dir;
  EXPECT_TRUE(find_instruction_files(dir.path() / "none", dir.path()).empty());
  EXPECT_EQ(instructions_section({}), "");
}

TEST(ProjectInstructionsTest, AHugeFileIsCut) {
  TempDir dir;
  dir.write("AGENTS.md", std::string(kMaxInstructionFileBytes + 5000, 'x'));
  const auto files = find_instruction_files({}, dir.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_LT(files[0].content.size(), kMaxInstructionFileBytes + 100);
  EXPECT_EQ(files[0].content, std::string(kMaxInstructionFileBytes, 'x') +
                                  "… [5,000 more bytes; an instruction file is cut at 64 KB]");
}

TEST(ProjectInstructionsTest, TheCutEndsOnAWholeCharacter) {
  TempDir dir;
  // "€" is three bytes: the one that starts at byte 65,535 would be split by a byte cut.
  std::string text(kMaxInstructionFileBytes - 1, 'x');
  for (int i = 0; i < 10; ++i) text += "€";
  dir.write("AGENTS.md", text);
  const auto files = find_instruction_files({}, dir.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].content, std::string(kMaxInstructionFileBytes - 1, 'x') +
                                  "… [30 more bytes; an instruction file is cut at 64 KB]");
  EXPECT_TRUE(util::is_valid_utf8(files[0].content));
}

}  // namespace
}  // namespace nib::app
