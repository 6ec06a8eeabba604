#include "core/message_json.hpp"

#include <gtest/gtest.h>

namespace nib::core {
namespace {

TEST(EventJsonTest, ReplyRestartHasItsOwnType) {
  // stream-json readers learn from it that the deltas before it are void.
  EXPECT_EQ(to_json(Event{ReplyRestartEvent{}}), nlohmann::json({{"type", "reply_restart"}}));
}

}  // namespace
}  // namespace nib::core
