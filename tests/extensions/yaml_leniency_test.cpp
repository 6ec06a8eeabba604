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

// Anthropic's agents write their <example> blocks at the left edge inside the description.
TEST(YamlLeniencyTest, FoldsAValueThatRunsOnAtTheLeftEdgeIntoALiteralBlock) {
  const std::optional<RewrittenYaml> folded = fold_unindented_continuations(
      "name: a\n"
      "description: Use it when asked. Examples:\n"
      "\n"
      "<example>\n"
      "user: \"Review\"\n"
      "  indented: kept\n"
      "</example>\n"
      "\n"
      "model: sonnet\n");
  ASSERT_TRUE(folded);
  EXPECT_EQ(folded->text,
            "name: a\n"
            "description: |2-\n"
            "  Use it when asked. Examples:\n"
            "\n"
            "  <example>\n"
            "  user: \"Review\"\n"
            "    indented: kept\n"
            "  </example>\n"
            "\n"
            "model: sonnet\n");
  // The value moved down a line: later lines are the front matter's one line up.
  EXPECT_EQ(folded->added_lines, std::vector<int>{2});
  EXPECT_EQ(folded->original_line(1), 1);
  EXPECT_EQ(folded->original_line(2), 1);
  EXPECT_EQ(folded->original_line(3), 2);
  EXPECT_EQ(folded->original_line(9), 8);
}

TEST(YamlLeniencyTest, QuotesOnTheKeyLineAreNotPartOfTheFoldedText) {
  // Quoted whole on the key line: YAML's reading of it, then the lines as written.
  EXPECT_EQ(fold_unindented_continuations("description: 'It''s: here'\nmore\n")->text,
            "description: |2-\n  It's: here\n  more\n");
  // A quote opened on the key line and closed at the end of the last line.
  EXPECT_EQ(fold_unindented_continuations("description: \"Say \"hi\".\n<example>\"\nname: a")->text,
            "description: |2-\n  Say \"hi\".\n  <example>\nname: a");
}

// Every key a format reads starts a field of its own rather than running on the value above.
TEST(YamlLeniencyTest, TheKeysNibReadsEndAValueThatRunsOn) {
  for (const char* key : {"name", "description", "tools", "disallowedTools", "model", "thinking",
                          "effort", "maxTurns", "skills", "argument-hint", "allowed-tools",
                          "disable-model-invocation", "user-invocable"}) {
    const std::string yaml = "color: a\nb\n" + std::string(key) + ": x\n";
    const std::optional<RewrittenYaml> folded = fold_unindented_continuations(yaml);
    ASSERT_TRUE(folded) << key;
    EXPECT_EQ(folded->text, "color: |2-\n  a\n  b\n" + std::string(key) + ": x\n") << key;
  }
  // Under a value that runs on, a key Claude Code does not document is text of that value.
  EXPECT_EQ(fold_unindented_continuations("description: a\n<example>\nauthor: b\n")->text,
            "description: |2-\n  a\n  <example>\n  author: b\n");
}

TEST(YamlLeniencyTest, LeavesAloneWhatDoesNotRunOn) {
  // Indented lines are YAML's own continuation; nothing runs on at the left edge.
  EXPECT_FALSE(fold_unindented_continuations("description: a\n  b: c\nmodel: x\n"));
  // An empty value (a list at the left edge is YAML's), a block, a list, a mapping, an anchor.
  for (const char* yaml :
       {"tools:\n- Read\n- Grep\n", "description: |\n  a\nb\n", "tools: [Read,\nGrep]\n",
        "hooks: {a: b,\nc: d}\n", "description: &d a\nb\n"}) {
    EXPECT_FALSE(fold_unindented_continuations(yaml)) << yaml;
  }
  // Lines before the first key belong to no key.
  EXPECT_FALSE(fold_unindented_continuations("stray\nname: a\n"));
  // Keys, list items and comments alone are YAML, which may be broken some other way.
  EXPECT_FALSE(fold_unindented_continuations("name: a\nx:\n  y: 1\n\tz: 2\n# note\n- item\n"));
}

TEST(YamlLeniencyTest, ReadingsQuoteFirstThenFoldThenBoth) {
  const std::string yaml = "argument-hint: [a] [b]\ndescription: d\nmore\n";
  const std::vector<RewrittenYaml> readings = lenient_readings(yaml);
  ASSERT_EQ(readings.size(), 3u);
  EXPECT_EQ(readings[0].text, "argument-hint: '[a] [b]'\ndescription: d\nmore\n");
  EXPECT_TRUE(readings[0].added_lines.empty());
  EXPECT_EQ(readings[1].text, "argument-hint: [a] [b]\ndescription: |2-\n  d\n  more\n");
  EXPECT_EQ(readings[2].text, "argument-hint: '[a] [b]'\ndescription: |2-\n  d\n  more\n");
  EXPECT_EQ(readings[2].added_lines, std::vector<int>{2});
  EXPECT_TRUE(lenient_readings("name: a\ntools: [Read\n").empty());
}

}  // namespace
}  // namespace nib::extensions
