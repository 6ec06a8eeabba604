#include "tools/path.hpp"

#include "core/call_access.hpp"
#include "util/user_places.hpp"

#include <gtest/gtest.h>

namespace nib::tools {
namespace {

namespace fs = std::filesystem;

const fs::path kCwd = "/work/project";
const fs::path kHome = "/home/ada";

TEST(ResolvePathTest, ExpandsTildeToHome) {
  EXPECT_EQ(resolve_path("~", kCwd, kHome), "/home/ada");
  EXPECT_EQ(resolve_path("~/", kCwd, kHome), "/home/ada");
  EXPECT_EQ(resolve_path("~/notes/todo.md", kCwd, kHome), "/home/ada/notes/todo.md");
  EXPECT_EQ(resolve_path("~/a/../b", kCwd, kHome), "/home/ada/b");
}

TEST(ResolvePathTest, LeavesOtherTildesAlone) {
  EXPECT_EQ(resolve_path("~bob/x", kCwd, kHome), "/work/project/~bob/x");
  EXPECT_EQ(resolve_path("a/~/b", kCwd, kHome), "/work/project/a/~/b");
  EXPECT_EQ(resolve_path("~", kCwd, ""), "/work/project/~");  // no home known
}

TEST(ResolvePathTest, TakesRelativePathsFromTheWorkingDirectory) {
  EXPECT_EQ(resolve_path("src/main.cpp", kCwd, kHome), "/work/project/src/main.cpp");
  EXPECT_EQ(resolve_path("./src//main.cpp", kCwd, kHome), "/work/project/src/main.cpp");
  EXPECT_EQ(resolve_path("../other/x", kCwd, kHome), "/work/other/x");
  EXPECT_EQ(resolve_path(".", kCwd, kHome), "/work/project/");
}

TEST(ResolvePathTest, KeepsAbsolutePathsNormalised) {
  EXPECT_EQ(resolve_path("/etc/hosts", kCwd, kHome), "/etc/hosts");
  EXPECT_EQ(resolve_path("/a/./b/../c", kCwd, kHome), "/a/c");
}

TEST(ResolvePathTest, UsesTheProcessDirectoryForAnEmptyCwd) {
  EXPECT_EQ(resolve_path("x.txt", "", kHome), (fs::current_path() / "x.txt").lexically_normal());
}

TEST(ResolvePathTest, DefaultsHomeToTheProcessHome) {
  EXPECT_EQ(resolve_path("~/x", kCwd), util::process_places().home / "x");
  EXPECT_TRUE(util::process_places().home.is_absolute());
}

TEST(DisplayPathTest, IsRelativeInsideTheWorkingDirectory) {
  EXPECT_EQ(display_path("/work/project/src/main.cpp", kCwd), "src/main.cpp");
  EXPECT_EQ(display_path("/work/project/src/", kCwd), "src");
  EXPECT_EQ(display_path("/work/project", kCwd), ".");
  EXPECT_EQ(display_path("/work/project/", "/work/project/"), ".");
}

TEST(DisplayPathTest, IsAbsoluteOutsideIt) {
  EXPECT_EQ(display_path("/work/other/x", kCwd), "/work/other/x");
  EXPECT_EQ(display_path("/work/projectile", kCwd), "/work/projectile");
  EXPECT_EQ(display_path("/", kCwd), "/");
}

TEST(DisplayPathTest, EscapesBytesThatAreNotUtf8) {
  EXPECT_EQ(display_path("/work/project/bad\xFF.txt", kCwd), "bad\\xff.txt");
  EXPECT_EQ(display_path("/elsewhere/\xC3(/x", kCwd), "/elsewhere/\\xc3(/x");
}

TEST(EscapeNameTest, KeepsUtf8AndEscapesEveryOtherByte) {
  EXPECT_EQ(escape_name("plain caf\xC3\xA9 \xE2\x80\xAF.png"),
            "plain caf\xC3\xA9 \xE2\x80\xAF.png");
  EXPECT_EQ(escape_name("\xFF\xFE"
                        "a\x80"),
            "\\xff\\xfea\\x80");
  EXPECT_EQ(escape_name("\xE2\x80"), "\\xe2\\x80");  // a sequence cut short
  EXPECT_EQ(escape_name("back\\slash"), "back\\slash");
}

TEST(UnescapeNameTest, TurnsTheEscapesOfBytesAbove7fBack) {
  EXPECT_EQ(unescape_name("bad\\xff.txt"), "bad\xFF.txt");
  EXPECT_EQ(unescape_name("\\xC3\\xa9"), "\xC3\xA9");
  EXPECT_EQ(unescape_name(escape_name("\xFF\xFE"
                                      "a\x80")),
            "\xFF\xFE"
            "a\x80");
  // Nothing to turn back: no escape, an ASCII escape (never produced), an incomplete one.
  EXPECT_EQ(unescape_name("plain.txt"), std::nullopt);
  EXPECT_EQ(unescape_name("a\\x41"), std::nullopt);
  EXPECT_EQ(unescape_name("a\\xf"), std::nullopt);
  EXPECT_EQ(unescape_name("a\\xfg"), std::nullopt);
}

TEST(FileClaimKeyTest, IsTheSameForEverySpellingOfAPath) {
  EXPECT_EQ(core::file_claim_key(resolve_path("src/x.cpp", kCwd, kHome)),
            core::file_claim_key(resolve_path("./src//x.cpp", kCwd, kHome)));
  EXPECT_EQ(core::file_claim_key("/a/b/"), core::file_claim_key("/a/b"));
  EXPECT_NE(core::file_claim_key("/a/b"), core::file_claim_key("/a/c"));
}

}  // namespace
}  // namespace nib::tools
