#include "permissions/rule_list.hpp"

namespace nib::permissions {

std::string joined_rules(const std::vector<std::string>& rules) {
  std::string text;
  for (const std::string& rule : rules) text += (text.empty() ? "" : ", ") + rule;
  return text;
}

std::vector<std::string> split_rules(std::string_view text) {
  std::vector<std::string> rules;
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ',';
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c != ',' || (depth > 0 && i < text.size())) continue;
    std::string_view rule = text.substr(start, i - start);
    while (!rule.empty() && rule.front() == ' ') rule.remove_prefix(1);
    while (!rule.empty() && rule.back() == ' ') rule.remove_suffix(1);
    if (!rule.empty()) rules.emplace_back(rule);
    start = i + 1;
  }
  return rules;
}

}  // namespace nib::permissions
