#pragma once
// Every limit the built-in tools enforce, with its unit and the reason beside it. Tool
// descriptions quote these, so what the model is told matches what the code does.

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "process/limits.hpp"

namespace nib::tools {

// The limits of commands and jobs (output kept, drain after exit, jobs at once) are the
// process layer's: process/limits.hpp.

// job_output: the longest wait_s honoured, so that one call cannot hold the turn for long; a
// longer wait is cut to this (the model calls again to wait more).
inline constexpr std::chrono::seconds kMaxJobWait{120};

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

// What a running bash call shows live at most (core::ToolOutputEvent), beyond which its output
// reaches front ends only with its result: the events a command that floods can queue stay
// bounded, whoever is slow to show them.
inline constexpr std::size_t kMaxLiveOutputBytes = 256 * 1024;

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
