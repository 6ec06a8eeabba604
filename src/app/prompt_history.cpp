#include "app/prompt_history.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

#include "session/session_store.hpp"

#include "util/json_depth.hpp"
#include "util/json_text.hpp"

namespace nib::app {
namespace fs = std::filesystem;

std::optional<fs::path> prompt_history_file(const util::UserPlaces& places) {
  const auto store = session::SessionStore::for_user(places);
  if (!store.ok()) return std::nullopt;
  return store.value().root().parent_path() / "prompt-history.jsonl";
}

namespace {

std::vector<std::string> read_all(const fs::path& file) {
  std::vector<std::string> prompts;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    const auto entry = util::parse_untrusted_json(line);
    if (entry.is_string()) prompts.push_back(entry.get<std::string>());
  }
  return prompts;
}

std::string line_of(const std::string& prompt) {
  return util::json_text(prompt) + '\n';
}

}  // namespace

std::vector<std::string> load_prompt_history(const fs::path& file) {
  std::vector<std::string> prompts = read_all(file);
  if (prompts.size() > kPromptHistoryEntries) {
    prompts.erase(prompts.begin(),
                  prompts.end() - static_cast<std::ptrdiff_t>(kPromptHistoryEntries));
  }
  return prompts;
}

void append_prompt_history(const fs::path& file, const std::string& prompt) {
  if (prompt.size() > kPromptHistoryMaxPromptBytes) return;
  std::error_code error;
  fs::create_directories(file.parent_path(), error);
  {
    std::ofstream out(file, std::ios::app);
    out << line_of(prompt);
  }
  const std::uintmax_t size = fs::file_size(file, error);
  if (error || size <= kPromptHistoryMaxBytes) return;
  // Grown large: keep only the newest entries (rewritten beside it, then renamed over it).
  const std::vector<std::string> prompts = load_prompt_history(file);
  std::vector<std::string> kept;
  std::uintmax_t kept_bytes = 0;
  for (auto prompt = prompts.rbegin(); prompt != prompts.rend(); ++prompt) {
    std::string line = line_of(*prompt);
    if (kept_bytes + line.size() > kPromptHistoryMaxBytes / 2) break;
    kept_bytes += line.size();
    kept.push_back(std::move(line));
  }
  const fs::path temporary = file.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    for (auto line = kept.rbegin(); line != kept.rend(); ++line) out << *line;
  }
  fs::rename(temporary, file, error);
}

}  // namespace nib::app
