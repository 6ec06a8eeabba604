#pragma once
// The limits of running commands and background jobs: what a command's output keeps in memory
// and on disk, how long nib waits for a shell's pipes after it exits, and how many jobs run. The
// tools' descriptions quote them (tools/limits.hpp holds the rest of what the tools enforce).

#include <chrono>
#include <cstddef>

namespace nib::process {

// Output shown to the model per result: enough for a long file page or a test log's tail,
// small enough that one result cannot crowd out the context window.
inline constexpr std::size_t kMaxOutputLines = 2000;
inline constexpr std::size_t kMaxOutputBytes = 50 * 1024;

// bash: each stream's full log keeps at most this much; a runaway command cannot fill the disk.
inline constexpr std::size_t kMaxLogBytes = 10 * 1024 * 1024;

// bash: a stream longer than the output limits above is shown as a digest instead: its first
// lines (what ran), its last lines (where the summary usually is) and, between them, excerpts
// around the lines that look like failures (tools/failure_lines.hpp), numbered as in the full
// log. The digests of one result (both streams) take at most this many bytes, so with the
// notes the result stays under 8,000 characters: a 60,000-line test log costs the context
// what a short one does, and what matters in it is still there.
inline constexpr std::size_t kDigestMaxBytes = 7000;
// ...of which the first lines take at most a quarter and this many lines ("a few dozen": the
// command's banner and set-up), and the last lines at most three eighths and this many (a test
// runner's summary with its list of failures).
inline constexpr std::size_t kDigestHeadLines = 30;
inline constexpr std::size_t kDigestTailLines = 30;
// A shown line is cut to this many bytes: a diagnostic fits, a minified file does not flood.
inline constexpr std::size_t kDigestLineBytes = 240;
// Excerpts kept while the output streams (each at most kExcerptMaxLines lines of at most
// 4 * kDigestLineBytes bytes, so memory stays bounded however much fails); the digest shows as
// many as its bytes allow, and says how many lines that look like failures it left out.
inline constexpr std::size_t kMaxExcerpts = 16;
// An excerpt is the failure line, the line before it (the test's name, the failing source
// line) and the two after it (expected and actual values, the first frame); it goes on while
// the next lines continue the block (indented details, stack frames, a source excerpt), up to
// kExcerptMaxLines lines, keeping the block's last kExcerptEndLines lines (a traceback's last
// frame, the bottom of a Java stack) once it is longer, and ends kExcerptMaxSpanLines lines
// after its last failure line whatever follows.
inline constexpr std::size_t kExcerptLinesBefore = 1;
inline constexpr std::size_t kExcerptLinesAfter = 2;
inline constexpr std::size_t kExcerptMaxLines = 8;
inline constexpr std::size_t kExcerptEndLines = 2;
inline constexpr std::size_t kExcerptMaxSpanLines = 100;
// bash: after the shell exits, a background child may still hold a pipe. Stop collecting
// after this long without output...
inline constexpr std::chrono::milliseconds kQuietAfterExit{100};
// ...and in any case this long after the exit.
inline constexpr std::chrono::milliseconds kDrainCap{2000};
// bash: a process of the command that has stayed stopped (SIGSTOP, SIGTSTP) this long is
// resumed with SIGCONT. Commands run without job control, so nothing else would resume it, and
// a stopped shell (`kill -STOP $$`) or a stopped child it waits for would hang the call for
// ever. Long enough that a script pausing a child for a moment is left alone; the check runs
// this often, so a stop is ended between one and two of these after it began.
inline constexpr std::chrono::milliseconds kStoppedProcessGrace{1000};

// Background jobs (bash with run_in_background, job_table.hpp): jobs running at once. Each
// holds a watcher thread, a pipe and up to 2 * kJobTailBytes of memory; a model that wants more
// servers and watchers than this at once has most likely forgotten to end some.
inline constexpr std::size_t kMaxRunningJobs = 16;
// ...finished jobs kept for job_output and job_list (their logs stay on disk); the oldest are
// forgotten beyond this.
inline constexpr std::size_t kMaxFinishedJobs = 32;
// A job's cleaned output kept in memory: at least this much of its end (what one job_output
// can show), at most twice it; all of it goes to the job's log, up to kMaxLogBytes.
inline constexpr std::size_t kJobTailBytes = kMaxOutputBytes;
// A job's line is cleaned once it is complete; a line longer than this without a newline (a
// progress bar drawn with carriage returns for ever) is taken as it is, so memory stays bounded.
inline constexpr std::size_t kJobPendingLineBytes = 64 * 1024;
// The notice of a job's exit quotes its last lines: enough for an error and its cause.
inline constexpr std::size_t kJobNoticeLines = 10;
// Once a job's shell has exited, whether a process it started still runs is checked this
// often (a scan of /proc) until none does: the job is "running" until then.
inline constexpr std::chrono::milliseconds kJobSettleInterval{100};

}  // namespace nib::process
