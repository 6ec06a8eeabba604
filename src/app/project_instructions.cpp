#include "app/project_instructions.hpp"

#include <fstream>
#include <iterator>
#include <optional>

#include "util/byte_size.hpp"
#include "util/text_cut.hpp"
#include "util/utf8.hpp"

namespace nib::app {
namespace {

namespace fs = std::filesystem;

constexpr const char* kInstructionNames[] = {"AGENTS.md", "CLAUDE.md"};

// The directory's instruction file (AGENTS.md before CLAUDE.md), if one can be read.
std::optional<InstructionFile> instruction_file_in(const fs::path& directory) {
  for (const char* name : kInstructionNames) {
    const fs::path path = directory / name;
    std::error_code error;
    if (!fs::is_regular_file(path, error)) continue;
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    std::string content(kMaxInstructionFileBytes + 1, '\0');
    in.read(content.data(), static_cast<std::streamsize>(content.size()));
    content.resize(static_cast<std::size_t>(in.gcount()));
    if (content.size() > kMaxInstructionFileBytes) {
      // Only one byte past the cut was read: the file's size says how much is left out.
      const std::uintmax_t size = fs::file_size(path, error);
      const std::uintmax_t whole = error || size < content.size() ? content.size() : size;
      content.resize(util::utf8_prefix_length(content, kMaxInstructionFileBytes));
      content += util::cut_marker(
          whole - content.size(),
          "an instruction file is cut at " + util::format_byte_size(kMaxInstructionFileBytes));
    }
    return InstructionFile{path, std::move(content)};
  }
  return std::nullopt;
}

// The directories from the repository's top down to `cwd` (just `cwd` outside a repository).
std::vector<fs::path> directories_down_to(const fs::path& cwd) {
  std::vector<fs::path> chain;
  for (fs::path directory = cwd;; directory = directory.parent_path()) {
    chain.push_back(directory);
    std::error_code error;
    if (fs::exists(directory / ".git", error)) return {chain.rbegin(), chain.rend()};
    if (directory == directory.parent_path()) break;
  }
  return {cwd};
}

}  // namespace

std::vector<InstructionFile> find_instruction_files(const fs::path& global_dir,
                                                    const fs::path& cwd) {
  std::vector<InstructionFile> files;
  if (!global_dir.empty()) {
    if (auto file = instruction_file_in(global_dir)) files.push_back(std::move(*file));
  }
  for (const fs::path& directory : directories_down_to(fs::absolute(cwd).lexically_normal())) {
    if (auto file = instruction_file_in(directory)) files.push_back(std::move(*file));
  }
  return files;
}

std::string instructions_section(const std::vector<InstructionFile>& files) {
  if (files.empty()) return "";
  std::string section =
      "\nProject instructions (from the user's instruction files; later, nearer files take "
      "precedence):\n";
  for (const auto& file : files) {
    section += "\n## " + file.path.string() + "\n" + file.content;
    if (!file.content.empty() && file.content.back() != '\n') section += '\n';
  }
  return section;
}

}  // namespace nib::app
