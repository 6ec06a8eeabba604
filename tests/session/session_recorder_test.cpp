#include "session/session_recorder.hpp"

#include <gtest/gtest.h>

#include "core/history_edit.hpp"
#include "session/compaction.hpp"
#include "session/history_repair.hpp"
#include "session/sample_messages.hpp"
#include "session/session_file.hpp"
#include "support/temp_dir.hpp"

namespace nib::session {
namespace {

using testing::assistant_calling;
using testing::assistant_text_message;
using testing::ok_result;
using testing::results_message;
using testing::user_message;

core::ToolOutcome outcome_of(const core::ToolResult& result) {
  return core::ToolOutcome{result, std::nullopt, std::chrono::milliseconds(0)};
}

class SessionRecorderTest : public ::testing::Test {
 protected:
  SessionRecorder new_recorder() {
    auto writer = SessionWriter::create(file_, make_header("/w", "m", "p", {}));
    EXPECT_TRUE(writer.ok()) << writer.error();
    return SessionRecorder(std::move(writer.value()), 0);
  }
  LoadedSession load() {
    auto loaded = load_session(file_);
    EXPECT_TRUE(loaded.ok()) << loaded.error();
    return loaded.ok() ? std::move(loaded.value()) : LoadedSession{};
  }
  // The events a run gives a reply with these calls, results in call order.
  void run_batch(SessionRecorder& recorder, const core::Message& reply,
                 const std::vector<core::ToolResult>& results) {
    recorder.on_event(core::MessageEndEvent{std::get<core::AssistantMessage>(reply)});
    for (const auto& result : results) recorder.on_event(core::ToolEndEvent{outcome_of(result)});
    recorder.on_event(core::ToolResultsEvent{core::ToolResultMessage{results}});
  }

  nib::testing::TempDir dir_;
  std::filesystem::path file_ = dir_.path() / "s.jsonl";
};

TEST_F(SessionRecorderTest, TheFileHoldsWhatTheEventsAddedToTheHistory) {
  SessionRecorder recorder = new_recorder();
  recorder.on_event(core::UserMessageEvent{{core::text_content("go")}});
  run_batch(recorder, assistant_calling({{"c1", "read"}, {"c2", "bash"}}),
            {ok_result("c1", "read", "one"), ok_result("c2", "bash", "two")});
  recorder.on_event(
      core::MessageEndEvent{std::get<core::AssistantMessage>(assistant_text_message("done"))});
  EXPECT_EQ(recorder.write_error(), "");
  EXPECT_TRUE(load().messages ==
              (std::vector<core::Message>{
                  user_message("go"), assistant_calling({{"c1", "read"}, {"c2", "bash"}}),
                  results_message({ok_result("c1", "read", "one"), ok_result("c2", "bash", "two")}),
                  assistant_text_message("done")}));
}

TEST_F(SessionRecorderTest, ACompactionIsRecordedAsAnIndexIntoTheFilesMessages) {
  SessionRecorder recorder = new_recorder();
  for (const char* text : {"a", "b", "c"}) {
    recorder.on_event(core::UserMessageEvent{{core::text_content(text)}});
  }
  std::vector<core::Message> history{user_message("a"), user_message("b"), user_message("c")};
  recorder.on_event(core::apply_compaction(history, {2, summary_message("a and b"), "a and b"}));
  const LoadedSession loaded = load();
  const auto& compaction = std::get<CompactionEntry>(loaded.entries.back());
  EXPECT_EQ(compaction.summary, "a and b");
  EXPECT_EQ(compaction.first_kept_index, 2u) << "c is the third message of the file";
}

TEST_F(SessionRecorderTest, AForcedQuitAnswersTheOpenCallsAndEndsTheRecord) {
  SessionRecorder recorder = new_recorder();
  recorder.on_event(core::UserMessageEvent{{core::text_content("go")}});
  recorder.on_event(core::MessageEndEvent{
      std::get<core::AssistantMessage>(assistant_calling({{"c1", "bash"}, {"c2", "read"}}))});
  recorder.on_event(core::ToolEndEvent{outcome_of(ok_result("c1", "bash", "finished"))});
  recorder.record_forced_quit();
  recorder.on_event(core::UserMessageEvent{{core::text_content("after")}});  // not written
  const LoadedSession loaded = load();
  ASSERT_EQ(loaded.messages.size(), 3u);
  const auto& results = std::get<core::ToolResultMessage>(loaded.messages[2]).results;
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(core::content_text(results[0].content), "finished");
  EXPECT_EQ(core::content_text(results[1].content), kInterruptedResultText);
  EXPECT_EQ(loaded.synthesized_results, 0u) << "the file itself holds the answer";
}

}  // namespace
}  // namespace nib::session
