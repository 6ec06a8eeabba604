#pragma once
// Fakes the process's places (util/user_places.hpp) for one test: what the command registry,
// private logs, the tools' `~` and the sandbox's temp and runtime directories read, without
// changing the environment. Puts the previous places back when it goes. Not thread-safe: one
// per test, made before anything it should affect starts.

#include <filesystem>
#include <utility>

#include "util/user_places.hpp"

namespace nib::testing {

class ScopedPlaces {
 public:
  explicit ScopedPlaces(util::UserPlaces places) : previous_(util::process_places()) {
    util::set_process_places(std::move(places));
  }
  // The process's places with one of them changed: {&util::UserPlaces::runtime_dir, dir}.
  ScopedPlaces(std::filesystem::path util::UserPlaces::*place, std::filesystem::path value)
      : previous_(util::process_places()) {
    util::UserPlaces changed = previous_;
    changed.*place = std::move(value);
    util::set_process_places(std::move(changed));
  }
  ~ScopedPlaces() { util::set_process_places(std::move(previous_)); }
  ScopedPlaces(const ScopedPlaces&) = delete;
  ScopedPlaces& operator=(const ScopedPlaces&) = delete;

 private:
  util::UserPlaces previous_;
};

}  // namespace nib::testing
