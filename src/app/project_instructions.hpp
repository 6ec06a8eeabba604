#pragma once
// The user's standing instructions for the model: AGENTS.md files (CLAUDE.md where a directory
// has no AGENTS.md) from nib's global configuration directory and from every directory between
// the repository's top and the working directory, outermost first, so nearer files can refine
// farther ones. Reads files only; thread-safe.

#include <filesystem>
#include <string>
#include <vector>

namespace nib::app {

// An instruction file is cut at this size: instructions are read on every request, and a
// multi-megabyte file would crowd out the conversation.
inline constexpr std::size_t kMaxInstructionFileBytes = 64 * 1024;

struct InstructionFile {
  std::filesystem::path path;
  std::string content;  // at most kMaxInstructionFileBytes, then a note that it was cut
};

// The instruction files that apply in `cwd`: `global_dir`'s first, then those from the
// enclosing git repository's top (the nearest ancestor holding .git; `cwd` alone outside a
// repository) down to `cwd`. Unreadable files are passed over.
std::vector<InstructionFile> find_instruction_files(const std::filesystem::path& global_dir,
                                                    const std::filesystem::path& cwd);

// The files as a system prompt section naming each path; "" when there are none.
std::string instructions_section(const std::vector<InstructionFile>& files);

}  // namespace nib::app
