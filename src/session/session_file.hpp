#pragma once
// A session file: JSON Lines, append-only. The first line is the header, then one line per
// entry as it happens:
//
//   {"type":"session","version":1,"id":"<32 hex digits>","cwd":"/work","model":"...",
//    "provider":"...","started_at":"2025-06-01T12:34:56.789Z"}
//   {"type":"message","message":{<message_codec.hpp>}}
//   {"type":"model_change","provider":"...","model":"..."}
//   {"type":"compaction","summary":"...","first_kept_index":N}
//   {"type":"checkpoint","id":"<hex>","message_index":N,"turn_end":false}
//   {"type":"rewind","message_index":N,"note":"..."}        (message_index absent: code only)
//
// A line counts once its newline is written: a last line without one was cut off by a crash and
// is ignored (SessionWriter removes it before appending). Any other entry line that cannot be
// read is skipped and named (file and line number) in LoadedSession::unreadable_lines, for the
// caller to warn about: one damaged line must not make the whole conversation impossible to
// resume, and the file itself is never rewritten. Loading also repairs the history
// (history_repair.hpp) so that the next request is valid, e.g. when the skipped line held a
// tool result. Pure apart from reading the file; thread-safe.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/messages.hpp"
#include "session/message_codec.hpp"
#include "util/result.hpp"

namespace nib::session {

// The version of the file layout above, including the message encoding: bump it when either
// changes in a way older readers would misread. Files of a newer version are refused.
inline constexpr int kSessionFormatVersion = 1;
static_assert(kMessageFormatVersion == 1,
              "the message encoding changed: bump kSessionFormatVersion and decide how files of "
              "the previous version load");

struct SessionHeader {
  int version = kSessionFormatVersion;
  std::string id;     // 32 lowercase hex digits (128 random bits)
  std::string cwd;    // the absolute working directory the session ran in
  std::string model;  // the model at the start; later changes are model_change entries
  std::string provider;
  std::string started_at;  // ISO-8601 UTC with milliseconds: "2025-06-01T12:34:56.789Z"
};

// A message as it entered the history.
struct MessageEntry {
  core::Message message;
};

// The user switched model (or provider) from here on.
struct ModelChangeEntry {
  std::string provider;
  std::string model;
};

// Older messages were summarised: the context continues from `summary` followed by the
// reconstructed history (LoadedSession::messages) from index `first_kept_index` on. The full
// earlier messages stay in the file.
struct CompactionEntry {
  std::string summary;
  std::size_t first_kept_index = 0;
};

// The working tree was checkpointed (session/checkpoint_store.hpp): before the prompt that is
// message `message_index` of the history, or, with `turn_end`, when the run that ended with
// `message_index` messages finished (what the tree held before the user touched it again).
struct CheckpointEntry {
  std::string id;
  std::size_t message_index = 0;
  bool turn_end = false;
};

// The user rewound the session: the conversation goes on from its first `message_index`
// messages (none: only the files were restored), and `note` tells the model what happened
// before its next prompt.
struct RewindEntry {
  std::optional<std::size_t> message_index;
  std::string note;
};

using SessionEntry =
    std::variant<MessageEntry, ModelChangeEntry, CompactionEntry, CheckpointEntry, RewindEntry>;

// How every message line that entry_line writes begins: lets a reader count messages without
// parsing them (session listing).
inline constexpr std::string_view kMessageLinePrefix = R"({"type":"message",)";

// A fresh session id: 128 random bits as 32 lowercase hex digits.
std::string new_session_id();

// `time` as ISO-8601 UTC with milliseconds: "2025-06-01T12:34:56.789Z".
std::string format_utc_timestamp(std::chrono::system_clock::time_point time);

// A header for a session starting now, with a fresh id.
SessionHeader make_header(std::string cwd, std::string model, std::string provider,
                          std::chrono::system_clock::time_point now);

// The line for `header` / `entry`, newline included. Invalid UTF-8 in strings becomes U+FFFD,
// as in the requests the providers send, so the file holds what the model saw.
std::string header_line(const SessionHeader& header);
std::string entry_line(const SessionEntry& entry);

// The header that `line` (without its newline) encodes, or what is wrong with it.
util::Result<SessionHeader> parse_header_line(std::string_view line);
// The entry that `line` (without its newline) encodes, or what is wrong with it.
util::Result<SessionEntry> parse_entry_line(std::string_view line);

struct LoadedSession {
  SessionHeader header;
  std::vector<SessionEntry> entries;    // every entry after the header, in file order
  std::vector<core::Message> messages;  // the history to continue from, repaired
  // What is in force after the rewinds: the compactions of the messages kept (the last one
  // counts: the context is its summary, then the messages from its first kept one on) and the
  // checkpoints of the kept prompts and turns, in file order.
  std::vector<CompactionEntry> compactions;
  std::vector<CheckpointEntry> checkpoints;
  // The note of a rewind that no message has followed yet: for the next prompt.
  std::string pending_note;
  std::size_t synthesized_results = 0;  // tool calls given an "interrupted" result
  std::size_t dropped_results = 0;      // stored results that answered no call (left out)
  bool torn_tail = false;               // a last line cut off by a crash was ignored
  std::uintmax_t complete_bytes = 0;    // the file's length up to its last newline
  // Entry lines that could not be read and were skipped: "<file>:<line>: <problem>".
  std::vector<std::string> unreadable_lines;
};

// Reads the whole session file. Errors (no file, no valid header) name the file; a bad entry
// line is skipped and named in unreadable_lines:
// "<file>:7: message entry: content[0].type: unknown content block type \"video\"".
util::Result<LoadedSession> load_session(const std::filesystem::path& file);

// Reads only the header (the first line) of a session file.
util::Result<SessionHeader> read_session_header(const std::filesystem::path& file);

}  // namespace nib::session
