#include "extensions/file_includes.hpp"

#include <algorithm>
#include <fstream>
#include <vector>

#include "extensions/limits.hpp"
#include "util/blank_text.hpp"
#include "util/byte_size.hpp"
#include "util/text_cut.hpp"
#include "util/utf8.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTrailingPunctuation = ".,;:!?)]}'\"";

bool is_fence(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  return line.starts_with("```") || line.starts_with("~~~");
}

// The @path tokens of one line outside inline code spans, appended to `tokens`.
void tokens_in_line(std::string_view line, std::vector<std::string>& tokens) {
  std::size_t span = 0;  // the backtick run that opened the current code span; 0 outside one
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == '`') {
      std::size_t run = 0;
      while (i + run < line.size() && line[i + run] == '`') ++run;
      if (span == 0) {
        span = run;
      } else if (span == run) {
        span = 0;
      }
      i += run;
      continue;
    }
    const bool starts_token = span == 0 && line[i] == '@' &&
                              (i == 0 || util::is_blank(line[i - 1]) || line[i - 1] == '(');
    if (!starts_token) {
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    while (end < line.size() && !util::is_blank(line[end]) && line[end] != '`') ++end;
    const std::string token(line.substr(i + 1, end - i - 1));
    if (!token.empty() && token.front() != '@' &&
        std::find(tokens.begin(), tokens.end(), token) == tokens.end()) {
      tokens.push_back(token);
    }
    i = end;
  }
}

// Every distinct @path token of `text` outside code, in order of first appearance.
std::vector<std::string> include_tokens(std::string_view text) {
  std::vector<std::string> tokens;
  bool in_fence = false;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    if (is_fence(line)) {
      in_fence = !in_fence;
    } else if (!in_fence) {
      tokens_in_line(line, tokens);
    }
    start = end + 1;
  }
  return tokens;
}

fs::path target_of(const fs::path& working_dir, std::string_view path) {
  return fs::path(path).is_absolute() ? fs::path(path) : working_dir / path;
}

// The path a token names: as written when such a file exists, else without trailing
// punctuation ("see @notes.md." names notes.md).
std::string path_of(const fs::path& working_dir, std::string path) {
  std::error_code error;
  while (!fs::exists(target_of(working_dir, path), error) && path.size() > 1 &&
         kTrailingPunctuation.find(path.back()) != std::string_view::npos) {
    path.pop_back();
  }
  return path;
}

std::string marker(std::string_view path, std::string_view reason) {
  return "[@" + std::string(path) + ": not included: " + std::string(reason) + "]";
}

bool is_inside(const fs::path& path, const fs::path& directory) {
  const fs::path relative = path.lexically_relative(directory);
  return !relative.empty() && *relative.begin() != "..";
}

// The block for one included file, spending `budget` bytes at most (and taking them off it).
std::string include_block(const fs::path& working_dir, std::string_view path, std::size_t& budget) {
  std::error_code error;
  const fs::path target = target_of(working_dir, path);
  if (!fs::exists(target, error)) return marker(path, "no such file in the working directory");
  const fs::path resolved = fs::weakly_canonical(target, error);
  if (error || !is_inside(resolved, fs::weakly_canonical(working_dir, error))) {
    return marker(path, "it is outside the working directory; only files under it are included");
  }
  if (fs::is_directory(resolved, error)) return marker(path, "it is a directory; name a file");
  if (budget == 0) {
    return marker(path, "the files before it reached " + util::format_byte_size(kMaxIncludedBytes) +
                            "; read it with the read tool");
  }
  std::ifstream in(resolved, std::ios::binary);
  if (!in) return marker(path, "it cannot be read");
  const std::size_t limit = std::min(kMaxIncludeBytes, budget);
  std::string content(limit + 1, '\0');
  in.read(content.data(), static_cast<std::streamsize>(content.size()));
  content.resize(static_cast<std::size_t>(in.gcount()));
  if (content.find('\0') != std::string::npos) return marker(path, "it is not a text file");
  // Replaced bytes grow (U+FFFD is three), so the cut comes after the replacing; a sequence
  // split by the read's end becomes U+FFFD past the cut and is dropped with it.
  content = util::sanitize_utf8(content);
  const std::size_t text_bytes = content.size();
  const bool cut = text_bytes > limit;
  if (cut) content.resize(util::utf8_prefix_length(content, limit));
  budget -= std::min(budget, content.size());
  std::string block = "<file path=\"" + std::string(path) + "\">\n" + content;
  if (!block.ends_with('\n')) block += '\n';
  if (cut) {
    // The line the included text stops in, which the read tool's offset starts from.
    const auto next_line = std::count(content.begin(), content.end(), '\n') + 1;
    const std::uintmax_t size = fs::file_size(resolved, error);
    // The file's bytes after the included ones; the text read stands in when the size is
    // unknown or replaced bytes made the included text longer than the file.
    const bool sized = !error && size >= text_bytes;
    block += util::cut_marker((sized ? size : text_bytes) - content.size(),
                              std::string(path) + " is " +
                                  (error ? "larger" : util::format_byte_size(size)) +
                                  "; only the first " + util::format_byte_size(limit) +
                                  " are included; read the rest with the read tool, offset=" +
                                  std::to_string(next_line)) +
             "\n";
  }
  return block + "</file>";
}

}  // namespace

std::string include_files(std::string_view text, const fs::path& working_dir) {
  std::string out(text);
  std::size_t budget = kMaxIncludedBytes;
  std::vector<std::string> included;
  for (const std::string& token : include_tokens(text)) {
    const std::string path = path_of(working_dir, token);
    if (std::find(included.begin(), included.end(), path) != included.end()) continue;
    included.push_back(path);
    out += "\n\n" + include_block(working_dir, path, budget);
  }
  return out;
}

}  // namespace nib::extensions
