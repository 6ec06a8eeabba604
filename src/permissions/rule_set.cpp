#include "permissions/rule_set.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <optional>

#include "permissions/command_paths.hpp"
#include "util/json_text.hpp"
#include "util/secret_places.hpp"

namespace nib::permissions {
namespace {

constexpr std::array<RuleList, 3> kLists = {RuleList::kAllow, RuleList::kAsk, RuleList::kDeny};

std::string describe(const Rule& rule) {
  return rule.text + " (" + rule.origin.describe() + ")";
}

Decision decided(Verdict verdict, const Rule* rule, std::string reason) {
  return {verdict, rule, std::move(reason)};
}

std::filesystem::path without_trailing_slash(const std::filesystem::path& path) {
  std::string text = path.lexically_normal().string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

// The paths rules judge a call on: each path as the tool opens it and, when it differs, its
// target (links resolved), so a rule about either catches it.
std::vector<std::filesystem::path> subject_paths(const core::CallAccess& access) {
  std::vector<std::filesystem::path> paths;
  for (const core::PathAccess& touched : access.paths) {
    for (const auto* path : {&touched.path, &touched.target}) {
      if (path->empty()) continue;
      const std::filesystem::path normal = without_trailing_slash(*path);
      if (std::find(paths.begin(), paths.end(), normal) == paths.end()) paths.push_back(normal);
    }
  }
  return paths;
}

const core::CallAccess& access_of(const CallFacts& call) {
  return call.access;
}

// The command of a call that runs one.
const core::CommandAccess* command_of(const CallFacts& call) {
  const core::CallAccess& access = access_of(call);
  return access.kind == core::AccessKind::kExecute && access.command ? &*access.command : nullptr;
}

// The Bash rules of `list` that speak for a command reaching `reach`: an allow rule when it
// allows reaching that far, a deny or ask rule when the command reaches as far as it names.
bool speaks_for(const Rule& rule, RuleList list, Reach reach) {
  if (rule.origin.list != list || !is_bash_rule(rule)) return false;
  return list == RuleList::kAllow ? rule.reach >= reach : rule.reach <= reach;
}

// `command` with its program named without its directory ("/bin/rm -f x" as "rm -f x") and
// without the VAR=x prefixes that change what runs, for deny and ask rules, which must not be
// walked around by spelling a program another way; nothing when it reads the same.
std::optional<SimpleCommand> plain_spelling(const SimpleCommand& command) {
  SimpleCommand plain = command;
  auto& words = plain.command;
  while (!words.empty() && words.front().text.find('=') != std::string::npos &&
         words.front().text.front() != '=' &&
         is_sensitive_variable(words.front().text.substr(0, words.front().text.find('=')))) {
    words.erase(words.begin());
  }
  if (!words.empty() && words.front().literal()) {
    ShellWord& program = words.front();
    if (const std::size_t slash = program.text.rfind('/');
        slash != std::string::npos && slash + 1 < program.text.size()) {
      program = ShellWord::plain(program.text.substr(slash + 1));
    }
  }
  if (plain.text() == command.text()) return std::nullopt;
  return plain;
}

// A VAR=x prefix, a bare assignment or an export that changes what runs: PATH, LD_PRELOAD,
// BASH_ENV...
bool changes_what_runs(const SimpleCommand& command) {
  const auto sensitive = [](const ShellWord& word) {
    const std::size_t equals = word.text.find('=');
    return equals != std::string::npos && equals > 0 &&
           is_sensitive_variable(std::string_view(word.text).substr(
               0, word.text[equals - 1] == '+' ? equals - 1 : equals));
  };
  return std::any_of(command.words.begin(),
                     command.words.begin() + static_cast<std::ptrdiff_t>(command.assignment_count),
                     sensitive) ||
         (!command.command.empty() && sensitive(command.command.front())) ||
         (!command.command.empty() &&
          (command.command.front().text == "export" || command.command.front().text == "declare" ||
           command.command.front().text == "typeset" || command.command.front().text == "local" ||
           command.command.front().text == "readonly") &&
          std::any_of(command.command.begin() + 1, command.command.end(), sensitive));
}

// The line of `text` (a settings file) where the rule `rule` of `list` is written: the first
// time the rule, as JSON writes it, appears after the list's key; 0 when it cannot be found.
std::size_t line_of_rule(std::string_view text, RuleList list, const std::string& rule) {
  const std::string key = "\"" + std::string(rule_list_name(list)) + "\"";
  std::size_t from = text.find("\"permissions\"");
  from = from == std::string_view::npos ? std::string_view::npos : text.find(key, from);
  if (from == std::string_view::npos) return 0;
  const std::size_t at = text.find(util::json_text(rule), from + key.size());
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
  std::vector<std::string> texts;
  for (std::string_view place : util::kSecretPlaces) {
    texts.push_back("Read(~/" + std::string(place) + "/**)");
  }
  texts.push_back("Read(//**/.env*)");
  std::vector<Rule> rules;
  std::size_t index = 0;
  for (const std::string& text : texts) {
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
  const core::CallAccess& access = access_of(call);
  CallSubject subject{call.tool,
                      access.kind,
                      subject_paths(access),
                      access.host.empty() ? std::nullopt : std::optional(access.host),
                      call.cwd,
                      call.home};
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

// A path the command names that a Read deny or ask rule (the defaults' when `defaults`) covers,
// or a redirection writing into one an Edit or Write deny or ask rule covers.
Decision RuleSet::mentioned_paths(const SimpleCommand& command, const CallFacts& call,
                                  bool defaults) const {
  const std::vector<NamedPath> named = named_paths(command, call.cwd, call.home);
  if (named.empty()) return {};
  const bool reads_inside = !only_names_paths(command);
  for (const Rule& rule : rules_) {
    if (rule.form != Rule::Form::kPath || rule.origin.list == RuleList::kAllow ||
        rule.origin.file.empty() != defaults) {
      continue;
    }
    const bool about_reads = rule_names_call(rule, "", core::AccessKind::kRead);
    const bool about_writes = rule_names_call(rule, "", core::AccessKind::kWrite);
    const std::optional<std::filesystem::path> root = rule_root(rule, call.cwd, call.home);
    const std::optional<std::string> sample = rule_sample_name(rule);
    for (const NamedPath& path : named) {
      if (path.written ? !about_writes : !about_reads) continue;
      bool covered = false;
      if (!path.glob()) {
        covered = rule_matches_path(rule, path.path, call.cwd, call.home);
      }
      if (!covered && root) {
        const Reaches reach = reaches(path, *root);
        covered = reach == Reaches::kInside ||
                  (reach == Reaches::kAncestor && reads_inside && !path.written);
      }
      if (!covered && path.glob() && sample && path.wildcards.size() == 1 &&
          fnmatch(path.wildcards.front().c_str(), sample->c_str(), FNM_PERIOD) == 0) {
        covered = rule_matches_path(rule, path.path / *sample, call.cwd, call.home);
      }
      if (!covered) continue;
      const Verdict verdict =
          path.written && rule.origin.list == RuleList::kDeny ? Verdict::kDeny : Verdict::kAsk;
      const std::string said = verdict == Verdict::kDeny ? "denied" : "asks";
      return decided(
          verdict, &rule,
          path.written
              ? said + ": writes into " + path.source + ", which " + describe(rule) + " covers"
              : said + ": \"" + path.source + "\" names a path " + describe(rule) + " covers");
    }
  }
  return {};
}

bool RuleSet::command_rules_could_hide() const {
  return std::any_of(rules_.begin(), rules_.end(), [](const Rule& rule) {
    return rule.origin.list != RuleList::kAllow && is_bash_rule(rule);
  });
}

Decision RuleSet::decide_command(const SimpleCommand& command, const CallFacts& call) const {
  const core::CommandAccess* run = command_of(call);
  const Reach reach = run != nullptr ? reach_of(*run) : Reach::kSandbox;
  const std::string text = command.text();
  const std::vector<bool> opaque = command.text_opaque();
  std::string full;  // with its wrappers, for rules that name them (sudo)
  for (const std::string& wrapper : command.wrappers) full += wrapper + " ";
  full += text;
  std::vector<bool> full_opaque(full.size() - text.size(), false);
  full_opaque.insert(full_opaque.end(), opaque.begin(), opaque.end());
  const std::optional<SimpleCommand> plain = plain_spelling(command);
  const auto matches = [&](const Rule& rule, bool possibly) {
    return rule_matches_command(rule, text, opaque, possibly) ||
           rule_matches_command(rule, full, full_opaque, possibly) ||
           (plain && rule_matches_command(rule, plain->text(), plain->text_opaque(), possibly));
  };
  const auto bash_rules = [&](RuleList list) {
    std::vector<const Rule*> found;
    for (const Rule& rule : rules_) {
      if (speaks_for(rule, list, reach)) found.push_back(&rule);
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
  if (changes_what_runs(command) && command_rules_could_hide()) {
    return decided(Verdict::kAsk, nullptr,
                   "asks: a variable it sets (PATH, LD_*, BASH_ENV and the like) changes what "
                   "runs, which might be what a rule about commands denies or asks about");
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

Decision RuleSet::decide_unsplit(const ShellSplit& split, Reach reach) const {
  // Only rules for every command can speak: deny stays deny, anything else asks.
  for (RuleList list : {RuleList::kDeny, RuleList::kAsk}) {
    for (const Rule& rule : rules_) {
      if (speaks_for(rule, list, reach) && rule.form == Rule::Form::kAnyUse) {
        return decided(list == RuleList::kDeny ? Verdict::kDeny : Verdict::kAsk, &rule,
                       (list == RuleList::kDeny ? "denied by " : "asks: ") + describe(rule));
      }
    }
  }
  // A deny or ask rule about commands might be hidden in what cannot be split: ask. With no
  // such rule there is nothing to hide, and the mode decides (auto runs it in the sandbox;
  // ask asks, since no allow rule can vouch for it).
  const bool could_hide = command_rules_could_hide();
  return decided(could_hide ? Verdict::kAsk : Verdict::kNone, nullptr,
                 std::string(could_hide ? "asks: " : "") + "nib cannot split this command (" +
                     split.problem + ")");
}

CallDecision RuleSet::decide(const CallFacts& call) const {
  CallDecision result;
  const core::CommandAccess* run = command_of(call);
  if (run == nullptr) {
    result.decision = decide_paths(call);
    return result;
  }
  result.split = split_command(run->command);
  if (!result.split.understood) {
    result.decision = decide_unsplit(result.split, reach_of(*run));
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
