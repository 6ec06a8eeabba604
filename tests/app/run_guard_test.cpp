// The run guard's home: with HOME unset or relative, the permission rules judge a call on the
// same home directory the tools resolve `~` to (util/user_places.hpp).

#include "app/run_guard.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "support/fake_environment.hpp"
#include "support/scoped_places.hpp"
#include "support/temp_dir.hpp"

namespace nib::app {
namespace {

core::ToolPtr guarded_tool_named(const RunGuard& guard, const std::string& name) {
  for (core::ToolPtr& tool : tools::builtin_tools(guard.tool_options())) {
    if (tool->name() == name) return tool;
  }
  return nullptr;
}

TEST(RunGuardHome, WithHomeUnsetOrRelativeTheRulesAndTheToolsSeeOneHome) {
  testing::TempDir account;  // the password database's home
  account.write("secret/key", "k\n");
  testing::TempDir tree;
  Configuration configuration;
  configuration.sources.push_back(
      SettingsSource{account.path() / ".config/nib/settings.json", SettingsSource::Scope::kUser,
                     false, nlohmann::json{{"permissions", {{"deny", {"Read(~/secret/**)"}}}}}});
  CliOptions flags;
  flags.no_sandbox = true;
  for (const std::map<std::string, std::string>& environment :
       {std::map<std::string, std::string>{}, {{"HOME", "relative/home"}}}) {
    SCOPED_TRACE(environment.empty() ? "HOME unset" : "HOME relative");
    const util::UserPlaces places =
        util::user_places(testing::fake_environment(environment), [&] { return account.path(); });
    ASSERT_EQ(places.home, account.path());
    // As main does: the guard gets the places, and the tools read the process's copy.
    const testing::ScopedPlaces process_wide(places);
    auto guard = make_guard(flags, configuration, places, tree.path(), {});
    ASSERT_TRUE(guard.ok()) << guard.error();
    const core::ToolPtr read = guarded_tool_named(*guard.value(), "read");
    ASSERT_NE(read, nullptr);
    const nlohmann::json args = {{"path", "~/secret/key"}};
    core::CallAccess access = read->access(args, {"call-1", tree.path()});
    access.kind = read->spec().access;  // as the call's preparation stamps it (core/tool.hpp)
    ASSERT_EQ(access.paths.size(), 1u);
    EXPECT_EQ(access.paths[0].path, account.path() / "secret/key");
    const core::GateRequest request{
        .tool_call_id = "call-1", .name = "read", .args = &args, .access = &access};
    const permissions::Assessment assessed = guard.value()->policy().assess(request);
    EXPECT_EQ(assessed.verdict, permissions::CallVerdict::kDeny) << assessed.reason;
  }
}

}  // namespace
}  // namespace nib::app
