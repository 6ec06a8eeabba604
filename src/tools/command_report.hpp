#pragma once
// The model-facing result of a finished command: the exit status and each output stream,
// cleaned of terminal control sequences. Streams within one result's budget (kMaxOutputLines and
// kMaxOutputBytes for stdout and stderr together) are shown whole; a longer one as its digest
// (output_digest.hpp: first lines, last lines and the excerpts around lines that look like
// failures, within kDigestMaxBytes for both), with a note that says what was left out and where
// the full stream was saved. Pure apart from creating the logs through the captures.
// Thread-safe for distinct results.

#include <optional>
#include <string>

#include "core/tool.hpp"
#include "process/command_runner.hpp"

namespace nib::tools {

// What the report needs besides the result itself.
struct ReportContext {
  std::optional<double> timeout_seconds;  // as the model gave it
};

// The tool output for `result`: a non-zero exit status is data (exit_code set, not an error);
// a timeout, an abort, death by a signal and a failure to start are errors that keep the
// output collected so far; a command moved into the background gives the output before the
// move (its caller says which job it became). Creates a log for each stream that is cut (if it has
// none yet), then finishes both captures.
core::ToolOutput report_command(process::CommandResult& result, const ReportContext& context);

// Splits a budget between two parts of sizes `first` and `second`: each keeps all it needs
// if both fit; otherwise the smaller keeps up to half and the larger gets the rest.
std::pair<std::size_t, std::size_t> share_budget(std::size_t budget, std::size_t first,
                                                 std::size_t second);

// "SIGSEGV (Segmentation fault)" for a signal number; "signal N" when it has no name.
std::string describe_signal(int signal);

}  // namespace nib::tools
