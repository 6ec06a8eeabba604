#include "extensions/file_includes.hpp"

#include <gtest/gtest.h>

#include "extensions/limits.hpp"
#include "support/temp_dir.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

TEST(FileIncludesTest, AppendsEachNamedFileOnceAfterTheText) {
  TempDir dir;
  dir.write("docs/style.md", "Use tabs.\n");
  dir.write("src/a.cpp", "int a;");
  const std::string text = "Follow @docs/style.md for @src/a.cpp, then @docs/style.md again.";
  EXPECT_EQ(include_files(text, dir.path()),
            text +
                "\n\n<file path=\"docs/style.md\">\nUse tabs.\n</file>"
                "\n\n<file path=\"src/a.cpp\">\nint a;\n</file>");
}

TEST(FileIncludesTest, TextWithoutIncludesIsUnchanged) {
  TempDir dir;
  for (const char* text :
       {"", "plain text", "mail me at user@example.com", "@", "@@twice", "a lone @ sign"}) {
    EXPECT_EQ(include_files(text, dir.path()), text);
  }
}

TEST(FileIncludesTest, TrailingPunctuationIsNotPartOfThePath) {
  TempDir dir;
  dir.write("notes.md", "n\n");
  dir.write("v1.", "odd but real\n");
  EXPECT_EQ(include_files("See @notes.md.", dir.path()),
            "See @notes.md.\n\n<file path=\"notes.md\">\nn\n</file>");
  EXPECT_EQ(include_files("(see @notes.md), ok", dir.path()),
            "(see @notes.md), ok\n\n<file path=\"notes.md\">\nn\n</file>");
  EXPECT_EQ(include_files("Read @v1.", dir.path()),
            "Read @v1.\n\n<file path=\"v1.\">\nodd but real\n</file>");
}

TEST(FileIncludesTest, CodeIsLeftAlone) {
  TempDir dir;
  dir.write("decorator", "should not be included\n");
  const std::string text =
      "Use `@decorator` here.\n"
      "```python\n"
      "@decorator\n"
      "def f(): pass\n"
      "```\n"
      "~~~\n@decorator\n~~~\n"
      "``code with ` @decorator``\n";
  EXPECT_EQ(include_files(text, dir.path()), text);
}

TEST(FileIncludesTest, MissingFilesAndDirectoriesGetMarkers) {
  TempDir dir;
  dir.write("src/a.cpp", "int a;\n");
  EXPECT_EQ(include_files("Look at @src/missing.cpp and @src.", dir.path()),
            "Look at @src/missing.cpp and @src."
            "\n\n[@src/missing.cpp: not included: no such file in the working directory]"
            "\n\n[@src: not included: it is a directory; name a file]");
}

TEST(FileIncludesTest, OnlyFilesInsideTheWorkingDirectory) {
  TempDir dir;
  dir.write("secret.txt", "outside\n");
  dir.write("work/inside.txt", "inside\n");
  const fs::path work = dir.path() / "work";
  fs::create_symlink(dir.path() / "secret.txt", work / "link.txt");
  const std::string absolute_inside = (work / "inside.txt").string();
  const std::string absolute_outside = (dir.path() / "secret.txt").string();
  const std::string expanded =
      include_files("@../secret.txt @link.txt @" + absolute_outside + " @" + absolute_inside, work);
  EXPECT_NE(expanded.find("[@../secret.txt: not included: it is outside the working directory; "
                          "only files under it are included]"),
            std::string::npos);
  EXPECT_NE(expanded.find("[@link.txt: not included: it is outside"), std::string::npos);
  EXPECT_NE(expanded.find("[@" + absolute_outside + ": not included: it is outside"),
            std::string::npos);
  EXPECT_NE(expanded.find("<file path=\"" + absolute_inside + "\">\ninside\n</file>"),
            std::string::npos);
  EXPECT_EQ(expanded.find("outside\n"), std::string::npos);
}

TEST(FileIncludesTest, BinaryAndInvalidUtf8) {
  TempDir dir;
  dir.write("image.png", std::string("\x89PNG\r\n\x1A\n\0\0\0\x0DIHDR", 16));
  dir.write("latin1.txt", "caf\xE9\n");
  EXPECT_EQ(include_files("@image.png @latin1.txt", dir.path()),
            "@image.png @latin1.txt"
            "\n\n[@image.png: not included: it is not a text file]"
            "\n\n<file path=\"latin1.txt\">\ncaf\xEF\xBF\xBD\n</file>");
}

TEST(FileIncludesTest, BigFilesAreCutAndTheTotalIsBounded) {
  TempDir dir;
  // 128 KB of ten-byte lines: 6553 whole lines and 6 bytes of line 6554 fit in 64 KB.
  std::string lines;
  while (lines.size() < 2 * kMaxIncludeBytes) lines += "012345678\n";
  dir.write("big.log", lines);
  std::string expanded = include_files("@big.log", dir.path());
  EXPECT_NE(expanded.find(lines.substr(0, kMaxIncludeBytes) +
                          "\n… [65,544 more bytes; big.log is 128 KB; only the first 64 KB are "
                          "included; read the rest with the read tool, offset=6554]\n</file>"),
            std::string::npos)
      << expanded.substr(expanded.size() - 200);
  EXPECT_LT(expanded.size(), kMaxIncludeBytes + 200);

  // Five files of 64 KB: four fill the 256 KB budget, the fifth is named only.
  std::string text;
  for (int i = 0; i < 5; ++i) {
    dir.write("f" + std::to_string(i), std::string(kMaxIncludeBytes, 'a' + i));
    text += " @f" + std::to_string(i);
  }
  expanded = include_files(text, dir.path());
  EXPECT_LE(expanded.size(), kMaxIncludedBytes + 1000);
  EXPECT_NE(expanded.find("<file path=\"f3\">"), std::string::npos);
  EXPECT_NE(expanded.find("[@f4: not included: the files before it reached 256 KB; read it with "
                          "the read tool]"),
            std::string::npos);
}

TEST(FileIncludesTest, InvalidBytesCountAsTheirReplacementTowardsTheCut) {
  TempDir dir;
  // Each invalid byte becomes three (U+FFFD): the cut still holds the text to 64 KB.
  dir.write("latin1.txt", std::string(kMaxIncludeBytes, '\xE9'));
  const std::string expanded = include_files("@latin1.txt", dir.path());
  EXPECT_LT(expanded.size(), kMaxIncludeBytes + 300);
  EXPECT_NE(expanded.find("only the first 64 KB are included"), std::string::npos);
}

TEST(FileIncludesTest, AMultiByteCharacterIsNotSplitAtTheCut) {
  TempDir dir;
  // "é" (two bytes) straddles the cut.
  dir.write("wide.txt", std::string(kMaxIncludeBytes - 1, 'x') + "\xC3\xA9" + "tail");
  const std::string expanded = include_files("@wide.txt", dir.path());
  EXPECT_NE(expanded.find(std::string(kMaxIncludeBytes - 1, 'x') +
                          "\n… [6 more bytes; wide.txt is 64 KB; only the first 64 KB"),
            std::string::npos);
  EXPECT_EQ(expanded.find("\xEF\xBF\xBD"), std::string::npos);
}

}  // namespace
}  // namespace nib::extensions
