#include "tools/command_report.hpp"

#include <string.h>

#include <cmath>
#include <cstdio>
#include <string_view>
#include <vector>

#include "tools/limits.hpp"
#include "tools/output_digest.hpp"
#include "util/byte_size.hpp"
#include "util/terminal_sanitize.hpp"

namespace nib::tools {
namespace {

// A stream's end as the model may see it, before the budget is applied.
struct StreamView {
  std::string text;            // sanitised; starts at a line start unless partial_first
  bool missing_start = false;  // the memory no longer holds the stream's beginning
  bool partial_first = false;  // the text is the end of one line longer than the memory
};

StreamView view_of(const process::OutputCapture& capture) {
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

// "1 line", "3,000 lines".
std::string count_of(std::uint64_t count, std::string_view noun) {
  return util::format_count(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

// "lines 1–30", "line 7".
std::string lines_span(std::uint64_t first, std::uint64_t last) {
  if (first == last) return "line " + util::format_count(first);
  return "lines " + util::format_count(first) + "–" + util::format_count(last);
}

// Where the full stream is; `tail_first` is the first of the last lines shown (0: none).
std::string log_sentence(std::string_view name, const process::OutputCapture& capture,
                         std::uint64_t tail_first) {
  const auto& path = capture.log_path();
  if (!path)
    return "The full " + std::string(name) + " could not be saved: " + capture.log_error() + ".";
  if (!capture.log_partial()) {
    return "Full " + std::string(name) + ": " + path->string() + std::string(process::kReadLogHint);
  }
  std::string sentence = "The first " + util::format_count(capture.log_bytes()) + " bytes";
  if (capture.log_lines() > 0) sentence += " (" + lines_span(1, capture.log_lines()) + ")";
  sentence += " are saved in " + path->string() + std::string(process::kReadLogHint);
  if (!capture.log_error().empty()) {
    sentence += " Saving stopped early: " + capture.log_error() + ".";
  } else {
    sentence +=
        " A log keeps at most the first " + util::format_count(process::kMaxLogBytes) + " bytes.";
  }
  if (capture.log_lines() + 1 < tail_first) {
    sentence += " Past the log's end, only the lines shown here were kept.";
  }
  return sentence;
}

struct ShownStream {
  std::string text;
  std::string note;  // empty when the whole stream is shown
};

// What a digest holds, for its note: "lines 1–30, 2 excerpts around ... and lines 91–120".
std::string digest_parts(const Digest& digest, const process::OutputCapture& capture) {
  std::vector<std::string> parts;
  if (digest.head_lines > 0) parts.push_back(lines_span(1, digest.head_lines));
  if (digest.excerpts_shown > 0) {
    parts.push_back(count_of(digest.excerpts_shown, "excerpt") +
                    " around lines that look like failures, numbered as in the full output (\"N: "
                    "\" marks such a line, \"N- \" its context)");
  }
  const std::uint64_t total = capture.total_lines();
  if (digest.tail_first > 0) parts.push_back(lines_span(digest.tail_first, total));
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) text += i + 1 == parts.size() ? " and " : ", ";
    text += parts[i];
  }
  return text;
}

ShownStream show_digest(std::string_view name, process::OutputCapture& capture,
                        const StreamView& view, std::size_t max_bytes) {
  capture.ensure_log();
  capture.finish();
  const process::ExcerptCollector& collected = capture.collector();
  const Digest digest =
      render_digest({.head = collected.head(),
                     .excerpts = collected.excerpts(),
                     .tail = view.text,
                     .tail_starts_mid_line = view.partial_first,
                     .total_lines = capture.total_lines(),
                     .failures_not_kept = collected.failures_not_kept(),
                     .first_failure_not_kept = collected.first_failure_not_kept()},
                    {.max_bytes = max_bytes});
  std::string note = "[" + std::string(name) +
                     " truncated: " + count_of(capture.total_lines(), "line") + " (" +
                     count_of(capture.total_bytes(), "byte") +
                     ") in all; shown: " + digest_parts(digest, capture) + ".";
  if (collected.failure_lines() == 0) note += " No line looks like a failure.";
  if (digest.failures_left_out > 0) {
    const bool one = digest.failures_left_out == 1;
    note += " " + count_of(digest.failures_left_out, "more line") +
            (one ? " that looks like a failure is not shown (line "
                 : " that look like failures are not shown (the first is line ") +
            util::format_count(*digest.first_failure_left_out) + "): grep the log for " +
            (one ? "it." : "them.");
  }
  note += " " + log_sentence(name, capture, digest.tail_first) + "]";
  return {digest.text, std::move(note)};
}

void end_with_newline(std::string& text) {
  if (!text.empty() && text.back() != '\n') text += '\n';
}

// Both streams, labelled when both have output, plus notes. A stream within its share of
// kMaxOutputLines and kMaxOutputBytes is shown whole; a longer one as a digest, the digests
// sharing kDigestMaxBytes.
std::string render_output(process::CommandResult& result) {
  process::OutputCapture& out_capture = result.stdout_capture;
  process::OutputCapture& err_capture = result.stderr_capture;
  const StreamView out_view = view_of(out_capture);
  const StreamView err_view = view_of(err_capture);
  const auto [out_lines, err_lines] =
      share_budget(process::kMaxOutputLines, out_capture.total_lines(), err_capture.total_lines());
  const auto [out_bytes, err_bytes] =
      share_budget(process::kMaxOutputBytes, out_view.text.size(), err_view.text.size());
  const auto whole = [](const process::OutputCapture& capture, const StreamView& view,
                        std::size_t lines, std::size_t bytes) {
    return !view.missing_start && capture.total_lines() <= lines && view.text.size() <= bytes;
  };
  const bool out_whole = whole(out_capture, out_view, out_lines, out_bytes);
  const bool err_whole = whole(err_capture, err_view, err_lines, err_bytes);
  const auto [out_digest_bytes, err_digest_bytes] =
      share_budget(process::kDigestMaxBytes, out_whole ? 0 : out_capture.total_bytes(),
                   err_whole ? 0 : err_capture.total_bytes());
  const auto show = [](std::string_view name, process::OutputCapture& capture,
                       const StreamView& view, bool whole_stream, std::size_t digest_bytes) {
    if (!whole_stream) return show_digest(name, capture, view, digest_bytes);
    capture.finish();
    return ShownStream{view.text, {}};
  };
  ShownStream out = show("stdout", out_capture, out_view, out_whole, out_digest_bytes);
  ShownStream err = show("stderr", err_capture, err_view, err_whole, err_digest_bytes);

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
    const bool printed = out_capture.total_bytes() + err_capture.total_bytes() > 0;
    text = printed ? "(no printable output)" : "(no output)";
  }
  end_with_newline(text);
  for (const std::string* note : {&out.note, &err.note}) {
    if (!note->empty()) text += *note + "\n";
  }
  if (result.end != process::CommandEnd::kNotStarted && !result.error.empty()) {
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

core::ToolOutput report_command(process::CommandResult& result, const ReportContext& context) {
  if (result.pid < 0) {
    // Nothing ran, so there is no output to report.
    result.stdout_capture.finish();
    result.stderr_capture.finish();
    if (result.end == process::CommandEnd::kAborted) {
      return core::ToolOutput::error("Error: command aborted before it started.");
    }
    return core::ToolOutput::error("Error: could not start the command: " + result.error + ".");
  }
  const std::string output = render_output(result);
  switch (result.end) {
    case process::CommandEnd::kExited: {
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
    case process::CommandEnd::kTimedOut: {
      const std::string after = context.timeout_seconds
                                    ? " after " + format_seconds(*context.timeout_seconds) + " s"
                                    : "";
      return core::ToolOutput::error("Error: command timed out" + after +
                                     "; it was killed with every process it started. Output "
                                     "so far:\n" +
                                     output);
    }
    case process::CommandEnd::kAborted:
      return core::ToolOutput::error(
          "Error: command aborted; it was killed with every process it started. Output so "
          "far:\n" +
          output);
    case process::CommandEnd::kSignaled:
      return core::ToolOutput::error(
          "Error: command was killed by " + describe_signal(result.signal) +
          (result.core_dumped ? ", core dumped" : "") + ". Output:\n" + output);
    case process::CommandEnd::kMovedToBackground:
      return core::ToolOutput{"Output before the move:\n" + output};
    case process::CommandEnd::kNoStatus:
    case process::CommandEnd::kNotStarted:
      break;
  }
  return core::ToolOutput::error("Error: command ended without an exit status. Output:\n" + output);
}

}  // namespace nib::tools
