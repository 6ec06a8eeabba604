#pragma once
// The user's home directory, worked out one way for everything that resolves `~` (the file
// tools' paths, the permission rules' `~/` patterns, the sandbox's secret places), so that a
// `~` means the same directory to all of them. Reads the environment and the password
// database; thread-safe as long as nobody changes $HOME while it runs.

#include <filesystem>

namespace nib::util {

// $HOME when it is set and absolute, else the password database entry, else an empty path.
std::filesystem::path home_directory();

}  // namespace nib::util
