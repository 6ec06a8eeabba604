#include "ui/stream_json.hpp"

#include <gtest/gtest.h>

namespace nib::ui {
namespace {

TEST(StreamJsonTest, ReplyRestartHasItsOwnType) {
  // stream-json readers learn from it that the deltas before it are void.
  EXPECT_EQ(to_json(core::Event{core::ReplyRestartEvent{}}),
            nlohmann::json({{"type", "reply_restart"}}));
}

TEST(StreamJsonTest, ACompactionSaysWhatItKept) {
  EXPECT_EQ(
      to_json(core::Event{core::HistoryCompactedEvent{"the summary", 3}}),
      nlohmann::json({{"type", "compaction"}, {"summary", "the summary"}, {"kept_messages", 3}}));
}

TEST(StreamJsonTest, APlanChangeCarriesTheWholePlan) {
  const core::Plan plan{{"Read it", core::PlanStatus::kCompleted},
                        {"Fix it", core::PlanStatus::kInProgress},
                        {"Test it", core::PlanStatus::kPending}};
  EXPECT_EQ(to_json(core::Event{core::PlanEvent{plan}}),
            nlohmann::json::parse(R"({"type": "plan", "items": [
                {"content": "Read it", "status": "completed"},
                {"content": "Fix it", "status": "in_progress"},
                {"content": "Test it", "status": "pending"}]})"));
}

}  // namespace
}  // namespace nib::ui
