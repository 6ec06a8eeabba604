#pragma once
// A problem found while loading agent definitions, skills or commands: the file, the line and
// what is wrong, for the start-up report. Loading never stops at one: the definition concerned
// is left out (or, for a note such as replaced invalid UTF-8, kept) and the rest load. Plain
// value; thread-safe.

#include <filesystem>
#include <string>

namespace nib::extensions {

struct Problem {
  std::filesystem::path file;
  int line = 0;         // 1-based line in `file`; 0 when the problem concerns the whole file
  std::string message;  // what is wrong and what to do, e.g. "name: missing; add name: <id>"

  // "<file>:<line>: <message>", or "<file>: <message>" when line is 0.
  std::string text() const;

  friend bool operator==(const Problem&, const Problem&) = default;
};

}  // namespace nib::extensions
