#pragma once
// `nib rewind`: a session's rewind from the command line, for scripts and for after a crash.
// Without arguments it lists the session's prompts with the files each turn changed; --show N
// prints a turn's diff; N goes back to before prompt N (the files and the conversation, or one
// of them with --code or --conversation); --checkpoint ID restores the files to a checkpoint (a
// restore prints the one that takes it back); --gc keeps the store under its cap. Files changed
// by hand since are not overwritten unless --force (or left as they are with
// --keep-hand-changes).

#include <cstdint>
#include <filesystem>
#include <ostream>

#include "app/cli.hpp"
#include "util/user_places.hpp"

namespace nib::app {

// Runs the command on the session the arguments name (default: the latest of `cwd`) and the
// checkpoints of its working directory, kept under `max_store_bytes`; returns the exit status
// (1: refused or failed, 2: bad usage).
int run_rewind_command(const RewindArgs& args, const util::UserPlaces& places,
                       const std::filesystem::path& cwd, std::uint64_t max_store_bytes,
                       std::ostream& out, std::ostream& err);

}  // namespace nib::app
