#include "permissions/shell_wrappers.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

#include "permissions/shell_chars.hpp"

namespace nib::permissions {
namespace {

// How a wrapper's own options are written. Option letters and names not listed make the
// command not understood: taking an unknown option's argument for the command (or the other
// way round) would let `timeout --new-flag 5 rm -rf x` slip past a rule for rm.
struct WrapperSpec {
  std::string_view name;
  std::string_view short_with_argument = "";  // "-s KILL" or "-sKILL"
  std::string_view short_flags = "";
  std::string_view short_optional = "";      // an argument only when attached: xargs -i, -e, -l
  std::string_view long_with_argument = "";  // " signal kill-after ": blank-separated, padded
  std::string_view long_flags = "";          // may carry "=value"
  std::string_view not_a_wrapper = "";       // short options that make it something else
  std::string_view long_not_a_wrapper = "";
  std::string_view hides_command = "";  // options whose argument is a command line: env -S
  int operands = 0;                     // words before the command: timeout's duration
  bool privileged = false;              // runs the command as another user
  bool takes_assignments = false;       // NAME=value words before the command
  bool appends_arguments = false;       // adds words it reads (xargs)
  bool numeric_option = false;          // nice -10
  bool runs_nothing_alone = false;      // without a command it only sets up the shell (exec)
};

const std::array<WrapperSpec, 14>& wrapper_specs() {
  static const std::array<WrapperSpec, 14> specs = {{
      {.name = "timeout",
       .short_with_argument = "sk",
       .short_flags = "v",
       .long_with_argument = " signal kill-after ",
       .long_flags = " foreground preserve-status verbose ",
       .operands = 1},
      {.name = "nice",
       .short_with_argument = "n",
       .long_with_argument = " adjustment ",
       .numeric_option = true},
      {.name = "nohup"},
      {.name = "env",
       .short_with_argument = "uC",
       .short_flags = "i0v",
       .long_with_argument = " unset chdir ",
       .long_flags = " ignore-environment null debug default-signal ignore-signal block-signal ",
       .long_not_a_wrapper = " list-signal-handling help version ",
       .hides_command = "S",
       .takes_assignments = true},
      {.name = "sudo",
       .short_with_argument = "ugCDhprtUTR",
       .short_flags = "AbEHkniPsSBN",
       .long_with_argument =
           " user group close-from chdir host prompt role type other-user command-timeout chroot ",
       .long_flags = " askpass background preserve-env set-home login non-interactive "
                     "preserve-groups stdin shell reset-timestamp bell ",
       .not_a_wrapper = "lveKV",
       .long_not_a_wrapper = " list validate edit remove-timestamp version help ",
       .privileged = true,
       .takes_assignments = true},
      {.name = "doas",
       .short_with_argument = "u",
       .short_flags = "ns",
       .not_a_wrapper = "LC",
       .privileged = true},
      {.name = "xargs",
       .short_with_argument = "adEILnPs",
       .short_flags = "0oprtx",
       .short_optional = "iel",
       .long_with_argument = " arg-file delimiter max-args max-procs max-chars process-slot-var ",
       .long_flags = " null open-tty interactive no-run-if-empty verbose exit replace eof "
                     "max-lines ",
       .long_not_a_wrapper = " show-limits help version ",
       .appends_arguments = true},
      {.name = "stdbuf",
       .short_with_argument = "ioe",
       .long_with_argument = " input output error "},
      {.name = "ionice",
       .short_with_argument = "cn",
       .short_flags = "t",
       .long_with_argument = " class classdata ",
       .long_flags = " ignore ",
       .not_a_wrapper = "pPu",
       .long_not_a_wrapper = " pid pgid uid help version "},
      {.name = "time",
       .short_with_argument = "fo",
       .short_flags = "apqvV",
       .long_with_argument = " format output ",
       .long_flags = " append portability quiet verbose "},
      {.name = "command", .short_flags = "p", .not_a_wrapper = "vV"},
      {.name = "exec", .short_with_argument = "a", .short_flags = "cl", .runs_nothing_alone = true},
      {.name = "setsid", .short_flags = "cfw", .long_flags = " ctty fork wait "},
      {.name = "builtin"},
  }};
  return specs;
}

// The program a literal command word names: "timeout" or "/usr/bin/timeout" (a relative path
// such as ./timeout is a script of the project, not the wrapper).
std::optional<std::string_view> program_name(const ShellWord& word) {
  if (!word.literal() || word.text.empty()) return std::nullopt;
  const std::string_view text = word.text;
  if (text.find('/') == std::string_view::npos) return text;
  if (text.front() != '/') return std::nullopt;
  return text.substr(text.rfind('/') + 1);
}

const WrapperSpec* find_wrapper(std::string_view name) {
  for (const WrapperSpec& spec : wrapper_specs()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

bool lists(std::string_view padded_names, std::string_view name) {
  const std::string needle = " " + std::string(name) + " ";
  return padded_names.find(needle) != std::string_view::npos;
}

// NAME of a NAME=value or NAME+=value word, empty when it is not one.
std::string_view assigned_name(const ShellWord& word) {
  const std::string_view text = word.text;
  const std::size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0) return {};
  std::string_view name = text.substr(0, equals);
  if (name.back() == '+') name.remove_suffix(1);
  const bool valid = !name.empty() && is_name_start(name.front()) &&
                     std::all_of(name.begin(), name.end(), is_name_char);
  return valid ? name : std::string_view{};
}

enum class Strip { kStripped, kNotAWrapper, kSensitiveAssignment };

struct Stripped {
  Strip kind = Strip::kNotAWrapper;
  std::size_t consumed = 0;  // words of the wrapper and its options
};

// Reads `spec`'s options at the front of `words` (words[0] is the wrapper itself).
util::Result<Stripped> strip_wrapper(const WrapperSpec& spec, const std::vector<ShellWord>& words) {
  const auto unsupported = [&](std::string_view option, std::string_view why) {
    return util::Result<Stripped>::failure("\"" + std::string(spec.name) + "\" with the option \"" +
                                           std::string(option) + "\", " + std::string(why) +
                                           ", is not supported");
  };
  const auto unknown = [&](std::string_view option) {
    return unsupported(option, "which nib does not know");
  };
  const auto hiding = [&](std::string_view option) {
    return unsupported(option, "whose argument is a command line");
  };
  std::size_t i = 1;
  int operands = spec.operands;
  while (i < words.size()) {
    const ShellWord& word = words[i];
    if (!word.literal()) break;  // known only when it runs: taken as the command
    const std::string_view text = word.text;
    if (spec.takes_assignments && !assigned_name(word).empty()) {
      if (is_sensitive_variable(assigned_name(word)))
        return Stripped{Strip::kSensitiveAssignment, i};
      ++i;
      continue;
    }
    if (text == "--") {
      ++i;
      break;
    }
    if (text == "-" && spec.name == "env") {
      ++i;
      continue;
    }
    if (text.size() > 2 && text.starts_with("--")) {
      const std::size_t equals = text.find('=');
      const std::string_view name =
          text.substr(2, equals == std::string_view::npos ? std::string_view::npos : equals - 2);
      if (lists(spec.long_not_a_wrapper, name)) return Stripped{};
      if (name == "split-string" && !spec.hides_command.empty()) return hiding(text);
      if (lists(spec.long_with_argument, name)) {
        i += equals == std::string_view::npos ? 2 : 1;
        continue;
      }
      if (lists(spec.long_flags, name)) {
        ++i;
        continue;
      }
      return unknown(text);
    }
    if (text.size() > 1 && text.front() == '-') {
      if (spec.numeric_option &&
          std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        ++i;
        continue;
      }
      std::size_t next = i + 1;
      for (std::size_t j = 1; j < text.size(); ++j) {
        const char letter = text[j];
        if (spec.not_a_wrapper.find(letter) != std::string_view::npos) return Stripped{};
        if (spec.hides_command.find(letter) != std::string_view::npos) return hiding(text);
        if (spec.short_with_argument.find(letter) != std::string_view::npos) {
          if (j + 1 == text.size()) next = i + 2;
          break;
        }
        if (spec.short_optional.find(letter) != std::string_view::npos) break;
        if (spec.short_flags.find(letter) == std::string_view::npos) return unknown(text);
      }
      i = next;
      continue;
    }
    if (operands > 0) {
      --operands;
      ++i;
      continue;
    }
    break;
  }
  if (operands > 0 || i > words.size()) return Stripped{};  // a missing operand: not run
  if (i == words.size() && !spec.appends_arguments && !spec.runs_nothing_alone) return Stripped{};
  return Stripped{Strip::kStripped, i};
}

std::string joined_source(const std::vector<ShellWord>& words, std::size_t count) {
  std::string text;
  for (std::size_t i = 0; i < count && i < words.size(); ++i) {
    if (i > 0) text += ' ';
    text += words[i].source;
  }
  return text;
}

// Where a shell (bash, sh, dash) takes its script from.
struct ScriptSource {
  enum class Kind { kInline, kFile, kInput } kind = Kind::kFile;
  std::size_t index = 0;  // kInline: the word holding the script
};

// `bash -c SCRIPT ...`, `bash FILE ...` or a shell reading its script from its input (no
// operand, `-s`, `-`): a here-document, a here-string, a pipe or a redirection feeds it.
util::Result<ScriptSource> script_source(const std::vector<ShellWord>& words) {
  using Result = util::Result<ScriptSource>;
  bool inline_command = false;
  bool from_input = false;
  std::size_t i = 1;
  for (; i < words.size(); ++i) {
    const ShellWord& word = words[i];
    if (!word.literal()) break;
    const std::string_view text = word.text;
    if (text == "--" || text == "-") {
      from_input = from_input || text == "-";
      ++i;
      break;
    }
    if (text.starts_with("--")) {
      if (text == "--rcfile" || text == "--init-file") {
        ++i;
      } else if (!lists(" --norc --noprofile --posix --login --restricted --verbose "
                        "--noediting --debugger --dump-strings --pretty-print ",
                        text)) {
        return Result::failure("a shell option \"" + std::string(text) + "\" nib does not know");
      }
      continue;
    }
    if (text.size() < 2 || (text.front() != '-' && text.front() != '+')) break;
    for (char letter : text.substr(1)) {
      if (letter == 'c') inline_command = true;
      if (letter == 's') from_input = true;
      if (letter == 'o' || letter == 'O') ++i;  // -o OPTION
    }
  }
  if (inline_command) {
    if (i >= words.size()) return Result::failure("\"-c\" without a script");
    return ScriptSource{ScriptSource::Kind::kInline, i};
  }
  if (from_input || i >= words.size()) return ScriptSource{ScriptSource::Kind::kInput};
  return ScriptSource{};
}

// Shells whose scripts nib splits (bash's syntax), and others, whose inline scripts and input
// it cannot see into.
bool splittable_shell(std::string_view program) {
  return program == "bash" || program == "sh" || program == "dash";
}
bool other_shell(std::string_view program) {
  return program == "zsh" || program == "ksh" || program == "mksh" || program == "ash" ||
         program == "fish" || program == "csh" || program == "tcsh";
}

}  // namespace

SimpleCommand InlineScript::run(SimpleCommand part) const {
  part.wrappers.insert(part.wrappers.begin(), wrappers.begin(), wrappers.end());
  part.privileged = part.privileged || privileged;
  part.redirections.insert(part.redirections.end(), redirections.begin(), redirections.end());
  return part;
}

util::Result<std::variant<SimpleCommand, InlineScript>> resolve_command(SimpleCommand command) {
  using Resolved = util::Result<std::variant<SimpleCommand, InlineScript>>;
  std::size_t first = command.assignment_count;
  for (std::size_t i = 0; i < command.assignment_count; ++i) {
    if (is_sensitive_variable(assigned_name(command.words[i]))) {
      first = i;
      break;
    }
  }
  std::vector<ShellWord> rest(command.words.begin() + static_cast<std::ptrdiff_t>(first),
                              command.words.end());
  bool stripping = first == command.assignment_count;
  while (stripping && !rest.empty()) {
    const std::optional<std::string_view> name = program_name(rest.front());
    const WrapperSpec* spec = name ? find_wrapper(*name) : nullptr;
    if (spec == nullptr) break;
    const util::Result<Stripped> stripped = strip_wrapper(*spec, rest);
    if (!stripped.ok()) return Resolved::failure(stripped.error());
    if (stripped.value().kind == Strip::kNotAWrapper) break;
    const std::size_t consumed = stripped.value().consumed;
    command.wrappers.push_back(joined_source(rest, consumed));
    command.privileged = command.privileged || spec->privileged;
    rest.erase(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(consumed));
    if (spec->appends_arguments) {
      if (rest.empty()) rest.push_back(ShellWord::plain("echo"));
      rest.push_back(ShellWord::unknown("<arguments xargs reads>"));
    }
    stripping = stripped.value().kind == Strip::kStripped;
  }
  const std::optional<std::string_view> program =
      rest.empty() ? std::nullopt : program_name(rest.front());
  if (program && (*program == "eval" || *program == "trap")) {
    return Resolved::failure(std::string(*program) +
                             " runs text as a command; nib cannot see what it runs");
  }
  if (program && (splittable_shell(*program) || other_shell(*program))) {
    const auto script = script_source(rest);
    if (!script.ok()) return Resolved::failure(std::string(*program) + ": " + script.error());
    if (script.value().kind == ScriptSource::Kind::kInput) {
      return Resolved::failure("\"" + std::string(*program) +
                               "\" reads its script from its input (a pipe, a "
                               "here-document or a redirection), which nib cannot see into");
    }
    if (script.value().kind == ScriptSource::Kind::kInline && other_shell(*program)) {
      return Resolved::failure("\"" + std::string(*program) +
                               " -c\" runs a script whose commands nib does not split");
    }
    if (script.value().kind == ScriptSource::Kind::kInline) {
      const std::size_t index = script.value().index;
      const ShellWord& text = rest[index];
      if (!text.literal()) {
        return Resolved::failure("the script of \"" + std::string(*program) +
                                 " -c\" is only known when it runs");
      }
      std::vector<std::string> wrappers = std::move(command.wrappers);
      wrappers.push_back(joined_source(rest, index));
      return Resolved(InlineScript{std::string(*program), text.text, std::move(wrappers),
                                   command.privileged, std::move(command.redirections)});
    }
  }
  command.command = std::move(rest);
  return Resolved(std::move(command));
}

}  // namespace nib::permissions
