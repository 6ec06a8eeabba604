#include "tools/edit.hpp"

#include <algorithm>
#include <variant>
#include <vector>

#include "tools/edit_match.hpp"
#include "tools/file_change.hpp"
#include "tools/limits.hpp"
#include "tools/path_tool.hpp"
#include "tools/text_view.hpp"
#include "tools/unified_diff.hpp"
#include "util/byte_size.hpp"
#include "util/result.hpp"

namespace nib::tools {
namespace {

using core::ToolOutput;
using nlohmann::json;

std::string description() {
  return "Replace text in a file: `oldText` with `newText`, or each pair in `edits`, applied "
         "together, all or none.\n"
         "- Read the file first: edit refuses a file you have not read (your own edits and "
         "writes count) or that changed on disk since.\n"
         "- Each oldText must occur exactly once in the file as it was before this call: copy "
         "it from read with its indentation, and enough neighbouring lines to be unique. Edits "
         "must not overlap. An empty newText deletes.\n"
         "- Without an exact match, a tolerant match (ignoring indentation, trailing spaces and "
         "Unicode quotes, dashes and spaces) is tried; the result says so.\n"
         "- Line endings and a BOM are kept: write plain \\n.\n"
         "- To create or rewrite a whole file, use write. Files over " +
         util::format_byte_size(kMaxEditFileBytes) + ": use bash.";
}

// The parameters are described in the tool's description, not here, so that nothing is said
// twice.
json parameters() {
  const json edit_pair = {
      {"type", "object"},
      {"properties", {{"oldText", {{"type", "string"}}}, {"newText", {{"type", "string"}}}}},
      {"required", {"oldText", "newText"}},
  };
  return {
      {"type", "object"},
      {"properties",
       {{"path", path_parameter(PathDefault::kNone)},
        {"oldText", {{"type", "string"}}},
        {"newText", {{"type", "string"}}},
        {"edits", {{"type", "array"}, {"items", edit_pair}, {"minItems", 1}}}}},
      {"required", {"path"}},
  };
}

struct EditArguments {
  std::string path;
  std::vector<EditRequest> edits;
};

// The arguments, or a message saying what is wrong with them.
util::Result<EditArguments> parse_arguments(const json& args) {
  using Result = util::Result<EditArguments>;
  EditArguments parsed;
  const auto path = required_path(args, "edit");
  if (!path.ok()) return Result::failure(path.error());
  parsed.path = path.value();
  const auto text = [](const json& object, const char* name) -> const json* {
    const auto it = object.find(name);
    return it == object.end() || it->is_null() ? nullptr : &*it;
  };
  const json* edits = text(args, "edits");
  const json* old_text = text(args, "oldText");
  const json* new_text = text(args, "newText");
  if (edits != nullptr && (old_text != nullptr || new_text != nullptr)) {
    return Result::failure(
        "Give either oldText and newText, or edits, not both: put every replacement in edits.");
  }
  if (edits == nullptr) {
    if (old_text == nullptr || !old_text->is_string()) {
      return Result::failure("oldText must be a string: the exact text to replace (or use edits).");
    }
    if (new_text == nullptr || !new_text->is_string()) {
      return Result::failure(
          "newText must be a string: the replacement text (an empty string deletes oldText).");
    }
    parsed.edits.push_back({without_carriage_returns(old_text->get<std::string>()),
                            without_carriage_returns(new_text->get<std::string>())});
    return parsed;
  }
  if (!edits->is_array() || edits->empty()) {
    return Result::failure("edits must be a non-empty list of {oldText, newText} objects.");
  }
  for (std::size_t i = 0; i < edits->size(); ++i) {
    const json& edit = (*edits)[i];
    const json* old_part = edit.is_object() ? text(edit, "oldText") : nullptr;
    const json* new_part = edit.is_object() ? text(edit, "newText") : nullptr;
    if (old_part == nullptr || !old_part->is_string() || new_part == nullptr ||
        !new_part->is_string()) {
      return Result::failure("edits[" + std::to_string(i) +
                             "] must be an object with string fields oldText and " + "newText.");
    }
    parsed.edits.push_back({without_carriage_returns(old_part->get<std::string>()),
                            without_carriage_returns(new_part->get<std::string>())});
  }
  return parsed;
}

std::string line_span(std::size_t first, std::size_t last) {
  return first == last ? "line " + std::to_string(first)
                       : "lines " + std::to_string(first) + "-" + std::to_string(last);
}

// Notes for the model on the edits found only tolerantly, naming where they landed in the
// edited file. `matches` are sorted by position, as applied.
std::string tolerant_notes(std::string_view view, const std::vector<EditMatch>& matches) {
  std::string notes;
  const bool several = matches.size() > 1;
  std::ptrdiff_t shift = 0;  // lines added by earlier edits
  std::size_t line = 1;
  std::size_t counted = 0;
  for (const EditMatch& match : matches) {
    line += static_cast<std::size_t>(
        std::count(view.begin() + static_cast<std::ptrdiff_t>(counted),
                   view.begin() + static_cast<std::ptrdiff_t>(match.begin), '\n'));
    counted = match.begin;
    const auto old_breaks = std::count(view.begin() + static_cast<std::ptrdiff_t>(match.begin),
                                       view.begin() + static_cast<std::ptrdiff_t>(match.end), '\n');
    const auto new_breaks = std::count(match.replacement.begin(), match.replacement.end(), '\n');
    if (match.tolerant) {
      const std::size_t first = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(line) + shift);
      const std::size_t last = first + static_cast<std::size_t>(new_breaks) -
                               (match.replacement.ends_with('\n') && new_breaks > 0 ? 1 : 0);
      notes += std::string(" Note: ") +
               (several ? "edits[" + std::to_string(match.index) + "]'s " : "") +
               "oldText did not match exactly; it was found ignoring whitespace, quote and "
               "dash differences, and replaced (now " +
               line_span(first, last) + ")" +
               (match.reindented ? ", with newText re-indented to the file's indentation" : "") +
               ". Read those lines if you need to check them.";
    }
    shift += new_breaks - old_breaks;
  }
  return notes;
}

// An edit worked out but not yet written: the file as it is, where each edit goes, and the
// file's bytes after it.
struct PlannedEdit {
  CurrentFile file;
  TextView view;  // of file.bytes
  std::vector<EditMatch> matches;
  std::string edited;
};

// What the approval question shows of a planned edit: its diff, and whether a text was found
// only tolerantly.
core::ChangePreview edit_preview(const PlannedEdit& planned) {
  const bool tolerant = std::any_of(planned.matches.begin(), planned.matches.end(),
                                    [](const EditMatch& match) { return match.tolerant; });
  DiffHead diff = unified_diff_head(planned.view.text(), TextView(planned.edited).text(),
                                    planned.file.shown, planned.file.shown, kPreviewDiffLines);
  return {tolerant ? "Found ignoring whitespace, quote and dash differences." : "",
          std::move(diff.text), diff.omitted_lines, ""};
}

class EditTool final : public PathTool {
 public:
  EditTool(std::shared_ptr<FileTracker> files, std::shared_ptr<const EditorFiles> editor)
      : PathTool({"edit", description(), parameters(), /*concurrency_safe=*/false,
                  core::AccessKind::kWrite, core::EditStyle::kReplace},
                 LocateFor::kExisting, PathDefault::kNone),
        files_(std::move(files)),
        editor_(std::move(editor)) {}

  ToolOutput execute(const json& args, std::stop_token stop,
                     const core::ToolContext& context) override {
    auto planned = plan(args, stop, context);
    if (auto* error = std::get_if<ToolOutput>(&planned)) return std::move(*error);
    const auto& [file, view, matches, edited] = std::get<PlannedEdit>(planned);
    if (stop.stop_requested()) {
      return ToolOutput::error("Aborted: " + file.shown + " was not changed.");
    }
    if (auto error = replace_file(*files_, file, edited, /*create_parents=*/false, editor_.get())) {
      return std::move(*error);
    }

    const std::size_t count = matches.size();
    ToolOutput result{"Edited " + file.shown + ": " + std::to_string(count) +
                      (count == 1 ? " edit" : " edits") + " applied." +
                      tolerant_notes(view.text(), matches)};
    result.display = unified_diff(view.text(), TextView(edited).text(), file.shown, file.shown);
    return result;
  }

  // The very steps execute() takes, short of writing: the diff is what "yes" would apply.
  std::optional<core::ChangePreview> preview_change(const json& args,
                                                    const core::ToolContext& context,
                                                    std::stop_token stop) const override {
    return preview_of_plan(plan(args, stop, context), edit_preview);
  }

 private:
  // Everything up to the write: the checks, the matching and the edited bytes, or the error
  // the model gets. Changes nothing.
  std::variant<PlannedEdit, ToolOutput> plan(const json& args, std::stop_token stop,
                                             const core::ToolContext& context) const {
    const auto parsed = parse_arguments(args);
    if (!parsed.ok()) return ToolOutput::error(parsed.error());
    const auto& arguments = parsed.value();
    const auto target = locate(arguments.path, context);
    if (!target.ok()) return ToolOutput::error(target.error());
    auto loaded = load_current_file(target.value().path, target.value().shown, kMaxEditFileBytes,
                                    "edit", stop, editor_.get());
    if (auto* error = std::get_if<ToolOutput>(&loaded)) return std::move(*error);
    CurrentFile& file = std::get<CurrentFile>(loaded);
    if (!file.exists) {
      return ToolOutput::error(
          not_found_message("File", target.value(), context.cwd, NotFoundDetail::kNone,
                            "edit changes existing files; to create one, use write."));
    }
    if (!file.loaded) {
      return ToolOutput::error(file.shown + " is " + util::format_byte_size(file.info.st_size) +
                               ", larger than the " + util::format_byte_size(kMaxEditFileBytes) +
                               " edit handles. Change it with bash (sed, a script).");
    }
    if (auto refusal = refuse_unless_seen(*files_, file, "edit")) return std::move(*refusal);

    TextView view(file.bytes);
    auto located = locate_edits(view.text(), arguments.edits);
    if (const auto* failure = std::get_if<EditFailure>(&located)) {
      const bool several = arguments.edits.size() > 1;
      return ToolOutput::error("Could not edit " + file.shown + ": " +
                               describe_failure(view.text(), *failure, arguments.edits.size()) +
                               (several ? " None of the edits were applied." : "") +
                               " The file was not changed.");
    }
    auto& matches = std::get<std::vector<EditMatch>>(located);
    std::vector<ViewReplacement> replacements;
    for (const auto& match : matches) {
      replacements.push_back({match.begin, match.end, match.replacement});
    }
    std::string edited = view.apply(file.bytes, replacements);
    return PlannedEdit{std::move(file), std::move(view), std::move(matches), std::move(edited)};
  }

  std::shared_ptr<FileTracker> files_;
  std::shared_ptr<const EditorFiles> editor_;  // null: files are read and written on disk
};

}  // namespace

core::ToolPtr make_edit_tool(std::shared_ptr<FileTracker> files,
                             std::shared_ptr<const EditorFiles> editor) {
  return std::make_shared<EditTool>(std::move(files), std::move(editor));
}

}  // namespace nib::tools
