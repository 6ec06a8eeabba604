// registry_bench: what the command registry (src/tools/command_registry.hpp) costs.
//   - the start-up sweep with an empty registry, and with N entries of nibs that still run
//     (every nib start pays this: one readdir and one /proc read per live owner);
//   - the sweep of one dead nib's entry whose processes are gone (a full /proc scan reading
//     the environment of every process started since the command's shell);
//   - recording a command, adding its shell and removing its entry (every bash call pays this);
//   - taking the notices of a session that has none (every `nib -c` pays this).
// The registry lives in a scratch runtime directory. Google Benchmark; run by bench/run, never
// part of CI.

#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "process/command_registry.hpp"
#include "process/command_registry_store.hpp"
#include "process/proc_table.hpp"
#include "util/user_places.hpp"

namespace nib::process {
namespace {

namespace fs = std::filesystem;

// A private scratch registry for the whole run, removed at its end.
struct ScratchRegistry {
  fs::path root;
  process::RegistryDirectories directories;
  ScratchRegistry() {
    std::string pattern = "/tmp/nib-registry-bench-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    root = pattern;
    util::UserPlaces places = util::process_places();
    places.runtime_dir = root;
    util::set_process_places(places);
    const fs::path dir = root / "nib" / "commands";
    registry::open_registry_dir(dir, /*create=*/true);
    directories = {dir, {dir}};
  }
  ~ScratchRegistry() { fs::remove_all(root); }
};

const process::RegistryDirectories& scratch() {
  static const ScratchRegistry registry;
  return registry.directories;
}

void clear_registry() {
  for (const auto& entry : fs::directory_iterator(scratch().registration)) fs::remove(entry);
}

// Writes `count` entries of `owner` (numbered from `first`).
void write_entries(const registry::NibIdentity& owner, int count, int first = 1) {
  const process::UniqueFd dir =
      registry::open_registry_dir(scratch().registration, /*create=*/true);
  const process::CommandRecord command{.leader = ::getpid(),
                                       .leader_start_time = owner.start_time,
                                       .tag = "bench",
                                       .call_id = "call_1",
                                       .command = "npm run dev"};
  const std::string bytes = registry::encode_entry({owner, command, "session"});
  for (int i = 0; i < count; ++i) {
    registry::EntryName name{owner.pid, owner.start_time, static_cast<std::uint64_t>(first + i),
                             registry::EntryKind::kCommand};
    const std::string file = registry::entry_file_name(name);
    name.kind = registry::EntryKind::kTemporary;
    registry::write_entry_file(dir.get(), file, registry::entry_file_name(name), bytes);
  }
}

void BM_SweepEmptyRegistry(benchmark::State& state) {
  clear_registry();
  for (auto _ : state) benchmark::DoNotOptimize(process::end_commands_of_dead_nibs(scratch()));
}
BENCHMARK(BM_SweepEmptyRegistry);

void BM_SweepLiveOwnersEntries(benchmark::State& state) {
  clear_registry();
  // Entries of nibs that run: this process, and its parent (a shell, standing for a second nib).
  registry::NibIdentity parent = registry::this_nib();
  parent.pid = ::getppid();
  parent.start_time = process::read_process(parent.pid)->start_time;
  write_entries(registry::this_nib(), static_cast<int>(state.range(0)) / 2);
  write_entries(parent, static_cast<int>(state.range(0)) - static_cast<int>(state.range(0)) / 2);
  for (auto _ : state) benchmark::DoNotOptimize(process::end_commands_of_dead_nibs(scratch()));
  clear_registry();
}
BENCHMARK(BM_SweepLiveOwnersEntries)->Arg(10)->Arg(100);

void BM_SweepOneDeadEntry(benchmark::State& state) {
  clear_registry();
  registry::NibIdentity dead = registry::this_nib();
  dead.start_time += 1;  // this pid, another start time: a nib that has died
  for (auto _ : state) {
    state.PauseTiming();
    write_entries(dead, 1);
    state.ResumeTiming();
    benchmark::DoNotOptimize(process::end_commands_of_dead_nibs(scratch()));
  }
  clear_registry();
}
BENCHMARK(BM_SweepOneDeadEntry);

void BM_RecordAndRemoveACommand(benchmark::State& state) {
  clear_registry();
  const process::CommandRecord command{.started_after = process::boot_time_ticks(),
                                       .tag = process::new_command_tag(),
                                       .call_id = "call_1",
                                       .command = "make test"};
  // As the runner does: recorded before the spawn, the shell added after it, removed at the end.
  for (auto _ : state) {
    const process::CommandEntryId id = process::register_command(command);
    process::command_started(id, ::getpid(), registry::this_nib().start_time);
    process::command_ended(id, /*tree_killed=*/true);
  }
}
BENCHMARK(BM_RecordAndRemoveACommand);

void BM_TakeNoticesOfASessionWithNone(benchmark::State& state) {
  clear_registry();
  for (auto _ : state) benchmark::DoNotOptimize(process::take_ended_commands("session", scratch()));
}
BENCHMARK(BM_TakeNoticesOfASessionWithNone);

}  // namespace
}  // namespace nib::process

BENCHMARK_MAIN();
