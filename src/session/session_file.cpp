#include "session/session_file.hpp"

#include <time.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>

#include "session/history_repair.hpp"

#include "util/json_depth.hpp"
#include "util/json_text.hpp"

namespace nib::session {
namespace {

using nlohmann::json;

constexpr const char* kHeaderType = "session";
constexpr const char* kMessageType = "message";
constexpr const char* kModelChangeType = "model_change";
constexpr const char* kCompactionType = "compaction";
constexpr const char* kCheckpointType = "checkpoint";
constexpr const char* kRewindType = "rewind";

// `body` as one line with "type" as its first field, so a reader can tell an entry's kind from
// the line's first bytes (session listing counts messages that way without parsing them).
std::string typed_line(const char* type, const json& body) {
  std::string line = std::string("{\"type\":") + util::json_text(type);
  const std::string rest = util::json_text(body);
  if (rest.size() > 2) {  // "{...}": splice the fields after "type"
    line += ',';
    line.append(rest, 1, std::string::npos);
  } else {
    line += '}';
  }
  line += '\n';
  return line;
}

util::Result<json> parse_object(std::string_view line) {
  if (util::json_nests_deeper_than(line, util::kMaxJsonDepth)) {
    return util::Result<json>::failure("nested deeper than " + std::to_string(util::kMaxJsonDepth) +
                                       " levels");
  }
  try {
    json value = json::parse(line);
    if (!value.is_object()) return util::Result<json>::failure("not a JSON object");
    return value;
  } catch (const json::parse_error& error) {
    return util::Result<json>::failure("not valid JSON (at byte " + std::to_string(error.byte) +
                                       ")");
  }
}

// Field `name` of `object` as a string; nullopt when absent or not a string.
std::optional<std::string> string_field(const json& object, const char* name) {
  const auto it = object.find(name);
  if (it == object.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

std::string type_of(const json& object) {
  return string_field(object, "type").value_or("");
}

// Applies `entry` to the history being loaded: `stored` (the messages as written, repaired only
// at a rewind) and what is in force in `out`. A compaction or checkpoint counts messages as the
// repaired history does (the recorder's count), so a rewind cuts the repaired history.
void follow(const SessionEntry& entry, std::vector<core::Message>& stored, LoadedSession& out) {
  if (const auto* message = std::get_if<MessageEntry>(&entry)) {
    stored.push_back(message->message);
    out.pending_note.clear();
  } else if (const auto* compaction = std::get_if<CompactionEntry>(&entry)) {
    out.compactions.push_back(*compaction);
  } else if (const auto* checkpoint = std::get_if<CheckpointEntry>(&entry)) {
    out.checkpoints.push_back(*checkpoint);
  } else if (const auto* rewind = std::get_if<RewindEntry>(&entry)) {
    out.pending_note = rewind->note;
    if (!rewind->message_index) return;
    const std::size_t kept = *rewind->message_index;
    stored = repair_history(stored).messages;
    if (stored.size() > kept) stored.resize(kept);
    // A compaction summarised the messages before its first kept one: one that reached past
    // the point rewound to summarised messages that are gone (the one before it counts again).
    std::erase_if(out.compactions, [kept](const CompactionEntry& compaction) {
      return compaction.first_kept_index > kept;
    });
    std::erase_if(out.checkpoints, [kept](const CheckpointEntry& checkpoint) {
      return checkpoint.message_index > kept;
    });
  }
}

std::string open_error(const std::filesystem::path& file) {
  return "cannot open " + file.string() + ": " + std::strerror(errno);
}

}  // namespace

std::string new_session_id() {
  std::random_device random;
  std::string id;
  for (int i = 0; i < 4; ++i) {  // 4 x 32 bits
    char word[9];
    std::snprintf(word, sizeof word, "%08x", static_cast<unsigned>(random()));
    id += word;
  }
  return id;
}

std::string format_utc_timestamp(std::chrono::system_clock::time_point time) {
  const auto since_epoch = std::chrono::floor<std::chrono::milliseconds>(time.time_since_epoch());
  const auto seconds = std::chrono::floor<std::chrono::seconds>(since_epoch);
  const std::time_t whole = static_cast<std::time_t>(seconds.count());
  std::tm utc{};
  gmtime_r(&whole, &utc);
  char text[40];
  const std::size_t length = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  std::snprintf(text + length, sizeof text - length, ".%03dZ",
                static_cast<int>((since_epoch - seconds).count()));
  return text;
}

SessionHeader make_header(std::string cwd, std::string model, std::string provider,
                          std::chrono::system_clock::time_point now) {
  return SessionHeader{kSessionFormatVersion, new_session_id(),    std::move(cwd),
                       std::move(model),      std::move(provider), format_utc_timestamp(now)};
}

std::string header_line(const SessionHeader& header) {
  return typed_line(kHeaderType, {{"version", header.version},
                                  {"id", header.id},
                                  {"cwd", header.cwd},
                                  {"model", header.model},
                                  {"provider", header.provider},
                                  {"started_at", header.started_at}});
}

std::string entry_line(const SessionEntry& entry) {
  if (const auto* message = std::get_if<MessageEntry>(&entry)) {
    return typed_line(kMessageType, {{"message", encode_message(message->message)}});
  }
  if (const auto* change = std::get_if<ModelChangeEntry>(&entry)) {
    return typed_line(kModelChangeType, {{"provider", change->provider}, {"model", change->model}});
  }
  if (const auto* checkpoint = std::get_if<CheckpointEntry>(&entry)) {
    return typed_line(kCheckpointType, {{"id", checkpoint->id},
                                        {"message_index", checkpoint->message_index},
                                        {"turn_end", checkpoint->turn_end}});
  }
  if (const auto* rewind = std::get_if<RewindEntry>(&entry)) {
    json body = {{"note", rewind->note}};
    if (rewind->message_index) body["message_index"] = *rewind->message_index;
    return typed_line(kRewindType, body);
  }
  const auto& compaction = std::get<CompactionEntry>(entry);
  return typed_line(kCompactionType, {{"summary", compaction.summary},
                                      {"first_kept_index", compaction.first_kept_index}});
}

util::Result<SessionHeader> parse_header_line(std::string_view line) {
  using Result = util::Result<SessionHeader>;
  auto parsed = parse_object(line);
  if (!parsed.ok()) return Result::failure(parsed.error());
  const json& object = parsed.value();
  if (type_of(object) != kHeaderType) {
    return Result::failure("not a session header (the first line must have \"type\":\"session\")");
  }
  const auto version = object.find("version");
  if (version == object.end() || !version->is_number_integer()) {
    return Result::failure("the header has no format version");
  }
  const auto number = version->get<std::int64_t>();
  if (number < 1 || number > kSessionFormatVersion) {
    return Result::failure("format version " + std::to_string(number) +
                           " is not one this nib reads (1 to " +
                           std::to_string(kSessionFormatVersion) + "); a newer nib wrote it?");
  }
  SessionHeader header;
  header.version = static_cast<int>(number);
  header.id = string_field(object, "id").value_or("");
  if (header.id.empty()) return Result::failure("the header has no session id");
  header.cwd = string_field(object, "cwd").value_or("");
  header.model = string_field(object, "model").value_or("");
  header.provider = string_field(object, "provider").value_or("");
  header.started_at = string_field(object, "started_at").value_or("");
  return header;
}

util::Result<SessionEntry> parse_entry_line(std::string_view line) {
  using Result = util::Result<SessionEntry>;
  auto parsed = parse_object(line);
  if (!parsed.ok()) return Result::failure(parsed.error());
  const json& object = parsed.value();
  const std::string type = type_of(object);
  if (type == kMessageType) {
    const auto it = object.find("message");
    if (it == object.end()) return Result::failure("message entry without a message");
    auto message = decode_message(*it);
    if (!message.ok()) return Result::failure("message entry: " + message.error());
    return SessionEntry(MessageEntry{std::move(message.value())});
  }
  if (type == kModelChangeType) {
    const auto provider = string_field(object, "provider");
    const auto model = string_field(object, "model");
    if (!provider || !model) return Result::failure("model_change entry needs provider and model");
    return SessionEntry(ModelChangeEntry{*provider, *model});
  }
  if (type == kCompactionType) {
    const auto summary = string_field(object, "summary");
    const auto index = object.find("first_kept_index");
    if (!summary || index == object.end() || !index->is_number_unsigned()) {
      return Result::failure(
          "compaction entry needs a summary and a first_kept_index (a whole number >= 0)");
    }
    return SessionEntry(CompactionEntry{*summary, index->get<std::size_t>()});
  }
  if (type == kCheckpointType) {
    const auto id = string_field(object, "id");
    const auto index = object.find("message_index");
    const auto turn_end = object.find("turn_end");
    if (!id || id->empty() || index == object.end() || !index->is_number_unsigned() ||
        (turn_end != object.end() && !turn_end->is_boolean())) {
      return Result::failure(
          "checkpoint entry needs an id and a message_index (a whole number >= 0)");
    }
    return SessionEntry(CheckpointEntry{*id, index->get<std::size_t>(),
                                        turn_end != object.end() && turn_end->get<bool>()});
  }
  if (type == kRewindType) {
    const auto note = string_field(object, "note");
    const auto index = object.find("message_index");
    if (!note || (index != object.end() && !index->is_number_unsigned())) {
      return Result::failure("rewind entry needs a note (and a message_index >= 0, if any)");
    }
    RewindEntry rewind{std::nullopt, *note};
    if (index != object.end()) rewind.message_index = index->get<std::size_t>();
    return SessionEntry(std::move(rewind));
  }
  if (type == kHeaderType) return Result::failure("a second session header");
  return Result::failure("unknown entry type \"" + type + "\"");
}

util::Result<LoadedSession> load_session(const std::filesystem::path& file) {
  using Result = util::Result<LoadedSession>;
  std::ifstream in(file, std::ios::binary);
  if (!in) return Result::failure(open_error(file));
  const auto line_error = [&](std::size_t number, const std::string& problem) {
    return Result::failure(file.string() + ":" + std::to_string(number) + ": " + problem);
  };

  LoadedSession out;
  std::vector<core::Message> stored;
  bool have_header = false;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (in.eof()) {  // no newline after it: the write was cut off by a crash
      out.torn_tail = true;
      break;
    }
    out.complete_bytes += line.size() + 1;
    if (line.empty()) continue;
    if (!have_header) {
      auto header = parse_header_line(line);
      if (!header.ok()) return line_error(number, header.error());
      out.header = std::move(header.value());
      have_header = true;
      continue;
    }
    auto entry = parse_entry_line(line);
    if (!entry.ok()) {
      // One bad line must not lock the user out of the whole conversation; repair below gives
      // any call whose result was on it an "interrupted" result.
      out.unreadable_lines.push_back(file.string() + ":" + std::to_string(number) + ": " +
                                     entry.error());
      continue;
    }
    follow(entry.value(), stored, out);
    out.entries.push_back(std::move(entry.value()));
  }
  if (in.bad())
    return Result::failure("cannot read " + file.string() + ": " + std::strerror(errno));
  if (!have_header) {
    return Result::failure(file.string() + ": not a session file: it has no complete header line");
  }
  auto repaired = repair_history(stored);
  out.messages = std::move(repaired.messages);
  out.synthesized_results = repaired.synthesized_results;
  out.dropped_results = repaired.dropped_results;
  return out;
}

util::Result<SessionHeader> read_session_header(const std::filesystem::path& file) {
  using Result = util::Result<SessionHeader>;
  std::ifstream in(file, std::ios::binary);
  if (!in) return Result::failure(open_error(file));
  std::string line;
  if (!std::getline(in, line) || in.eof()) {
    return Result::failure(file.string() + ": not a session file: it has no complete header line");
  }
  auto header = parse_header_line(line);
  if (!header.ok()) return Result::failure(file.string() + ":1: " + header.error());
  return header;
}

}  // namespace nib::session
