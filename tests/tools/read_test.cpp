// Tests of the read tool on text, binary and special files, and of the page reader beneath it.

#include "tools/read.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "core/schema_validator.hpp"
#include "core/tool_registry.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"
#include "support/tool_claims.hpp"
#include "tools/limits.hpp"
#include "tools/path.hpp"
#include "tools/text_page.hpp"
#include "util/user_places.hpp"
#include "util/utf8.hpp"

namespace nib::tools {
namespace {

using namespace std::string_literals;
using nlohmann::json;

using testing::contains;

// "line1\nline2\n...lineN\n"
std::string numbered_lines(std::size_t count, const std::string& prefix = "line") {
  std::string text;
  for (std::size_t i = 1; i <= count; ++i) text += prefix + std::to_string(i) + "\n";
  return text;
}

class ReadToolTest : public ::testing::Test {
 protected:
  core::ToolOutput read(json args, std::stop_token stop = {}) {
    return tool_->execute(args, stop, {"call-1", dir_.path()});
  }
  core::ToolOutput read_path(const std::string& path) { return read({{"path", path}}); }

  testing::TempDir dir_;
  std::shared_ptr<FileTracker> files_ = std::make_shared<FileTracker>();
  core::ToolPtr tool_ = make_read_tool(files_);
};

TEST_F(ReadToolTest, SpecDescribesTheRealLimits) {
  const auto& spec = tool_->spec();
  EXPECT_EQ(spec.name, "read");
  EXPECT_TRUE(spec.concurrency_safe);
  EXPECT_TRUE(contains(spec.description, std::to_string(process::kMaxOutputLines) + " lines"));
  EXPECT_TRUE(contains(spec.description, "50 KB"));
  EXPECT_TRUE(contains(spec.description, "Use offset=2001 to continue"));
  EXPECT_TRUE(contains(spec.description, "PNG, JPEG, GIF, WebP"));
  EXPECT_TRUE(contains(spec.description, "2000x2000 pixels"));
  const json& schema = spec.parameters;
  EXPECT_EQ(schema["required"], json::array({"path"}));
  EXPECT_EQ(schema["properties"]["path"]["type"], "string");
  EXPECT_EQ(schema["properties"]["offset"]["type"], "integer");
  EXPECT_EQ(schema["properties"]["offset"]["minimum"], 1);
  EXPECT_EQ(schema["properties"]["limit"]["minimum"], 1);
  // Closing it to unknown fields is the registry's policy, not each tool's.
  EXPECT_FALSE(schema.contains("additionalProperties"));
}

TEST_F(ReadToolTest, SchemaChecksTypesAndMinimumsAndTheRegistryRefusesExtraFields) {
  const auto compiled = core::CompiledSchema::compile(tool_->spec().parameters);
  ASSERT_TRUE(compiled.ok()) << compiled.error();
  const auto& schema = compiled.value();
  EXPECT_TRUE(schema->validate({{"path", "a"}, {"offset", 1}, {"limit", 5}}).empty());
  const auto registry = core::ToolRegistry::create({tool_}, {});
  ASSERT_TRUE(registry.ok()) << registry.error();
  const auto refused = registry.value()->find("read")->schema->validate(
      {{"path", "a"}, {"note", "extra"}});
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].message, "unknown property \"note\" (allowed: limit, offset, path)");
  EXPECT_FALSE(schema->validate(json::object()).empty());
  EXPECT_FALSE(schema->validate({{"path", 3}}).empty());
  EXPECT_FALSE(schema->validate({{"path", "a"}, {"offset", 0}}).empty());
  EXPECT_FALSE(schema->validate({{"path", "a"}, {"limit", "10"}}).empty());
}

TEST_F(ReadToolTest, ClaimsItsFileAsASharedResource) {
  const auto claims =
      testing::call_claims(*tool_, {{"path", "./a//b.txt"}}, {"call-1", dir_.path()});
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].key, core::file_claim_key(dir_.path() / "a/b.txt"));
  EXPECT_FALSE(claims[0].exclusive);
}

TEST_F(ReadToolTest, ReturnsAWholeSmallFileAsItIs) {
  dir_.write("a.txt", "alpha\n  beta\t\n\ngamma\n");
  const auto output = read_path("a.txt");
  EXPECT_FALSE(output.is_error);
  EXPECT_EQ(output.output, "alpha\n  beta\t\n\ngamma");
  EXPECT_FALSE(output.content);
}

TEST_F(ReadToolTest, RecordsTheStateOfWhatItShowed) {
  const auto path = dir_.write("a.txt", "alpha\nbeta\n");
  EXPECT_FALSE(files_->last_seen(resolve_file(path)));
  read({{"path", "a.txt"}, {"offset", 2}});  // a page is enough: the whole file's state counts
  struct stat info {};
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_EQ(files_->last_seen(resolve_file(path)), file_state(info, "alpha\nbeta\n"));
}

TEST_F(ReadToolTest, RecordsNothingForErrorsAndBinaryNotices) {
  const auto text = dir_.write("t.txt", "x\n");
  read({{"path", "t.txt"}, {"offset", 5}});
  EXPECT_FALSE(files_->last_seen(resolve_file(text)));
  const auto binary = dir_.write("data.bin", "abc\0def"s);
  read_path("data.bin");
  EXPECT_FALSE(files_->last_seen(resolve_file(binary)));
}

TEST_F(ReadToolTest, AcceptsAbsoluteAndHomePaths) {
  const auto file = dir_.write("abs.txt", "x\n");
  EXPECT_EQ(read_path(file.string()).output, "x");
  if (const auto home = util::process_places().home;
      !home.empty() && dir_.path().string().starts_with(home.string() + "/")) {
    EXPECT_EQ(read_path("~/" + file.lexically_relative(home).string()).output, "x");
  }
}

TEST_F(ReadToolTest, ReadsAFileWithoutATrailingNewline) {
  dir_.write("n.txt", "one\ntwo");
  EXPECT_EQ(read_path("n.txt").output, "one\ntwo");
  EXPECT_EQ(read({{"path", "n.txt"}, {"offset", 2}}).output, "two");
  const auto past = read({{"path", "n.txt"}, {"offset", 3}});
  EXPECT_TRUE(past.is_error);
  EXPECT_EQ(past.output,
            "Offset 3 is past the end of n.txt, which has 2 lines. Use an offset from 1 to 2.");
}

TEST_F(ReadToolTest, PagesWithOffsetAndLimit) {
  dir_.write("ten.txt", numbered_lines(10));
  EXPECT_EQ(read({{"path", "ten.txt"}, {"offset", 3}, {"limit", 2}}).output,
            "line3\nline4\n\n[Showing lines 3-4 of 10. Use offset=5 to continue.]");
  EXPECT_EQ(read({{"path", "ten.txt"}, {"offset", 9}, {"limit", 1}}).output,
            "line9\n\n[Showing line 9 of 10. Use offset=10 to continue.]");
  EXPECT_EQ(read({{"path", "ten.txt"}, {"limit", 10}}).output,
            numbered_lines(10).substr(0, numbered_lines(10).size() - 1));
  EXPECT_EQ(read({{"path", "ten.txt"}, {"offset", 9}, {"limit", 5}}).output, "line9\nline10");
  EXPECT_EQ(read({{"path", "ten.txt"}, {"offset", 10}}).output, "line10");
  EXPECT_EQ(read({{"path", "ten.txt"}, {"offset", 3.0}, {"limit", 1}}).output,
            "line3\n\n[Showing line 3 of 10. Use offset=4 to continue.]");
}

TEST_F(ReadToolTest, AnOffsetPastTheEndIsAnErrorNamingTheLineCount) {
  dir_.write("ten.txt", numbered_lines(10));
  const auto output = read({{"path", "ten.txt"}, {"offset", 11}});
  EXPECT_TRUE(output.is_error);
  EXPECT_EQ(
      output.output,
      "Offset 11 is past the end of ten.txt, which has 10 lines. Use an offset from 1 to 10.");
}

TEST_F(ReadToolTest, RejectsBadArguments) {
  dir_.write("x.txt", "x\n");
  EXPECT_EQ(read({{"path", "  "}}).output, "path is blank: give the file to read.");
  EXPECT_TRUE(read({{"path", ""}}).is_error);
  EXPECT_TRUE(read(json::object()).is_error);
  const auto zero = read({{"path", "x.txt"}, {"offset", 0}});
  EXPECT_TRUE(zero.is_error);
  EXPECT_EQ(zero.output, "offset must be a whole number >= 1, got 0.");
  EXPECT_TRUE(read({{"path", "x.txt"}, {"limit", -3}}).is_error);
  EXPECT_TRUE(read({{"path", "x.txt"}, {"limit", 1.5}}).is_error);
  EXPECT_TRUE(read({{"path", "x.txt"}, {"limit", "10"}}).is_error);
  // The tool itself reads only the fields it knows; refusing others is the registry's part.
  EXPECT_EQ(read({{"path", "x.txt"}, {"reason", "look"}}).output, "x");
}

TEST_F(ReadToolTest, StopsAtTheLineLimitAndSaysHowToGoOn) {
  dir_.write("long.txt", numbered_lines(2500));
  const auto first = read_path("long.txt");
  EXPECT_FALSE(first.is_error);
  EXPECT_TRUE(first.output.starts_with("line1\nline2\n"));
  EXPECT_TRUE(
      first.output.ends_with("line2000\n\n[Showing lines 1-2000 of 2500 (2000-line limit per "
                             "read). Use offset=2001 to continue.]"))
      << first.output.substr(first.output.size() - 200);
  const auto rest = read({{"path", "long.txt"}, {"offset", 2001}});
  EXPECT_TRUE(rest.output.starts_with("line2001\n"));
  EXPECT_TRUE(rest.output.ends_with("line2500"));
  // A limit above the cap is held to the cap.
  EXPECT_TRUE(contains(read({{"path", "long.txt"}, {"limit", 2400}}).output, "Use offset=2001"));
}

TEST_F(ReadToolTest, StopsAtTheByteLimitAtALineBoundary) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += std::string(999, 'a' + i % 26) + "\n";  // 1000 bytes a line
  dir_.write("wide.txt", text);
  const auto output = read_path("wide.txt");
  const std::string note =
      "\n\n[Showing lines 1-51 of 100 (50 KB limit per read). Use offset=52 to continue.]";
  ASSERT_TRUE(output.output.ends_with(note)) << output.output.substr(output.output.size() - 200);
  const std::string page = output.output.substr(0, output.output.size() - note.size());
  EXPECT_LE(page.size(), process::kMaxOutputBytes);
  EXPECT_EQ(page, text.substr(0, 51 * 1000 - 1));
}

TEST_F(ReadToolTest, ShowsCrlfLinesWithoutTheCarriageReturnAndSaysSoOnce) {
  dir_.write("dos.txt", "one\r\ntwo\r\n\r\nmid\rdle\r\nlast\r");
  EXPECT_EQ(read_path("dos.txt").output,
            "one\ntwo\n\nmid\rdle\nlast\r\n\n"
            "[This file has CRLF (\\r\\n) line ends; the text above shows them without the \\r. "
            "edit keeps them as they are; if you rewrite the file with write, put the \\r\\n "
            "back.]");
}

TEST_F(ReadToolTest, SaysHowManyLineEndsAreCrlfWhenTheyAreMixed) {
  dir_.write("mixed.txt", numbered_lines(3) + "four\r\nfive\r\nsix\n");
  const auto output = read({{"path", "mixed.txt"}, {"limit", 5}});
  EXPECT_TRUE(
      output.output.starts_with("line1\nline2\nline3\nfour\nfive\n\n[2 of the 5 line "
                                "ends shown are CRLF (\\r\\n), the others LF;"))
      << output.output;
  // The page's own note comes last, still telling where to go on.
  EXPECT_TRUE(output.output.ends_with("\n[Showing lines 1-5 of 6. Use offset=6 to continue.]"))
      << output.output;
  // A page without CRLF lines has no such note.
  EXPECT_EQ(read({{"path", "mixed.txt"}, {"limit", 2}}).output,
            "line1\nline2\n\n[Showing lines 1-2 of 6. Use offset=3 to continue.]");
}

TEST_F(ReadToolTest, DropsAByteOrderMark) {
  dir_.write("bom.txt", "\xEF\xBB\xBFhello\nworld\n");
  EXPECT_EQ(read_path("bom.txt").output, "hello\nworld");
}

TEST_F(ReadToolTest, SaysWhenAFileIsEmpty) {
  dir_.write("empty.txt", "");
  const auto output = read_path("empty.txt");
  EXPECT_FALSE(output.is_error);
  EXPECT_EQ(output.output, "[empty.txt is empty.]");
  EXPECT_FALSE(read({{"path", "empty.txt"}, {"offset", 1}}).is_error);
  const auto past = read({{"path", "empty.txt"}, {"offset", 2}});
  EXPECT_TRUE(past.is_error);
  EXPECT_EQ(past.output, "Offset 2 is past the end of empty.txt: the file is empty.");
}

TEST_F(ReadToolTest, CutsAHugeSingleLineAndSaysHowToSeeTheRest) {
  dir_.write("min.js", std::string(3 * 1024 * 1024, 'x') + "\nnext\n");
  const auto output = read_path("min.js");
  EXPECT_FALSE(output.is_error);
  const std::string expected =
      std::string(process::kMaxOutputBytes, 'x') +
      "\n\n[Line 1 is 3 MB, more than the 50 KB a result may hold; showing its first 51200 bytes. "
      "See more of it with bash: sed -n '1p' min.js | cut -b 51201-102400]\n"
      "[Showing line 1 of 2. Use offset=2 to continue.]";
  EXPECT_EQ(output.output, expected);
  EXPECT_EQ(read({{"path", "min.js"}, {"offset", 2}}).output, "next");
}

TEST_F(ReadToolTest, CutsALongLineOnlyAtACharacterBoundary) {
  for (const std::string& character : {"\xC3\xA9"s, "\xE2\x82\xAC"s, "\xF0\x9F\x98\x80"s}) {
    std::string line;
    while (line.size() < process::kMaxOutputBytes + 10) line += character;
    for (std::size_t shift = 0; shift < character.size(); ++shift) {
      dir_.write("multi.txt", std::string(shift, 'a') + line);
      const auto output = read_path("multi.txt");
      const std::string page = output.output.substr(0, output.output.find("\n\n[Line 1 is"));
      EXPECT_TRUE(util::is_valid_utf8(page));
      EXPECT_LE(page.size(), process::kMaxOutputBytes);
      EXPECT_GT(page.size(), process::kMaxOutputBytes - character.size());
      EXPECT_TRUE(
          contains(output.output, "showing its first " + std::to_string(page.size()) + " bytes"));
    }
  }
}

TEST_F(ReadToolTest, ShowsANoticeForBinaryFiles) {
  dir_.write("data.bin", "abc\0def"s);
  const auto output = read_path("data.bin");
  EXPECT_FALSE(output.is_error);
  EXPECT_EQ(output.output,
            "data.bin is a binary file (binary data, 7 bytes); its contents are not shown. To look "
            "inside it, try bash: xxd data.bin | head -n 32");
  dir_.write("prog",
             "\x7f"
             "ELF\x02\x01\x01"s +
                 std::string(5000, '\0'));
  EXPECT_TRUE(read_path("prog").output.starts_with(
      "prog is a binary file (ELF executable or shared library, 4.9 KB)"));
}

TEST_F(ReadToolTest, TreatsOtherEncodingsAtTheStartAsBinary) {
  dir_.write("latin1.txt", "caf\xE9 cr\xE8me\n");
  const auto output = read_path("latin1.txt");
  EXPECT_TRUE(contains(output.output, "is a binary file (text that is not UTF-8"));
  EXPECT_TRUE(contains(output.output, "iconv -f LATIN1 -t UTF-8 latin1.txt"));
}

TEST_F(ReadToolTest, ReplacesInvalidUtf8AfterTheFirstBlock) {
  const std::string start = numbered_lines(2000).substr(0, 9000);  // past the sniffed block
  const std::string head = start.substr(0, start.rfind('\n') + 1);
  dir_.write("mixed.txt", head + "bad \xFF\xFE here\n");
  const auto output = read_path("mixed.txt");
  EXPECT_FALSE(output.is_error);
  EXPECT_TRUE(output.output.ends_with("\nbad \xEF\xBF\xBD\xEF\xBF\xBD here"));
  EXPECT_TRUE(util::is_valid_utf8(output.output));
}

TEST_F(ReadToolTest, DoesNotMistakeACharacterCutByTheSniffedBlockForBinary) {
  std::string text(8191, 'a');
  text += "\xE2\x82\xAC and more\n";  // "€" straddles byte 8192
  dir_.write("edge.txt", text);
  const auto output = read_path("edge.txt");
  EXPECT_EQ(output.output, text.substr(0, text.size() - 1));
}

TEST_F(ReadToolTest, ReportsAMissingFileWithSuggestions) {
  dir_.write("docs/README.md", "hi\n");
  const auto output = read_path("docs/readme.md");
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(output.output.starts_with("File not found: docs/readme.md (looked for " +
                                        (dir_.path() / "docs/readme.md").string() + ")."));
  EXPECT_TRUE(contains(output.output, "Did you mean README.md?"));
  const auto gone = read_path("nowhere/x.txt");
  EXPECT_TRUE(gone.is_error);
  EXPECT_TRUE(contains(gone.output, "does not exist either"));
}

TEST_F(ReadToolTest, RefusesADirectoryAndPointsToLs) {
  std::filesystem::create_directory(dir_.path() / "src");
  const auto output = read_path("src");
  EXPECT_TRUE(output.is_error);
  EXPECT_EQ(output.output,
            "src is a directory, not a file. List it with the ls tool or with bash: ls -la src");
}

TEST_F(ReadToolTest, ReportsPermissionDenied) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads files whatever their mode";
  const auto file = dir_.write("secret.txt", "x\n");
  std::filesystem::permissions(file, std::filesystem::perms::none);
  const auto output = read_path("secret.txt");
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(output.output.starts_with("Permission denied: cannot read secret.txt."))
      << output.output;
}

TEST_F(ReadToolTest, RefusesAFifoWithoutBlocking) {
  const auto fifo = dir_.path() / "pipe";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // No writer ever opens the FIFO: opening it for reading would block forever.
  const auto output = read_path("pipe");
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(output.output.starts_with("pipe is a FIFO (named pipe), not a regular file"))
      << output.output;
}

TEST_F(ReadToolTest, RefusesADevice) {
  const auto output = read_path("/dev/zero");
  EXPECT_TRUE(output.is_error);
  EXPECT_TRUE(contains(output.output, "/dev/zero is a character device")) << output.output;
}

TEST_F(ReadToolTest, ReturnsAbortedWhenStoppedBeforeReading) {
  dir_.write("a.txt", "x\n");
  std::stop_source stop;
  stop.request_stop();
  const auto output = read({{"path", "a.txt"}}, stop.get_token());
  EXPECT_TRUE(output.is_error);
  EXPECT_EQ(output.output, "Aborted: reading a.txt was stopped.");
}

TEST_F(ReadToolTest, FindsLinesNearTheEndOfAFileWithMillionsOfLines) {
  constexpr std::size_t kLines = 5'000'000;
  const auto path = dir_.path() / "big.log";
  {
    std::string block;
    std::ofstream out(path, std::ios::binary);
    for (std::size_t i = 1; i <= kLines; ++i) {
      block += "L";
      block += std::to_string(i);
      block += '\n';
      if (block.size() > (1 << 20)) {
        out << block;
        block.clear();
      }
    }
    out << block;
  }
  const auto page = read({{"path", "big.log"}, {"offset", 4'000'000}, {"limit", 3}});
  EXPECT_EQ(page.output,
            "L4000000\nL4000001\nL4000002\n\n[Showing lines 4000000-4000002 of 5000000. Use "
            "offset=4000003 to continue.]");
  EXPECT_EQ(read({{"path", "big.log"}, {"offset", kLines - 1}}).output, "L4999999\nL5000000");
  EXPECT_TRUE(contains(read({{"path", "big.log"}, {"offset", kLines + 1}}).output,
                       "which has 5000000 lines"));
}

// The page reader on its own, over a fake source: chunk boundaries, stops and failures.
class TextPageTest : public ::testing::Test {
 protected:
  // A source serving `text`, calling `on_read` before every read.
  ReadAt source(
      std::string text, std::function<void()> on_read = [] {}) {
    return [text = std::move(text), on_read](char* buffer, std::size_t size,
                                             std::uint64_t offset) -> long {
      on_read();
      if (offset >= text.size()) return 0;
      const std::size_t count = std::min<std::size_t>(size, text.size() - offset);
      std::memcpy(buffer, text.data() + offset, count);
      return static_cast<long>(count);
    };
  }
};

TEST_F(TextPageTest, GivesTheSamePageWhateverTheChunkSize) {
  const std::string text = "\xEF\xBB\xBFone\r\ntwo\r\n\xE2\x82\xAC\xFF\nfour\r\nfive";
  for (const std::size_t chunk : {1, 2, 3, 5, 7, 64 * 1024}) {
    const TextPage page =
        read_text_page(source(text), {.offset = 2, .limit = 3, .chunk_bytes = chunk}, {});
    EXPECT_EQ(page.status, PageStatus::kOk);
    EXPECT_EQ(page.text, "two\n\xE2\x82\xAC\xEF\xBF\xBD\nfour") << "chunk " << chunk;
    EXPECT_EQ(page.first_line, 2u);
    EXPECT_EQ(page.last_line, 4u);
    EXPECT_EQ(page.total_lines, 5u);
    EXPECT_EQ(page.end, PageEnd::kLimit);
    EXPECT_TRUE(page.had_bom);
    EXPECT_EQ(page.crlf_lines, 2u) << "chunk " << chunk;  // "two" and "four"
    EXPECT_EQ(page.lf_lines, 1u) << "chunk " << chunk;
  }
}

TEST_F(TextPageTest, CutsAtACharacterBoundaryWithSmallLimits) {
  const std::string text = "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\nnext\n";  // "€€€"
  const TextPage page = read_text_page(source(text), {.max_bytes = 7, .chunk_bytes = 2}, {});
  EXPECT_EQ(page.text, "\xE2\x82\xAC\xE2\x82\xAC");
  EXPECT_EQ(page.end, PageEnd::kCutLine);
  EXPECT_EQ(page.cut_line_bytes, 9u);
  EXPECT_EQ(page.cut_shown_bytes, 6u);
  EXPECT_EQ(page.total_lines, 2u);
}

TEST_F(TextPageTest, CountsReplacementCharactersAgainstTheByteLimit) {
  // Four invalid bytes become twelve bytes of U+FFFD.
  const TextPage page = read_text_page(source("\xFF\xFF\xFF\xFF\n"), {.max_bytes = 7}, {});
  EXPECT_EQ(page.text, "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(page.cut_line_bytes, 4u);
  EXPECT_EQ(page.cut_shown_bytes, 2u);
}

TEST_F(TextPageTest, StopsBetweenChunks) {
  std::stop_source stop;
  int reads = 0;
  const auto on_read = [&] {
    if (++reads == 3) stop.request_stop();  // while the scan is under way
  };
  const TextPage page =
      read_text_page(source(numbered_lines(1000), on_read), {.chunk_bytes = 16}, stop.get_token());
  EXPECT_EQ(page.status, PageStatus::kAborted);
  EXPECT_EQ(reads, 3);  // the read after the stop request was the last
}

TEST_F(TextPageTest, ReportsReadErrors) {
  const ReadAt failing = [](char*, std::size_t, std::uint64_t) -> long {
    errno = EIO;
    return -1;
  };
  const TextPage page = read_text_page(failing, {}, {});
  EXPECT_EQ(page.status, PageStatus::kIoError);
  EXPECT_EQ(page.error_number, EIO);
}

TEST_F(TextPageTest, CountsALastLineWithoutNewline) {
  EXPECT_EQ(read_text_page(source("a\nb"), {}, {}).total_lines, 2u);
  EXPECT_EQ(read_text_page(source("a\nb\n"), {}, {}).total_lines, 2u);
  EXPECT_EQ(read_text_page(source("\n\n"), {}, {}).total_lines, 2u);
  EXPECT_EQ(read_text_page(source(""), {}, {}).total_lines, 0u);
  EXPECT_EQ(read_text_page(source("\xEF\xBB\xBF"), {}, {}).total_lines, 0u);
}

}  // namespace
}  // namespace nib::tools
