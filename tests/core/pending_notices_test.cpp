#include "core/pending_notices.hpp"

#include <gtest/gtest.h>

namespace nib::core {
namespace {

TEST(PendingNoticesTest, TakesEveryNoticeOnceOldestFirstAndALaterOneReplacesItsKey) {
  PendingNotices notices;
  EXPECT_TRUE(notices.empty());
  notices.post("job-1", "first");
  notices.post("job-2", "second");
  notices.post("job-1", "first, again");
  EXPECT_EQ(notices.take_all(), (std::vector<std::string>{"first, again", "second"}));
  EXPECT_TRUE(notices.take_all().empty());
}

TEST(PendingNoticesTest, AWithdrawnNoticeIsNeverTaken) {
  PendingNotices notices;
  notices.post("job-1", "seen by other means");
  notices.post("job-2", "news");
  notices.withdraw("job-1");
  notices.withdraw("job-9");  // none: no effect
  EXPECT_EQ(notices.take_all(), std::vector<std::string>{"news"});
}

}  // namespace
}  // namespace nib::core
