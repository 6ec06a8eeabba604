// The apply_patch format (tools/patch_text.hpp): parsing Codex's envelope, and applying an
// update's chunks to a file's text, pass by pass, with the file's own line ends.

#include "tools/patch_text.hpp"

#include <gtest/gtest.h>

#include <random>

namespace nib::tools {
namespace {

std::vector<PatchOperation> parsed(std::string_view patch) {
  auto operations = parse_patch(patch);
  EXPECT_TRUE(operations.ok()) << operations.error();
  return operations.ok() ? operations.value() : std::vector<PatchOperation>{};
}

std::string applied(std::string_view text, std::string_view patch) {
  const auto operations = parsed(patch);
  if (operations.size() != 1) return "(not one operation)";
  auto result = apply_chunks(text, operations[0].chunks, operations[0].path);
  return result.ok() ? result.value() : "(failed) " + result.error();
}

TEST(PatchParseTest, AddDeleteAndUpdateWithAMove) {
  const auto operations = parsed(
      "*** Begin Patch\n"
      "*** Add File: new.txt\n+one\n+two\n"
      "*** Delete File: old.txt\n"
      "*** Update File: src/a.py\n*** Move to: src/b.py\n@@ def f():\n-    return 1\n+    return "
      "2\n"
      "*** End Patch\n");
  ASSERT_EQ(operations.size(), 3u);
  EXPECT_EQ(operations[0].kind, PatchOperation::Kind::kAdd);
  EXPECT_EQ(operations[0].contents, "one\ntwo\n");
  EXPECT_EQ(operations[1].kind, PatchOperation::Kind::kDelete);
  EXPECT_EQ(operations[1].path, "old.txt");
  EXPECT_EQ(operations[2].move_to, "src/b.py");
  ASSERT_EQ(operations[2].chunks.size(), 1u);
  EXPECT_EQ(operations[2].chunks[0].context, "def f():");
  EXPECT_EQ(operations[2].line, 6u);
}

TEST(PatchParseTest, IsAsLenientAsCodex) {
  // Surrounding whitespace, CRLF, a heredoc, a first chunk without @@, empty lines as context.
  const auto operations = parsed(
      "<<'EOF'\r\n *** Begin Patch\r\n  *** Update File: a.txt  \r\n x\r\n\r\n-y\r\n+z\r\n"
      "*** End Patch \r\nEOF\r\n");
  ASSERT_EQ(operations.size(), 1u);
  EXPECT_EQ(operations[0].path, "a.txt");
  EXPECT_EQ(operations[0].chunks[0].old_lines, (std::vector<std::string>{"x", "", "y"}));
  EXPECT_EQ(operations[0].chunks[0].new_lines, (std::vector<std::string>{"x", "", "z"}));
}

TEST(PatchParseTest, MalformedEnvelopesSayWhatIsWrongAndWhere) {
  const auto error = [](std::string_view patch) {
    const auto result = parse_patch(patch);
    return result.ok() ? std::string("(parsed)") : result.error();
  };
  EXPECT_EQ(error("*** Update File: a\n"),
            "invalid patch: The first line of the patch must be '*** Begin Patch'");
  EXPECT_EQ(error("*** Begin Patch\n*** Delete File: a\n"),
            "invalid patch: The last line of the patch must be '*** End Patch'");
  EXPECT_EQ(error("*** Begin Patch\n*** Update File: a\n*** End Patch"),
            "invalid hunk at line 2, Update file hunk for path 'a' is empty");
  EXPECT_NE(error("*** Begin Patch\nhello\n*** End Patch")
                .find("invalid hunk at line 2, 'hello' is not a valid hunk header"),
            std::string::npos);
  EXPECT_NE(error("*** Begin Patch\n*** Update File: a\n@@\n?x\n*** End Patch")
                .find("invalid hunk at line 4, Unexpected line found in update hunk: '?x'"),
            std::string::npos);
  EXPECT_EQ(error("*** Begin Patch\n*** Update File: a\n@@ f\n x\n-y\nz\n*** End Patch"),
            "invalid hunk at line 6, Expected update hunk to start with a @@ context marker, got: "
            "'z'");
}

TEST(PatchApplyTest, ContextMatchesPassByPass) {
  const std::string patch =
      "*** Begin Patch\n*** Update File: a\n@@\n-value = \"old\"\n+value = \"new\"\n*** End Patch";
  EXPECT_EQ(applied("value = \"old\"\n", patch), "value = \"new\"\n");          // exact
  EXPECT_EQ(applied("value = \"old\"   \n", patch), "value = \"new\"\n");       // trailing space
  EXPECT_EQ(applied("    value = \"old\"\n", patch), "value = \"new\"\n");      // surrounding
  EXPECT_EQ(applied("value = \u201Cold\u201D\n", patch), "value = \"new\"\n");  // quotes
  EXPECT_EQ(
      applied("a \u2014 b\n", "*** Begin Patch\n*** Update File: a\n-a - b\n+c\n*** End Patch"),
      "c\n");
  EXPECT_EQ(applied("other\n", patch).substr(0, 39), "(failed) Failed to find expected lines ");
}

TEST(PatchApplyTest, SeveralChunksInOrderWithContextHeaders) {
  const std::string text = "def f():\n    return 1\n\ndef g():\n    return 1\n";
  EXPECT_EQ(
      applied(text,
              "*** Begin Patch\n*** Update File: a\n@@ def g():\n-    return 1\n+    return 2\n"
              "*** End Patch"),
      "def f():\n    return 1\n\ndef g():\n    return 2\n");
  EXPECT_EQ(
      applied(text,
              "*** Begin Patch\n*** Update File: a\n@@ def f():\n-    return 1\n+    return 0\n"
              "@@ def g():\n-    return 1\n+    return 2\n*** End Patch"),
      "def f():\n    return 0\n\ndef g():\n    return 2\n");
  EXPECT_EQ(
      applied(text, "*** Begin Patch\n*** Update File: a\n@@ def h():\n-x\n+y\n*** End Patch"),
      "(failed) Failed to find context 'def h():' in a");
}

TEST(PatchApplyTest, LineEndsAreTheFilesAndTheLastLineEndsWithOne) {
  const std::string patch = "*** Begin Patch\n*** Update File: a\n-b\n+B\n*** End Patch";
  EXPECT_EQ(applied("a\r\nb\r\nc\r\n", patch), "a\r\nB\r\nc\r\n");
  EXPECT_EQ(applied("a\r\nb\r\nc\n", patch), "a\r\nB\r\nc\r\n");  // the majority: CRLF
  EXPECT_EQ(applied("a\nb\nc", patch), "a\nB\nc\n");              // a missing final newline
  EXPECT_EQ(
      applied("a\nb\nb\n",
              "*** Begin Patch\n*** Update File: a\n-b\n+end\n*** End of File\n*** End Patch"),
      "a\nb\nend\n");
  EXPECT_EQ(applied("a\n", "*** Begin Patch\n*** Update File: a\n@@\n+b\n*** End Patch"), "a\nb\n");
}

// A random file, random edits of it written as a patch: applying the patch gives the edited file.
TEST(PatchApplyTest, RandomEditsAsAPatchGiveTheEditedFile) {
  std::mt19937 random(20261202);
  for (int round = 0; round < 200; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    std::vector<std::string> lines;
    const int count = 5 + static_cast<int>(random() % 40);
    for (int i = 0; i < count; ++i)
      lines.push_back("line " + std::to_string(i) + " " + std::to_string(random() % 1000));
    std::vector<std::string> edited;
    std::string patch = "*** Begin Patch\n*** Update File: f\n";
    std::size_t i = 0;
    while (i < lines.size()) {
      if (random() % 4 == 0) {
        // A chunk: one line of context, a line replaced, a line added.
        const std::size_t at = i;
        if (at + 1 >= lines.size()) break;
        patch += "@@\n " + lines[at] + "\n-" + lines[at + 1] + "\n+changed " + std::to_string(at) +
                 "\n+added " + std::to_string(at) + "\n";
        edited.push_back(lines[at]);
        edited.push_back("changed " + std::to_string(at));
        edited.push_back("added " + std::to_string(at));
        i = at + 2;
      } else {
        edited.push_back(lines[i]);
        ++i;
      }
    }
    while (i < lines.size()) edited.push_back(lines[i++]);
    patch += "*** End Patch\n";
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    std::string expected;
    for (const std::string& line : edited) expected += line + "\n";
    if (patch.find("@@") == std::string::npos) continue;  // no chunk drawn
    EXPECT_EQ(applied(text, patch), expected);
  }
}

}  // namespace
}  // namespace nib::tools
