#include "session/session_store.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <system_error>

#include "util/utf8.hpp"

namespace nib::session {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSessionExtension = ".jsonl";
// Bytes kept as they are in a directory name, besides ASCII letters and digits.
constexpr std::string_view kPlainPunctuation = "._+,=@";
// A cut directory name ends in '~' and 16 hex digits of a 64-bit hash of the whole path.
constexpr std::size_t kHashSuffixBytes = 17;
// How many candidates an ambiguous id prefix lists.
constexpr std::size_t kMaxListedCandidates = 10;

struct StoredFile {
  fs::path file;
  std::string id;
};

bool is_plain(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         kPlainPunctuation.find(static_cast<char>(c)) != std::string_view::npos;
}

std::string percent_escape(unsigned char c) {
  char text[4];
  std::snprintf(text, sizeof text, "%%%02X", c);
  return text;
}

// FNV-1a: a stable hash (std::hash may differ between builds, and names must not).
std::uint64_t stable_hash(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

// The id in a session file name "<start>_<id>.jsonl"; nullopt for other names (a leftover
// "<name>.jsonl.tmp", the user's own files).
std::optional<std::string> id_from_file_name(const std::string& name) {
  if (!name.ends_with(kSessionExtension)) return std::nullopt;
  const std::string_view stem(name.data(), name.size() - kSessionExtension.size());
  const std::size_t separator = stem.rfind('_');
  if (separator == std::string_view::npos || separator == 0) return std::nullopt;
  const std::string_view id = stem.substr(separator + 1);
  const bool hex = !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
  return hex ? std::optional<std::string>(id) : std::nullopt;
}

// The session files in `directory`, oldest first; none when it does not exist.
std::vector<StoredFile> session_files(const fs::path& directory) {
  std::vector<StoredFile> files;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    if (!it->is_regular_file(error)) continue;
    if (auto id = id_from_file_name(it->path().filename().string())) {
      files.push_back(StoredFile{it->path(), std::move(*id)});
    }
  }
  std::sort(files.begin(), files.end(), [](const StoredFile& a, const StoredFile& b) {
    return a.file.filename() < b.file.filename();
  });
  return files;
}

std::vector<StoredFile> matching(std::vector<StoredFile> files, const std::string& prefix) {
  std::erase_if(files, [&](const StoredFile& f) { return !f.id.starts_with(prefix); });
  return files;
}

}  // namespace

std::string encode_directory_name(const fs::path& cwd) {
  const std::string full = cwd.lexically_normal().generic_string();
  std::string_view path = full;
  while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  if (path.empty()) return "-";

  std::string out;
  std::size_t cut_length = 0;  // the longest whole-unit prefix that leaves room for the hash
  for (std::size_t pos = 0; pos < path.size();) {
    const auto c = static_cast<unsigned char>(path[pos]);
    std::size_t consumed = 1;
    if (c == '/') {
      out += '-';
    } else if (c >= 0x80 && (consumed = util::utf8_sequence_length(path, pos)) > 0) {
      out.append(path.substr(pos, consumed));  // readable names for non-ASCII directories
    } else if (is_plain(c) && !(c == '.' && pos == 0)) {  // no hidden directory
      consumed = 1;
      out += static_cast<char>(c);
    } else {
      consumed = 1;
      out += percent_escape(c);
    }
    pos += consumed;
    if (out.size() + kHashSuffixBytes <= kMaxDirectoryNameBytes) cut_length = out.size();
  }
  if (out.size() <= kMaxDirectoryNameBytes) return out;
  char suffix[kHashSuffixBytes + 1];
  std::snprintf(suffix, sizeof suffix, "~%016llx",
                static_cast<unsigned long long>(stable_hash(full)));
  out.resize(cut_length);
  return out + suffix;
}

std::string session_file_name(const SessionHeader& header) {
  std::string start = header.started_at;
  std::replace(start.begin(), start.end(), ':', '-');
  return start + "_" + header.id + std::string(kSessionExtension);
}

util::Result<SessionStore> SessionStore::for_user(const util::UserPlaces& places) {
  if (places.data_home.empty()) {
    return util::Result<SessionStore>::failure(
        "cannot tell where to keep sessions: neither XDG_DATA_HOME nor HOME is set, and the "
        "password database knows no home directory");
  }
  return SessionStore(places.data_home / "nib" / "sessions");
}

fs::path SessionStore::directory_for(const fs::path& cwd) const {
  return root_ / encode_directory_name(cwd);
}

util::Result<SessionWriter> SessionStore::create(const SessionHeader& header) const {
  const fs::path directory = directory_for(header.cwd);
  std::error_code error;
  fs::create_directories(directory, error);
  if (error) {
    return util::Result<SessionWriter>::failure("cannot create " + directory.string() + ": " +
                                                error.message());
  }
  return SessionWriter::create(directory / session_file_name(header), header);
}

util::Result<fs::path> SessionStore::latest(const fs::path& cwd) const {
  const auto files = session_files(directory_for(cwd));
  if (files.empty()) {
    return util::Result<fs::path>::failure("no saved session for " + cwd.string() + " yet");
  }
  return files.back().file;
}

util::Result<fs::path> SessionStore::find(const fs::path& cwd, const std::string& id_prefix) const {
  using Result = util::Result<fs::path>;
  std::string prefix = id_prefix;
  std::transform(prefix.begin(), prefix.end(), prefix.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (prefix.empty()) return Result::failure("no session id given");

  const fs::path own_directory = directory_for(cwd);
  auto candidates = matching(session_files(own_directory), prefix);
  if (candidates.empty()) {  // a session started in another directory
    std::error_code error;
    for (fs::directory_iterator it(root_, error), end; !error && it != end; it.increment(error)) {
      if (it->path() == own_directory || !it->is_directory(error)) continue;
      for (auto& file : matching(session_files(it->path()), prefix)) {
        candidates.push_back(std::move(file));
      }
    }
  }
  if (candidates.size() == 1) return candidates.front().file;
  if (candidates.empty()) {
    return Result::failure("no saved session has an id starting with \"" + id_prefix + "\"");
  }
  std::string message = "the id prefix \"" + id_prefix + "\" matches " +
                        std::to_string(candidates.size()) + " sessions; give more of the id:";
  for (std::size_t i = 0; i < candidates.size() && i < kMaxListedCandidates; ++i) {
    message += "\n  " + candidates[i].id + "  " + candidates[i].file.string();
  }
  if (candidates.size() > kMaxListedCandidates) message += "\n  ...";
  return Result::failure(message);
}

std::vector<SessionSummary> SessionStore::list(const fs::path& cwd) const {
  auto files = session_files(directory_for(cwd));
  std::vector<SessionSummary> summaries;
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    summaries.push_back(summarize_session(it->file));
    if (summaries.back().id.empty()) summaries.back().id = it->id;  // the header was unreadable
  }
  return summaries;
}

}  // namespace nib::session
