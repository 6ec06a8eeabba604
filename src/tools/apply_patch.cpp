#include "tools/apply_patch.hpp"

#include <system_error>
#include <variant>

#include "tools/file_change.hpp"
#include "tools/limits.hpp"
#include "tools/patch_text.hpp"
#include "tools/path.hpp"
#include "tools/path_access.hpp"

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
};

class ApplyPatchTool final : public core::Tool {
 public:
  ApplyPatchTool(std::shared_ptr<FileTracker> files, std::shared_ptr<const EditorFiles> editor)
      : core::Tool({"apply_patch", description(), parameters(), /*concurrency_safe=*/false,
                    core::AccessKind::kWrite}),
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
    if (!operations.ok() || operations.value().empty()) return {};
    std::string text;
    for (const PatchOperation& operation : operations.value()) {
      text += (text.empty() ? "" : ", ") + operation.path;
    }
    return text;
  }

  ToolOutput execute(const json& args, std::stop_token stop,
                     const core::ToolContext& context) override {
    auto planned = plan(args, stop, context);
    if (auto* error = std::get_if<ToolOutput>(&planned)) return std::move(*error);
    std::vector<PlannedChange>& changes = std::get<std::vector<PlannedChange>>(planned);
    if (stop.stop_requested()) return ToolOutput::error("Aborted: nothing was changed.");
    std::vector<std::string> done;
    const auto failed = [&](const ToolOutput& error) {
      std::string text = error.output;
      text += done.empty() ? " Nothing was changed."
                           : " These were changed before the failure: " + joined(done) + ".";
      return ToolOutput::error(std::move(text));
    };
    for (const PlannedChange& change : changes) {
      if (change.letter == 'D') {
        std::error_code error;
        if (!std::filesystem::remove(change.file.target, error) || error) {
          return failed(ToolOutput::error("Cannot delete " + change.file.shown + ": " +
                                          (error ? error.message() : "it is gone") + "."));
        }
      } else if (change.destination) {
        if (auto error = replace_file(*files_, *change.destination, change.bytes,
                                      /*create_parents=*/true, editor_.get())) {
          return failed(*error);
        }
        std::error_code error;
        std::filesystem::remove(change.file.target, error);
      } else if (auto error = replace_file(*files_, change.file, change.bytes,
                                           /*create_parents=*/true, editor_.get())) {
        return failed(*error);
      }
      done.push_back(shown(change));
    }
    std::string text = "Success. Updated the following files:\n";
    for (const char letter : {'A', 'M', 'D'}) {
      for (const PlannedChange& change : changes) {
        if (change.letter == letter) text += std::string(1, letter) + " " + shown(change) + "\n";
      }
    }
    return ToolOutput{std::move(text)};
  }

 private:
  static std::string shown(const PlannedChange& change) {
    return change.destination ? change.destination->shown : change.file.shown;
  }

  static std::string joined(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
    return text;
  }

  // A file the patch names, located as judged and loaded (its text from the editor, when one
  // holds it); else the error for the model.
  std::variant<CurrentFile, ToolOutput> load(const std::string& requested, LocateFor purpose,
                                             std::stop_token stop,
                                             const core::ToolContext& context) const {
    auto located = locate_judged(requested, context, purpose);
    if (auto* failure = std::get_if<std::string>(&located)) return ToolOutput::error(*failure);
    const std::filesystem::path path = std::get<LocatedPath>(located).path;
    return load_current_file(path, display_path(path, context.cwd), kMaxEditFileBytes,
                             "apply_patch", stop, editor_.get());
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
    if (operations.value().empty())
      return ToolOutput::error("No files were modified: the patch is empty.");
    std::vector<PlannedChange> changes;
    for (const PatchOperation& operation : operations.value()) {
      auto loaded = load(operation.path, purpose_of(operation.kind), stop, context);
      if (auto* error = std::get_if<ToolOutput>(&loaded)) return std::move(*error);
      PlannedChange change{.file = std::move(std::get<CurrentFile>(loaded))};
      CurrentFile& file = change.file;
      const auto unchanged = [&](std::string why) {
        return ToolOutput::error(std::move(why) + " Nothing was changed.");
      };
      if (operation.kind == PatchOperation::Kind::kAdd) {
        change.letter = 'A';
        if (file.exists) {
          if (auto refusal = refuse_unless_seen(*files_, file, "overwrite"))
            return unchanged(refusal->output);
        }
        change.bytes = operation.contents;
      } else {
        if (!file.exists) return unchanged(file.shown + " does not exist.");
        if (!file.loaded) {
          return unchanged(file.shown +
                           " is larger than apply_patch handles; change it with bash.");
        }
        if (file.bytes.find('\0') != std::string::npos) {
          return unchanged(file.shown + " is a binary file; apply_patch changes text files.");
        }
        if (auto refusal = refuse_unless_seen(
                *files_, file,
                operation.kind == PatchOperation::Kind::kDelete ? "delete" : "edit")) {
          return unchanged(refusal->output);
        }
        if (operation.kind == PatchOperation::Kind::kDelete) {
          change.letter = 'D';
        } else {
          auto updated = apply_chunks(file.bytes, operation.chunks, file.shown);
          if (!updated.ok()) return unchanged(updated.error());
          change.bytes = std::move(updated.value());
          if (operation.move_to) {
            auto destination = load(*operation.move_to, LocateFor::kCreate, stop, context);
            if (auto* error = std::get_if<ToolOutput>(&destination)) return std::move(*error);
            CurrentFile& moved = std::get<CurrentFile>(destination);
            if (moved.exists) {
              if (auto refusal = refuse_unless_seen(*files_, moved, "overwrite")) {
                return unchanged(refusal->output);
              }
            }
            change.destination = std::move(moved);
          }
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
