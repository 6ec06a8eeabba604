#include "session/session_store.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "session/sample_messages.hpp"
#include "support/fake_environment.hpp"
#include "support/temp_dir.hpp"

namespace nib::session {
namespace {

using testing::assistant_text_message;
using testing::fake_environment;
using testing::user_message;

constexpr const char* kCwd = "/work/app";

// The places an environment gives, with no home in the password database.
util::UserPlaces session_store_places(std::map<std::string, std::string> environment) {
  return util::user_places(fake_environment(std::move(environment)),
                           [] { return std::filesystem::path(); });
}

std::chrono::system_clock::time_point at_seconds(long long seconds) {
  return std::chrono::system_clock::time_point(std::chrono::seconds(seconds));
}

TEST(SessionStoreRootTest, XdgDataHomeWins) {
  auto store = SessionStore::for_user(
      session_store_places({{"XDG_DATA_HOME", "/data"}, {"HOME", "/home/me"}}));
  ASSERT_TRUE(store.ok());
  EXPECT_EQ(store.value().root(), "/data/nib/sessions");
}

TEST(SessionStoreRootTest, HomeIsTheFallbackAndARelativeXdgDataHomeIsIgnored) {
  auto store = SessionStore::for_user(session_store_places({{"HOME", "/home/me"}}));
  ASSERT_TRUE(store.ok());
  EXPECT_EQ(store.value().root(), "/home/me/.local/share/nib/sessions");
  auto relative = SessionStore::for_user(
      session_store_places({{"XDG_DATA_HOME", "data"}, {"HOME", "/home/me"}}));
  ASSERT_TRUE(relative.ok());
  EXPECT_EQ(relative.value().root(), "/home/me/.local/share/nib/sessions");
}

TEST(SessionStoreRootTest, NeitherVariableIsAnError) {
  EXPECT_FALSE(SessionStore::for_user(session_store_places({})).ok());
}

TEST(DirectoryNameTest, PathsBecomeReadableSafeNames) {
  EXPECT_EQ(encode_directory_name("/work/main"), "work-main");
  EXPECT_EQ(encode_directory_name("/work/main/"), "work-main");
  EXPECT_EQ(encode_directory_name("/work/my-app"), "work-my%2Dapp");
  EXPECT_EQ(encode_directory_name("/home/me/My Project"), "home-me-My%20Project");
  EXPECT_EQ(encode_directory_name("/srv/50%~x"), "srv-50%25%7Ex");
  EXPECT_EQ(encode_directory_name("/.config/x"), "%2Econfig-x");
  EXPECT_EQ(encode_directory_name("/home/żółw"), "home-żółw");
  EXPECT_EQ(encode_directory_name("/bad/\xff"), "bad-%FF");
  EXPECT_EQ(encode_directory_name("/"), "-");
  EXPECT_EQ(encode_directory_name("/a/./b/../c"), "a-c");
}

TEST(DirectoryNameTest, DistinctPathsGetDistinctNames) {
  EXPECT_NE(encode_directory_name("/a-b"), encode_directory_name("/a/b"));
  EXPECT_NE(encode_directory_name("/a%2Db"), encode_directory_name("/a-b"));
}

TEST(DirectoryNameTest, LongPathsAreCutAndHashed) {
  const std::string deep = "/" + std::string(150, 'x') + "/" + std::string(150, 'y');
  const std::string name = encode_directory_name(deep + "/one");
  EXPECT_LE(name.size(), kMaxDirectoryNameBytes);
  EXPECT_TRUE(name.starts_with(std::string(150, 'x') + "-yyy"));
  EXPECT_EQ(name[name.size() - 17], '~');
  EXPECT_NE(name, encode_directory_name(deep + "/two"));
  EXPECT_EQ(name, encode_directory_name(deep + "/one"));
}

TEST(DirectoryNameTest, ACutNeverSplitsAnEscapeOrACharacter) {
  // The cut keeps at most 183 bytes before the 17-byte hash suffix.
  const std::string escaped = encode_directory_name("/" + std::string(182, 'x') + "----------");
  EXPECT_EQ(escaped.substr(0, escaped.size() - 16), std::string(182, 'x') + "~");
  const std::string wide = encode_directory_name("/" + std::string(181, 'x') + "żżżżżżżżżż");
  EXPECT_EQ(wide.substr(0, wide.size() - 16), std::string(181, 'x') + "ż~");
}

TEST(SessionFileNameTest, NamesSortByStartTime) {
  SessionHeader header;
  header.id = "0123456789abcdef0123456789abcdef";
  header.started_at = "2025-06-01T12:34:56.789Z";
  EXPECT_EQ(session_file_name(header),
            "2025-06-01T12-34-56.789Z_0123456789abcdef0123456789abcdef.jsonl");
}

class SessionStoreTest : public ::testing::Test {
 protected:
  // Creates a session in `cwd` started at `seconds` after the epoch with the given messages.
  SessionHeader add_session(long long seconds, std::vector<core::Message> messages = {},
                            std::string id = "", const std::string& cwd = kCwd) {
    SessionHeader header = make_header(cwd, "model", "provider", at_seconds(seconds));
    if (!id.empty()) header.id = std::move(id);
    auto writer = store_.create(header);
    EXPECT_TRUE(writer.ok()) << writer.error();
    for (auto& message : messages) {
      EXPECT_TRUE(writer.value().append(MessageEntry{std::move(message)}).ok());
    }
    return header;
  }

  nib::testing::TempDir dir_;
  SessionStore store_{dir_.path() / "sessions"};
};

TEST_F(SessionStoreTest, CreatePutsTheFileInTheWorkingDirectorysFolder) {
  const SessionHeader header = add_session(1000);
  const auto file = store_.directory_for(kCwd) / session_file_name(header);
  EXPECT_TRUE(std::filesystem::exists(file));
  EXPECT_EQ(store_.directory_for(kCwd), dir_.path() / "sessions" / "work-app");
  auto loaded = load_session(file);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded.value().header.id, header.id);
}

TEST_F(SessionStoreTest, LatestIsTheMostRecentlyStarted) {
  EXPECT_FALSE(store_.latest(kCwd).ok());
  add_session(2000);
  const SessionHeader newest = add_session(3000);
  add_session(1000);
  add_session(9000, {}, "", "/elsewhere");
  auto latest = store_.latest(kCwd);
  ASSERT_TRUE(latest.ok()) << latest.error();
  EXPECT_EQ(latest.value().filename(), session_file_name(newest));
}

TEST_F(SessionStoreTest, FindByIdOrUniquePrefix) {
  const auto one = add_session(1000, {}, "aaaa1111000000000000000000000000");
  const auto two = add_session(2000, {}, "aaaa2222000000000000000000000000");
  auto found = store_.find(kCwd, "aaaa1");
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_EQ(found.value().filename(), session_file_name(one));
  found = store_.find(kCwd, "AAAA2222000000000000000000000000");
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_EQ(found.value().filename(), session_file_name(two));
  EXPECT_FALSE(store_.find(kCwd, "b").ok());
  EXPECT_FALSE(store_.find(kCwd, "").ok());
}

TEST_F(SessionStoreTest, AnAmbiguousPrefixListsTheCandidates) {
  add_session(1000, {}, "aaaa1111000000000000000000000000");
  add_session(2000, {}, "aaaa2222000000000000000000000000");
  auto found = store_.find(kCwd, "aaaa");
  ASSERT_FALSE(found.ok());
  EXPECT_NE(found.error().find("matches 2 sessions"), std::string::npos) << found.error();
  EXPECT_NE(found.error().find("aaaa1111000000000000000000000000"), std::string::npos);
  EXPECT_NE(found.error().find("aaaa2222000000000000000000000000"), std::string::npos);
}

TEST_F(SessionStoreTest, FindLooksInOtherDirectoriesWhenTheOwnHasNoMatch) {
  add_session(1000, {}, "bbbb0000000000000000000000000000", "/other/project");
  add_session(2000, {}, "aaaa0000000000000000000000000000");
  auto found = store_.find(kCwd, "bbbb");
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_EQ(found.value().parent_path().filename(), "other-project");
}

TEST_F(SessionStoreTest, ListShowsNewestFirstWithPromptAndCount) {
  add_session(1000, {user_message("\n  fix the bug in main.cpp  \nthen test"),
                     assistant_text_message("ok"), user_message("thanks")});
  add_session(2000, {user_message(std::string(100, 'z'))});
  add_session(3000);
  const auto sessions = store_.list(kCwd);
  ASSERT_EQ(sessions.size(), 3u);
  EXPECT_EQ(sessions[0].started_at, "1970-01-01T00:50:00.000Z");
  EXPECT_EQ(sessions[0].message_count, 0u);
  EXPECT_EQ(sessions[0].first_prompt, "");
  EXPECT_EQ(sessions[1].first_prompt, std::string(kPromptPreviewBytes, 'z') + "…");
  EXPECT_EQ(sessions[2].first_prompt, "fix the bug in main.cpp");
  EXPECT_EQ(sessions[2].message_count, 3u);
  EXPECT_EQ(sessions[2].cwd, kCwd);
  EXPECT_EQ(sessions[2].id.size(), 32u);
  for (const auto& summary : sessions) EXPECT_EQ(summary.error, "") << summary.file;
}

TEST_F(SessionStoreTest, ListCountsOnlyCompleteMessageLinesAndSkipsForeignFiles) {
  const SessionHeader header = add_session(1000, {user_message("a"), assistant_text_message("b")});
  const auto file = store_.directory_for(kCwd) / session_file_name(header);
  {
    std::ofstream out(file, std::ios::binary | std::ios::app);
    out << entry_line(ModelChangeEntry{"p", "m"}) << R"({"type":"message","message":{"ro)";
  }
  dir_.write("sessions/work-app/notes.txt", "mine");
  dir_.write("sessions/work-app/" + session_file_name(header) + ".tmp", "");
  const auto sessions = store_.list(kCwd);
  ASSERT_EQ(sessions.size(), 1u);
  EXPECT_EQ(sessions[0].message_count, 2u);
  EXPECT_EQ(sessions[0].first_prompt, "a");
}

TEST_F(SessionStoreTest, ListCountsLinesWhosePrefixCrossesAScanChunk) {
  // After the first prompt, the scan reads in chunks; put the next line's start 5 bytes before
  // the end of the first chunk, so its prefix is split between two reads.
  const auto line_of = [](std::size_t text_bytes) {
    return entry_line(MessageEntry{assistant_text_message(std::string(text_bytes, 'a'))}).size();
  };
  const std::size_t overhead = line_of(0);
  const std::size_t filler = kSummaryScanChunkBytes - 5 - overhead;
  ASSERT_EQ(line_of(filler), kSummaryScanChunkBytes - 5);
  add_session(1000, {user_message("go"), assistant_text_message(std::string(filler, 'a')),
                     assistant_text_message("split"), user_message("more")});
  const auto sessions = store_.list(kCwd);
  ASSERT_EQ(sessions.size(), 1u);
  EXPECT_EQ(sessions[0].message_count, 4u);
}

TEST_F(SessionStoreTest, AnUnreadableSessionIsListedWithItsError) {
  dir_.write("sessions/work-app/2025-01-01T00-00-00.000Z_abcd.jsonl", "garbage\n");
  const auto sessions = store_.list(kCwd);
  ASSERT_EQ(sessions.size(), 1u);
  EXPECT_EQ(sessions[0].id, "abcd");
  EXPECT_NE(sessions[0].error.find(":1: not valid JSON"), std::string::npos) << sessions[0].error;
}

TEST(PromptPreviewTest, ControlCharactersBecomeSpaces) {
  EXPECT_EQ(prompt_preview("a\x1b[31mred\tb"), "a [31mred b");
  EXPECT_EQ(prompt_preview("   \n\t\n"), "");
  EXPECT_EQ(prompt_preview("żółw", 3), "ż…");
}

}  // namespace
}  // namespace nib::session
