#pragma once
// Which lines of a command's output look like failures, so that a long output cut for the model
// keeps them: failed tests (GoogleTest, pytest, Jest/Vitest, Go, cargo, JUnit/Maven/Gradle,
// mocha, TAP, CTest), compiler and linker diagnostics (gcc, clang, rustc, tsc, MSVC, eslint),
// build tools (make, ninja, CMake, npm), crashes (panics, tracebacks, exceptions, signals,
// sanitizers) and the generic "error:" / "fatal:" / ERROR forms. Lines that only mention such
// words ("0 errors", "-Werror", "Failures: 0", a passing test named test_failure) are not
// failures. Pure functions; thread-safe.

#include <string_view>

namespace nib::process {

// True when `line` (one line without its "\n", already free of escape sequences) reports a
// failure.
bool looks_like_failure(std::string_view line);

// True when `line` may belong to the block a failure line opens (its details, stack frames or
// source excerpt): blank, indented, a source gutter ("12 | code", "> code"), pytest's "E" lines,
// a Go stack frame ("main.main()", "goroutine 1 [running]:"). A line that reports a success
// never does.
bool continues_block(std::string_view line);

}  // namespace nib::process
