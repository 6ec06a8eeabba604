#include "tools/command_report.hpp"

#include <string.h>

#include <cmath>
#include <cstdio>
#include <string_view>
#include <vector>

#include "tools/limits.hpp"
#include "tools/tail_truncate.hpp"
#include "util/terminal_sanitize.hpp"

namespace nib::tools {
namespace {

// A stream's end as the model may see it, before the budget is applied.
struct StreamView {
  std::string text;            // sanitised; starts at a line start unless partial_first
  bool missing_start = false;  // the memory no longer holds the stream's beginning
  bool partial_first = false;  // the text is the end of one line longer than the memory
};

StreamView view_of(const OutputCapture& capture) {
  const std::string raw = capture.tail();
  std::string_view body = raw;
  StreamView view;
  view.missing_start = !capture.complete();
  if (view.missing_start) {
    // The ring's first line is most likely cut; drop it so only whole lines are shown.
    const std::size_t newline = body.find('\n');
    if (newline == std::string_view::npos) {
      view.partial_first = true;
    } else {
      body.remove_prefix(newline + 1);
    }
  }
  view.text = util::sanitize_terminal_output(body);
  return view;
}

// "1 line", "3 lines".
std::string count_of(std::uint64_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

std::string log_sentence(std::string_view name, const OutputCapture& capture,
                         std::uint64_t first_line_shown) {
  const auto& path = capture.log_path();
  if (!path)
    return "The full " + std::string(name) + " could not be saved: " + capture.log_error() + ".";
  if (!capture.log_partial()) {
    return "Full " + std::string(name) + ": " + path->string() +
           "; use read on it to see the rest.";
  }
  std::string sentence = "The first " + std::to_string(capture.log_bytes()) + " bytes";
  if (capture.log_lines() > 0) sentence += " (lines 1-" + std::to_string(capture.log_lines()) + ")";
  sentence += " are saved in " + path->string() + "; use read on it to see them.";
  if (!capture.log_error().empty()) {
    sentence += " Saving stopped early: " + capture.log_error() + ".";
  } else {
    sentence += " A log keeps at most the first " + std::to_string(kMaxLogBytes) + " bytes.";
  }
  if (capture.log_lines() + 1 < first_line_shown) {
    sentence += " The output between the log's end and the lines shown was not kept.";
  }
  return sentence;
}

struct ShownStream {
  std::string text;
  std::string note;  // empty when the whole stream is shown
};

// Applies this stream's share of the budget; makes sure a cut stream has its log.
ShownStream show_stream(std::string_view name, OutputCapture& capture, const StreamView& view,
                        std::size_t max_lines, std::size_t max_bytes) {
  const TailCut cut = cut_tail(view.text, max_lines, max_bytes);
  ShownStream shown{view.text.substr(cut.start), {}};
  if (!cut.cut && !view.missing_start) {
    capture.finish();
    return shown;
  }
  capture.ensure_log();
  capture.finish();
  const std::uint64_t total = capture.total_lines();
  const std::uint64_t first = total - std::min<std::uint64_t>(cut.lines_kept, total) + 1;
  const bool partial = cut.partial_line || (view.partial_first && cut.start == 0);
  std::string& note = shown.note;
  const std::string in_all = " (" + std::to_string(capture.total_bytes()) + " bytes in all). " +
                             log_sentence(name, capture, first) + "]";
  note = "[" + std::string(name) + " truncated: ";
  if (shown.text.empty()) {
    note += "the end of its " + count_of(total, "line") + " holds nothing printable" + in_all;
  } else if (partial && cut.lines_kept == 1) {
    note += "showing the last " + std::to_string(shown.text.size()) + " bytes of line " +
            std::to_string(total) + " of " + std::to_string(total) + in_all;
  } else {
    note += "showing lines " + std::to_string(first) + "-" + std::to_string(total) +
            (partial ? " (line " + std::to_string(first) + " only in part)" : "") + " of " +
            std::to_string(total) + in_all;
  }
  return shown;
}

void end_with_newline(std::string& text) {
  if (!text.empty() && text.back() != '\n') text += '\n';
}

// Both streams within one result's budget, labelled when both have output, plus notes.
std::string render_output(CommandResult& result) {
  const StreamView out_view = view_of(result.stdout_capture);
  const StreamView err_view = view_of(result.stderr_capture);
  const auto [out_lines, err_lines] =
      share_budget(kMaxOutputLines, count_lines(out_view.text), count_lines(err_view.text));
  const auto [out_bytes, err_bytes] =
      share_budget(kMaxOutputBytes, out_view.text.size(), err_view.text.size());
  ShownStream out = show_stream("stdout", result.stdout_capture, out_view, out_lines, out_bytes);
  ShownStream err = show_stream("stderr", result.stderr_capture, err_view, err_lines, err_bytes);

  std::string text;
  if (err.text.empty()) {
    text = std::move(out.text);
  } else {
    if (!out.text.empty()) {
      text = "[stdout]\n" + out.text;
      end_with_newline(text);
    }
    text += "[stderr]\n" + err.text;
  }
  if (text.empty() && out.note.empty() && err.note.empty()) {
    const bool printed =
        result.stdout_capture.total_bytes() + result.stderr_capture.total_bytes() > 0;
    text = printed ? "(no printable output)" : "(no output)";
  }
  end_with_newline(text);
  for (const std::string* note : {&out.note, &err.note}) {
    if (!note->empty()) text += *note + "\n";
  }
  if (result.end != CommandEnd::kNotStarted && !result.error.empty()) {
    text += "[note: " + result.error + "]\n";
  }
  return text;
}

std::string format_seconds(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", seconds);
  return buffer;
}

}  // namespace

std::pair<std::size_t, std::size_t> share_budget(std::size_t budget, std::size_t first,
                                                 std::size_t second) {
  if (first + second <= budget) return {first, second};
  const std::size_t half = budget / 2;
  if (first <= second) {
    const std::size_t kept = std::min(first, half);
    return {kept, budget - kept};
  }
  const std::size_t kept = std::min(second, half);
  return {budget - kept, kept};
}

std::string describe_signal(int signal) {
  const char* abbreviation = sigabbrev_np(signal);
  if (abbreviation == nullptr) return "signal " + std::to_string(signal);
  std::string text = std::string("SIG") + abbreviation;
  if (const char* description = sigdescr_np(signal)) text += std::string(" (") + description + ")";
  return text;
}

core::ToolOutput report_command(CommandResult& result, const ReportContext& context) {
  if (result.pid < 0) {
    // Nothing ran, so there is no output to report.
    result.stdout_capture.finish();
    result.stderr_capture.finish();
    if (result.end == CommandEnd::kAborted) {
      return core::ToolOutput::error("Error: command aborted before it started.");
    }
    return core::ToolOutput::error("Error: could not start the command: " + result.error + ".");
  }
  const std::string output = render_output(result);
  switch (result.end) {
    case CommandEnd::kExited: {
      core::ToolOutput reply{output, false};
      reply.exit_code = result.exit_code;
      if (result.exit_code != 0) {
        reply.output += "[exit code " + std::to_string(result.exit_code);
        // The shell reports a child killed by signal N as exit code 128+N.
        const int signal_number = result.exit_code - 128;
        if (signal_number > 0 && signal_number < 65 && sigabbrev_np(signal_number) != nullptr) {
          reply.output +=
              ": usually means a process was killed by " + describe_signal(signal_number);
        }
        reply.output += "]\n";
      }
      return reply;
    }
    case CommandEnd::kTimedOut: {
      const std::string after = context.timeout_seconds
                                    ? " after " + format_seconds(*context.timeout_seconds) + " s"
                                    : "";
      return core::ToolOutput::error("Error: command timed out" + after +
                                     "; it was killed with every process it started. Output "
                                     "so far:\n" +
                                     output);
    }
    case CommandEnd::kAborted:
      return core::ToolOutput::error(
          "Error: command aborted; it was killed with every process it started. Output so "
          "far:\n" +
          output);
    case CommandEnd::kSignaled:
      return core::ToolOutput::error(
          "Error: command was killed by " + describe_signal(result.signal) +
          (result.core_dumped ? ", core dumped" : "") + ". Output:\n" + output);
    case CommandEnd::kNoStatus:
    case CommandEnd::kNotStarted:
      break;
  }
  return core::ToolOutput::error("Error: command ended without an exit status. Output:\n" + output);
}

}  // namespace nib::tools
