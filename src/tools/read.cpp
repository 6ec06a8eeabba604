#include "tools/read.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <variant>
#include <vector>

#include "process/unique_fd.hpp"
#include "tools/file_type.hpp"
#include "tools/image.hpp"
#include "tools/limits.hpp"
#include "tools/path.hpp"
#include "tools/path_tool.hpp"
#include "tools/text_page.hpp"
#include "util/base64.hpp"
#include "util/byte_size.hpp"
#include "util/json_text.hpp"
#include "util/result.hpp"
#include "util/utf8.hpp"

namespace nib::tools {
namespace {

using core::ToolOutput;
using nlohmann::json;

std::string description() {
  const std::string lines = std::to_string(process::kMaxOutputLines);
  const std::string edge = std::to_string(kMaxImageEdgePx);
  return "Read a file: its text as it is (no line numbers), at most " + lines + " lines or " +
         util::format_byte_size(process::kMaxOutputBytes) +
         " per call. When more remains, a note ends the result, e.g. \"[Showing lines 1-" + lines +
         " of 5120. Use offset=" + std::to_string(process::kMaxOutputLines + 1) +
         " to continue.]\". Images (PNG, JPEG, GIF, WebP) are attached for you to see, scaled "
         "to fit " +
         edge + "x" + edge +
         " pixels; other binary files give their size and type. For directories use ls.";
}

json parameters() {
  return {
      {"type", "object"},
      {"properties",
       {{"path", path_parameter(PathDefault::kNone)},
        {"offset",
         {{"type", "integer"}, {"minimum", 1}, {"description", "First line to read, 1-based."}}},
        {"limit", {{"type", "integer"}, {"minimum", 1}, {"description", "Lines to read."}}}}},
      {"required", {"path"}},
  };
}

struct ReadArguments {
  std::string path;
  std::size_t offset = 1;
  std::optional<std::size_t> limit;
};

// A whole number >= 1 from `args[name]`, nullopt when absent, or a message saying what is wrong.
util::Result<std::optional<std::size_t>> positive_integer(const json& args, const char* name) {
  const auto it = args.find(name);
  if (it == args.end() || it->is_null()) return std::optional<std::size_t>{};
  const json& value = *it;
  if (value.is_number_integer() && value.get<std::int64_t>() >= 1) {
    return std::optional<std::size_t>(value.get<std::uint64_t>());
  }
  // 10.0 is as good as 10; some models write integers that way.
  if (value.is_number_float() && value.get<double>() >= 1 && value.get<double>() < 1e18 &&
      value.get<double>() == static_cast<double>(static_cast<std::uint64_t>(value.get<double>()))) {
    return std::optional<std::size_t>(static_cast<std::uint64_t>(value.get<double>()));
  }
  return util::Result<std::optional<std::size_t>>::failure(
      std::string(name) + " must be a whole number >= 1, got " + util::json_text(value) + ".");
}

// The arguments, or a message saying what is wrong with them.
util::Result<ReadArguments> parse_arguments(const json& args) {
  using Result = util::Result<ReadArguments>;
  ReadArguments parsed;
  const auto path = required_path(args, "read");
  if (!path.ok()) return Result::failure(path.error());
  parsed.path = path.value();
  const auto offset = positive_integer(args, "offset");
  if (!offset.ok()) return Result::failure(offset.error());
  parsed.offset = offset.value().value_or(1);
  const auto limit = positive_integer(args, "limit");
  if (!limit.ok()) return Result::failure(limit.error());
  parsed.limit = limit.value();
  return parsed;
}

// `raw` (bytes that are not UTF-8 included) as one bash word in $'...' form, which writes those
// bytes as \xNN escapes.
std::string ansi_c_quote(std::string_view raw) {
  std::string escaped;
  for (const char c : raw) {
    if (c == '\'' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return "$'" + escape_name(escaped) + "'";
}

// `text`, a path as display_path() shows it, as one POSIX shell word for commands the model may
// copy: the bytes its \xNN escapes stand for are written so that bash passes them on.
std::string shell_quote(std::string_view text) {
  if (const auto raw = unescape_name(text); raw && !util::is_valid_utf8(*raw)) {
    return ansi_c_quote(*raw);
  }
  const bool plain = !text.empty() && text.find_first_not_of(
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                          "0123456789_-./+,:@%") == std::string_view::npos;
  if (plain) return std::string(text);
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string error_text(int error_number) {
  return std::system_category().message(error_number);
}

// Everything one call needs to name its file.
struct Target : CallPath {
  std::filesystem::path cwd;  // the call's working directory
  std::string quoted;         // `shown` as a shell word
};

ToolOutput aborted(const Target& target) {
  return ToolOutput::error("Aborted: reading " + target.shown + " was stopped.");
}

ToolOutput read_failure(int error_number, const Target& target) {
  return ToolOutput::error("Error reading " + target.shown + ": " + error_text(error_number) + ".");
}

ToolOutput open_failure(int error_number, const Target& target) {
  switch (error_number) {
    case ENOENT:
      return ToolOutput::error(
          not_found_message("File", target, target.cwd, NotFoundDetail::kAbsolutePathAndParent,
                            "Check the path, or search for the file with find."));
    case EACCES:
    case EPERM:
      return ToolOutput::error("Permission denied: cannot read " + target.shown +
                               ". Check its permissions with bash: ls -l " + target.quoted);
    case ENOTDIR:
      return ToolOutput::error("Cannot read " + target.shown +
                               ": a part of the path before the last is a file, not a "
                               "directory.");
    default:
      return ToolOutput::error("Cannot read " + target.shown + ": " + error_text(error_number) +
                               ".");
  }
}

// An error for anything that is not a regular file, or nullopt for a regular file.
std::optional<ToolOutput> refuse_unless_regular(const struct stat& info, const Target& target) {
  if (S_ISREG(info.st_mode)) return std::nullopt;
  if (S_ISDIR(info.st_mode)) {
    return ToolOutput::error(target.shown +
                             " is a directory, not a file. List it with the "
                             "ls tool or with bash: ls -la " +
                             target.quoted);
  }
  return ToolOutput::error(target.shown + " is " + file_kind_name(info.st_mode) +
                           ", not a regular file, so read does not open it: reading it "
                           "could block forever or never end. If you need its data, use "
                           "bash with a timeout, e.g. timeout 5 head -c 4096 " +
                           target.quoted);
}

// Up to `max_bytes` from the start of `fd`, read in blocks with `stop` checked between them.
// std::monostate when stopped; an errno value when a read fails.
std::variant<std::string, int, std::monostate> read_prefix(int fd, std::size_t max_bytes,
                                                           std::stop_token stop) {
  std::string data;
  std::vector<char> buffer(std::min(max_bytes, kReadChunkBytes));
  while (data.size() < max_bytes) {
    if (stop.stop_requested()) return std::monostate{};
    const ssize_t count = pread(fd, buffer.data(), std::min(buffer.size(), max_bytes - data.size()),
                                static_cast<off_t>(data.size()));
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) return errno;
    if (count == 0) break;
    data.append(buffer.data(), static_cast<std::size_t>(count));
  }
  return data;
}

// Sets `seen` to the file's state when the image is shown.
ToolOutput read_image(int fd, const struct stat& info, ImageFormat format, const Target& target,
                      std::stop_token stop, std::optional<FileState>& seen) {
  const std::string mime = image_mime_type(format);
  const auto omitted = [&](const std::string& reason) {
    return ToolOutput::error("Image file " + target.shown + " [" + mime + ", " +
                             util::format_byte_size(info.st_size) + "] omitted: " + reason + ".");
  };
  if (static_cast<std::uint64_t>(info.st_size) > kMaxImageFileBytes) {
    return omitted("it is larger than the " + util::format_byte_size(kMaxImageFileBytes) +
                   " this tool decodes. Make a smaller copy with bash (e.g. ImageMagick: convert " +
                   target.quoted + " -resize " + std::to_string(kMaxImageEdgePx) + "x" +
                   std::to_string(kMaxImageEdgePx) + " /tmp/smaller.png) and read that");
  }
  auto bytes = read_prefix(fd, kMaxImageFileBytes, stop);
  if (std::holds_alternative<std::monostate>(bytes)) return aborted(target);
  if (const int* error = std::get_if<int>(&bytes)) return read_failure(*error, target);
  const ImageOutcome outcome = prepare_image(std::get<std::string>(bytes), format, {}, stop);
  if (outcome.aborted) return aborted(target);
  if (!outcome.image) return omitted(outcome.failure);

  const PreparedImage& image = *outcome.image;
  const std::string text =
      "Read image file [" + image.mime_type + "] " + describe_prepared_image(image);
  ToolOutput result{text};
  result.content = core::Content{
      core::TextBlock{text}, core::ImageBlock{util::base64_encode(image.data), image.mime_type}};
  seen = file_state(info, std::get<std::string>(bytes));
  return result;
}

ToolOutput binary_notice(const struct stat& info, std::string_view head, const Target& target) {
  const FileTypeGuess guess = guess_file_type(head, target.quoted);
  std::string text = target.shown + " is a binary file (" + guess.description + ", " +
                     util::format_byte_size(info.st_size) + "); its contents are not shown.";
  if (!guess.hint.empty()) text += " To look inside it, try bash: " + guess.hint;
  return ToolOutput{text};
}

std::string line_range(std::size_t first, std::size_t last) {
  return first == last ? "line " + std::to_string(first)
                       : "lines " + std::to_string(first) + "-" + std::to_string(last);
}

// Said once per page that shows CRLF lines: the text shows them as plain line breaks, which a
// model rewriting the file with write would otherwise copy. (edit keeps every line's ending.)
std::string crlf_note(const TextPage& page) {
  const std::string which = page.lf_lines == 0
                                ? "This file has CRLF (\\r\\n) line ends"
                                : std::to_string(page.crlf_lines) + " of the " +
                                      std::to_string(page.crlf_lines + page.lf_lines) +
                                      " line ends shown are CRLF (\\r\\n), the others LF";
  return "[" + which +
         "; the text above shows them without the \\r. edit keeps them as they are; if you "
         "rewrite the file with write, put the \\r\\n back.]";
}

// The page of a text file `args` asks for, as the model reads it.
ToolOutput page_result(const TextPage& page, const ReadArguments& args, const Target& target) {
  switch (page.status) {
    case PageStatus::kOk:
      break;
    case PageStatus::kAborted:
      return aborted(target);
    case PageStatus::kIoError:
      return read_failure(page.error_number, target);
    case PageStatus::kPastEnd:
      if (page.total_lines == 0) {
        return ToolOutput::error("Offset " + std::to_string(args.offset) + " is past the end of " +
                                 target.shown + ": the file is empty.");
      }
      return ToolOutput::error("Offset " + std::to_string(args.offset) + " is past the end of " +
                               target.shown + ", which has " + std::to_string(page.total_lines) +
                               " lines. Use an offset from 1 to " +
                               std::to_string(page.total_lines) + ".");
  }
  if (page.total_lines == 0) return ToolOutput{"[" + target.shown + " is empty.]"};

  std::vector<std::string> notes;
  if (page.end == PageEnd::kCutLine) {
    // Positions for cut(1) count the file's bytes, including a byte order mark on line 1.
    const std::uint64_t skipped = page.first_line == 1 && page.had_bom ? 3 : 0;
    const std::uint64_t from = skipped + page.cut_shown_bytes + 1;
    notes.push_back("[Line " + std::to_string(page.first_line) + " is " +
                    util::format_byte_size(page.cut_line_bytes) + ", more than the " +
                    util::format_byte_size(process::kMaxOutputBytes) +
                    " a result may hold; showing its first " +
                    std::to_string(page.cut_shown_bytes) +
                    " bytes. See more of it with bash: sed -n '" + std::to_string(page.first_line) +
                    "p' " + target.quoted + " | cut -b " + std::to_string(from) + "-" +
                    std::to_string(from + process::kMaxOutputBytes - 1) + "]");
  }
  if (page.crlf_lines > 0) notes.push_back(crlf_note(page));
  if (page.last_line < page.total_lines) {
    const std::string reason =
        page.end == PageEnd::kMaxLines
            ? " (" + std::to_string(process::kMaxOutputLines) + "-line limit per read)"
        : page.end == PageEnd::kMaxBytes
            ? " (" + util::format_byte_size(process::kMaxOutputBytes) + " limit per read)"
            : "";
    notes.push_back("[Showing " + line_range(page.first_line, page.last_line) + " of " +
                    std::to_string(page.total_lines) + reason +
                    ". Use offset=" + std::to_string(page.last_line + 1) + " to continue.]");
  }
  std::string text = page.text;
  for (std::size_t i = 0; i < notes.size(); ++i) text += (i == 0 ? "\n\n" : "\n") + notes[i];
  return ToolOutput{std::move(text)};
}

PageRequest page_request(const ReadArguments& args) {
  PageRequest request;
  request.offset = args.offset;
  request.limit = args.limit;
  return request;
}

ToolOutput read_text(int fd, const ReadArguments& args, const Target& target,
                     std::stop_token stop) {
  return page_result(read_text_page(fd, page_request(args), stop), args, target);
}

// The page of the text the editor holds for the file, and its state as edit and write will see
// it (its identity on disk, the editor's text).
ToolOutput read_editor_text(const EditorFiles& editor, const ReadArguments& args,
                            const Target& target, const struct stat& info, std::stop_token stop,
                            std::optional<FileState>& seen) {
  auto held = editor.read(resolve_file(target.path), stop);
  if (!held.ok()) {
    return ToolOutput::error("Cannot read " + target.shown + " from the editor: " + held.error());
  }
  const std::string& text = held.value();
  const ReadAt from_text = [&text](char* buffer, std::size_t size, std::uint64_t offset) -> long {
    if (offset >= text.size()) return 0;
    const std::size_t count = std::min<std::size_t>(size, text.size() - offset);
    std::memcpy(buffer, text.data() + offset, count);
    return static_cast<long>(count);
  };
  ToolOutput result =
      page_result(read_text_page(from_text, page_request(args), stop), args, target);
  if (!result.is_error) seen = file_state(info, text);
  return result;
}

class ReadTool final : public PathTool {
 public:
  ReadTool(std::shared_ptr<FileTracker> files, std::shared_ptr<const EditorFiles> editor)
      : PathTool({.name = "read",
                  .description = description(),
                  .parameters = parameters(),
                  .concurrency_safe = true,
                  .access = core::AccessKind::kRead},
                 LocateFor::kExisting, PathDefault::kNone),
        files_(std::move(files)),
        editor_(std::move(editor)) {}

  ToolOutput execute(const json& args, std::stop_token stop,
                     const core::ToolContext& context) override {
    const auto parsed = parse_arguments(args);
    if (!parsed.ok()) return ToolOutput::error(parsed.error());
    const auto& arguments = parsed.value();
    const auto located = locate(arguments.path, context);
    if (!located.ok()) return ToolOutput::error(located.error());
    const Target target{located.value(), context.cwd, shell_quote(located.value().shown)};
    if (stop.stop_requested()) return aborted(target);

    // Look before opening: opening a FIFO or a device can block or have side effects.
    struct stat info {};
    if (stat(target.path.c_str(), &info) != 0) return open_failure(errno, target);
    if (auto refusal = refuse_unless_regular(info, target)) return std::move(*refusal);
    // O_NONBLOCK: should the path have become a FIFO since the look, open still returns.
    const process::UniqueFd file(
        open(target.path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    if (file.get() < 0) return open_failure(errno, target);
    if (fstat(file.get(), &info) != 0) return open_failure(errno, target);
    if (auto refusal = refuse_unless_regular(info, target)) return std::move(*refusal);

    auto head = read_prefix(file.get(), kSniffBytes, stop);
    if (std::holds_alternative<std::monostate>(head)) return aborted(target);
    if (const int* error = std::get_if<int>(&head)) return read_failure(*error, target);
    const std::string& bytes = std::get<std::string>(head);
    std::optional<FileState> seen;
    ToolOutput result;
    if (const auto format = detect_image_format(bytes)) {
      result = read_image(file.get(), info, *format, target, stop, seen);
    } else {
      const bool more_follows = static_cast<std::uint64_t>(info.st_size) > bytes.size();
      if (looks_binary(bytes, more_follows)) return binary_notice(info, bytes, target);
      if (editor_ && editor_->read) {
        result = read_editor_text(*editor_, arguments, target, info, stop, seen);
      } else {
        result = read_text(file.get(), arguments, target, stop);
        if (!result.is_error) seen = file_state_of(file.get(), info, stop);
      }
    }
    if (seen && !result.is_error) files_->record(resolve_file(target.path), *seen);
    return result;
  }

  // The file as PathTool locates it, and the line a page starts at, for front ends to point at.
  core::CallAccess access(const json& args, const core::ToolContext& context) const override {
    core::CallAccess access = PathTool::access(args, context);
    const auto offset = args.value("offset", json());
    if (offset.is_number_integer() && !access.paths.empty()) {
      access.paths.front().line = offset.get<std::int64_t>();
    }
    return access;
  }

  // "src/app.cpp:120-180" for a page; the file's lines say little in a row, how many were read
  // says enough.
  std::string describe_call(const json& args) const override {
    std::string text = describe_path_call(args);
    const auto offset = args.value("offset", json());
    const auto limit = args.value("limit", json());
    if (offset.is_number_integer()) {
      text += ":" + std::to_string(offset.get<long>());
      if (limit.is_number_integer()) {
        text += "-" + std::to_string(offset.get<long>() + limit.get<long>() - 1);
      }
    }
    return text;
  }
  std::optional<std::string> describe_result(const json& /*args*/,
                                             const core::ToolResult& result) const override {
    if (result.is_error) return std::nullopt;
    const std::string text = core::content_text(result.content, "[image]");
    const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) +
                       (text.empty() || text.back() == '\n' ? 0 : 1);
    return "Read " + std::to_string(lines) + (lines == 1 ? " line" : " lines");
  }

 private:
  std::shared_ptr<FileTracker> files_;
  std::shared_ptr<const EditorFiles> editor_;  // null: files are read on disk
};

}  // namespace

core::ToolPtr make_read_tool(std::shared_ptr<FileTracker> files,
                             std::shared_ptr<const EditorFiles> editor) {
  return std::make_shared<ReadTool>(std::move(files), std::move(editor));
}

}  // namespace nib::tools
