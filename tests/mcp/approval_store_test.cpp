#include "mcp/approval_store.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace nib::mcp {
namespace {

TEST(ApprovalStore, RemembersApprovalsAndRefusalsPerProjectAndEntry) {
  nib::testing::TempDir dir;
  ApprovalStore store(dir.path() / "approvals.json");
  EXPECT_FALSE(store.approved("/p", "repo", "f1"));
  EXPECT_FALSE(store.declined("/p", "repo", "f1"));

  ASSERT_TRUE(store.decline("/p", "repo", "f1").ok());
  EXPECT_TRUE(store.declined("/p", "repo", "f1"));
  EXPECT_FALSE(store.approved("/p", "repo", "f1"));
  EXPECT_FALSE(store.declined("/p", "repo", "f2"));  // a changed entry is asked about again
  EXPECT_FALSE(store.declined("/q", "repo", "f1"));  // another project's

  ASSERT_TRUE(store.approve("/p", "repo", "f1").ok());
  EXPECT_TRUE(store.approved("/p", "repo", "f1"));
  EXPECT_FALSE(store.declined("/p", "repo", "f1"));
  EXPECT_FALSE(store.approved("/p", "repo", "f2"));
  ASSERT_TRUE(store.approve("/p", "other", "f9").ok());
  EXPECT_TRUE(store.approved("/p", "repo", "f1"));  // kept beside the new one
}

}  // namespace
}  // namespace nib::mcp
