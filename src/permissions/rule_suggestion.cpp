#include "permissions/rule_suggestion.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace nib::permissions {
namespace {

// Programs whose first argument is a subcommand: a rule for "git log" should not allow "git
// push".
constexpr std::array<std::string_view, 30> kSubcommandPrograms = {
    "git",       "npm",       "npx",    "yarn",    "pnpm",   "bun", "deno",    "cargo",
    "go",        "docker",    "podman", "kubectl", "helm",   "gh",  "pip",     "pip3",
    "uv",        "poetry",    "mvn",    "gradle",  "dotnet", "apt", "apt-get", "brew",
    "systemctl", "terraform", "rustup", "conda",   "make",   "just"};

// Package managers whose "run" names a script: "npm run build" is its own rule.
constexpr std::array<std::string_view, 4> kScriptRunners = {"npm", "yarn", "pnpm", "bun"};

bool is_subcommand(const ShellWord& word) {
  return word.literal() && !word.text.empty() && word.text.front() != '-' &&
         word.text.find_first_of("=/:*() ") == std::string::npos;
}

}  // namespace

std::optional<std::string> generalise(const SimpleCommand& command) {
  if (command.command.empty() || !command.command.front().literal()) return std::nullopt;
  const std::string& program = command.command.front().text;
  std::string prefix;
  if (command.privileged) {
    for (const std::string& wrapper : command.wrappers) prefix += wrapper + " ";
  }
  prefix += program;
  const std::string_view name = std::string_view(program).substr(program.rfind('/') + 1);
  const auto listed = [&](auto& programs) {
    return std::find(programs.begin(), programs.end(), name) != programs.end();
  };
  if (listed(kSubcommandPrograms) && command.command.size() > 1 &&
      is_subcommand(command.command[1])) {
    prefix += " " + command.command[1].text;
    if (listed(kScriptRunners) && command.command[1].text == "run" && command.command.size() > 2 &&
        is_subcommand(command.command[2])) {
      prefix += " " + command.command[2].text;
    }
  }
  return "Bash(" + prefix + ":*)";
}

nlohmann::json with_rules_added(nlohmann::json document, RuleList list,
                                const std::vector<std::string>& rules) {
  if (!document.is_object()) document = nlohmann::json::object();
  nlohmann::json& permissions = document["permissions"];
  if (!permissions.is_object()) permissions = nlohmann::json::object();
  nlohmann::json& entries = permissions[std::string(rule_list_name(list))];
  if (!entries.is_array()) entries = nlohmann::json::array();
  for (const std::string& rule : rules) {
    if (std::find(entries.begin(), entries.end(), rule) == entries.end()) entries.push_back(rule);
  }
  return document;
}

}  // namespace nib::permissions
