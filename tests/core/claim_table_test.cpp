// The conflict rule of resource claims (core/claim_table.hpp): a claim covers its key and every
// key below it at a '/' boundary, and two claims conflict when one covers the other and at least
// one is exclusive. The table's ordering by ticket is tested in process_budget_test.cpp.

#include "core/claim_table.hpp"

#include <gtest/gtest.h>

namespace nib::core {
namespace {

std::vector<ResourceClaim> shared(const std::string& key) {
  return {{key, false}};
}
std::vector<ResourceClaim> exclusive(const std::string& key) {
  return {{key, true}};
}

// Whether the two claims conflict, checked both ways round: the rule is symmetric.
bool conflict(const std::vector<ResourceClaim>& a, const std::vector<ResourceClaim>& b) {
  const bool forward = claims_conflict(a, b);
  EXPECT_EQ(forward, claims_conflict(b, a)) << "the rule is not symmetric here";
  return forward;
}

TEST(ClaimsConflictTest, EqualKeysConflictUnlessBothAreShared) {
  EXPECT_TRUE(conflict(exclusive("file:/a/b"), exclusive("file:/a/b")));
  EXPECT_TRUE(conflict(exclusive("file:/a/b"), shared("file:/a/b")));
  EXPECT_FALSE(conflict(shared("file:/a/b"), shared("file:/a/b")));
}

TEST(ClaimsConflictTest, AClaimOnADirectoryCoversEverythingUnderIt) {
  EXPECT_TRUE(conflict(shared("file:/a"), exclusive("file:/a/b")));
  EXPECT_TRUE(conflict(shared("file:/a"), exclusive("file:/a/b/c/d.txt")));
  EXPECT_TRUE(conflict(exclusive("file:/a"), shared("file:/a/b")));
  EXPECT_FALSE(conflict(shared("file:/a"), shared("file:/a/b"))) << "searches overlap reads";
}

TEST(ClaimsConflictTest, ASiblingWithACommonStringPrefixIsNotUnderIt) {
  EXPECT_FALSE(conflict(shared("file:/a/b"), exclusive("file:/a/bc")));
  EXPECT_FALSE(conflict(exclusive("file:/a/b"), exclusive("file:/a/b.txt")));
  EXPECT_FALSE(conflict(exclusive("file:/a/b/c"), exclusive("file:/a/b/d")));
  EXPECT_FALSE(conflict(exclusive("file:/a/bc/d"), shared("file:/a/b")));
}

TEST(ClaimsConflictTest, TheRootCoversEveryPath) {
  EXPECT_TRUE(conflict(shared("file:/"), exclusive("file:/a")));
  EXPECT_TRUE(conflict(shared("file:/"), exclusive("file:/a/b/c")));
  EXPECT_TRUE(conflict(exclusive("file:/"), exclusive("file:/")));
  EXPECT_FALSE(conflict(shared("file:/"), shared("file:/a")));
}

TEST(ClaimsConflictTest, KeysWithoutSlashesConflictOnlyWithThemselves) {
  EXPECT_TRUE(conflict(exclusive("a"), exclusive("a")));
  EXPECT_FALSE(conflict(exclusive("a"), exclusive("ab")));
  EXPECT_FALSE(conflict(exclusive("a"), exclusive("b")));
}

TEST(ClaimsConflictTest, AnyConflictingPairOfTwoCallsClaimsConflicts) {
  const std::vector<ResourceClaim> search{{"file:/x", false}, {"file:/a", false}};
  EXPECT_TRUE(conflict(search, exclusive("file:/a/b")));
  EXPECT_FALSE(conflict(search, exclusive("file:/y/b")));
  EXPECT_FALSE(conflict({}, exclusive("file:/")));
}

TEST(ClaimsConflictTest, ASearchOfADirectoryWaitsForAnEarlierEditUnderIt) {
  ClaimTable table;
  const auto edit = table.enter(exclusive("file:/repo/src/app.cpp"));
  const auto search = table.enter(shared("file:/repo"));
  const auto read = table.enter(shared("file:/repo/src/app.cpp"));
  const auto sibling = table.enter(exclusive("file:/repo/srcs/app.cpp"));
  EXPECT_FALSE(table.may_start(search));
  EXPECT_FALSE(table.may_start(read));
  EXPECT_FALSE(table.may_start(sibling)) << "behind the earlier search of /repo";
  table.leave(edit);
  EXPECT_TRUE(table.may_start(search));
  EXPECT_TRUE(table.may_start(read)) << "a read and a search overlap";
  EXPECT_FALSE(table.may_start(sibling));
  table.leave(search);
  EXPECT_TRUE(table.may_start(sibling));
}

}  // namespace
}  // namespace nib::core
