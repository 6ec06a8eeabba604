#include "util/display_width.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <csignal>

#include "util/fd_io.hpp"
#include "util/utf8.hpp"

namespace nib::util {
namespace {

TEST(DisplayWidth, CountsWideAndZeroWidthCharacters) {
  EXPECT_EQ(display_width("abc"), 3u);
  EXPECT_EQ(display_width("日本"), 4u);
  EXPECT_EQ(display_width("e\u0301"), 1u);  // e + combining acute
  EXPECT_EQ(display_width("🎉"), 2u);
  EXPECT_EQ(display_width("\xff"), 1u);
  EXPECT_EQ(prefix_fitting("日本語", 5), 6u);  // two characters, four columns
}

TEST(Utf8, EncodeIsTheInverseOfDecode) {
  for (const char32_t codepoint : {U'a', U'é', U'語', U'🎉', char32_t{0x7F}, char32_t{0x10FFFF}}) {
    const std::string bytes = encode_utf8(codepoint);
    std::size_t length = 0;
    EXPECT_EQ(decode_utf8(bytes, 0, length), codepoint);
    EXPECT_EQ(length, bytes.size());
  }
  EXPECT_EQ(encode_utf8(U'€'), "\xE2\x82\xAC");
}

TEST(FdIo, WriteAllWritesEverythingOrSaysItFailed) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  EXPECT_TRUE(write_all(fds[1], "hello"));
  char buffer[8] = {};
  EXPECT_EQ(read(fds[0], buffer, sizeof buffer), 5);
  EXPECT_EQ(std::string(buffer, 5), "hello");
  close(fds[0]);
  signal(SIGPIPE, SIG_IGN);
  EXPECT_FALSE(write_all(fds[1], "nobody reads"));
  close(fds[1]);
}

}  // namespace
}  // namespace nib::util
