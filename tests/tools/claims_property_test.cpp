// Property tests of conflict-aware scheduling with the real file tools (issue 14): random
// batches of read, write, edit, grep, find and ls calls over a few files (spelled several ways,
// through symbolic links too), each tool wrapped in a decorator that pauses a random little
// while before and after its work and checks that no conflicting call is ever inside a tool at
// the same time, scheduled by the real ToolScheduler with a budget of several tools at once.
//
// - One run: the results and the files left behind equal those of the same calls run one by
//   one in call order.
// - Two runs at once (two schedulers sharing the process claim table): conflicting calls never
//   overlap, a run's conflicting calls start in its call order, and the results and files equal
//   those of running every call alone in the order the calls actually started.
//
// Each property is checked twice: with the tools' own concurrency flags (write and edit are
// serial within their batch) and with every call marked concurrency-safe, so that the claims
// alone keep conflicting calls apart, as they must between runs.
//
// The pauses only vary the interleavings; what is checked never depends on them. Cases are
// seeded: NIB_CLAIMS_SEED sets the first seed (default below), NIB_CLAIMS_CASES the number of
// cases per test (fewer by default under sanitizers). A failure prints its case's seed; the
// seed replays the batch and the pauses, not the threads' timing.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "core/tool_registry.hpp"
#include "core/tool_scheduler.hpp"
#include "support/registry_of.hpp"
#include "support/temp_dir.hpp"
#include "tools/edit.hpp"
#include "tools/file_tracker.hpp"
#include "tools/find.hpp"
#include "tools/grep.hpp"
#include "tools/ls.hpp"
#include "tools/read.hpp"
#include "tools/write.hpp"

namespace nib::tools {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr int kDefaultCases = 150;  // sanitizers run the tools 5-20x slower
#else
constexpr int kDefaultCases = 750;  // per test: 3,000 cases in all
#endif
constexpr std::uint64_t kDefaultSeed = 14'000;
constexpr std::size_t kToolBudget = 4;  // tools at once: more than one, fewer than a batch
constexpr int kMaxCallsPerBatch = 8;
constexpr int kMaxPauseMicroseconds = 150;

int case_count() {
  const char* text = std::getenv("NIB_CLAIMS_CASES");
  return text != nullptr ? std::max(1, std::atoi(text)) : kDefaultCases;
}

std::uint64_t first_seed() {
  const char* text = std::getenv("NIB_CLAIMS_SEED");
  return text != nullptr ? std::strtoull(text, nullptr, 10) : kDefaultSeed;
}

// What a call really touches, written down by the generator independently of the claim code:
// a path relative to the working directory with links resolved by hand ("." for all of it; a
// directory stands for everything under it), and whether the call changes it.
struct Footprint {
  std::string path;
  bool writes = false;
};

bool within(const std::string& inner, const std::string& outer) {
  return outer == "." || inner == outer || inner.starts_with(outer + "/");
}

bool overlaps(const Footprint& a, const Footprint& b) {
  return (a.writes || b.writes) && (within(a.path, b.path) || within(b.path, a.path));
}

enum class PauseKind { kNone, kYield, kSleep };
struct Pause {
  PauseKind kind = PauseKind::kNone;
  int amount = 0;  // yields, or microseconds
};

void take(const Pause& pause) {
  if (pause.kind == PauseKind::kYield) {
    for (int i = 0; i < pause.amount; ++i) std::this_thread::yield();
  } else if (pause.kind == PauseKind::kSleep) {
    std::this_thread::sleep_for(std::chrono::microseconds(pause.amount));
  }
}

// One planned call: what the scheduler gets, what it touches, and its pauses.
struct PlannedCall {
  int run = 0;
  core::ToolCall call;
  Footprint footprint;
  Pause before, after;
};

// Watches calls enter and leave their tools: records the order they entered in and every pair
// of overlapping calls whose footprints conflict. Thread-safe.
class OverlapMonitor {
 public:
  explicit OverlapMonitor(const std::vector<PlannedCall>& plan) {
    for (const auto& planned : plan) footprints_[planned.call.id] = planned.footprint;
  }

  void enter(const std::string& id) {
    std::lock_guard lock(mutex_);
    for (const auto& other : inside_) {
      if (overlaps(footprints_.at(id), footprints_.at(other))) {
        violations_.push_back(other + " was still running when " + id + " started");
      }
    }
    inside_.insert(id);
    entry_order_.push_back(id);
  }
  void leave(const std::string& id) {
    std::lock_guard lock(mutex_);
    inside_.erase(id);
  }

  std::vector<std::string> violations() const {
    std::lock_guard lock(mutex_);
    return violations_;
  }
  std::vector<std::string> entry_order() const {
    std::lock_guard lock(mutex_);
    return entry_order_;
  }

 private:
  std::map<std::string, Footprint> footprints_;  // read-only once built
  mutable std::mutex mutex_;
  std::set<std::string> inside_;
  std::vector<std::string> entry_order_;
  std::vector<std::string> violations_;
};

// A real tool with its planned pauses around its work, watched by an OverlapMonitor. With
// all_concurrency_safe its calls may run alongside any other, leaving the claims alone to
// keep conflicting calls apart.
class PausingTool final : public core::Tool {
 public:
  PausingTool(core::ToolPtr inner, bool all_concurrency_safe,
              const std::map<std::string, const PlannedCall*>& plan, OverlapMonitor& monitor)
      : Tool(spec_of(*inner, all_concurrency_safe)),
        inner_(std::move(inner)),
        plan_(plan),
        monitor_(monitor) {}

  core::ToolOutput execute(const json& args, std::stop_token stop,
                           const core::ToolContext& context) override {
    const PlannedCall& planned = *plan_.at(context.tool_call_id);
    monitor_.enter(context.tool_call_id);
    take(planned.before);
    auto output = inner_->execute(args, stop, context);
    take(planned.after);
    monitor_.leave(context.tool_call_id);
    return output;
  }
  core::CallAccess access(const json& args, const core::ToolContext& context) const override {
    return inner_->access(args, context);
  }

 private:
  static core::ToolSpec spec_of(const core::Tool& inner, bool all_concurrency_safe) {
    core::ToolSpec spec = inner.spec();
    if (all_concurrency_safe) spec.concurrency_safe = true;
    return spec;
  }

  core::ToolPtr inner_;
  const std::map<std::string, const PlannedCall*>& plan_;
  OverlapMonitor& monitor_;
};

// The file tools of one run (one agent), sharing its record of the files it has seen.
std::vector<core::ToolPtr> run_tools() {
  const auto files = std::make_shared<FileTracker>();
  return {make_read_tool(files), make_write_tool(files), make_edit_tool(files),
          make_grep_tool(),      make_find_tool(),       make_ls_tool()};
}

// A path as a call spells it, and the file it means ("link.txt" is a link to a.txt, "alias" to
// the directory sub).
struct Spelling {
  std::string written;
  std::string real;
};

const std::vector<std::string> kWords = {"alpha", "beta", "gamma", "one", "two", "red", "green"};

// Random batches over the working directory `dir`.
class CallGenerator {
 public:
  CallGenerator(std::uint64_t seed, const fs::path& dir) : rng_(seed), dir_(dir) {}

  std::vector<PlannedCall> batch(int run, int& next_id) {
    std::vector<PlannedCall> calls(1 + pick(kMaxCallsPerBatch));
    for (auto& planned : calls) {
      planned.run = run;
      planned.call.id = "r" + std::to_string(run) + "-" + std::to_string(next_id++);
      json args;
      planned.footprint = fill(planned.call.name, args);
      planned.call.arguments = args.dump();
      planned.before = pause();
      planned.after = pause();
    }
    return calls;
  }

 private:
  int pick(int bound) { return static_cast<int>(rng_() % static_cast<std::uint64_t>(bound)); }
  const std::string& word() { return kWords[pick(static_cast<int>(kWords.size()))]; }

  Spelling file() {
    const std::vector<Spelling> files = {{"a.txt", "a.txt"},
                                         {"./a.txt", "a.txt"},
                                         {"sub/../a.txt", "a.txt"},
                                         {"link.txt", "a.txt"},
                                         {(dir_ / "a.txt").string(), "a.txt"},
                                         {"b.txt", "b.txt"},
                                         {"@b.txt", "b.txt"},
                                         {"sub/c.txt", "sub/c.txt"},
                                         {"alias/c.txt", "sub/c.txt"},
                                         {"new.txt", "new.txt"}};
    return files[pick(static_cast<int>(files.size()))];
  }
  Spelling tree() {
    const std::vector<Spelling> trees = {
        {"", "."}, {".", "."}, {"sub", "sub"}, {"alias", "sub"}, {"./sub/", "sub"}};
    return trees[pick(static_cast<int>(trees.size()))];
  }

  std::string lines() {
    std::string text;
    for (int i = 0, n = 1 + pick(3); i < n; ++i) text += word() + "\n";
    return text;
  }

  // Fills `name` and `args` with a random call; returns what it touches.
  Footprint fill(std::string& name, json& args) {
    const int kind = pick(20);
    if (kind < 6) {
      name = "read";
      const Spelling path = file();
      args = {{"path", path.written}};
      if (pick(4) == 0) args["limit"] = 1 + pick(2);
      return {path.real, false};
    }
    if (kind < 9) {
      name = "write";
      const Spelling path = file();
      args = {{"path", path.written}, {"content", lines()}};
      return {path.real, true};
    }
    if (kind < 14) {
      name = "edit";
      const Spelling path = file();
      args = {{"path", path.written}, {"oldText", word()}, {"newText", word()}};
      return {path.real, true};
    }
    // The searches: grep may also search one file.
    const Spelling path = kind < 17 && pick(4) == 0 ? file() : tree();
    if (kind < 17) {
      name = "grep";
      args = {{"pattern", pick(2) == 0 ? word() : "e|o"}};
    } else if (kind < 19) {
      name = "find";
      args = {{"pattern", pick(2) == 0 ? "*.txt" : "*"}};
    } else {
      name = "ls";
      args = json::object();
    }
    if (!path.written.empty()) args["path"] = path.written;
    return {path.real, false};
  }

  Pause pause() {
    switch (pick(3)) {
      case 0:
        return {};
      case 1:
        return {PauseKind::kYield, 1 + pick(20)};
      default:
        return {PauseKind::kSleep, pick(kMaxPauseMicroseconds)};
    }
  }

  std::mt19937_64 rng_;
  fs::path dir_;
};

// The files every case starts from.
void reset(const testing::TempDir& dir) {
  for (const auto& entry : fs::directory_iterator(dir.path())) fs::remove_all(entry.path());
  dir.write("a.txt", "alpha\nbeta\ngamma\n");
  dir.write("b.txt", "one\ntwo\none\n");
  dir.write("sub/c.txt", "red\ngreen\n");
  fs::create_symlink("a.txt", dir.path() / "link.txt");
  fs::create_directory_symlink("sub", dir.path() / "alias");
}

// Every entry under `dir` (links not followed): a file's content, a link's target.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> entries;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = entry.path().lexically_relative(dir).string();
    if (entry.is_symlink()) {
      entries[name] = "-> " + fs::read_symlink(entry.path()).string();
    } else if (entry.is_directory()) {
      entries[name] = "(directory)";
    } else {
      entries[name] = testing::file_contents(entry.path());
    }
  }
  return entries;
}

// A result as the model sees it.
std::string shown_result(const core::ToolResult& result) {
  return (result.is_error ? "error: " : "") + core::content_text(result.content);
}

std::string describe_calls(const std::vector<PlannedCall>& calls) {
  std::string text;
  for (const auto& planned : calls) {
    text += "  " + planned.call.id + " " + planned.call.name + " " + planned.call.arguments + "\n";
  }
  return text;
}

enum class Flags { kAsBuilt, kAllConcurrencySafe };
const char* name_of(Flags flags) {
  return flags == Flags::kAsBuilt ? "AsBuilt" : "AllConcurrencySafe";
}
void PrintTo(Flags flags, std::ostream* out) {
  *out << name_of(flags);
}

class ClaimsPropertyTest : public ::testing::TestWithParam<Flags> {
 protected:
  // The calls of each run, tools wrapped in pauses, scheduled by one scheduler per run, the
  // runs at once; returns each call's result by id.
  std::map<std::string, std::string> run_scheduled(
      const std::vector<std::vector<PlannedCall>>& runs, OverlapMonitor& monitor) {
    std::map<std::string, const PlannedCall*> plan;
    for (const auto& run : runs) {
      for (const auto& planned : run) plan[planned.call.id] = &planned;
    }
    core::SlotPool slots(kToolBudget);
    std::vector<std::future<core::ToolResultMessage>> done;
    std::vector<std::unique_ptr<core::ToolRegistry>> registries;
    for (const auto& run : runs) {
      std::vector<core::ToolPtr> tools;
      for (auto& tool : run_tools()) {
        tools.push_back(std::make_shared<PausingTool>(
            tool, GetParam() == Flags::kAllConcurrencySafe, plan, monitor));
      }
      registries.push_back(testing::registry_of(std::move(tools)));
      core::SchedulerOptions options;
      options.tools = registries.back().get();
      options.slots = &slots;
      options.cwd = dir_.path();
      std::vector<core::ToolCall> calls;
      for (const auto& planned : run) calls.push_back(planned.call);
      done.push_back(std::async(std::launch::async, [options, calls] {
        return core::ToolScheduler(options).execute_batch(calls, {});
      }));
    }
    std::map<std::string, std::string> results;
    for (auto& run : done) {
      for (const auto& result : run.get().results)
        results[result.tool_call_id] = shown_result(result);
    }
    return results;
  }

  // Runs each call alone, in the order given, with the tools of its run (one set per run).
  std::map<std::string, std::string> run_one_by_one(const std::vector<const PlannedCall*>& order,
                                                    int run_count) {
    std::vector<std::unique_ptr<core::ToolRegistry>> registries;
    for (int run = 0; run < run_count; ++run)
      registries.push_back(testing::registry_of(run_tools()));
    std::map<std::string, std::string> results;
    for (const PlannedCall* planned : order) {
      core::SchedulerOptions options;
      options.tools = registries[planned->run].get();
      options.cwd = dir_.path();
      const auto message = core::ToolScheduler(options).execute_batch({planned->call}, {});
      results[planned->call.id] = shown_result(message.results.at(0));
    }
    return results;
  }

  // Checks one case; false (after reporting everything wrong with it) when it fails.
  bool check_case(std::uint64_t seed, int run_count) {
    CallGenerator generate(seed, dir_.path());
    std::vector<std::vector<PlannedCall>> runs;
    int next_id = 0;
    for (int run = 0; run < run_count; ++run) runs.push_back(generate.batch(run, next_id));
    std::map<std::string, const PlannedCall*> by_id;
    for (const auto& run : runs) {
      for (const auto& planned : run) by_id[planned.call.id] = &planned;
    }

    reset(dir_);
    OverlapMonitor monitor(flatten(runs));
    const auto results = run_scheduled(runs, monitor);
    const auto files = snapshot(dir_.path());
    std::vector<std::string> problems;
    for (const auto& violation : monitor.violations()) {
      problems.push_back("conflicting calls overlapped: " + violation);
    }
    const auto entered = monitor.entry_order();
    // One run: the order it was called in. Two: the order the calls really started in, which
    // must keep each run's conflicting calls in call order.
    std::vector<const PlannedCall*> order;
    if (entered.size() != by_id.size()) {
      problems.push_back("only " + std::to_string(entered.size()) + " of " +
                         std::to_string(by_id.size()) + " calls reached their tool");
    } else if (run_count == 1) {
      for (const auto& planned : runs[0]) order.push_back(&planned);
    } else {
      for (const auto& id : entered) order.push_back(by_id.at(id));
      if (auto misordered = first_misordered(order)) problems.push_back(*misordered);
    }
    if (!order.empty()) {
      reset(dir_);
      for (const auto& [id, expected] : run_one_by_one(order, run_count)) {
        if (results.at(id) != expected) {
          problems.push_back(id + " gave\n" + results.at(id) + "\ninstead of\n" + expected);
        }
      }
      for (const auto& difference : differences(files, snapshot(dir_.path()))) {
        problems.push_back(difference);
      }
    }
    if (problems.empty()) return true;
    std::string report;
    for (const auto& problem : problems) report += problem + "\n";
    ADD_FAILURE() << report << "seed " << seed << " (rerun with NIB_CLAIMS_SEED=" << seed
                  << " NIB_CLAIMS_CASES=1), the calls of each run in call order:\n"
                  << describe_calls(flatten(runs));
    return false;
  }

  static std::vector<PlannedCall> flatten(const std::vector<std::vector<PlannedCall>>& runs) {
    std::vector<PlannedCall> all;
    for (const auto& run : runs) all.insert(all.end(), run.begin(), run.end());
    return all;
  }

  // The first pair of one run's conflicting calls that started out of call order, if any.
  static std::optional<std::string> first_misordered(
      const std::vector<const PlannedCall*>& started) {
    for (std::size_t i = 0; i < started.size(); ++i) {
      for (std::size_t j = i + 1; j < started.size(); ++j) {
        const PlannedCall& first = *started[i];
        const PlannedCall& second = *started[j];
        if (first.run == second.run && overlaps(first.footprint, second.footprint) &&
            call_number(second) < call_number(first)) {
          return second.call.id + " was called before " + first.call.id +
                 ", which conflicts with it, yet started after it";
        }
      }
    }
    return std::nullopt;
  }
  static int call_number(const PlannedCall& planned) {
    return std::stoi(planned.call.id.substr(planned.call.id.find('-') + 1));
  }

  // How the files left by the scheduled calls differ from those left by the calls one by one.
  static std::vector<std::string> differences(const std::map<std::string, std::string>& scheduled,
                                              const std::map<std::string, std::string>& expected) {
    std::vector<std::string> found;
    std::set<std::string> names;
    for (const auto& [name, content] : scheduled) names.insert(name);
    for (const auto& [name, content] : expected) names.insert(name);
    const auto entry = [](const std::map<std::string, std::string>& files,
                          const std::string& name) {
      const auto it = files.find(name);
      return it == files.end() ? std::string("(missing)") : json(it->second).dump();
    };
    for (const auto& name : names) {
      if (entry(scheduled, name) != entry(expected, name)) {
        found.push_back("file " + name + " is " + entry(scheduled, name) + " instead of " +
                        entry(expected, name));
      }
    }
    return found;
  }

  void check_cases(int run_count) {
    const std::uint64_t first = first_seed();
    const int cases = case_count();
    for (int i = 0; i < cases; ++i) {
      if (!check_case(first + static_cast<std::uint64_t>(i), run_count)) return;
    }
  }

  testing::TempDir dir_;
};

TEST_P(ClaimsPropertyTest, OneRunGivesTheResultsAndFilesOfItsCallsOneByOne) {
  check_cases(1);
}

TEST_P(ClaimsPropertyTest, TwoRunsAtOnceNeverOverlapConflictingCalls) {
  check_cases(2);
}

INSTANTIATE_TEST_SUITE_P(Flags, ClaimsPropertyTest,
                         ::testing::Values(Flags::kAsBuilt, Flags::kAllConcurrencySafe),
                         [](const auto& info) { return std::string(name_of(info.param)); });

}  // namespace
}  // namespace nib::tools
