#pragma once
// The prompts the user typed, kept across sessions for the editor's Up key: one JSON string
// per line in $XDG_DATA_HOME/nib/prompt-history.jsonl (multi-line prompts stay one entry).
// Losing it loses nothing important, so every failure is silent. Not thread-safe.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "util/user_places.hpp"

namespace nib::app {

// How many prompts the editor gets back: plenty to scroll through, few enough to read fast.
inline constexpr std::size_t kPromptHistoryEntries = 500;
// Past this size the file is rewritten with only its newest entries (at most
// kPromptHistoryEntries, in at most half this size), so loading it stays quick and the rewrite
// is rare.
inline constexpr std::uintmax_t kPromptHistoryMaxBytes = 1024 * 1024;

// The history file's path, beside the sessions of `places`; nullopt when there is no data
// directory.
std::optional<std::filesystem::path> prompt_history_file(const util::UserPlaces& places);

// The newest kPromptHistoryEntries prompts, oldest first; empty when there is no file.
std::vector<std::string> load_prompt_history(const std::filesystem::path& file);

// A prompt longer than this (a large paste) is not kept: recalling it is rarely wanted, and it
// would crowd out the rest.
inline constexpr std::size_t kPromptHistoryMaxPromptBytes = 64 * 1024;

// Adds `prompt` at the end of the file (unless it is longer than kPromptHistoryMaxPromptBytes).
void append_prompt_history(const std::filesystem::path& file, const std::string& prompt);

}  // namespace nib::app
