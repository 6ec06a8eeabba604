#pragma once
// Every limit the built-in tools enforce, with its unit and the reason beside it. Tool
// descriptions quote these, so what the model is told matches what the code does.

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace nib::tools {

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
// job_output: the longest wait_s honoured, so that one call cannot hold the turn for long; a
// longer wait is cut to this (the model calls again to wait more).
inline constexpr std::chrono::seconds kMaxJobWait{120};
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

// read: images are scaled to fit this edge and re-encoded to fit this size, which the model
// services accept.
inline constexpr int kMaxImageEdgePx = 2000;
inline constexpr std::size_t kMaxImageBytes = 4 * 1024 * 1024 + 512 * 1024;  // base64 of it < 6 MiB

// read: image files larger than this are not read at all: the whole file is held in memory while
// it is decoded, and a real screenshot or photo is far smaller.
inline constexpr std::size_t kMaxImageFileBytes = 64 * 1024 * 1024;
// read: images with more pixels than this are not decoded: a small file can claim huge
// dimensions (a decompression bomb), and decoding it would take seconds and gigabytes.
inline constexpr std::int64_t kMaxImagePixels = 100'000'000;

// edit: files larger than this are not edited: the whole file is held in memory (with its
// matching form and the result), and a source file the model works on is far smaller. Bigger
// files are data or logs; change them with bash (sed, a script).
inline constexpr std::uint64_t kMaxEditFileBytes = 16 * 1024 * 1024;
// edit/write staleness: files up to this size are hashed whenever their state is taken, because
// size and modification time alone miss a same-size rewrite within one clock tick. It equals
// kMaxEditFileBytes, so every file edit changes is hashed; beyond it, hashing on every read
// would cost a second full scan of a log, and identity, size and mtime decide.
inline constexpr std::uint64_t kMaxHashedFileBytes = kMaxEditFileBytes;
// edit: when oldText matches several times, this many line numbers are listed (the count is
// always exact).
inline constexpr std::size_t kMaxReportedOccurrences = 10;
// edit: the closest-candidate region shown when oldText is not found: enough lines to compare,
// few enough that the error stays short.
inline constexpr std::size_t kMaxCandidateLines = 40;
inline constexpr std::size_t kMaxCandidateBytes = 4 * 1024;
// edit/write diffs for the UI: a changed middle longer than this (old plus new lines) is shown
// as removed and re-added instead of diffed line by line, since the diff's cost grows with
// lines times differences; and a diff is cut at this size, since no one reads more.
inline constexpr std::size_t kMaxDiffLines = 8000;
inline constexpr std::size_t kMaxDiffBytes = 256 * 1024;
// edit/write previews (what an approval question shows before the call runs): the diff's first
// this many lines, which hold a typical edit's hunks while the question and its keys still fit
// a terminal (the rest is counted, "… +K lines"); and each line cut to this many bytes, since the
// terminal shows a line on one row. So a preview of even a 16 MB write keeps about 40 KB.
inline constexpr std::size_t kPreviewDiffLines = 40;
inline constexpr std::size_t kPreviewLineBytes = 1024;

// find: paths listed per call unless the model asks for more. A thousand paths answer "where
// is it" and "what is there" in about 50 KB; beyond that, a narrower pattern is the better tool.
inline constexpr std::size_t kFindDefaultLimit = 1000;
// ls: entries listed per call unless the model asks for more: a big directory's first page,
// small enough to leave room in the context for the files the model then reads.
inline constexpr std::size_t kLsDefaultLimit = 500;
// find: unreadable directories named in a result; the count is always given.
inline constexpr std::size_t kMaxListedUnreadable = 10;

// File tools, a path that does not exist as written: the entries of a directory looked at for
// another spelling of a name or for "did you mean" suggestions. Bounded so that a missing name
// in a huge directory costs little; real directories are far smaller.
inline constexpr std::size_t kMaxNameScanEntries = 10'000;
// ...the closest existing names suggested: enough to catch the likely one, few enough to read.
inline constexpr std::size_t kMaxSuggestedNames = 3;
// ...the files named when a loosely written path fits several of them.
inline constexpr std::size_t kMaxAmbiguousPaths = 5;

// walk: worker threads when the caller leaves the choice to the walk (one per core up to this).
// Listing directories is bound by the kernel and the disk, so past about a dozen threads more
// add contention rather than speed (ripgrep's default stops at 12 too), and every thread costs
// a start-up on each call.
inline constexpr std::size_t kMaxWalkThreads = 12;
// walk: an ignore file is read up to this size. Real ones are a few KB; the cap keeps a stray
// huge file named .gitignore from costing memory and matching time on every entry.
inline constexpr std::size_t kMaxIgnoreFileBytes = 1024 * 1024;

// grep: files are read in blocks of this size; a file being searched holds about this much
// memory plus its unfinished last line. Large enough that most files take one read(2).
inline constexpr std::size_t kGrepBlockBytes = 256 * 1024;
// grep: a line longer than this is searched in pieces of this size (a match that straddles two
// pieces is missed), so one enormous line (minified code, a data dump) cannot grow the buffer
// without bound.
inline constexpr std::size_t kGrepMaxLineBytes = 8 * 1024 * 1024;
// grep: a shown line is cut to about this many bytes around its first match, with "…" where
// text was left out: a whole source line fits, and one minified file cannot flood the result.
inline constexpr std::size_t kGrepShownLineBytes = 500;
// grep: matching lines shown when the call gives no limit.
inline constexpr std::size_t kGrepDefaultLimit = 100;
// grep: context lines around each match, at most; a larger request is cut to this.
inline constexpr std::size_t kGrepMaxContextLines = 10;
// grep: a glob's {a,b} alternatives are expanded up to this many patterns: "*.{ts,tsx}" is
// common, a pattern built to multiply is not.
inline constexpr std::size_t kGrepMaxGlobAlternatives = 64;
// grep: unreadable files and directories named in a result; the count is always given.
inline constexpr std::size_t kGrepMaxNamedFailures = 5;

// web_fetch: redirects followed, each target checked like the first URL (scheme and address)
// before it is asked for. Real sites' chains are short (http → https → www → a locale); longer
// ones are loops or traps, and every hop costs a connection.
inline constexpr std::size_t kWebFetchMaxRedirects = 5;
// web_fetch: time allowed to establish a connection (TCP and TLS); a server that takes longer is
// down or filtered, and the model does better to hear so soon.
inline constexpr std::chrono::seconds kWebFetchConnectTimeout{10};
// web_fetch: time for the whole fetch, redirects included: enough for the largest download
// below over a slow link, short enough that a server that trickles cannot hold a call for long.
inline constexpr std::chrono::seconds kWebFetchTimeout{60};
// web_fetch: bytes downloaded at most (after decompression); a longer body is cut here, with a
// note. Documentation pages and issues are far smaller; the cap bounds memory and the work of
// converting a page (and a compressed "bomb").
inline constexpr std::size_t kWebFetchMaxBytes = 10 * 1024 * 1024;
// web_fetch: characters (Unicode code points) of the converted page the model receives unless it
// asks for another amount: a long documentation page whole, with room left in the context.
// The full text is saved in a log whose path the result gives.
inline constexpr std::size_t kWebFetchDefaultMaxChars = 40'000;
// ...and the most it may ask for: about what read shows at once (kMaxOutputBytes); for more,
// it reads the saved text.
inline constexpr std::size_t kWebFetchMaxChars = 100'000;
// web_fetch: an HTML page is parsed only up to where its elements nest this deep by a quick
// estimate (tools/html_depth.hpp): libgumbo's time grows with the square of the nesting, and
// at this depth parsing still takes milliseconds. Real pages nest a few dozen levels.
inline constexpr std::size_t kHtmlMaxParseDepth = 2000;
// web_fetch: HTML elements nested deeper than this are left out (with a note): real pages stay
// far below it, and the converter recurses once per level, so a hostile page cannot exhaust
// the worker thread's stack.
inline constexpr std::size_t kHtmlMaxDepth = 400;

// todo_write: a plan is a short checklist the user watches above the editor and the model
// rewrites whole at every change, so every item costs tokens on each update. Real plans have a
// handful of items of a line each; these bounds keep a runaway list from flooding the context.
inline constexpr std::size_t kMaxPlanItems = 50;
inline constexpr std::size_t kMaxPlanItemBytes = 500;

}  // namespace nib::tools
