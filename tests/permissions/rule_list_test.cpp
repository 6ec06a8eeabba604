#include "permissions/rule_list.hpp"

#include <gtest/gtest.h>

namespace nib::permissions {
namespace {

TEST(RuleText, RulesRoundTripThroughTheEditedText) {
  const std::vector<std::string> rules{"Bash(npm test:*)", "Bash(echo a, b)", "Edit(./src/**)"};
  EXPECT_EQ(joined_rules(rules), "Bash(npm test:*), Bash(echo a, b), Edit(./src/**)");
  EXPECT_EQ(split_rules(joined_rules(rules)), rules);
  EXPECT_EQ(split_rules("  Bash(make:*) ,, WebFetch(domain:docs.rs)  "),
            (std::vector<std::string>{"Bash(make:*)", "WebFetch(domain:docs.rs)"}));
  EXPECT_TRUE(split_rules(" , ").empty());
}

}  // namespace
}  // namespace nib::permissions
