#pragma once
// What a compaction carries past its summary verbatim (docs/sessions.md#compaction). A summary
// may lose any detail, and a second compaction summarises the first summary again; the user's
// task must survive any number of them. So the summary message also carries, as they are: the
// session's first request, the user's latest instructions, the plan as it stands, and the files
// the model read most recently (as they are now, bounded), so that the next turn need not read
// them again. Each is found again in a summary's text at the next compaction. Not thread-safe:
// it runs on the loop's thread.

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/messages.hpp"
#include "core/plan.hpp"

namespace nib::app {

struct CarriedFile {
  std::string path;  // as shown to the model: relative to the working directory
  std::string text;  // its content now, cut to a bound
};

struct CarriedContext {
  std::string first_request;                     // the session's first prompt
  std::vector<std::string> latest_instructions;  // the latest prompts summarised, oldest first
  std::string plan;                              // one "- [status] item" line per item
  std::vector<CarriedFile> files;                // most recently read first
};

// What a compaction of history[0, cut) carries: prompts and reads in that part (or in the
// summary it starts with), the `plan`, and files inside `cwd` whose reads the part holds and the
// kept part [cut, end) does not.
CarriedContext carried_context(const std::vector<core::Message>& history, std::size_t cut,
                               const core::Plan& plan, const std::filesystem::path& cwd);

// The sections appended to the summary's text ("" when there is nothing to carry).
std::string carried_text(const CarriedContext& carried);

// The same for the PreCompact hooks' input: first_request, latest_instructions, plan and
// attached_files (their paths).
nlohmann::json carried_json(const CarriedContext& carried);

}  // namespace nib::app
