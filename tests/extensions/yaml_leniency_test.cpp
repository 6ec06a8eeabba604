#include "extensions/yaml_leniency.hpp"

#include <gtest/gtest.h>

namespace nib::extensions {
namespace {

TEST(YamlLeniencyTest, QuotesOnlyTheValuesYamlCannotParse) {
  EXPECT_EQ(quote_unparseable_values("name: a\nargument-hint: [issue] [priority]\ntools: [Read]\n"),
            "name: a\nargument-hint: '[issue] [priority]'\ntools: [Read]\n");
  EXPECT_EQ(quote_unparseable_values("description: Use when: it's asked  "),
            "description: 'Use when: it''s asked'");
  EXPECT_EQ(quote_unparseable_values("a: @x\nb: `y`"), "a: '@x'\nb: '`y`'");
}

TEST(YamlLeniencyTest, LeavesAloneWhatQuotingCannotMend) {
  // Nothing to quote: the YAML is broken elsewhere, or not at all.
  EXPECT_FALSE(quote_unparseable_values("name: a\ntools: [Read, Grep]\n"));
  // A list left open for later lines, a quoted value, a block, an anchor, an alias, a tag.
  for (const char* yaml : {"tools: [Read, Grep\n  Bash]", "a: \"x: y", "a: 'x' y: z", "a: | x: y",
                           "a: > x: y", "a: &anchor x: y", "a: *alias x: y", "a: !tag x: y"}) {
    EXPECT_FALSE(quote_unparseable_values(yaml)) << yaml;
  }
  // Indented lines, list items, comments and lines without ": " are not top-level values.
  EXPECT_FALSE(quote_unparseable_values("a:\n  b: c: d\n- e: f: g\n# h: i: j\nk:l: m"));
}

}  // namespace
}  // namespace nib::extensions
