#include "extensions/front_matter.hpp"

#include <gtest/gtest.h>

#include "extensions/limits.hpp"
#include "support/temp_dir.hpp"

namespace nib::extensions {
namespace {

using nlohmann::json;

MarkdownDocument parsed(std::string_view text) {
  MarkdownParse parse = parse_markdown(text, "agents/a.md");
  EXPECT_TRUE(parse.document) << parse.problem.text();
  return parse.document ? *parse.document : MarkdownDocument{};
}

Problem problem_of(std::string_view text) {
  MarkdownParse parse = parse_markdown(text, "agents/a.md");
  EXPECT_FALSE(parse.document);
  return parse.problem;
}

TEST(FrontMatterTest, SplitsKeysFromTheBody) {
  const MarkdownDocument document = parsed(
      "---\n"
      "name: reviewer\n"
      "description: \"Reviews: diffs\"\n"
      "tools:\n"
      "  - Read\n"
      "  - Grep\n"
      "---\n"
      "You review code.\n");
  ASSERT_TRUE(document.front_matter);
  ASSERT_EQ(document.front_matter->fields.size(), 3u);
  EXPECT_EQ(document.front_matter->fields[0].key, "name");
  EXPECT_EQ(document.front_matter->fields[0].value, "reviewer");
  EXPECT_EQ(document.front_matter->fields[0].line, 2);
  EXPECT_EQ(document.front_matter->find("description")->value, "Reviews: diffs");
  EXPECT_EQ(document.front_matter->find("tools")->value, json::array({"Read", "Grep"}));
  EXPECT_EQ(document.front_matter->find("tools")->line, 4);
  EXPECT_EQ(document.front_matter->find("model"), nullptr);
  EXPECT_EQ(document.body, "You review code.\n");
  EXPECT_EQ(document.body_line, 8);
  EXPECT_TRUE(document.notes.empty());
}

TEST(FrontMatterTest, ScalarsStayTheirTextAndEmptyValuesAreNull) {
  const MarkdownDocument document = parsed(
      "---\n"
      "count: 42\n"
      "flag: true\n"
      "level: off\n"
      "quoted: 'null'\n"
      "empty:\n"
      "tilde: ~\n"
      "block: |\n"
      "  first\n"
      "  second\n"
      "folded: >\n"
      "  one\n"
      "  two\n"
      "nested: {a: [1, {b: c}]}\n"
      "---\n");
  const FrontMatter& fm = *document.front_matter;
  EXPECT_EQ(fm.find("count")->value, "42");
  EXPECT_EQ(fm.find("flag")->value, "true");
  EXPECT_EQ(fm.find("level")->value, "off");
  EXPECT_EQ(fm.find("quoted")->value, "null");
  EXPECT_TRUE(fm.find("empty")->value.is_null());
  EXPECT_TRUE(fm.find("tilde")->value.is_null());
  EXPECT_EQ(fm.find("block")->value, "first\nsecond\n");
  EXPECT_EQ(fm.find("folded")->value, "one two\n");
  EXPECT_EQ(fm.find("nested")->value, json::parse(R"({"a": ["1", {"b": "c"}]})"));
  EXPECT_EQ(document.body, "");
}

TEST(FrontMatterTest, AFileWithoutFrontMatterIsAllBody) {
  const MarkdownDocument document = parsed("Review $ARGUMENTS.\n---\nmore\n");
  EXPECT_FALSE(document.front_matter);
  EXPECT_EQ(document.body, "Review $ARGUMENTS.\n---\nmore\n");
  EXPECT_EQ(document.body_line, 1);
  EXPECT_FALSE(parsed("").front_matter);
  EXPECT_FALSE(parsed("--- not a delimiter\n---\n").front_matter);
}

TEST(FrontMatterTest, AnEmptyFrontMatterIsPresentWithNoFields) {
  const MarkdownDocument document = parsed("---\n---\nbody");
  ASSERT_TRUE(document.front_matter);
  EXPECT_TRUE(document.front_matter->fields.empty());
  EXPECT_EQ(document.body, "body");
  EXPECT_EQ(document.body_line, 3);
  // A file that is only the front matter, without a newline after the closing line.
  EXPECT_TRUE(parsed("---\nname: a\n---").front_matter);
}

TEST(FrontMatterTest, CrlfByteOrderMarkAndTrailingBlanksOnDelimiters) {
  const MarkdownDocument document = parsed(
      "\xEF\xBB\xBF---  \r\nname: a\r\ndescription: |\r\n  two\r\n  lines\r\n--- \r\n"
      "Body\r\nline\r\n");
  ASSERT_TRUE(document.front_matter);
  EXPECT_EQ(document.front_matter->find("name")->value, "a");
  EXPECT_EQ(document.front_matter->find("description")->value, "two\nlines\n");
  EXPECT_EQ(document.body, "Body\nline\n");
  EXPECT_EQ(document.body_line, 7);
}

TEST(FrontMatterTest, BadYamlNamesTheFileLine) {
  // yaml-cpp reports the unclosed list where it gave up: the line after it (line 3).
  Problem problem = problem_of("---\ntools: [Read, Grep\nname: a\n---\nbody\n");
  EXPECT_EQ(problem.file, "agents/a.md");
  EXPECT_EQ(problem.line, 3);
  EXPECT_NE(problem.message.find("front matter is not valid YAML"), std::string::npos);

  // A continuation line YAML cannot read, under a value it can: the error stands.
  problem = problem_of("---\nname: a\ndescription: b\n  c: d\n---\n");
  EXPECT_EQ(problem.text(), "agents/a.md:4: front matter is not valid YAML: illegal map value");

  // A tab where YAML wants spaces, four lines down, after a BOM and with CRLF.
  problem = problem_of("\xEF\xBB\xBF---\r\nname: a\r\nx:\r\n  y: 1\r\n\tz: 2\r\n---\r\n");
  EXPECT_EQ(problem.line, 5);
}

TEST(FrontMatterTest, PlainValuesStrictYamlRefusesAreReadAsWritten) {
  // Claude Code's documented argument-hint, a ": " and an "@" inside plain values.
  const MarkdownDocument document = parsed(
      "---\n"
      "argument-hint: [issue-number] [priority]\n"
      "description: Use it when: the user asks. Examples: <example>Context: x</example>\n"
      "model: @fast it's\n"
      "tools: [Read, Grep]\n"
      "---\n"
      "Body.\n");
  const FrontMatter& fm = *document.front_matter;
  EXPECT_EQ(fm.find("argument-hint")->value, "[issue-number] [priority]");
  EXPECT_EQ(fm.find("argument-hint")->line, 2);
  EXPECT_EQ(fm.find("description")->value,
            "Use it when: the user asks. Examples: <example>Context: x</example>");
  EXPECT_EQ(fm.find("model")->value, "@fast it's");
  // Values YAML reads are left to it.
  EXPECT_EQ(fm.find("tools")->value, json::array({"Read", "Grep"}));
  EXPECT_TRUE(document.notes.empty());
}

// Anthropic's agents (agent-creator, code-simplifier) write their examples at the left edge
// inside the description; Claude Code reads all of it, up to the next key, as the description.
TEST(FrontMatterTest, ADescriptionRunningOnAtTheLeftEdgeIsReadWhole) {
  const MarkdownDocument document = parsed(
      "---\n"
      "name: agent-creator\n"
      "description: Use this agent when the user asks to \"create an agent\". Examples:\n"
      "\n"
      "<example>\n"
      "Context: The user wants a code review agent\n"
      "user: \"Create an agent that reviews code\"\n"
      "</example>\n"
      "\n"
      "model: sonnet\n"
      "argument-hint: [name] [purpose]\n"
      "tools: [\"Read\", \"Write\"]\n"
      "---\n"
      "Body.\n");
  const FrontMatter& fm = *document.front_matter;
  EXPECT_EQ(fm.find("description")->value,
            "Use this agent when the user asks to \"create an agent\". Examples:\n"
            "\n"
            "<example>\n"
            "Context: The user wants a code review agent\n"
            "user: \"Create an agent that reviews code\"\n"
            "</example>");
  EXPECT_EQ(fm.find("description")->line, 3);
  EXPECT_EQ(fm.find("model")->value, "sonnet");
  EXPECT_EQ(fm.find("model")->line, 10);  // the file's line, not the rewritten YAML's
  EXPECT_EQ(fm.find("argument-hint")->value, "[name] [purpose]");
  EXPECT_EQ(fm.find("tools")->value, json::array({"Read", "Write"}));
  EXPECT_EQ(fm.find("tools")->line, 12);
  EXPECT_EQ(fm.find("Context"), nullptr);
  EXPECT_EQ(fm.find("user"), nullptr);
  EXPECT_EQ(document.body, "Body.\n");
  EXPECT_EQ(document.body_line, 14);
}

TEST(FrontMatterTest, WhenLeniencyDoesNotHelpStrictYamlsErrorIsReported) {
  // The description runs on, and a list is left open: the first error names the line.
  Problem problem = problem_of(
      "---\nname: a\ndescription: Use it. Examples:\n<example>\nx\n</example>\n"
      "tools: [Read, Grep\n---\n");
  EXPECT_EQ(problem.text(), "agents/a.md:3: front matter is not valid YAML: illegal map value");
  // A key given twice in the folded front matter is named at the file's line.
  problem = problem_of("---\nname: a\ndescription: d:\nmore\n\nname: b\n---\n");
  EXPECT_EQ(problem.text(), "agents/a.md:6: name: given twice (first on line 2); keep one");
}

TEST(FrontMatterTest, UnclosedFrontMatterIsAProblem) {
  const Problem problem = problem_of("---\nname: a\ndescription: b\n\nThe body.\n");
  EXPECT_EQ(problem.line, 1);
  EXPECT_NE(problem.message.find("no closing \"---\" line"), std::string::npos);
}

TEST(FrontMatterTest, FrontMatterMustBeAMapping) {
  EXPECT_NE(problem_of("---\n- a\n- b\n---\n").message.find("not a list"), std::string::npos);
  EXPECT_NE(problem_of("---\njust text\n---\n").message.find("not a single value"),
            std::string::npos);
  EXPECT_NE(problem_of("---\n? [a, b]\n: c\n---\n").message.find("plain names"), std::string::npos);
}

TEST(FrontMatterTest, AKeyGivenTwiceIsAProblemAtTheSecond) {
  const Problem problem = problem_of("---\nname: a\ntools: Read\nname: b\n---\n");
  EXPECT_EQ(problem.line, 4);
  EXPECT_EQ(problem.message, "name: given twice (first on line 2); keep one");
}

TEST(FrontMatterTest, AliasesAreExpandedWithinTheLimit) {
  const MarkdownDocument document = parsed("---\nbase: &tools [Read, Grep]\ntools: *tools\n---\n");
  EXPECT_EQ(document.front_matter->find("tools")->value, json::array({"Read", "Grep"}));

  // Each level multiplies by ten: 10^5 values from six short lines.
  std::string bomb = "---\na: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char level = 'b'; level <= 'e'; ++level) {
    const std::string previous(1, static_cast<char>(level - 1));
    bomb += std::string(1, level) + ": &" + level + " [";
    for (int i = 0; i < 10; ++i) bomb += (i ? ", *" : "*") + previous;
    bomb += "]\n";
  }
  bomb += "---\n";
  const Problem problem = problem_of(bomb);
  EXPECT_NE(problem.message.find("holds more than 10000 values"), std::string::npos);
}

TEST(FrontMatterTest, DeepNestingIsAProblem) {
  std::string deep = "---\nkey: " + std::string(kMaxFrontMatterDepth + 5, '[') +
                     std::string(kMaxFrontMatterDepth + 5, ']') + "\n---\n";
  EXPECT_NE(problem_of(deep).message.find("nested more than"), std::string::npos);
  // Past yaml-cpp's own guard the parser refuses it.
  deep = "---\nkey: " + std::string(5000, '[') + "\n---\n";
  EXPECT_NE(problem_of(deep).message.find("nested too deeply"), std::string::npos);
}

TEST(FrontMatterTest, InvalidUtf8IsReplacedAndNoted) {
  const MarkdownDocument document =
      parsed("---\nname: a\ndescription: caf\xE9\n---\nline\nna\xEFve \xFF\n");
  EXPECT_EQ(document.front_matter->find("description")->value, "caf\xEF\xBF\xBD");
  EXPECT_EQ(document.body, "line\nna\xEF\xBF\xBDve \xEF\xBF\xBD\n");
  ASSERT_EQ(document.notes.size(), 1u);
  EXPECT_EQ(document.notes[0].line, 3);
  EXPECT_NE(document.notes[0].message.find("not valid UTF-8"), std::string::npos);
}

TEST(FrontMatterTest, ReadsFilesWithinTheSizeLimit) {
  testing::TempDir dir;
  const auto file = dir.write("a.md", "---\nname: a\n---\nbody\n");
  MarkdownParse parse = read_markdown(file);
  ASSERT_TRUE(parse.document);
  EXPECT_EQ(parse.document->body, "body\n");

  const auto big = dir.write("big.md", std::string(kMaxDefinitionFileBytes + 1, 'x'));
  parse = read_markdown(big);
  EXPECT_FALSE(parse.document);
  EXPECT_EQ(parse.problem.file, big);
  EXPECT_NE(parse.problem.message.find("larger than 256 KB"), std::string::npos);

  parse = read_markdown(dir.path() / "missing.md");
  EXPECT_FALSE(parse.document);
  EXPECT_NE(parse.problem.message.find("cannot be read"), std::string::npos);
}

}  // namespace
}  // namespace nib::extensions
