#include "mcp/claude_answers.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace nib::mcp {
namespace {

// The strings of the array `document[key]`; none when it is missing or not an array.
std::vector<std::string> names_at(const nlohmann::json& document, std::string_view key) {
  std::vector<std::string> names;
  const auto found = document.find(key);
  if (found == document.end() || !found->is_array()) return names;
  for (const nlohmann::json& name : *found) {
    if (name.is_string()) names.push_back(name.get<std::string>());
  }
  return names;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool approves(const ClaudeAnswers& place, const std::string& name) {
  return place.written_by_user && (place.enable_all || has(place.enabled, name));
}

}  // namespace

ClaudeAnswers read_claude_answers(std::string place, const nlohmann::json& document,
                                  bool written_by_user) {
  ClaudeAnswers answers{.place = std::move(place), .written_by_user = written_by_user};
  if (!document.is_object()) return answers;
  answers.enabled = names_at(document, kEnabledServersKey);
  answers.disabled = names_at(document, kDisabledServersKey);
  const auto all = document.find(kEnableAllServersKey);
  answers.enable_all = all != document.end() && all->is_boolean() && all->get<bool>();
  return answers;
}

ClaudeAnswer claude_answer(const std::vector<ClaudeAnswers>& places, const std::string& name) {
  for (const ClaudeAnswers& place : places) {
    if (has(place.disabled, name)) return {ApprovalStore::Answer::kDeclined, place.place};
  }
  for (const ClaudeAnswers& place : places) {
    if (approves(place, name)) return {ApprovalStore::Answer::kApproved, place.place};
  }
  return {};
}

}  // namespace nib::mcp
