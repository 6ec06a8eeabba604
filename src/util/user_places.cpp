#include "util/user_places.hpp"

#include <pwd.h>
#include <unistd.h>

#include <mutex>
#include <optional>
#include <vector>

namespace nib::util {
namespace {

namespace fs = std::filesystem;

// What `name` holds, when it is an absolute path; else empty.
fs::path absolute_variable(const EnvLookup& variable, const char* name) {
  const std::optional<std::string> value = variable(name);
  if (!value || !fs::path(*value).is_absolute()) return {};
  return *value;
}

// What the XDG variable `name` holds, else `under_home` in `home` (empty without a home).
fs::path xdg_place(const EnvLookup& variable, const char* name, const fs::path& home,
                   const fs::path& under_home) {
  fs::path place = absolute_variable(variable, name);
  if (place.empty() && !home.empty()) place = home / under_home;
  return place;
}

struct ProcessPlaces {
  std::mutex mutex;
  std::optional<UserPlaces> places;
};

// Never destroyed: a thread still running at exit may ask for the places.
ProcessPlaces& process_places_holder() {
  static ProcessPlaces* const holder = new ProcessPlaces();
  return *holder;
}

}  // namespace

fs::path account_home() {
  std::vector<char> buffer(16 * 1024);
  passwd entry{};
  passwd* result = nullptr;
  if (getpwuid_r(getuid(), &entry, buffer.data(), buffer.size(), &result) == 0 &&
      result != nullptr && result->pw_dir != nullptr && result->pw_dir[0] == '/') {
    return result->pw_dir;
  }
  return {};
}

UserPlaces user_places(const EnvLookup& variable, const std::function<fs::path()>& fallback_home) {
  UserPlaces places;
  places.home = absolute_variable(variable, "HOME");
  if (places.home.empty()) places.home = fallback_home();
  places.config_home = xdg_place(variable, "XDG_CONFIG_HOME", places.home, ".config");
  places.data_home =
      xdg_place(variable, "XDG_DATA_HOME", places.home, fs::path(".local") / "share");
  places.cache_home = xdg_place(variable, "XDG_CACHE_HOME", places.home, ".cache");
  places.runtime_dir = absolute_variable(variable, "XDG_RUNTIME_DIR");
  places.temp_dir = absolute_variable(variable, "TMPDIR");
  if (places.temp_dir.empty()) places.temp_dir = "/tmp";
  return places;
}

UserPlaces process_places() {
  ProcessPlaces& holder = process_places_holder();
  const std::lock_guard lock(holder.mutex);
  if (!holder.places) holder.places = user_places(process_environment());
  return *holder.places;
}

void set_process_places(UserPlaces places) {
  ProcessPlaces& holder = process_places_holder();
  const std::lock_guard lock(holder.mutex);
  holder.places = std::move(places);
}

}  // namespace nib::util
