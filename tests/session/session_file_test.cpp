#include "session/session_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "session/history_repair.hpp"
#include "session/sample_messages.hpp"
#include "session/session_writer.hpp"
#include "support/temp_dir.hpp"

namespace nib::session {
namespace {

using testing::assistant_calling;
using testing::assistant_text_message;
using testing::ok_result;
using testing::results_message;
using testing::user_message;

SessionHeader sample_header() {
  return make_header(
      "/work/app", "gpt-x", "openai",
      std::chrono::system_clock::time_point(std::chrono::milliseconds(1748781296789)));
}

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

void append_raw(const std::filesystem::path& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::app);
  out << bytes;
}

class SessionFileTest : public ::testing::Test {
 protected:
  // Writes a session holding `messages` and returns its path.
  std::filesystem::path write_session(const std::vector<core::Message>& messages) {
    auto writer = SessionWriter::create(file_, header_);
    EXPECT_TRUE(writer.ok()) << writer.error();
    for (const auto& message : messages) {
      const util::Status status = writer.value().append(MessageEntry{message});
      EXPECT_TRUE(status.ok()) << status.error();
    }
    return file_;
  }

  LoadedSession load_ok() {
    auto loaded = load_session(file_);
    EXPECT_TRUE(loaded.ok()) << loaded.error();
    return loaded.ok() ? std::move(loaded.value()) : LoadedSession{};
  }

  nib::testing::TempDir dir_;
  std::filesystem::path file_ = dir_.path() / "session.jsonl";
  SessionHeader header_ = sample_header();
};

TEST(SessionHeaderTest, IdsAreRandom128BitHex) {
  const std::string id = new_session_id();
  EXPECT_EQ(id.size(), 32u);
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(id, new_session_id());
}

TEST(SessionHeaderTest, TimestampsAreIsoUtcWithMilliseconds) {
  EXPECT_EQ(sample_header().started_at, "2025-06-01T12:34:56.789Z");
  EXPECT_EQ(format_utc_timestamp(std::chrono::system_clock::time_point{}),
            "1970-01-01T00:00:00.000Z");
}

TEST(SessionHeaderTest, HeaderLineRoundTripsWithTypeFirst) {
  const SessionHeader header = sample_header();
  const std::string line = header_line(header);
  EXPECT_TRUE(line.starts_with(R"({"type":"session",)")) << line;
  EXPECT_TRUE(line.ends_with("\n"));
  auto parsed = parse_header_line(line.substr(0, line.size() - 1));
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(parsed.value().version, kSessionFormatVersion);
  EXPECT_EQ(parsed.value().id, header.id);
  EXPECT_EQ(parsed.value().cwd, "/work/app");
  EXPECT_EQ(parsed.value().model, "gpt-x");
  EXPECT_EQ(parsed.value().provider, "openai");
  EXPECT_EQ(parsed.value().started_at, header.started_at);
}

TEST(SessionHeaderTest, NewerFormatVersionsAreRefused) {
  auto parsed = parse_header_line(R"({"type":"session","version":99,"id":"ab"})");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().find("format version 99"), std::string::npos) << parsed.error();
}

TEST(SessionHeaderTest, MessageLinesStartWithTheAdvertisedPrefix) {
  EXPECT_TRUE(entry_line(MessageEntry{user_message("x")}).starts_with(kMessageLinePrefix));
}

TEST_F(SessionFileTest, WriterAndLoaderRoundTripEveryEntryKind) {
  const std::vector<core::Message> messages = {user_message("read a.txt"),
                                               assistant_calling({{"c1", "read"}}),
                                               results_message({ok_result("c1", "read", "hello")}),
                                               assistant_text_message("It says hello.")};
  {
    auto writer = SessionWriter::create(file_, header_);
    ASSERT_TRUE(writer.ok()) << writer.error();
    ASSERT_TRUE(writer.value().append(MessageEntry{messages[0]}).ok());
    ASSERT_TRUE(writer.value().append(ModelChangeEntry{"anthropic", "claude-y"}).ok());
    for (std::size_t i = 1; i < messages.size(); ++i) {
      ASSERT_TRUE(writer.value().append(MessageEntry{messages[i]}).ok());
    }
    ASSERT_TRUE(writer.value().append(CompactionEntry{"we read a.txt", 2}).ok());
  }
  const LoadedSession loaded = load_ok();
  EXPECT_EQ(loaded.header.id, header_.id);
  EXPECT_EQ(loaded.header.cwd, header_.cwd);
  EXPECT_TRUE(loaded.messages == messages);
  ASSERT_EQ(loaded.entries.size(), 6u);
  const auto& change = std::get<ModelChangeEntry>(loaded.entries[1]);
  EXPECT_EQ(change.provider, "anthropic");
  EXPECT_EQ(change.model, "claude-y");
  const auto& compaction = std::get<CompactionEntry>(loaded.entries[5]);
  EXPECT_EQ(compaction.summary, "we read a.txt");
  EXPECT_EQ(compaction.first_kept_index, 2u);
  EXPECT_FALSE(loaded.torn_tail);
  EXPECT_EQ(loaded.synthesized_results, 0u);
}

// A rewind cuts the history at its point: later messages, the compactions that reached past it
// and the checkpoints after it are no longer in force (an earlier compaction is again), its
// note waits for the next message, and the conversation goes on after it. A checkpoint and a
// code-only rewind round-trip.
TEST_F(SessionFileTest, ARewindCutsTheHistoryAndWhatReachedPastIt) {
  {
    auto writer = SessionWriter::create(file_, header_);
    ASSERT_TRUE(writer.ok()) << writer.error();
    auto& out = writer.value();
    ASSERT_TRUE(out.append(CheckpointEntry{"c0", 0, false}).ok());
    ASSERT_TRUE(out.append(MessageEntry{user_message("one")}).ok());
    ASSERT_TRUE(out.append(MessageEntry{assistant_text_message("did one")}).ok());
    ASSERT_TRUE(out.append(CheckpointEntry{"e1", 2, true}).ok());
    ASSERT_TRUE(out.append(CompactionEntry{"summary of one", 1}).ok());
    ASSERT_TRUE(out.append(CheckpointEntry{"c2", 2, false}).ok());
    ASSERT_TRUE(out.append(MessageEntry{user_message("two")}).ok());
    ASSERT_TRUE(out.append(MessageEntry{assistant_calling({{"k1", "bash"}})}).ok());
    ASSERT_TRUE(out.append(MessageEntry{results_message({ok_result("k1", "bash", "x")})}).ok());
    ASSERT_TRUE(out.append(MessageEntry{assistant_text_message("did two")}).ok());
    ASSERT_TRUE(out.append(CompactionEntry{"summary of one and two", 4}).ok());
    ASSERT_TRUE(out.append(CheckpointEntry{"e2", 5, true}).ok());
    ASSERT_TRUE(out.append(RewindEntry{2, "[nib] rewound"}).ok());
  }
  LoadedSession loaded = load_ok();
  ASSERT_EQ(loaded.messages.size(), 2u);
  ASSERT_EQ(loaded.compactions.size(), 1u);
  EXPECT_EQ(loaded.compactions.back().summary, "summary of one");
  ASSERT_EQ(loaded.checkpoints.size(), 3u);
  EXPECT_EQ(loaded.checkpoints.back().id, "c2");
  EXPECT_EQ(loaded.pending_note, "[nib] rewound");

  {
    auto writer = SessionWriter::open_existing(file_);
    ASSERT_TRUE(writer.ok()) << writer.error();
    ASSERT_TRUE(writer.value().append(RewindEntry{std::nullopt, "[nib] files only"}).ok());
  }
  loaded = load_ok();
  EXPECT_EQ(loaded.messages.size(), 2u) << "a code-only rewind keeps the conversation";
  EXPECT_EQ(loaded.pending_note, "[nib] files only");
  const auto& rewind = std::get<RewindEntry>(loaded.entries.back());
  EXPECT_FALSE(rewind.message_index.has_value());

  {
    auto writer = SessionWriter::open_existing(file_);
    ASSERT_TRUE(writer.ok()) << writer.error();
    ASSERT_TRUE(writer.value().append(MessageEntry{user_message("three")}).ok());
  }
  loaded = load_ok();
  ASSERT_EQ(loaded.messages.size(), 3u);
  EXPECT_TRUE(loaded.messages[2] == core::Message(user_message("three")));
  EXPECT_TRUE(loaded.pending_note.empty()) << "the note went with the next prompt";
}

TEST_F(SessionFileTest, BadCheckpointAndRewindLinesAreSkippedAndNamed) {
  write_session({user_message("hi")});
  append_raw(file_, R"({"type":"checkpoint","message_index":1})"
                    "\n"
                    R"({"type":"rewind","message_index":-1,"note":"x"})"
                    "\n");
  const LoadedSession loaded = load_ok();
  ASSERT_EQ(loaded.unreadable_lines.size(), 2u);
  EXPECT_NE(loaded.unreadable_lines[0].find("checkpoint entry needs an id"), std::string::npos);
  EXPECT_NE(loaded.unreadable_lines[1].find("rewind entry"), std::string::npos);
  EXPECT_EQ(loaded.messages.size(), 1u);
}

TEST_F(SessionFileTest, CreateMakesAPrivateFileAndRefusesToOverwrite) {
  write_session({});
  struct stat status {};
  ASSERT_EQ(::stat(file_.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0600u);
  EXPECT_FALSE(std::filesystem::exists(file_.string() + ".tmp"));
  EXPECT_FALSE(SessionWriter::create(file_, header_).ok());
}

TEST_F(SessionFileTest, ATornLastLineIsIgnored) {
  write_session({user_message("one"), assistant_text_message("two")});
  const std::string complete_line = entry_line(MessageEntry{user_message("three")});
  append_raw(file_, complete_line.substr(0, complete_line.size() / 2));
  const LoadedSession loaded = load_ok();
  EXPECT_TRUE(loaded.torn_tail);
  EXPECT_EQ(loaded.messages.size(), 2u);
}

TEST_F(SessionFileTest, ALineIsCommittedOnlyWithItsNewline) {
  write_session({user_message("one")});
  const std::string line = entry_line(MessageEntry{assistant_text_message("two")});
  append_raw(file_, line.substr(0, line.size() - 1));  // valid JSON, newline missing
  EXPECT_EQ(load_ok().messages.size(), 1u);
}

TEST_F(SessionFileTest, ACorruptMiddleLineIsSkippedAndNamedWithItsNumber) {
  write_session({user_message("one")});
  append_raw(file_, "{\"type\":\"message\",\"mess\n");
  append_raw(file_, entry_line(MessageEntry{assistant_text_message("two")}));
  const std::string before = read_file(file_);
  const LoadedSession loaded = load_ok();
  ASSERT_EQ(loaded.unreadable_lines.size(), 1u);
  EXPECT_NE(loaded.unreadable_lines[0].find(file_.string() + ":3: not valid JSON"),
            std::string::npos)
      << loaded.unreadable_lines[0];
  EXPECT_TRUE(loaded.messages ==
              (std::vector<core::Message>{user_message("one"), assistant_text_message("two")}));
  EXPECT_EQ(read_file(file_), before);  // loading never rewrites the file
}

TEST_F(SessionFileTest, ABadMessageIsSkippedNamingTheLineAndTheField) {
  write_session({user_message("one")});
  append_raw(file_, R"({"type":"message","message":{"role":"user","content":[{"type":"video"}]}})"
                    "\n");
  const LoadedSession loaded = load_ok();
  ASSERT_EQ(loaded.unreadable_lines.size(), 1u);
  EXPECT_EQ(loaded.unreadable_lines[0], file_.string() +
                                            ":3: message entry: content[0].type: unknown content "
                                            "block type \"video\"");
  EXPECT_EQ(loaded.messages.size(), 1u);
}

TEST_F(SessionFileTest, ADeeplyNestedLineIsSkippedNotACrash) {
  write_session({user_message("one")});
  append_raw(file_, R"({"type":"message","message":)" + std::string(100'000, '[') +
                        std::string(100'000, ']') + "}\n");
  const LoadedSession loaded = load_ok();
  ASSERT_EQ(loaded.unreadable_lines.size(), 1u);
  EXPECT_NE(loaded.unreadable_lines[0].find(":3: nested deeper than 256 levels"), std::string::npos)
      << loaded.unreadable_lines[0];
  EXPECT_EQ(loaded.messages.size(), 1u);
}

TEST_F(SessionFileTest, AResultOnASkippedLineBecomesAnInterruptedResult) {
  write_session({user_message("go"), assistant_calling({{"c1", "bash"}})});
  append_raw(file_, "garbage\n");  // where the result was
  append_raw(file_, entry_line(MessageEntry{user_message("next")}));
  const LoadedSession loaded = load_ok();
  EXPECT_EQ(loaded.unreadable_lines.size(), 1u);
  EXPECT_EQ(loaded.synthesized_results, 1u);
  ASSERT_EQ(loaded.messages.size(), 4u);
  const auto& results = std::get<core::ToolResultMessage>(loaded.messages[2]).results;
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].tool_call_id, "c1");
  EXPECT_EQ(core::content_text(results[0].content), kInterruptedResultText);
}

TEST_F(SessionFileTest, UnknownEntryTypesAreSkippedAndMissingHeadersAreErrors) {
  write_session({});
  append_raw(file_, R"({"type":"bookmark"})"
                    "\n");
  const LoadedSession loaded = load_ok();
  ASSERT_EQ(loaded.unreadable_lines.size(), 1u);
  EXPECT_NE(loaded.unreadable_lines[0].find(":2: unknown entry type \"bookmark\""),
            std::string::npos);

  const auto empty = dir_.write("empty.jsonl", "");
  EXPECT_NE(load_session(empty).error().find("no complete header line"), std::string::npos);
  const auto no_header = dir_.write("no_header.jsonl", entry_line(MessageEntry{user_message("x")}));
  EXPECT_NE(load_session(no_header).error().find(":1: not a session header"), std::string::npos);
  EXPECT_FALSE(load_session(dir_.path() / "missing.jsonl").ok());
}

TEST_F(SessionFileTest, LoadingSynthesizesResultsForInterruptedCalls) {
  write_session({user_message("go"), assistant_calling({{"c1", "bash"}, {"c2", "read"}}),
                 results_message({ok_result("c2", "read", "done")})});
  const LoadedSession loaded = load_ok();
  ASSERT_EQ(loaded.messages.size(), 3u);
  const auto& results = std::get<core::ToolResultMessage>(loaded.messages[2]).results;
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(core::content_text(results[0].content), kInterruptedResultText);
  EXPECT_TRUE(results[0].is_error);
  EXPECT_EQ(core::content_text(results[1].content), "done");
  EXPECT_EQ(loaded.synthesized_results, 1u);
  EXPECT_EQ(loaded.entries.size(), 3u);  // the entries are the file as stored
}

TEST_F(SessionFileTest, OpenExistingCutsATornTailBeforeAppending) {
  write_session({user_message("one")});
  append_raw(file_, R"({"type":"message","message":{"ro)");
  {
    auto writer = SessionWriter::open_existing(file_);
    ASSERT_TRUE(writer.ok()) << writer.error();
    ASSERT_TRUE(writer.value().append(MessageEntry{assistant_text_message("two")}).ok());
  }
  const LoadedSession loaded = load_ok();
  EXPECT_FALSE(loaded.torn_tail);
  EXPECT_TRUE(loaded.messages ==
              (std::vector<core::Message>{user_message("one"), assistant_text_message("two")}));
}

TEST_F(SessionFileTest, OnlyOneWriterHoldsAFileAtATime) {
  write_session({user_message("one")});
  {
    auto first = SessionWriter::open_existing(file_);
    ASSERT_TRUE(first.ok()) << first.error();
    auto second = SessionWriter::open_existing(file_);
    ASSERT_FALSE(second.ok());
    EXPECT_NE(second.error().find("in use by another nib process"), std::string::npos)
        << second.error();
  }
  EXPECT_TRUE(SessionWriter::open_existing(file_).ok()) << "free again once the first closed";
}

TEST_F(SessionFileTest, OpenExistingRefusesAFileWithoutAHeader) {
  const auto file = dir_.write("torn_header.jsonl", R"({"type":"sess)");
  EXPECT_FALSE(SessionWriter::open_existing(file).ok());
  EXPECT_FALSE(SessionWriter::open_existing(dir_.path() / "missing.jsonl").ok());
}

TEST_F(SessionFileTest, InvalidUtf8IsStoredAsReplacementCharacters) {
  write_session({user_message("bad \xff byte")});
  const LoadedSession loaded = load_ok();
  ASSERT_EQ(loaded.messages.size(), 1u);
  EXPECT_EQ(core::content_text(std::get<core::UserMessage>(loaded.messages[0]).content),
            "bad \xEF\xBF\xBD byte");
}

TEST_F(SessionFileTest, EachEntryIsOneCompleteLine) {
  write_session({user_message("multi\nline"), assistant_text_message("x")});
  const std::string content = read_file(file_);
  EXPECT_EQ(std::count(content.begin(), content.end(), '\n'), 3);
  EXPECT_TRUE(content.ends_with("}\n"));
}

}  // namespace
}  // namespace nib::session
