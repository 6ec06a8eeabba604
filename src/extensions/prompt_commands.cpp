#include "extensions/prompt_commands.hpp"

#include <algorithm>

namespace nib::extensions {
namespace {

constexpr std::string_view kFence = "```";
constexpr std::string_view kCommandFence = "```!";

// The line of `text` starting at `start`, without its newline.
std::string_view line_at(std::string_view text, std::size_t start) {
  const std::size_t end = std::min(text.find('\n', start), text.size());
  return text.substr(start, end - start);
}

std::string_view trimmed_end(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

bool opens_inline_command(std::string_view line, std::size_t pos) {
  if (line.substr(pos, 2) != "!`") return false;
  return pos == 0 || line[pos - 1] == ' ' || line[pos - 1] == '\t' || line[pos - 1] == '(';
}

// The inline commands of one line that starts at `offset` in the text.
void find_inline_commands(std::string_view line, std::size_t offset,
                          std::vector<PromptCommand>& commands) {
  for (std::size_t pos = 0; pos < line.size();) {
    if (!opens_inline_command(line, pos)) {
      // Other code spans are text: a `!` inside one is not a command.
      if (line[pos] == '`') {
        const std::size_t close = line.find('`', pos + 1);
        if (close == std::string_view::npos) return;
        pos = close + 1;
      } else {
        ++pos;
      }
      continue;
    }
    const std::size_t close = line.find('`', pos + 2);
    if (close == std::string_view::npos) return;
    if (close > pos + 2) {
      commands.push_back(
          {offset + pos, offset + close + 1, std::string(line.substr(pos + 2, close - pos - 2))});
    }
    pos = close + 1;
  }
}

}  // namespace

std::vector<PromptCommand> find_prompt_commands(std::string_view text) {
  std::vector<PromptCommand> commands;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::string_view line = line_at(text, start);
    const std::size_t next = start + line.size() + 1;
    if (!trimmed_end(line).starts_with(kFence)) {
      find_inline_commands(line, start, commands);
      start = next;
      continue;
    }
    // A fenced block: up to its closing fence (or the end of the text).
    const bool runs = trimmed_end(line) == kCommandFence;
    std::size_t body_end = next;
    std::size_t after = text.size();
    bool closed = false;
    for (std::size_t inner = next; inner < text.size();) {
      const std::string_view inner_line = line_at(text, inner);
      if (trimmed_end(inner_line) == kFence) {
        body_end = inner;
        after = inner + inner_line.size();
        closed = true;
        break;
      }
      inner += inner_line.size() + 1;
      body_end = std::min(inner, text.size());
    }
    if (runs && closed) {
      std::string command(text.substr(next, body_end - next));
      while (!command.empty() && command.back() == '\n') command.pop_back();
      if (!command.empty()) commands.push_back({start, std::min(after, text.size()), command});
    }
    start = after + 1;
  }
  return commands;
}

std::string with_command_outputs(std::string_view text, const std::vector<PromptCommand>& commands,
                                 const std::vector<std::string>& outputs) {
  std::string out;
  std::size_t copied = 0;
  for (std::size_t i = 0; i < commands.size() && i < outputs.size(); ++i) {
    out += text.substr(copied, commands[i].begin - copied);
    out += outputs[i];
    copied = commands[i].end;
  }
  out += text.substr(copied);
  return out;
}

}  // namespace nib::extensions
