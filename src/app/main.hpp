#pragma once

namespace nib::app {
// The whole program: parses the command line, wires the parts together and runs.
// Returns the process exit status (0 done, 1 error, 2 usage/configuration, 3 spending cap reached,
// 130 interrupted).
int main(int argc, char** argv);
}  // namespace nib::app
