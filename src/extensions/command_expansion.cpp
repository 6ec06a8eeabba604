#include "extensions/command_expansion.hpp"

#include <optional>

#include "extensions/file_includes.hpp"

#include "util/blank_text.hpp"
namespace nib::extensions {
namespace {

constexpr std::string_view kArgumentsPlaceholder = "$ARGUMENTS";
// Claude Code's variable for the folder of the skill being run, so its instructions can name
// the files beside SKILL.md.
constexpr std::string_view kSkillDirVariable = "${CLAUDE_SKILL_DIR}";

// A placeholder found at some position of the body.
struct Placeholder {
  std::size_t length = 0;  // bytes of the body it covers
  enum class Kind { kAll, kWord } kind = Kind::kAll;
  std::size_t word = 0;  // zero-based, for kWord
};

// The placeholder starting at body[pos] (which is '$'), if there is one.
std::optional<Placeholder> placeholder_at(std::string_view body, std::size_t pos, Positions base) {
  const std::string_view rest = body.substr(pos);
  if (rest.starts_with(kArgumentsPlaceholder)) {
    // $ARGUMENTS[N]: Claude Code's zero-based form.
    const std::string_view after = rest.substr(kArgumentsPlaceholder.size());
    if (after.size() >= 3 && after[0] == '[') {
      std::size_t digits = 1;
      std::size_t index = 0;
      while (digits < after.size() && digits <= 3 && after[digits] >= '0' && after[digits] <= '9') {
        index = index * 10 + static_cast<std::size_t>(after[digits] - '0');
        ++digits;
      }
      if (digits > 1 && digits < after.size() && after[digits] == ']') {
        return Placeholder{kArgumentsPlaceholder.size() + digits + 1, Placeholder::Kind::kWord,
                           index};
      }
    }
    return Placeholder{kArgumentsPlaceholder.size(), Placeholder::Kind::kAll, 0};
  }
  const char first_digit = base == Positions::kOneBased ? '1' : '0';
  if (rest.size() >= 2 && rest[1] >= first_digit && rest[1] <= '9') {
    return Placeholder{2, Placeholder::Kind::kWord,
                       static_cast<std::size_t>(rest[1] - first_digit)};
  }
  return std::nullopt;
}

// Whether `body` has a "$0" placeholder.
bool uses_dollar_zero(std::string_view body) {
  for (std::size_t pos = body.find("$0"); pos != std::string_view::npos;
       pos = body.find("$0", pos + 1)) {
    if (placeholder_at(body, pos, Positions::kZeroBased)) return true;
  }
  return false;
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t pos = text.find(from); pos != std::string::npos;
       pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
}

}  // namespace

std::vector<std::string> split_arguments(std::string_view arguments) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;  // '\'' or '"' while inside quotes
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const char c = arguments[i];
    if (quote == '\'') {
      if (c == '\'') {
        quote = 0;
      } else {
        word += c;
      }
      continue;
    }
    if (c == '\\' && i + 1 < arguments.size()) {
      const char next = arguments[i + 1];
      const bool escapes =
          quote != '"' || next == '"' || next == '\\' || next == '$' || next == '`';
      if (escapes) {
        word += next;
        ++i;
      } else {
        word += c;
      }
      in_word = true;
      continue;
    }
    if (quote == '"') {
      if (c == '"') {
        quote = 0;
      } else {
        word += c;
      }
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (util::is_blank(c)) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

namespace {

// `word` as one shell word, whatever it holds: 'it'\''s'.
std::string shell_quoted(std::string_view word) {
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Fills the placeholders of a body, piece by piece, with one command's arguments.
class ArgumentFiller {
 public:
  ArgumentFiller(std::string_view arguments, Positions base)
      : all_(util::trim_blanks(arguments)), words_(split_arguments(all_)), base_(base) {}

  // `text` with its placeholders filled; `quoted`: each value as one shell word.
  std::string fill(std::string_view text, bool quoted) {
    std::string out;
    out.reserve(text.size() + all_.size());
    for (std::size_t pos = 0; pos < text.size();) {
      const std::optional<Placeholder> placeholder =
          text[pos] == '$' ? placeholder_at(text, pos, base_) : std::nullopt;
      if (!placeholder) {
        out += text[pos++];
        continue;
      }
      std::string_view value;
      if (placeholder->kind == Placeholder::Kind::kAll) {
        value = all_;
      } else if (placeholder->word < words_.size()) {
        value = words_[placeholder->word];
      }
      out += quoted ? shell_quoted(value) : std::string(value);
      substituted_ = true;
      pos += placeholder->length;
    }
    return out;
  }

  // Appends the arguments to `text` when no placeholder took them, so none is dropped.
  void append_unused(std::string& text) const {
    if (substituted_ || all_.empty()) return;
    if (!text.empty()) text += "\n\n";
    text += "ARGUMENTS: " + std::string(all_);
  }

 private:
  std::string_view all_;
  std::vector<std::string> words_;
  Positions base_;
  bool substituted_ = false;
};

}  // namespace

std::string substitute_arguments(std::string_view body, std::string_view arguments,
                                 Positions base) {
  ArgumentFiller filler(arguments, base);
  std::string out = filler.fill(body, false);
  filler.append_unused(out);
  return out;
}

CommandPrompt expand_command(std::string_view body, std::string_view arguments,
                             const std::filesystem::path& working_dir) {
  const Positions base = uses_dollar_zero(body) ? Positions::kZeroBased : Positions::kOneBased;
  ArgumentFiller filler(arguments, base);
  // The commands are the body's, found before anything is filled in, so that no argument can
  // make one; in a command, each value is one quoted shell word.
  CommandPrompt prompt;
  std::size_t copied = 0;
  for (const PromptCommand& span : find_prompt_commands(body)) {
    prompt.text += filler.fill(body.substr(copied, span.begin - copied), false);
    PromptCommand command{prompt.text.size(), 0, filler.fill(span.command, true)};
    // The span stays as written until its output replaces it.
    prompt.text += body.substr(span.begin, span.end - span.begin);
    command.end = prompt.text.size();
    prompt.commands.push_back(std::move(command));
    copied = span.end;
  }
  prompt.text += filler.fill(body.substr(copied), false);
  filler.append_unused(prompt.text);
  // include_files keeps the text as it is and appends the files, so the spans stay in place; it
  // leaves code spans and blocks alone, so no @path inside a command is included.
  prompt.text = include_files(prompt.text, working_dir);
  return prompt;
}

std::string expand_skill(const SkillDefinition& skill, std::string_view arguments) {
  // Arguments first: a skill folder's path is not scanned for placeholders.
  std::string instructions =
      substitute_arguments(skill.instructions, arguments, Positions::kZeroBased);
  replace_all(instructions, kSkillDirVariable, skill.file.parent_path().string());
  return instructions;
}

}  // namespace nib::extensions
