#include "process/command_registry_store.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>

#include <nlohmann/json.hpp>

#include "process/temp_log.hpp"
#include "util/fd_io.hpp"
#include "util/json_text.hpp"
#include "util/utf8.hpp"

namespace nib::process::registry {
namespace {

using nlohmann::json;

// The layout of an entry file; bump it when older nibs would misread a new one.
constexpr int kEntryVersion = 1;
// Entry files are a few hundred bytes; anything much larger is not one of nib's.
constexpr std::size_t kMaxEntryBytes = 64 * 1024;

constexpr std::array<std::pair<EntryKind, std::string_view>, 3> kKindSuffixes = {{
    {EntryKind::kCommand, ".cmd"},
    {EntryKind::kTemporary, ".tmp"},
    {EntryKind::kEnded, ".ended"},
}};

std::string read_first_line(const char* path) {
  UniqueFd fd(::open(path, O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return {};
  char buffer[128];
  const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
  if (got <= 0) return {};
  std::string text(buffer, static_cast<std::size_t>(got));
  return text.substr(0, text.find('\n'));
}

std::string read_link(const char* path) {
  char buffer[128];
  const ssize_t got = ::readlink(path, buffer, sizeof buffer);
  return got > 0 ? std::string(buffer, static_cast<std::size_t>(got)) : std::string();
}

template <typename Number>
bool parse_number(std::string_view& text, Number& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{}) return false;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return true;
}

json identity_json(const NibIdentity& nib) {
  return {{"pid", nib.pid},
          {"startTime", nib.start_time},
          {"bootId", nib.boot_id},
          {"pidNamespace", nib.pid_namespace}};
}

// True when the open directory `fd` is this user's and no one else may enter it.
bool is_private(int fd) {
  struct stat info {};
  return ::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode) && info.st_uid == ::geteuid() &&
         (info.st_mode & 077) == 0;
}

UniqueFd open_checked(const std::filesystem::path& dir, bool create) {
  if (create) {
    auto opened = open_private_dir(dir);
    return opened.ok() ? std::move(opened.value().fd) : UniqueFd();
  }
  UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.valid() && !is_private(fd.get())) fd.reset();
  return fd;
}

}  // namespace

const NibIdentity& this_nib() {
  static const NibIdentity identity = [] {
    NibIdentity nib;
    nib.pid = ::getpid();
    if (const auto info = read_process(nib.pid)) nib.start_time = info->start_time;
    nib.boot_id = read_first_line("/proc/sys/kernel/random/boot_id");
    nib.pid_namespace = read_link("/proc/self/ns/pid");
    return nib;
  }();
  return identity;
}

std::string entry_file_name(const EntryName& name) {
  std::string_view suffix;
  for (const auto& [kind, text] : kKindSuffixes) {
    if (kind == name.kind) suffix = text;
  }
  return std::to_string(name.owner_pid) + "-" + std::to_string(name.owner_start_time) + "-" +
         std::to_string(name.number) + std::string(suffix);
}

std::optional<EntryName> parse_entry_name(std::string_view text) {
  EntryName name;
  const auto dash = [&text] {
    if (text.empty() || text[0] != '-') return false;
    text.remove_prefix(1);
    return true;
  };
  if (!parse_number(text, name.owner_pid) || !dash() ||
      !parse_number(text, name.owner_start_time) || !dash() || !parse_number(text, name.number)) {
    return std::nullopt;
  }
  for (const auto& [kind, suffix] : kKindSuffixes) {
    if (text == suffix) {
      name.kind = kind;
      return name;
    }
  }
  return std::nullopt;
}

std::string encode_entry(const StoredEntry& entry) {
  const CommandRecord& record = entry.record;
  const std::string command =
      record.command.substr(0, util::utf8_prefix_length(record.command, kRecordedCommandBytes));
  json document = {
      {"version", kEntryVersion},
      {"owner", identity_json(entry.owner)},
      {"startedAfter", record.started_after},
      {"leader", {{"pid", record.leader}, {"startTime", record.leader_start_time}}},
      {"tag", record.tag},
      {"label", entry.label},
      {"callId", record.call_id},
      {"command", command},
  };
  // Only a job's entry has the field, so entries of earlier versions read the same.
  if (record.job_id != 0) document["job"] = record.job_id;
  return util::json_text(document) + "\n";
}

std::optional<StoredEntry> decode_entry(std::string_view text, bool& other_version) {
  other_version = false;
  try {
    const json document = json::parse(text);
    if (document.at("version").get<int>() != kEntryVersion) {
      other_version = true;
      return std::nullopt;
    }
    StoredEntry entry;
    const json& owner = document.at("owner");
    entry.owner = {owner.at("pid").get<pid_t>(), owner.at("startTime").get<std::uint64_t>(),
                   owner.at("bootId").get<std::string>(),
                   owner.at("pidNamespace").get<std::string>()};
    const json& leader = document.at("leader");
    entry.record = {document.at("startedAfter").get<std::uint64_t>(),
                    leader.at("pid").get<pid_t>(),
                    leader.at("startTime").get<std::uint64_t>(),
                    document.at("tag").get<std::string>(),
                    document.at("callId").get<std::string>(),
                    document.at("command").get<std::string>(),
                    document.value("job", 0)};
    entry.label = document.at("label").get<std::string>();
    if (entry.record.leader < 0 || entry.record.tag.empty()) return std::nullopt;
    return entry;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

UniqueFd open_registry_dir(const std::filesystem::path& dir, bool create) {
  if (!open_checked(dir.parent_path(), create).valid()) return UniqueFd();
  return open_checked(dir, create);
}

bool write_entry_file(int dir_fd, const std::string& name, const std::string& temporary_name,
                      std::string_view bytes) {
  UniqueFd fd(::openat(dir_fd, temporary_name.c_str(),
                       O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!fd.valid()) return false;
  // No fsync: a crash of the machine ends every command anyway; readers must only never see
  // half a file, which the rename ensures.
  const bool written = util::write_all(fd.get(), bytes);
  fd.reset();
  if (written && ::renameat(dir_fd, temporary_name.c_str(), dir_fd, name.c_str()) == 0) {
    return true;
  }
  ::unlinkat(dir_fd, temporary_name.c_str(), 0);
  return false;
}

std::optional<std::string> read_entry_file(int dir_fd, const std::string& name) {
  UniqueFd fd(::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) return std::nullopt;
  std::string text;
  char buffer[4096];
  while (text.size() <= kMaxEntryBytes) {
    const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return std::nullopt;
    if (got == 0) return text;
    text.append(buffer, static_cast<std::size_t>(got));
  }
  return std::nullopt;
}

}  // namespace nib::process::registry
