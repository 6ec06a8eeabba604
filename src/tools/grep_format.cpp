#include "tools/grep_format.hpp"

#include <algorithm>
#include <utility>

namespace nib::tools {
namespace {

// '/' sorts before every other byte, so a directory's entries stay together.
int path_byte(char c) {
  return c == '/' ? 0 : static_cast<unsigned char>(c) + 1;
}

void sort_by_path(std::vector<FileMatches>& files) {
  std::sort(files.begin(), files.end(),
            [](const FileMatches& a, const FileMatches& b) { return path_less(a.path, b.path); });
}

}  // namespace

bool path_less(std::string_view a, std::string_view b) {
  const std::size_t common = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < common; ++i) {
    const int left = path_byte(a[i]);
    const int right = path_byte(b[i]);
    if (left != right) return left < right;
  }
  return a.size() < b.size();
}

MatchCollector::MatchCollector(std::size_t keep_matches, std::size_t keep_bytes)
    : keep_matches_(keep_matches), keep_bytes_(keep_bytes) {}

void MatchCollector::add(FileMatches file) {
  const std::lock_guard lock(mutex_);
  total_matches_ += file.matches;
  ++matching_files_;
  kept_matches_ += file.kept_matches;
  kept_bytes_ += file.kept_bytes;
  files_.push_back(std::move(file));
  if (kept_matches_ > 2 * keep_matches_ || kept_bytes_ > 2 * keep_bytes_) prune();
}

void MatchCollector::prune() {
  sort_by_path(files_);
  std::size_t matches = 0;
  std::size_t bytes = 0;
  std::size_t count = 0;
  // A file is needed while the files before it hold fewer lines than can be shown.
  while (count < files_.size() && matches < keep_matches_ && bytes < keep_bytes_) {
    matches += files_[count].kept_matches;
    bytes += files_[count].kept_bytes;
    ++count;
  }
  files_.erase(files_.begin() + static_cast<std::ptrdiff_t>(count), files_.end());
  kept_matches_ = matches;
  kept_bytes_ = bytes;
}

std::size_t MatchCollector::total_matches() const {
  const std::lock_guard lock(mutex_);
  return total_matches_;
}

std::size_t MatchCollector::matching_files() const {
  const std::lock_guard lock(mutex_);
  return matching_files_;
}

std::vector<FileMatches> MatchCollector::take_sorted() {
  const std::lock_guard lock(mutex_);
  sort_by_path(files_);
  kept_matches_ = 0;
  kept_bytes_ = 0;
  return std::exchange(files_, {});
}

FormattedMatches format_matches(const std::vector<FileMatches>& files, const FormatLimits& limits) {
  FormattedMatches out;
  std::size_t lines_out = 0;
  const FileMatches* previous_file = nullptr;
  std::size_t previous_number = 0;
  for (const FileMatches& file : files) {
    if (out.shown_matches == limits.limit) break;
    std::size_t last_match = 0;
    for (const GrepLine& line : file.lines) {
      const bool limit_reached = out.shown_matches == limits.limit;
      // Past the limit only the trailing context of the last shown match still belongs.
      if (limit_reached && (line.is_match || line.number > last_match + limits.context)) break;
      const bool separate = limits.context > 0 && previous_file != nullptr &&
                            (previous_file != &file || line.number != previous_number + 1);
      std::string entry = separate ? "--\n" : "";
      const char mark = line.is_match ? ':' : '-';
      entry += file.path;
      entry += mark;
      entry += std::to_string(line.number);
      entry += mark;
      if (!line.text.empty()) entry += " " + line.text;
      entry += "\n";
      const std::size_t entry_lines = separate ? 2 : 1;
      if (out.text.size() + entry.size() > limits.max_bytes ||
          lines_out + entry_lines > limits.max_lines) {
        out.output_cut = true;
        return out;
      }
      out.text += entry;
      lines_out += entry_lines;
      out.cut_lines = out.cut_lines || line.cut;
      previous_file = &file;
      previous_number = line.number;
      if (line.is_match) {
        ++out.shown_matches;
        last_match = line.number;
      }
    }
  }
  return out;
}

}  // namespace nib::tools
