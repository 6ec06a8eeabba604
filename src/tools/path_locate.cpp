#include "tools/path_locate.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <optional>
#include <span>

#include "tools/file_tracker.hpp"
#include "tools/limits.hpp"
#include "tools/path.hpp"
#include "util/edit_distance.hpp"
#include "util/json_text.hpp"
#include "util/user_places.hpp"

namespace nib::tools {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kNoBreakSpace = "\xC2\xA0";  // U+00A0
// U+202F: macOS puts it before "AM"/"PM" in screenshot names.
constexpr std::string_view kNarrowNoBreakSpace = "\xE2\x80\xAF";

bool path_exists(const fs::path& path) {
  struct stat info {};
  return lstat(path.c_str(), &info) == 0;
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    text.replace(at, from.size(), to);
    at += to.size();
  }
}

// The bytes `name` stands for ("\xNN" escapes as their bytes), with no-break spaces as spaces:
// the form two spellings of one name share.
std::string loose_key(std::string_view name) {
  const auto raw = unescape_name(name);
  std::string key(raw ? std::string_view(*raw) : name);
  replace_all(key, kNoBreakSpace, " ");
  replace_all(key, kNarrowNoBreakSpace, " ");
  return key;
}

// Whether another entry can share `name`'s loose_key(): only a name with a space of some kind or
// an escape can be spelled another way, and only then is its directory listed.
bool may_be_respelled(std::string_view name) {
  return name.find(' ') != std::string_view::npos ||
         name.find(kNoBreakSpace) != std::string_view::npos ||
         name.find(kNarrowNoBreakSpace) != std::string_view::npos ||
         name.find("\\x") != std::string_view::npos;
}

// Calls `visit(name, entry)` for the entries of `directory`, at most kMaxNameScanEntries.
template <typename Visit>
void for_each_entry(const fs::path& directory, Visit visit) {
  std::error_code error;
  fs::directory_iterator it(directory, error);
  for (std::size_t seen = 0; !error && it != fs::directory_iterator() && seen < kMaxNameScanEntries;
       it.increment(error), ++seen) {
    visit(it->path().filename().native(), *it);
  }
}

// Extends `reached`, an existing path, by `names` one at a time (rule 3 of locate_path()),
// adding every existing path that fits to `found`, up to kMaxAmbiguousPaths.
void match_names(const fs::path& reached, std::span<const std::string> names,
                 std::vector<fs::path>& found) {
  if (found.size() >= kMaxAmbiguousPaths) return;
  if (names.empty()) {
    found.push_back(reached);
    return;
  }
  const std::string& name = names.front();
  const auto rest = names.subspan(1);
  if (const fs::path literal = reached / name; path_exists(literal)) {
    match_names(literal, rest, found);
    return;
  }
  if (!may_be_respelled(name)) return;
  const std::string wanted = loose_key(name);
  std::vector<std::string> fitting;  // collected first: no directory stays open while recursing
  for_each_entry(reached, [&](const std::string& entry, const fs::directory_entry&) {
    if (loose_key(entry) == wanted) fitting.push_back(entry);
  });
  for (const auto& entry : fitting) match_names(reached / entry, rest, found);
}

std::vector<std::string> names_of(const fs::path& absolute) {
  std::vector<std::string> names;
  for (const auto& part : absolute.relative_path()) {
    if (!part.empty() && part != ".") names.push_back(part.native());
  }
  return names;
}

// Rules 1-3 of locate_path() over `spellings` (absolute paths, most literal first): the existing
// path found and which spelling found it, the several that fit (ambiguous), or nothing.
struct Found {
  std::optional<fs::path> path;
  std::size_t spelling = 0;
  std::vector<fs::path> ambiguous;
};
Found find_existing(const std::vector<fs::path>& spellings) {
  for (std::size_t i = 0; i < spellings.size(); ++i) {
    if (path_exists(spellings[i])) return {spellings[i], i, {}};
  }
  for (std::size_t i = 0; i < spellings.size(); ++i) {
    std::vector<fs::path> fitting;
    match_names(spellings[i].root_path(), names_of(spellings[i]), fitting);
    if (fitting.size() == 1) return {fitting.front(), i, {}};
    if (fitting.size() > 1) return {std::nullopt, i, std::move(fitting)};
  }
  return {};
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  });
  return text;
}

// Typing mistakes a suggestion may be away from a name of `length` bytes: none for the
// shortest names (one letter apart is then a different name), a few for long ones.
std::size_t typo_allowance(std::size_t length) {
  return length <= 2 ? 0 : length <= 5 ? 1 : length <= 10 ? 2 : 3;
}

// `key` up to its extension (".bashrc" has none).
std::string_view stem_of(std::string_view key) {
  const std::size_t dot = key.rfind('.');
  return dot == std::string_view::npos || dot == 0 ? key : key.substr(0, dot);
}

// The names in `directory` closest to `wanted`, closest first, as the model is shown them.
std::vector<std::string> closest_names(const fs::path& directory, std::string_view wanted) {
  const std::string key = lowercase(loose_key(wanted));
  const std::size_t allowance = typo_allowance(key.size());
  struct Candidate {
    std::size_t distance;
    std::string shown;
  };
  std::vector<Candidate> candidates;
  for_each_entry(directory, [&](const std::string& name, const fs::directory_entry& entry) {
    if (name == wanted) return;
    const std::string entry_key = lowercase(loose_key(name));
    std::size_t distance = util::bounded_edit_distance(key, entry_key, allowance);
    if (distance > allowance) {
      if (stem_of(entry_key) != stem_of(key)) return;
      distance = allowance;  // the same name with another extension
    }
    std::error_code ignored;
    candidates.push_back({distance, escape_name(name) + (entry.is_directory(ignored) ? "/" : "")});
  });
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.distance != b.distance ? a.distance < b.distance : a.shown < b.shown;
  });
  std::vector<std::string> names;
  for (std::size_t i = 0; i < candidates.size() && i < kMaxSuggestedNames; ++i) {
    names.push_back(std::move(candidates[i].shown));
  }
  return names;
}

// `text` as a JSON string, with the invisible no-break spaces written as escapes, so that two
// names that differ only in them look different and can be copied into a call.
std::string visible_json_string(std::string_view text) {
  std::string quoted = util::json_text(std::string(text));
  replace_all(quoted, kNoBreakSpace, "\\u00a0");
  replace_all(quoted, kNarrowNoBreakSpace, "\\u202f");
  return quoted;
}

}  // namespace

LocatedPath locate_path(std::string_view requested, const fs::path& cwd, const fs::path& home,
                        LocateFor purpose) {
  const fs::path literal = resolve_path(requested, cwd, home);
  // A NUL would cut every look at the disk short; the tools refuse such a path anyway.
  if (requested.find('\0') != std::string_view::npos) return {literal, false, {}};
  std::vector<fs::path> spellings{literal};
  if (requested.size() > 1 && requested.front() == '@') {
    spellings.push_back(resolve_path(requested.substr(1), cwd, home));
  }
  Found found = find_existing(spellings);
  if (found.path) return {*found.path, true, {}};
  if (!found.ambiguous.empty()) return {literal, false, std::move(found.ambiguous)};
  if (purpose == LocateFor::kCreate && literal.has_filename()) {
    std::vector<fs::path> parents;
    for (const auto& spelling : spellings) parents.push_back(spelling.parent_path());
    Found parent = find_existing(parents);
    // The new file's name as the spelling that found its directory writes it.
    const fs::path name = spellings[parent.spelling].filename();
    if (parent.path) return {*parent.path / name, false, {}};
    if (!parent.ambiguous.empty()) {
      for (auto& directory : parent.ambiguous) directory /= name;
      return {literal, false, std::move(parent.ambiguous)};
    }
  }
  return {literal, false, {}};
}

LocatedPath locate_path(std::string_view requested, const fs::path& cwd, LocateFor purpose) {
  return locate_path(requested, cwd, util::process_places().home, purpose);
}

std::string ambiguous_path_message(std::string_view requested, const LocatedPath& located,
                                   const fs::path& cwd) {
  std::string text = "No file is named " + visible_json_string(escape_name(requested)) +
                     " exactly, and it fits several once no-break spaces (U+00A0, U+202F) count "
                     "as spaces and \\xNN escapes as bytes:";
  for (std::size_t i = 0; i < located.ambiguous.size(); ++i) {
    text += (i == 0 ? " " : ", ") + visible_json_string(display_path(located.ambiguous[i], cwd));
  }
  return text + ". Give the path of the one you mean exactly as shown (a JSON string).";
}

std::string did_you_mean(const fs::path& missing, const fs::path& cwd) {
  fs::path first_missing = missing.lexically_normal();
  if (!first_missing.has_filename()) first_missing = first_missing.parent_path();
  while (first_missing.has_relative_path() && !path_exists(first_missing.parent_path())) {
    first_missing = first_missing.parent_path();
  }
  const fs::path directory = first_missing.parent_path();
  std::error_code error;
  if (!first_missing.has_filename() || !fs::is_directory(directory, error)) return {};
  const auto names = closest_names(directory, first_missing.filename().native());
  if (names.empty()) return {};
  std::string text = " Did you mean";
  for (std::size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? " " : i + 1 == names.size() ? " or " : ", ") + names[i];
  }
  const std::string shown = display_path(directory, cwd);
  return text + "? (in " + (shown == "." ? "the working directory" : shown) + ")";
}

}  // namespace nib::tools
