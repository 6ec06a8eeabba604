#pragma once
// A list of permission rules as one line of text, the way the approval question shows it and
// the user edits it. Pure.

#include <string>
#include <string_view>
#include <vector>

namespace nib::permissions {

// Permission rules as the approval question shows them ("Bash(npm test:*), Edit(./src/**)"),
// and back from what the user edited: commas inside parentheses belong to a rule
// ("Bash(echo a, b)"), those outside separate rules; blanks around each are dropped.
std::string joined_rules(const std::vector<std::string>& rules);
std::vector<std::string> split_rules(std::string_view text);

}  // namespace nib::permissions
