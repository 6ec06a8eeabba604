#include "mcp/approval_store.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace nib::mcp {
namespace {

using Answer = ApprovalStore::Answer;

TEST(ApprovalStore, RemembersApprovalsAndRefusalsPerProjectAndEntry) {
  nib::testing::TempDir dir;
  ApprovalStore store(dir.path() / "approvals.json");
  EXPECT_EQ(store.answer("/p", "repo", "f1"), Answer::kNone);

  ASSERT_TRUE(store.decline("/p", "repo", "f1").ok());
  EXPECT_EQ(store.answer("/p", "repo", "f1"), Answer::kDeclined);
  EXPECT_EQ(store.answer("/p", "repo", "f2"), Answer::kNone);  // a changed entry is asked again
  EXPECT_EQ(store.answer("/q", "repo", "f1"), Answer::kNone);  // another project's

  ASSERT_TRUE(store.approve("/p", "repo", "f1").ok());
  EXPECT_EQ(store.answer("/p", "repo", "f1"), Answer::kApproved);
  EXPECT_EQ(store.answer("/p", "repo", "f2"), Answer::kNone);
  ASSERT_TRUE(store.approve("/p", "other", "f9").ok());
  EXPECT_EQ(store.answer("/p", "repo", "f1"), Answer::kApproved);  // kept beside the new one
}

}  // namespace
}  // namespace nib::mcp
