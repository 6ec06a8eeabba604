// The one rule for where the user's things are: absolute variables only, the password
// database's home without a usable HOME, the XDG directories under the home, /tmp without
// TMPDIR, and one process-wide copy.

#include "util/user_places.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "support/fake_environment.hpp"

namespace nib::util {
namespace {

// The places of `environment`, with `account` as the password database's home; counts how
// often the database was asked.
struct PlacesProbe {
  std::filesystem::path account = "/home/from-passwd";
  int account_asked = 0;

  UserPlaces of(std::map<std::string, std::string> environment) {
    return user_places(nib::testing::fake_environment(std::move(environment)), [this] {
      ++account_asked;
      return account;
    });
  }
};

TEST(UserPlaces, AnAbsoluteHomeWinsAndThePasswordDatabaseIsNotAsked) {
  PlacesProbe probe;
  EXPECT_EQ(probe.of({{"HOME", "/home/me"}}).home, "/home/me");
  EXPECT_EQ(probe.account_asked, 0);
}

TEST(UserPlaces, WithoutAnAbsoluteHomeThePasswordDatabaseIsAsked) {
  PlacesProbe probe;
  EXPECT_EQ(probe.of({}).home, "/home/from-passwd");
  EXPECT_EQ(probe.of({{"HOME", ""}}).home, "/home/from-passwd");
  EXPECT_EQ(probe.of({{"HOME", "relative/home"}}).home, "/home/from-passwd");
  EXPECT_EQ(probe.account_asked, 3);
}

TEST(UserPlaces, TheXdgDirectoriesFallBackToTheirPlacesInTheHome) {
  PlacesProbe probe;
  const UserPlaces places = probe.of({{"HOME", "/home/me"}});
  EXPECT_EQ(places.config_home, "/home/me/.config");
  EXPECT_EQ(places.data_home, "/home/me/.local/share");
  EXPECT_EQ(places.cache_home, "/home/me/.cache");
  EXPECT_EQ(places.runtime_dir, "");  // no fallback
  // The same without HOME: under the password database's home.
  EXPECT_EQ(probe.of({}).config_home, "/home/from-passwd/.config");
}

TEST(UserPlaces, AbsoluteXdgVariablesWin) {
  PlacesProbe probe;
  const UserPlaces places = probe.of({{"HOME", "/home/me"},
                                      {"XDG_CONFIG_HOME", "/xdg/config"},
                                      {"XDG_DATA_HOME", "/xdg/data"},
                                      {"XDG_CACHE_HOME", "/xdg/cache"},
                                      {"XDG_RUNTIME_DIR", "/run/user/1000"},
                                      {"TMPDIR", "/scratch"}});
  EXPECT_EQ(places.config_home, "/xdg/config");
  EXPECT_EQ(places.data_home, "/xdg/data");
  EXPECT_EQ(places.cache_home, "/xdg/cache");
  EXPECT_EQ(places.runtime_dir, "/run/user/1000");
  EXPECT_EQ(places.temp_dir, "/scratch");
}

TEST(UserPlaces, RelativeValuesAreIgnored) {
  PlacesProbe probe;
  const UserPlaces places = probe.of({{"HOME", "/home/me"},
                                      {"XDG_CONFIG_HOME", "config"},
                                      {"XDG_DATA_HOME", "./data"},
                                      {"XDG_CACHE_HOME", "cache"},
                                      {"XDG_RUNTIME_DIR", "run"},
                                      {"TMPDIR", "tmp"}});
  EXPECT_EQ(places.config_home, "/home/me/.config");
  EXPECT_EQ(places.data_home, "/home/me/.local/share");
  EXPECT_EQ(places.cache_home, "/home/me/.cache");
  EXPECT_EQ(places.runtime_dir, "");
  EXPECT_EQ(places.temp_dir, "/tmp");
}

TEST(UserPlaces, TheTempDirectoryIsTmpWithoutTmpdir) {
  PlacesProbe probe;
  EXPECT_EQ(probe.of({{"HOME", "/home/me"}}).temp_dir, "/tmp");
}

TEST(UserPlaces, WithNoHomeAtAllTheXdgFallbacksAreEmpty) {
  PlacesProbe probe;
  probe.account.clear();
  const UserPlaces places = probe.of({{"XDG_DATA_HOME", "/xdg/data"}});
  EXPECT_EQ(places.home, "");
  EXPECT_EQ(places.config_home, "");
  EXPECT_EQ(places.data_home, "/xdg/data");
  EXPECT_EQ(places.cache_home, "");
  EXPECT_EQ(places.temp_dir, "/tmp");
}

TEST(UserPlaces, TheAccountHomeIsAbsoluteOrEmpty) {
  const std::filesystem::path home = account_home();
  EXPECT_TRUE(home.empty() || home.is_absolute()) << home;
}

TEST(ProcessPlaces, AreWhatWasSetLast) {
  const UserPlaces before = process_places();
  const UserPlaces faked{.home = "/fake/home", .temp_dir = "/fake/tmp"};
  set_process_places(faked);
  EXPECT_EQ(process_places(), faked);
  set_process_places(before);
  EXPECT_EQ(process_places(), before);
}

}  // namespace
}  // namespace nib::util
