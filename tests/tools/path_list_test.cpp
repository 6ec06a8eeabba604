// Tests of the bounded sorted sample and of how a cut listing is rendered.

#include "tools/path_list.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/limits.hpp"

namespace nib::tools {
namespace {

using Strings = std::vector<std::string>;

TEST(SortedSampleTest, KeepsTheSmallestInOrderAndCountsAll) {
  SortedSample sample(3);
  for (const char* name : {"m", "c", "x", "a", "q", "b", "z", "d"}) sample.add(name);
  EXPECT_EQ(sample.total(), 8u);
  EXPECT_EQ(sample.take_sorted(), (Strings{"a", "b", "c"}));
}

TEST(SortedSampleTest, NeverKeepsMoreThanOneResultCanShow) {
  SortedSample sample(1'000'000);
  for (std::size_t i = 0; i < process::kMaxOutputLines + 50; ++i)
    sample.add(std::to_string(100000 + i));
  const Strings kept = sample.take_sorted();
  EXPECT_EQ(kept.size(), process::kMaxOutputLines);
  EXPECT_EQ(kept.front(), "100000");
  EXPECT_EQ(sample.total(), process::kMaxOutputLines + 50);
}

TEST(RenderListingTest, EverythingShownHasNoNote) {
  EXPECT_EQ(render_listing({"a", "b/"}, 2, 10, "matches", "narrow it"), "a\nb/\n");
}

TEST(RenderListingTest, NoteNamesWhatCutTheList) {
  EXPECT_EQ(render_listing({"a", "b"}, 5, 2, "entries", "narrow it"),
            "a\nb\n\n[Showing the first 2 of 5 entries (limit=2). Use a larger limit, or narrow "
            "it.]\n");
  EXPECT_EQ(render_listing(Strings(process::kMaxOutputLines, "x"), process::kMaxOutputLines + 1,
                           5000, "matches", "narrow it")
                .substr(2 * process::kMaxOutputLines),
            "\n[Showing the first 2000 of 2001 matches (2000-line output limit). Narrow it.]\n");
  const std::string long_line(1000, 'n');
  const std::string text =
      render_listing(Strings(100, long_line), 100, 100, "matches", "narrow it");
  EXPECT_LE(text.size(), process::kMaxOutputBytes + 200);
  EXPECT_NE(text.find("[Showing the first 51 of 100 matches (50 KB output limit). Narrow it.]"),
            std::string::npos);
}

}  // namespace
}  // namespace nib::tools
