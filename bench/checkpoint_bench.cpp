// checkpoint_bench: what a checkpoint of the working tree costs (session/checkpoint_store.hpp)
// on a generated tree of N small files (default 100,000, in directories of 100): the first
// checkpoint into an empty store, the first of a later process (a whole look, the store
// warm), a checkpoint of an unchanged tree, and one after 10 files changed, with the peak
// RSS and what the later checkpoints add to it. The target: at most 30 ms for the 10 changed
// files, and a few MiB of memory.
//
// Usage: checkpoint_bench [FILES]   (the tree and the store are made under $TMPDIR and removed)

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench_stats.hpp"
#include "session/checkpoint_store.hpp"

namespace {

namespace fs = std::filesystem;
using nib::bench::ms_between;

constexpr int kFilesPerDirectory = 100;
constexpr int kRounds = 20;

nib::session::CheckpointStore open_store(const fs::path& store, const fs::path& tree) {
  auto opened = nib::session::CheckpointStore::open(store, tree);
  if (!opened.ok()) {
    std::fprintf(stderr, "checkpoint_bench: %s\n", opened.error().c_str());
    std::exit(1);
  }
  return std::move(opened.value());
}

// The process's resident memory now, in MiB.
double resident_mib() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0;
  long resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) /
         (1024.0 * 1024.0);
}

double timed_take(nib::session::CheckpointStore& store) {
  const auto start = std::chrono::steady_clock::now();
  const auto taken = store.take("bench");
  const auto end = std::chrono::steady_clock::now();
  if (!taken.ok()) {
    std::fprintf(stderr, "checkpoint_bench: %s\n", taken.error().c_str());
    std::exit(1);
  }
  return ms_between(start, end);
}

}  // namespace

int main(int argc, char** argv) {
  const int files = argc > 1 ? std::atoi(argv[1]) : 100000;
  const char* tmp = std::getenv("TMPDIR");
  const fs::path root = fs::path(tmp != nullptr ? tmp : "/tmp") / "nib-checkpoint-bench";
  fs::remove_all(root);
  const fs::path tree = root / "tree";
  const fs::path store_dir = root / "store";
  for (int file = 0; file < files; ++file) {
    const fs::path directory = tree / ("d" + std::to_string(file / kFilesPerDirectory));
    if (file % kFilesPerDirectory == 0) fs::create_directories(directory);
    std::ofstream(directory / ("f" + std::to_string(file % kFilesPerDirectory) + ".txt"))
        << "file " << file << "\n";
  }
  std::printf("checkpoints of a tree of %d files\n", files);
  double first = 0;
  {
    auto store = open_store(store_dir, tree);
    first = timed_take(store);
  }
  auto store = open_store(store_dir, tree);
  const double whole_look = timed_take(store);
  std::vector<double> unchanged;
  std::vector<double> ten_changed;
  const double resident_before = resident_mib();
  const int directories = (files + kFilesPerDirectory - 1) / kFilesPerDirectory;
  for (int round = 0; round < kRounds; ++round) {
    unchanged.push_back(timed_take(store));
    for (int changed = 0; changed < 10; ++changed) {
      const int directory = (changed * 97 + round) % directories;
      std::ofstream(tree / ("d" + std::to_string(directory)) / "f7.txt") << "round " << round;
    }
    ten_changed.push_back(timed_take(store));
  }
  const double resident_growth = resident_mib() - resident_before;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("  first checkpoint, empty store           %10.1f ms\n", first);
  std::printf("  first of a process (whole look)         %10.1f ms\n", whole_look);
  nib::bench::print_stats_row("unchanged tree", nib::bench::stats_of(unchanged));
  const auto changed_stats = nib::bench::stats_of(ten_changed);
  nib::bench::print_stats_row("10 files changed", changed_stats);
  std::printf("  peak RSS (the first checkpoint's)        %10.1f MiB\n",
              static_cast<double>(usage.ru_maxrss) / 1024.0);
  std::printf("  RSS growth over the later checkpoints   %10.1f MiB\n", resident_growth);
  nib::bench::print_summary("checkpoint, 10 of 100k files changed (median)", changed_stats.median,
                            "ms", 30);
  fs::remove_all(root);
  return 0;
}
