#include "tools/apply_patch.hpp"

#include <algorithm>
#include <map>
#include <system_error>
#include <variant>

#include "core/claude_tool_names.hpp"
#include "tools/file_change.hpp"
#include "tools/limits.hpp"
#include "tools/patch_text.hpp"
#include "tools/path.hpp"
#include "tools/path_access.hpp"
#include "tools/text_view.hpp"
#include "tools/unified_diff.hpp"
#include "util/utf8.hpp"
#include "workspace/git_paths.hpp"

namespace nib::tools {
namespace {

using core::ToolOutput;
using nlohmann::json;

std::string description() {
  return "Change files with a patch: add, update (several hunks), move and delete files in one "
         "call. Read a file before changing it. The input is the patch itself:\n"
         "*** Begin Patch\n"
         "*** Update File: path/to/file.py\n"
         "@@ def context_line_before_the_change():\n"
         " unchanged line\n"
         "-removed line\n"
         "+added line\n"
         "*** Add File: path/new.txt\n"
         "+its first line\n"
         "*** Delete File: path/old.txt\n"
         "*** End Patch\n"
         "An update may be followed by '*** Move to: new/path'. Give about 3 lines of context "
         "around each change; '@@ line' names a line above it when the context alone is not "
         "unique; '*** End of File' ends a hunk that ends the file. The patch applies whole or "
         "not at all.";
}

// The patch's grammar as a custom tool declares it (ToolSpec::grammar), in Lark, the syntax the
// Responses protocol takes: what the service holds the model's text to. It is Codex's, so that
// the model writes what it was trained to write, and every text it allows is one parse_patch
// reads.
constexpr const char* kPatchGrammar = R"lark(start: begin_patch hunk+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

hunk: add_hunk | delete_hunk | update_hunk
add_hunk: "*** Add File: " filename LF add_line+
delete_hunk: "*** Delete File: " filename LF
update_hunk: "*** Update File: " filename LF change_move? change?

filename: /(.+)/
add_line: "+" /(.*)/ LF -> line

change_move: "*** Move to: " filename LF
change: (change_context | change_line)+ eof_line?
change_context: ("@@" | "@@ " /(.+)/) LF
change_line: ("+" | "-" | " ") /(.*)/ LF
eof_line: "*** End of File" LF

%import common.LF
)lark";

json parameters() {
  return {{"type", "object"},
          {"properties",
           {{"input",
             {{"type", "string"},
              {"description",
               "The whole patch, from '*** Begin "
               "Patch' to '*** End Patch'."}}}}},
          {"required", {"input"}}};
}

LocateFor purpose_of(PatchOperation::Kind kind) {
  return kind == PatchOperation::Kind::kAdd ? LocateFor::kCreate : LocateFor::kExisting;
}

// One operation worked out: the files as they are and what each becomes.
struct PlannedChange {
  char letter = 'M';  // A, M or D, for the success text
  CurrentFile file;   // the file the operation reads (and changes, unless moved)
  std::string bytes;  // its new content (not for a delete)
  std::optional<CurrentFile> destination;  // a move's
  std::size_t line = 0;                    // the operation's line in the patch
};

std::string shown(const PlannedChange& change) {
  return change.destination ? change.destination->shown : change.file.shown;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

// An added file's lines ("\n" after each, as parsed) with the line end `eol`.
std::string with_line_end(const std::string& contents, std::string_view eol) {
  if (eol == "\n") return contents;
  std::string text;
  text.reserve(contents.size() + contents.size() / 16);
  for (const char c : contents) {
    if (c == '\n') {
      text += eol;
    } else {
      text += c;
    }
  }
  return text;
}

// The change's labels and texts for a diff, line ends as the model sees them (TextView).
struct ChangeDiffSides {
  std::string old_label, new_label, old_text, new_text;
};

ChangeDiffSides diff_sides(const PlannedChange& change) {
  ChangeDiffSides sides;
  sides.old_label = change.file.exists ? change.file.shown : "/dev/null";
  sides.new_label = change.letter == 'D' ? "/dev/null" : shown(change);
  if (change.file.exists) sides.old_text = TextView(change.file.bytes).text();
  if (change.letter != 'D') sides.new_text = TextView(change.bytes).text();
  return sides;
}

// The diffs of every change, one after the other: the transcript's display.
std::string patch_diff(const std::vector<PlannedChange>& changes) {
  std::string diff;
  for (const PlannedChange& change : changes) {
    const ChangeDiffSides sides = diff_sides(change);
    diff += unified_diff(sides.old_text, sides.new_text, sides.old_label, sides.new_label);
  }
  return diff;
}

// What the approval question shows: the head of the same diffs, and how many operations.
core::ChangePreview patch_preview(const std::vector<PlannedChange>& changes) {
  core::ChangePreview preview;
  std::size_t left = kPreviewDiffLines;
  for (const PlannedChange& change : changes) {
    const ChangeDiffSides sides = diff_sides(change);
    DiffHead head =
        unified_diff_head(sides.old_text, sides.new_text, sides.old_label, sides.new_label, left);
    const auto lines =
        static_cast<std::size_t>(std::count(head.text.begin(), head.text.end(), '\n'));
    left -= std::min(left, lines);
    preview.diff += head.text;
    preview.omitted_lines += head.omitted_lines;
  }
  if (changes.size() > 1) {
    std::vector<std::string> names;
    for (const PlannedChange& change : changes) {
      names.push_back(std::string(1, change.letter) + " " + shown(change));
    }
    preview.summary = std::to_string(changes.size()) + " files: " + joined(names) + ".";
  }
  return preview;
}

class ApplyPatchTool final : public core::Tool {
 public:
  ApplyPatchTool(std::shared_ptr<FileTracker> files, std::shared_ptr<const EditorFiles> editor)
      : core::Tool({std::string(core::kApplyPatchToolName), description(), parameters(),
                    /*concurrency_safe=*/false, core::AccessKind::kWrite, core::EditStyle::kPatch,
                    kPatchGrammar}),
        files_(std::move(files)),
        editor_(std::move(editor)) {}

  // Every file the patch names, and every move's destination, as the call will locate them.
  core::CallAccess access(const json& args, const core::ToolContext& context) const override {
    core::CallAccess access;
    const auto operations = parse_patch(args.value("input", ""));
    if (!operations.ok()) return access;  // the call fails before touching anything
    for (const PatchOperation& operation : operations.value()) {
      access.paths.push_back(path_access(operation.path, context.cwd, purpose_of(operation.kind)));
      if (operation.move_to) {
        access.paths.push_back(path_access(*operation.move_to, context.cwd, LocateFor::kCreate));
      }
    }
    return access;
  }

  std::string describe_call(const json& args) const override {
    const auto operations = parse_patch(args.value("input", ""));
    if (!operations.ok()) return {};
    std::vector<std::string> paths;
    for (const PatchOperation& operation : operations.value()) paths.push_back(operation.path);
    return joined(paths);
  }

  ToolOutput execute(const json& args, std::stop_token stop,
                     const core::ToolContext& context) override {
    auto planned = plan(args, stop, context);
    if (auto* error = std::get_if<ToolOutput>(&planned)) return std::move(*error);
    std::vector<PlannedChange>& changes = std::get<std::vector<PlannedChange>>(planned);
    if (stop.stop_requested()) return ToolOutput::error("Aborted: nothing was changed.");
    std::vector<std::string> done;
    // Only a write refused by the system (a full disk, a file changed meanwhile) gets here: the
    // patch itself was worked out whole before the first write.
    const auto failed = [&](const std::string& why) {
      return ToolOutput::error(
          why + (done.empty() ? " Nothing was changed."
                              : " These were changed before the failure: " + joined(done) + "."));
    };
    for (const PlannedChange& change : changes) {
      if (change.letter == 'D') {
        std::error_code error;
        if (!std::filesystem::remove(change.file.target, error) || error) {
          return failed("Cannot delete " + change.file.shown + ": " +
                        (error ? error.message() : "it is gone") + ".");
        }
      } else if (change.destination) {
        if (auto error = replace_file(*files_, *change.destination, change.bytes,
                                      /*create_parents=*/true, editor_.get())) {
          return failed(error->output);
        }
        std::error_code error;
        if (!std::filesystem::remove(change.file.target, error) || error) {
          done.push_back(shown(change));
          return failed("Moved " + change.file.shown + " to " + shown(change) +
                        " but cannot remove " + change.file.shown + ": " +
                        (error ? error.message() : "it is gone") + ".");
        }
      } else if (auto error = replace_file(*files_, change.file, change.bytes,
                                           /*create_parents=*/true, editor_.get())) {
        return failed(error->output);
      }
      done.push_back(shown(change));
    }
    std::string text = "Success. Updated the following files:\n";
    for (const char letter : {'A', 'M', 'D'}) {
      for (const PlannedChange& change : changes) {
        if (change.letter == letter) text += std::string(1, letter) + " " + shown(change) + "\n";
      }
    }
    ToolOutput result{std::move(text)};
    result.display = patch_diff(changes);
    return result;
  }

  // The very plan execute() follows, short of writing: "yes" applies exactly this diff.
  std::optional<core::ChangePreview> preview_change(const json& args,
                                                    const core::ToolContext& context,
                                                    std::stop_token stop) const override {
    return preview_of_plan(plan(args, stop, context), patch_preview);
  }

 private:
  // A file the patch names, located as judged and loaded (its text from the editor, when one
  // holds it); else the error for the model.
  std::variant<CurrentFile, ToolOutput> load(const std::string& requested, LocateFor purpose,
                                             std::stop_token stop,
                                             const core::ToolContext& context) const {
    auto located = locate_judged(requested, context, purpose);
    if (auto* failure = std::get_if<std::string>(&located)) {
      return ToolOutput::error(*failure + " Nothing was changed.");
    }
    const std::filesystem::path path = std::get<LocatedPath>(located).path;
    auto loaded = load_current_file(path, display_path(path, context.cwd), kMaxEditFileBytes,
                                    "apply_patch", stop, editor_.get());
    if (auto* error = std::get_if<ToolOutput>(&loaded)) error->output += " Nothing was changed.";
    return loaded;
  }

  // One operation worked out, or the error (which says nothing was changed).
  std::variant<PlannedChange, ToolOutput> plan_operation(const PatchOperation& operation,
                                                         std::stop_token stop,
                                                         const core::ToolContext& context) const {
    auto loaded = load(operation.path, purpose_of(operation.kind), stop, context);
    if (auto* error = std::get_if<ToolOutput>(&loaded)) return std::move(*error);
    PlannedChange change{.file = std::move(std::get<CurrentFile>(loaded)), .line = operation.line};
    const CurrentFile& file = change.file;
    const auto unchanged = [](std::string why) {
      return ToolOutput::error(std::move(why) + " Nothing was changed.");
    };
    if (operation.kind == PatchOperation::Kind::kAdd) {
      change.letter = 'A';
      if (file.exists) {
        if (auto refusal = refuse_unless_seen(*files_, file, "overwrite")) {
          return unchanged(refusal->output);
        }
      }
      // A file replaced keeps its line ends; a new one gets those git would give it.
      const std::string_view eol = file.exists && file.loaded
                                       ? dominant_line_end(file.bytes)
                                       : workspace::git_new_file_line_end(file.target);
      change.bytes = with_line_end(operation.contents, eol);
      return change;
    }
    if (!file.exists) return unchanged(file.shown + " does not exist.");
    if (!file.loaded) {
      return unchanged(file.shown + " is larger than apply_patch handles; change it with bash.");
    }
    if (file.bytes.find('\0') != std::string::npos) {
      return unchanged(file.shown + " is a binary file; apply_patch changes text files.");
    }
    const bool deleting = operation.kind == PatchOperation::Kind::kDelete;
    if (auto refusal = refuse_unless_seen(*files_, file, deleting ? "delete" : "edit")) {
      return unchanged(refusal->output);
    }
    if (deleting) {
      change.letter = 'D';
      return change;
    }
    auto updated = apply_chunks(file.bytes, operation.chunks, file.shown);
    if (!updated.ok()) {
      // Lines that are not UTF-8 are matched byte for byte, and read showed their bad bytes as
      // U+FFFD, which the model's context then holds: say why such a line cannot be found.
      if (!util::is_valid_utf8(file.bytes)) {
        return unchanged(updated.error() + "\n" + file.shown +
                         " is not valid UTF-8: a line with bytes read showed as U+FFFD cannot be "
                         "matched; change such lines with bash.");
      }
      return unchanged(updated.error());
    }
    change.bytes = std::move(updated.value());
    if (!operation.move_to) return change;
    auto destination = load(*operation.move_to, LocateFor::kCreate, stop, context);
    if (auto* error = std::get_if<ToolOutput>(&destination)) return std::move(*error);
    CurrentFile& moved = std::get<CurrentFile>(destination);
    if (moved.target == file.target) return change;  // a move onto itself is an update
    if (moved.exists) {
      if (auto refusal = refuse_unless_seen(*files_, moved, "overwrite")) {
        return unchanged(refusal->output);
      }
    }
    change.destination = std::move(moved);
    return change;
  }

  // Everything up to the writes: every operation checked and worked out, or the error.
  std::variant<std::vector<PlannedChange>, ToolOutput> plan(
      const json& args, std::stop_token stop, const core::ToolContext& context) const {
    const auto input = args.find("input");
    if (input == args.end() || !input->is_string()) {
      return ToolOutput::error("input must be a string: the whole patch.");
    }
    auto operations = parse_patch(input->get_ref<const std::string&>());
    if (!operations.ok()) return ToolOutput::error(operations.error() + ". Nothing was changed.");
    if (operations.value().empty()) {
      return ToolOutput::error("No files were modified: the patch is empty.");
    }
    std::vector<PlannedChange> changes;
    // Each operation is worked out against the files as they are, so a file may be named once:
    // a second operation on it would be planned against content the first replaces.
    std::map<std::filesystem::path, std::size_t> named_at;  // target -> the operation's line
    for (const PatchOperation& operation : operations.value()) {
      auto planned = plan_operation(operation, stop, context);
      if (auto* error = std::get_if<ToolOutput>(&planned)) return std::move(*error);
      PlannedChange& change = std::get<PlannedChange>(planned);
      for (const CurrentFile* file :
           {&change.file, change.destination ? &*change.destination : nullptr}) {
        if (file == nullptr) continue;
        const auto [earlier, first] = named_at.emplace(file->target, change.line);
        if (!first) {
          return ToolOutput::error(
              file->shown + " is named by two operations of the patch (lines " +
              std::to_string(earlier->second) + " and " + std::to_string(change.line) +
              "); give all of a file's changes in one operation. Nothing was changed.");
        }
      }
      changes.push_back(std::move(change));
    }
    return changes;
  }

  std::shared_ptr<FileTracker> files_;
  std::shared_ptr<const EditorFiles> editor_;  // null: files on disk
};

}  // namespace

core::ToolPtr make_apply_patch_tool(std::shared_ptr<FileTracker> files,
                                    std::shared_ptr<const EditorFiles> editor) {
  return std::make_shared<ApplyPatchTool>(std::move(files), std::move(editor));
}

}  // namespace nib::tools
