#include "permissions/rule_set.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace nib::permissions {
namespace {

constexpr std::array<RuleList, 3> kLists = {RuleList::kAllow, RuleList::kAsk, RuleList::kDeny};

std::string describe(const Rule& rule) {
  return rule.text + " (" + rule.origin.describe() + ")";
}

Decision decided(Verdict verdict, const Rule* rule, std::string reason) {
  return {verdict, rule, std::move(reason)};
}

std::filesystem::path resolve(std::string_view written, const CallFacts& call) {
  std::filesystem::path path;
  if ((written == "~" || written.starts_with("~/")) && !call.home.empty()) {
    path = call.home / std::string(written.substr(written.size() > 1 ? 2 : 1));
  } else {
    path = std::filesystem::path(std::string(written));
    if (path.is_relative()) path = call.cwd / path;
  }
  std::string text = path.lexically_normal().string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

// The paths a file tool's call touches: its "path" (grep, find and ls default to the working
// directory), as written and, when it differs, with symbolic links resolved.
std::vector<std::filesystem::path> call_paths(const CallFacts& call) {
  std::vector<std::filesystem::path> paths;
  std::optional<std::string> written;
  for (const char* key : {"path", "file_path"}) {
    if (call.arguments.is_object() && call.arguments.contains(key) &&
        call.arguments[key].is_string()) {
      written = call.arguments[key].get<std::string>();
      break;
    }
  }
  if (!written) {
    if (call.tool != "grep" && call.tool != "find" && call.tool != "ls" && call.tool != "Grep" &&
        call.tool != "Glob" && call.tool != "LS") {
      return paths;
    }
    written = ".";
  }
  paths.push_back(resolve(*written, call));
  std::error_code error;
  const std::filesystem::path real = std::filesystem::weakly_canonical(paths.front(), error);
  if (!error && real != paths.front()) paths.push_back(real);
  return paths;
}

std::optional<std::string> url_host(const nlohmann::json& arguments) {
  if (!arguments.is_object() || !arguments.contains("url") || !arguments["url"].is_string()) {
    return std::nullopt;
  }
  std::string_view url = arguments["url"].get_ref<const std::string&>();
  const std::size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return std::nullopt;
  url.remove_prefix(scheme + 3);
  url = url.substr(0, url.find_first_of("/?#"));
  if (const std::size_t at = url.rfind('@'); at != std::string_view::npos)
    url.remove_prefix(at + 1);
  if (url.starts_with("[")) {
    url = url.substr(0, url.find(']') + 1);
  } else {
    url = url.substr(0, url.find(':'));
  }
  std::string host;
  for (char c : url) host += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return host;
}

bool is_bash_call(std::string_view tool) {
  return tool == "bash" || tool == "Bash";
}

// The path a word of a command names, when it can be read off: a literal word, or one whose
// only run-time part is a leading "~".
std::optional<std::filesystem::path> word_path(const ShellWord& word, const CallFacts& call) {
  if (word.text.empty() || word.text.front() == '-') return std::nullopt;
  const bool tilde_only = word.text.starts_with("~/") &&
                          std::count(word.opaque.begin(), word.opaque.end(), true) == 1 &&
                          word.opaque.front();
  if (!word.literal() && !tilde_only) return std::nullopt;
  if (tilde_only && call.home.empty()) return std::nullopt;
  return resolve(word.text, call);
}

// The line of `text` (a settings file) where the rule `rule` of `list` is written: the first
// time the rule, as JSON writes it, appears after the list's key; 0 when it cannot be found.
std::size_t line_of_rule(std::string_view text, RuleList list, const std::string& rule) {
  const std::string key = "\"" + std::string(rule_list_name(list)) + "\"";
  std::size_t from = text.find("\"permissions\"");
  from = from == std::string_view::npos ? std::string_view::npos : text.find(key, from);
  if (from == std::string_view::npos) return 0;
  const std::size_t at = text.find(nlohmann::json(rule).dump(), from + key.size());
  if (at == std::string_view::npos) return 0;
  return 1 + static_cast<std::size_t>(
                 std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

}  // namespace

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kNone:
      return "none";
    case Verdict::kAllow:
      return "allow";
    case Verdict::kAsk:
      return "ask";
    case Verdict::kDeny:
      return "deny";
  }
  return "none";
}

std::vector<Rule> default_rules() {
  std::vector<Rule> rules;
  std::size_t index = 0;
  for (const char* text :
       {"Read(~/.ssh/**)", "Read(~/.aws/**)", "Read(~/.gnupg/**)", "Read(//**/.env*)"}) {
    rules.push_back(parse_rule(text, RuleOrigin{{}, RuleList::kAsk, index++}, {}).value());
  }
  return rules;
}

RuleSet::RuleSet() : rules_(default_rules()) {}

util::Result<RuleSet> RuleSet::load(const std::vector<RuleSource>& sources) {
  RuleSet set;
  set.rules_.clear();
  for (const RuleSource& source : sources) {
    if (!source.document.is_object() || !source.document.contains("permissions")) continue;
    const nlohmann::json& permissions = source.document["permissions"];
    const std::string where = source.file.string() + ": permissions";
    if (!permissions.is_object()) {
      return util::Result<RuleSet>::failure(where + ": must be an object");
    }
    for (RuleList list : kLists) {
      const std::string name(rule_list_name(list));
      if (!permissions.contains(name)) continue;
      const nlohmann::json& entries = permissions[name];
      if (!entries.is_array()) {
        return util::Result<RuleSet>::failure(where + "." + name +
                                              ": must be a list of rules (strings)");
      }
      for (std::size_t index = 0; index < entries.size(); ++index) {
        const std::string at = where + "." + name + "[" + std::to_string(index) + "]";
        if (!entries[index].is_string()) {
          return util::Result<RuleSet>::failure(at +
                                                ": must be a string such as \"Bash(npm test:*)\"");
        }
        const std::string& text = entries[index].get_ref<const std::string&>();
        auto rule = parse_rule(
            text, RuleOrigin{source.file, list, index, line_of_rule(source.text, list, text)},
            source.project);
        if (!rule.ok()) {
          return util::Result<RuleSet>::failure(at + ": \"" + text + "\": " + rule.error());
        }
        set.rules_.push_back(std::move(rule.value()));
      }
    }
  }
  for (Rule& rule : default_rules()) set.rules_.push_back(std::move(rule));
  return set;
}

Decision RuleSet::decide_paths(const CallFacts& call) const {
  CallSubject subject{call.tool, call_paths(call), url_host(call.arguments), call.cwd, call.home};
  const auto first = [&](RuleList list, bool defaults, bool all_paths) -> const Rule* {
    for (const Rule& rule : rules_) {
      if (rule.origin.list != list || rule.origin.file.empty() != defaults) continue;
      if (rule_matches_subject(rule, subject, all_paths)) return &rule;
    }
    return nullptr;
  };
  if (const Rule* rule = first(RuleList::kDeny, false, false)) {
    return decided(Verdict::kDeny, rule, "denied by " + describe(*rule));
  }
  if (const Rule* rule = first(RuleList::kAsk, false, false)) {
    return decided(Verdict::kAsk, rule, "asks: " + describe(*rule));
  }
  if (const Rule* rule = first(RuleList::kAllow, false, true)) {
    return decided(Verdict::kAllow, rule, "allowed by " + describe(*rule));
  }
  if (const Rule* rule = first(RuleList::kAsk, true, false)) {
    return decided(Verdict::kAsk, rule, "asks: " + describe(*rule));
  }
  return {};
}

// A word naming a path a Read deny or ask rule covers (the defaults' when `defaults`), or a
// redirection writing into one an Edit or Write deny or ask rule covers.
Decision RuleSet::mentioned_paths(const SimpleCommand& command, const CallFacts& call,
                                  bool defaults) const {
  for (const Rule& rule : rules_) {
    if (rule.form != Rule::Form::kPath || rule.origin.list == RuleList::kAllow ||
        rule.origin.file.empty() != defaults) {
      continue;
    }
    if (rule_names_tool(rule, "read")) {
      for (const ShellWord& word : command.words) {
        const auto path = word_path(word, call);
        if (path && rule_matches_path(rule, *path, call.cwd, call.home)) {
          return decided(Verdict::kAsk, &rule,
                         "asks: \"" + word.source + "\" is a path " + describe(rule) + " covers");
        }
      }
    }
    if (rule_names_tool(rule, "edit")) {
      for (const Redirection& redirection : command.redirections) {
        const auto path =
            redirection.writes_file() ? word_path(redirection.target, call) : std::nullopt;
        if (!path || !rule_matches_path(rule, *path, call.cwd, call.home)) continue;
        const Verdict verdict =
            rule.origin.list == RuleList::kDeny ? Verdict::kDeny : Verdict::kAsk;
        return decided(verdict, &rule,
                       std::string(verdict == Verdict::kDeny ? "denied" : "asks") +
                           ": writes into " + redirection.target.source + ", which " +
                           describe(rule) + " covers");
      }
    }
  }
  return {};
}

Decision RuleSet::decide_command(const SimpleCommand& command, const CallFacts& call) const {
  const std::string text = command.text();
  const std::vector<bool> opaque = command.text_opaque();
  std::string full;  // with its wrappers, for rules that name them (sudo)
  for (const std::string& wrapper : command.wrappers) full += wrapper + " ";
  full += text;
  std::vector<bool> full_opaque(full.size() - text.size(), false);
  full_opaque.insert(full_opaque.end(), opaque.begin(), opaque.end());
  const auto matches = [&](const Rule& rule, bool possibly) {
    return rule_matches_command(rule, text, opaque, possibly) ||
           rule_matches_command(rule, full, full_opaque, possibly);
  };
  const auto bash_rules = [&](RuleList list) {
    std::vector<const Rule*> found;
    for (const Rule& rule : rules_) {
      if (rule.origin.list == list && is_bash_rule(rule)) found.push_back(&rule);
    }
    return found;
  };
  for (const Rule* rule : bash_rules(RuleList::kDeny)) {
    if (matches(*rule, false)) return decided(Verdict::kDeny, rule, "denied by " + describe(*rule));
  }
  for (const Rule* rule : bash_rules(RuleList::kDeny)) {
    if (matches(*rule, true)) {
      return decided(Verdict::kAsk, rule,
                     "asks: parts known only when it runs might make it match " + describe(*rule));
    }
  }
  for (const Rule* rule : bash_rules(RuleList::kAsk)) {
    if (matches(*rule, true)) return decided(Verdict::kAsk, rule, "asks: " + describe(*rule));
  }
  if (Decision paths = mentioned_paths(command, call, false); paths.verdict != Verdict::kNone) {
    return paths;
  }
  for (const Rule* rule : bash_rules(RuleList::kAllow)) {
    const bool allowed = command.privileged ? rule_matches_command(*rule, full, full_opaque, false)
                                            : rule_matches_command(*rule, text, opaque, false);
    if (allowed) return decided(Verdict::kAllow, rule, "allowed by " + describe(*rule));
  }
  return mentioned_paths(command, call, true);
}

CallDecision RuleSet::decide(const CallFacts& call) const {
  CallDecision result;
  if (!is_bash_call(call.tool)) {
    result.decision = decide_paths(call);
    return result;
  }
  const auto command =
      call.arguments.is_object() && call.arguments.contains("command") &&
              call.arguments["command"].is_string()
          ? std::optional<std::string>(call.arguments["command"].get<std::string>())
          : std::nullopt;
  if (!command) return result;
  result.split = split_command(*command);
  if (!result.split.understood) {
    // Only rules for every command can speak: deny stays deny, anything else asks.
    for (RuleList list : {RuleList::kDeny, RuleList::kAsk}) {
      for (const Rule& rule : rules_) {
        if (rule.origin.list == list && is_bash_rule(rule) && rule.form == Rule::Form::kAnyUse) {
          result.decision =
              decided(list == RuleList::kDeny ? Verdict::kDeny : Verdict::kAsk, &rule,
                      (list == RuleList::kDeny ? "denied by " : "asks: ") + describe(rule));
          return result;
        }
      }
    }
    // A deny or ask rule about commands might be hidden in what cannot be split: ask. With no
    // such rule there is nothing to hide, and the mode decides (auto runs it in the sandbox;
    // ask asks, since no allow rule can vouch for it).
    const bool could_hide_a_rule = std::any_of(rules_.begin(), rules_.end(), [](const Rule& rule) {
      return rule.origin.list != RuleList::kAllow && is_bash_rule(rule);
    });
    result.decision = decided(could_hide_a_rule ? Verdict::kAsk : Verdict::kNone, nullptr,
                              std::string(could_hide_a_rule ? "asks: " : "") +
                                  "nib cannot split this command (" + result.split.problem + ")");
    return result;
  }
  bool all_allowed = !result.split.commands.empty();
  std::optional<std::size_t> deny, ask;
  for (std::size_t i = 0; i < result.split.commands.size(); ++i) {
    const SimpleCommand& part = result.split.commands[i];
    Decision decision = part.runs_nothing() ? decided(Verdict::kAllow, nullptr, "runs nothing")
                                            : decide_command(part, call);
    if (decision.verdict == Verdict::kDeny && !deny) deny = i;
    if (decision.verdict == Verdict::kAsk && !ask) ask = i;
    all_allowed = all_allowed && decision.verdict == Verdict::kAllow;
    result.parts.push_back(std::move(decision));
  }
  const auto part_reason = [&](std::size_t i) {
    return "\"" + result.split.commands[i].source + "\" " + result.parts[i].reason;
  };
  if (deny) {
    result.decision = decided(Verdict::kDeny, result.parts[*deny].rule, part_reason(*deny));
  } else if (ask) {
    result.decision = decided(Verdict::kAsk, result.parts[*ask].rule, part_reason(*ask));
  } else if (all_allowed) {
    const auto ruled = std::find_if(result.parts.begin(), result.parts.end(),
                                    [](const Decision& part) { return part.rule != nullptr; });
    result.decision = decided(Verdict::kAllow, ruled == result.parts.end() ? nullptr : ruled->rule,
                              "every part is allowed");
  }
  return result;
}

}  // namespace nib::permissions
