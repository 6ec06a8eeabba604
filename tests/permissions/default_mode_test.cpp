// permissions.defaultMode: the mode a run starts in when no flag names one, from the strongest
// settings file that sets it.

#include "permissions/default_mode.hpp"

#include <gtest/gtest.h>

namespace nib::permissions {
namespace {

RuleSource default_mode_source(std::string file, nlohmann::json permissions) {
  return {.file = std::move(file), .document = {{"permissions", std::move(permissions)}}};
}

TEST(DefaultMode, NoneWhenNoFileSetsOne) {
  const auto mode =
      read_default_mode({default_mode_source("/u/settings.json", {{"allow", {"Bash(ls)"}}}),
                         {.file = "/p/.nib/settings.json", .document = {{"model", "m"}}}});
  ASSERT_TRUE(mode.ok()) << mode.error();
  EXPECT_FALSE(mode.value());
}

TEST(DefaultMode, TheStrongestFileWinsInNibsOrClaudeCodesNames) {
  const auto mode =
      read_default_mode({default_mode_source("/u/settings.json", {{"defaultMode", "yolo"}}),
                         default_mode_source("/p/.claude/settings.json", {{"defaultMode", "plan"}}),
                         default_mode_source("/p/.nib/settings.json", {{"allow", {"Read"}}})});
  ASSERT_TRUE(mode.ok()) << mode.error();
  EXPECT_EQ(mode.value(), PermissionMode::kReadOnly);
}

TEST(DefaultMode, ABadValueNamesTheFileAndTheField) {
  const auto unknown = read_default_mode(
      {default_mode_source("/p/.nib/settings.json", {{"defaultMode", "careful"}})});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().rfind("/p/.nib/settings.json: permissions.defaultMode: ", 0), 0u)
      << unknown.error();
  const auto not_text =
      read_default_mode({default_mode_source("/p/.nib/settings.json", {{"defaultMode", 3}})});
  ASSERT_FALSE(not_text.ok());
  EXPECT_EQ(not_text.error(), "/p/.nib/settings.json: permissions.defaultMode: must be a string");
}

}  // namespace
}  // namespace nib::permissions
