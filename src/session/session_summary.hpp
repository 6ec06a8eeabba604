#pragma once
// A one-line description of a stored session for `nib sessions` and the resume picker: read
// with as little work as possible (the header, the lines up to the first user prompt, then a
// byte scan that counts message lines without parsing them, since a session with images can be
// many megabytes). Pure apart from reading the file; thread-safe.

#include <cstddef>
#include <filesystem>
#include <string>

namespace nib::session {

// The longest first-prompt preview, in bytes: one line of a terminal listing.
inline constexpr std::size_t kPromptPreviewBytes = 80;
// How much of a file the message count reads at a time (memory stays at this, whatever the
// size of the lines).
inline constexpr std::size_t kSummaryScanChunkBytes = 256 * 1024;

struct SessionSummary {
  std::filesystem::path file;
  std::string id;
  std::string cwd;
  std::string started_at;         // ISO-8601 UTC, from the header
  std::string first_prompt;       // the first line of the first user message, cut; "" when none
  std::size_t message_count = 0;  // complete message lines (user, assistant, toolResult)
  std::string error;              // set when the file could not be read; the rest is partial
};

// Summarises the session file `file`. Never fails: a problem is reported in `error`.
SessionSummary summarize_session(const std::filesystem::path& file);

// The first non-blank line of `text`, trimmed, control characters replaced by spaces (the text
// goes to a terminal), cut to at most `max_bytes` at a character boundary with "…" when cut.
std::string prompt_preview(const std::string& text, std::size_t max_bytes = kPromptPreviewBytes);

}  // namespace nib::session
