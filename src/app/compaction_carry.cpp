#include "app/compaction_carry.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

#include "session/compaction.hpp"
#include "tools/path.hpp"
#include "tools/path_locate.hpp"
#include "util/path_within.hpp"
#include "util/text_cut.hpp"

namespace nib::app {
namespace {

namespace fs = std::filesystem;

// Bounds: what is carried is paid for in every later request.
constexpr std::size_t kMaxFirstRequestBytes = 8 * 1024;
constexpr std::size_t kMaxInstructions = 3;
constexpr std::size_t kMaxInstructionBytes = 4 * 1024;
constexpr std::size_t kMaxFiles = 5;
constexpr std::size_t kMaxFileBytes = 8 * 1024;
constexpr std::size_t kMaxFilesBytes = 24 * 1024;

constexpr std::string_view kReadToolName = "read";

// The sections, each found again by its tags in a summary's text.
struct Section {
  std::string_view heading;
  std::string_view open;
  std::string_view close;
};
constexpr Section kFirstRequest{"The user's first request, verbatim:", "<first-request>",
                                "</first-request>"};
constexpr Section kInstructions{"The user's latest instructions before this summary, verbatim:",
                                "<latest-instructions>", "</latest-instructions>"};
constexpr Section kPlan{"The plan (todo_write) as it stands:", "<plan>", "</plan>"};
constexpr std::string_view kFilesHeading =
    "Files read most recently, as they are now (no need to read them again):";
constexpr std::string_view kFileOpen = "<file path=\"";
constexpr std::string_view kFileClose = "</file>";
constexpr std::string_view kInstructionSeparator = "\n---\n";

// The text between `open`+"\n" and "\n"+`close` in `text`, if it has the section.
std::optional<std::string> section_of(const std::string& text, std::string_view open,
                                      std::string_view close) {
  const std::string start = std::string(open) + "\n";
  const std::size_t begin = text.find(start);
  if (begin == std::string::npos) return std::nullopt;
  const std::size_t from = begin + start.size();
  const std::size_t end = text.find("\n" + std::string(close), from);
  if (end == std::string::npos) return std::nullopt;
  return text.substr(from, end - from);
}

// The paths of the files a summary's text carries, in its order.
std::vector<std::string> carried_paths(const std::string& text) {
  std::vector<std::string> paths;
  for (std::size_t at = text.find(kFileOpen); at != std::string::npos;
       at = text.find(kFileOpen, at + 1)) {
    const std::size_t from = at + kFileOpen.size();
    const std::size_t end = text.find("\">", from);
    if (end == std::string::npos) break;
    paths.push_back(text.substr(from, end - from));
  }
  return paths;
}

std::string user_text(const core::Message& message) {
  return core::content_text(std::get<core::UserMessage>(message).content);
}

std::string plan_lines(const core::Plan& plan) {
  std::string lines;
  for (const core::PlanItem& item : plan) {
    lines += std::string("- [") + core::plan_status_name(item.status) + "] " + item.content + "\n";
  }
  if (!lines.empty()) lines.pop_back();
  return lines;
}

// The paths read calls of history[begin, end) wrote whose results were not errors, most recent
// first.
std::vector<std::string> read_paths(const std::vector<core::Message>& history, std::size_t begin,
                                    std::size_t end) {
  std::set<std::string> succeeded;  // call ids
  for (std::size_t i = begin; i < end; ++i) {
    if (const auto* results = std::get_if<core::ToolResultMessage>(&history[i])) {
      for (const core::ToolResult& result : results->results) {
        if (result.tool_name == kReadToolName && !result.is_error) {
          succeeded.insert(result.tool_call_id);
        }
      }
    }
  }
  std::vector<std::string> paths;
  for (std::size_t i = end; i-- > begin;) {
    const auto* reply = std::get_if<core::AssistantMessage>(&history[i]);
    if (reply == nullptr) continue;
    for (auto block = reply->blocks.rbegin(); block != reply->blocks.rend(); ++block) {
      const auto* call = std::get_if<core::ToolCall>(&*block);
      if (call == nullptr || call->name != kReadToolName || !succeeded.contains(call->id)) continue;
      const auto args = nlohmann::json::parse(call->arguments, nullptr, false);
      if (args.is_object() && args.contains("path") && args["path"].is_string()) {
        paths.push_back(args["path"].get<std::string>());
      }
    }
  }
  return paths;
}

// The text of the file `written` names, when it is a text file inside `cwd` (symbolic links
// resolved): files outside were read with the user's leave, which a later summary does not ask
// for again.
std::optional<std::string> text_inside(const fs::path& located, const fs::path& cwd) {
  std::error_code error;
  const fs::path real = fs::canonical(located, error);
  if (error || !fs::is_regular_file(real, error)) return std::nullopt;
  if (!util::is_within(fs::weakly_canonical(cwd, error), real)) return std::nullopt;
  std::ifstream in(real, std::ios::binary);
  std::string text(kMaxFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.find('\0') != std::string::npos) return std::nullopt;  // not text
  const auto size = fs::file_size(real, error);
  if (!error && size > kMaxFileBytes) {
    return util::cut_text(text.substr(0, kMaxFileBytes), kMaxFileBytes,
                          "the file has " + std::to_string(size) +
                              " bytes: read it with offset and limit for the rest");
  }
  return text;
}

}  // namespace

CarriedContext carried_context(const std::vector<core::Message>& history, std::size_t cut,
                               const core::Plan& plan, const fs::path& cwd) {
  CarriedContext carried;
  cut = std::min(cut, history.size());
  const bool after_summary = !history.empty() && session::is_summary_message(history[0]);
  const std::string earlier = after_summary ? user_text(history[0]) : "";

  std::vector<std::string> prompts;  // the part's prompts, oldest first
  for (std::size_t i = after_summary ? 1 : 0; i < cut; ++i) {
    if (std::holds_alternative<core::UserMessage>(history[i]))
      prompts.push_back(user_text(history[i]));
  }
  if (after_summary) {
    carried.first_request =
        section_of(earlier, kFirstRequest.open, kFirstRequest.close).value_or("");
  } else if (!prompts.empty()) {
    carried.first_request = util::cut_text(prompts.front(), kMaxFirstRequestBytes);
    prompts.erase(prompts.begin());
  }
  if (prompts.empty() && after_summary) {
    if (auto previous = section_of(earlier, kInstructions.open, kInstructions.close)) {
      carried.latest_instructions.push_back(std::move(*previous));
    }
  }
  const std::size_t first =
      prompts.size() > kMaxInstructions ? prompts.size() - kMaxInstructions : 0;
  for (std::size_t i = first; i < prompts.size(); ++i) {
    carried.latest_instructions.push_back(util::cut_text(prompts[i], kMaxInstructionBytes));
  }
  carried.plan = plan_lines(plan);

  std::vector<std::string> candidates = read_paths(history, 0, cut);
  for (std::string& path : carried_paths(earlier)) candidates.push_back(std::move(path));
  std::set<fs::path> seen;
  for (const std::string& written : read_paths(history, cut, history.size())) {
    seen.insert(tools::locate_path(written, cwd).path);  // the kept part shows it already
  }
  std::size_t bytes = 0;
  for (const std::string& written : candidates) {
    if (carried.files.size() == kMaxFiles) break;
    const fs::path located = tools::locate_path(written, cwd).path;
    if (!seen.insert(located).second) continue;
    auto text = text_inside(located, cwd);
    if (!text || bytes + text->size() > kMaxFilesBytes) continue;
    bytes += text->size();
    carried.files.push_back({tools::display_path(located, cwd), std::move(*text)});
  }
  return carried;
}

std::string carried_text(const CarriedContext& carried) {
  std::string text;
  const auto add = [&text](const Section& section, const std::string& body) {
    if (body.empty()) return;
    text += "\n\n" + std::string(section.heading) + "\n" + std::string(section.open) + "\n" + body +
            "\n" + std::string(section.close);
  };
  add(kFirstRequest, carried.first_request);
  std::string instructions;
  for (const std::string& instruction : carried.latest_instructions) {
    if (!instructions.empty()) instructions += kInstructionSeparator;
    instructions += instruction;
  }
  add(kInstructions, instructions);
  add(kPlan, carried.plan);
  if (!carried.files.empty()) {
    text += "\n\n" + std::string(kFilesHeading);
    for (const CarriedFile& file : carried.files) {
      text += "\n" + std::string(kFileOpen) + file.path + "\">\n" + file.text +
              (file.text.ends_with('\n') ? "" : "\n") + std::string(kFileClose);
    }
  }
  return text;
}

nlohmann::json carried_json(const CarriedContext& carried) {
  nlohmann::json files = nlohmann::json::array();
  for (const CarriedFile& file : carried.files) files.push_back(file.path);
  return {{"first_request", carried.first_request},
          {"latest_instructions", carried.latest_instructions},
          {"plan", carried.plan},
          {"attached_files", std::move(files)}};
}

}  // namespace nib::app
