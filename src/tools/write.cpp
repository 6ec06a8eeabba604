#include "tools/write.hpp"

#include <algorithm>
#include <variant>

#include "tools/file_change.hpp"
#include "tools/file_type.hpp"
#include "tools/limits.hpp"
#include "tools/path_tool.hpp"
#include "tools/unified_diff.hpp"
#include "util/byte_size.hpp"
#include "util/plural.hpp"

namespace nib::tools {
namespace {

using core::ToolOutput;
using nlohmann::json;

std::string description() {
  return "Create a file or replace all of its content with `content`, exactly as given; "
         "missing directories are created. Overwrite an existing file only after you read it "
         "(your own edits and writes count) and while it is unchanged on disk. To change part "
         "of a file, use edit.";
}

json parameters() {
  return {
      {"type", "object"},
      {"properties",
       {{"path", path_parameter(PathDefault::kNone)}, {"content", {{"type", "string"}}}}},
      {"required", {"path", "content"}},
  };
}

std::size_t line_count(std::string_view text) {
  const auto breaks = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  return breaks + (!text.empty() && !text.ends_with('\n') ? 1 : 0);
}

// A write worked out but not yet done: the file as it is and the bytes it would hold.
struct PlannedWrite {
  CurrentFile file;
  std::string_view bytes;  // the call's content argument
};

// What the approval question shows of a planned write: a diff against the file's text
// (against nothing for a new file), or only a summary when either side is not text or the file
// is too large to compare.
core::ChangePreview write_preview(const PlannedWrite& planned) {
  const auto& [file, bytes] = planned;
  const std::string lines = util::plural(line_count(bytes), "line");
  const std::string size = util::format_byte_size(bytes.size());
  if (looks_binary(bytes, /*truncated=*/false)) {
    return {std::string(file.exists ? "Overwrites " : "Creates ") + file.shown +
            " with binary content (" + size + ")."};
  }
  if (file.exists && !file.loaded) {
    return {"Overwrites " + file.shown + ", " + util::format_byte_size(file.info.st_size) +
            " (too large to compare), with " + lines + " (" + size + ")."};
  }
  if (file.exists && looks_binary(file.bytes, /*truncated=*/false)) {
    return {"Overwrites " + file.shown + ", a binary file of " +
            util::format_byte_size(file.bytes.size()) + ", with " + lines + " of text (" + size +
            ")."};
  }
  if (file.exists && file.bytes == bytes) {
    return {"The content is the file's as it is: nothing would change."};
  }
  DiffHead diff = unified_diff_head(file.bytes, bytes, file.exists ? file.shown : "/dev/null",
                                    file.shown, kPreviewDiffLines);
  const std::string summary = file.exists ? "Overwrites all " +
                                                util::plural(line_count(file.bytes), "line") +
                                                " of " + file.shown + " with " + lines + "."
                                          : "New file, " + lines + " (" + size + ").";
  return {summary, std::move(diff.text), diff.omitted_lines, ""};
}

class WriteTool final : public PathTool {
 public:
  // A path that exists under another spelling (path_locate.hpp) names that file, which the
  // model must have read before it is overwritten; a new file is created in the directory the
  // path means, under its name as written.
  WriteTool(std::shared_ptr<FileTracker> files, std::shared_ptr<const EditorFiles> editor)
      : PathTool({"write", description(), parameters(), /*concurrency_safe=*/false,
                  core::AccessKind::kWrite, core::EditStyle::kReplace},
                 LocateFor::kCreate, PathDefault::kNone),
        files_(std::move(files)),
        editor_(std::move(editor)) {}

  ToolOutput execute(const json& args, std::stop_token stop,
                     const core::ToolContext& context) override {
    auto planned = plan(args, stop, context);
    if (auto* error = std::get_if<ToolOutput>(&planned)) return std::move(*error);
    const auto& [file, bytes] = std::get<PlannedWrite>(planned);
    const std::string& shown = file.shown;
    if (stop.stop_requested()) return ToolOutput::error("Aborted: " + shown + " was not written.");
    if (auto error = replace_file(*files_, file, bytes, /*create_parents=*/true, editor_.get())) {
      return std::move(*error);
    }
    ToolOutput result{std::string(file.exists ? "Overwrote " : "Created ") + shown + ": " +
                      util::plural(bytes.size(), "byte") + ", " +
                      util::plural(line_count(bytes), "line") + "."};
    if (!file.exists || file.loaded) {
      result.display = unified_diff(file.bytes, bytes, file.exists ? shown : "/dev/null", shown);
    }
    return result;
  }

  // The very steps execute() takes, short of writing: the diff is what "yes" would write.
  std::optional<core::ChangePreview> preview_change(const json& args,
                                                    const core::ToolContext& context,
                                                    std::stop_token stop) const override {
    return preview_of_plan(plan(args, stop, context), write_preview);
  }

 private:
  // Everything up to the write: the checks and the file as it is, or the error the model gets.
  // Changes nothing.
  std::variant<PlannedWrite, ToolOutput> plan(const json& args, std::stop_token stop,
                                              const core::ToolContext& context) const {
    const auto requested = required_path(args, "write");
    if (!requested.ok()) return ToolOutput::error(requested.error());
    const auto content = args.find("content");
    if (content == args.end() || !content->is_string()) {
      return ToolOutput::error("content must be a string: the complete new content of the file.");
    }
    const auto target = locate(requested.value(), context);
    if (!target.ok()) return ToolOutput::error(target.error());
    const auto& [path, shown] = target.value();
    if (requested.value().ends_with('/') || !path.has_filename()) {
      return ToolOutput::error(shown + " names a directory; give the path of a file in it.");
    }
    auto loaded = load_current_file(path, shown, kMaxEditFileBytes, "write", stop, editor_.get());
    if (auto* error = std::get_if<ToolOutput>(&loaded)) return std::move(*error);
    CurrentFile& file = std::get<CurrentFile>(loaded);
    if (file.exists) {
      if (auto refusal = refuse_unless_seen(*files_, file, "overwrite")) return std::move(*refusal);
    }
    return PlannedWrite{std::move(file), content->get_ref<const std::string&>()};
  }

  std::shared_ptr<FileTracker> files_;
  std::shared_ptr<const EditorFiles> editor_;  // null: files are read and written on disk
};

}  // namespace

core::ToolPtr make_write_tool(std::shared_ptr<FileTracker> files,
                              std::shared_ptr<const EditorFiles> editor) {
  return std::make_shared<WriteTool>(std::move(files), std::move(editor));
}

}  // namespace nib::tools
