#pragma once
// The figures the benchmark programs report and how they print them: nearest-rank statistics
// over a series of timings, one row per series, and bench/run's summary lines
// ("summary<TAB>metric<TAB>value<TAB>target<TAB>verdict"). Header-only; pure apart from stdout.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace nib::bench {

inline double ms_between(std::chrono::steady_clock::time_point from,
                         std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

struct Stats {
  double mean = 0, median = 0, p90 = 0, min = 0, max = 0;
  std::size_t count = 0;
};

// Nearest-rank percentiles over `values` (not empty).
inline Stats stats_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const auto rank = [&](double p) {
    const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
    return values[std::min(index, values.size() - 1)];
  };
  Stats s;
  s.count = values.size();
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(s.count);
  s.median = rank(0.5);
  s.p90 = rank(0.9);
  s.min = values.front();
  s.max = values.back();
  return s;
}

inline void print_stats_row(const std::string& label, const Stats& s) {
  std::printf("  %-40s mean %8.3f  median %8.3f  p90 %8.3f  min %8.3f  max %8.3f ms\n",
              label.c_str(), s.mean, s.median, s.p90, s.min, s.max);
}

inline void print_summary(const std::string& metric, double value, const std::string& unit,
                          double target) {
  std::printf("summary\t%s\t%.3f %s\t< %g %s\t%s\n", metric.c_str(), value, unit.c_str(), target,
              unit.c_str(), value < target ? "ok" : "MISSED");
}

}  // namespace nib::bench
