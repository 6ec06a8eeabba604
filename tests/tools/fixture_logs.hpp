#pragma once
// The sample command outputs in tests/tools/fixtures/logs: written in the style of each tool's
// real output (GoogleTest, pytest, Jest, Vitest, go test, cargo, rustc, gcc/clang with make,
// eslint and tsc, npm, Maven, a Python traceback, and a mix of crashes and generic errors), plus
// passing.log, whose lines only mention failure words; and a generated pytest log of any
// length. Thread-safe.

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace nib::testing {

inline std::string fixture_log(const std::string& name) {
  std::ifstream in(std::string(NIB_SOURCE_DIR) + "/tests/tools/fixtures/logs/" + name,
                   std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

// A `pytest -v` run of `lines` lines: a four-line header, one line per test (those at the line
// numbers in `failing` FAILED, the others PASSED), and the count on the last line.
inline std::string generated_pytest_log(int lines, const std::set<int>& failing) {
  std::string log =
      "============================= test session starts ==============================\n"
      "platform linux -- Python 3.11.2, pytest-7.4.0, pluggy-1.2.0\n"
      "rootdir: /home/dev/big\n"
      "collected " +
      std::to_string(lines - 5) + " items\n";
  for (int number = 5; number < lines; ++number) {
    char row[128];
    std::snprintf(row, sizeof row, "tests/test_mod_%04d.py::test_case_%05d %s [%3d%%]\n",
                  number / 100, number, failing.contains(number) ? "FAILED" : "PASSED",
                  number * 100 / lines);
    log += row;
  }
  log += "================= " + std::to_string(failing.size()) + " failed, " +
         std::to_string(lines - 5 - static_cast<int>(failing.size())) +
         " passed in 312.45s =================\n";
  return log;
}

}  // namespace nib::testing
