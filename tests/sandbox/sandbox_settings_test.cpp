#include "sandbox/sandbox_settings.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace nib::sandbox {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class SandboxSettingsTest : public ::testing::Test {
 protected:
  util::Result<SandboxSettings> read() {
    std::vector<SettingsDocument> sources;
    for (std::size_t i = 0; i < documents_.size(); ++i) {
      sources.push_back({files_[i], claude_[i], &documents_[i]});
    }
    return read_sandbox_settings(sources, "/work/tree", "/home/me");
  }
  void add(const char* file, nlohmann::json document, bool claude = false) {
    files_.emplace_back(file);
    documents_.push_back(std::move(document));
    claude_.push_back(claude);
  }

  std::vector<std::filesystem::path> files_;
  std::vector<nlohmann::json> documents_;
  std::vector<bool> claude_;
};

TEST_F(SandboxSettingsTest, NoSectionMeansTheDefaults) {
  add("/u/settings.json", {{"model", "x"}});
  const auto settings = read();
  ASSERT_TRUE(settings.ok()) << settings.error();
  EXPECT_TRUE(settings.value().enabled);
  EXPECT_FALSE(settings.value().network);
  EXPECT_TRUE(settings.value().writable_paths.empty());
}

TEST_F(SandboxSettingsTest, LaterFilesWinAndListsAddUp) {
  add("/u/settings.json", {{"sandbox",
                            {{"enabled", false},
                             {"network", true},
                             {"writablePaths", {"~/shared", "build-cache", "/var/x/../y"}},
                             {"excludedCommands", {"docker"}}}}});
  add("/w/.nib/settings.json",
      {{"sandbox", {{"enabled", true}, {"excludedCommands", {"git push"}}}}});
  const auto settings = read();
  ASSERT_TRUE(settings.ok()) << settings.error();
  EXPECT_TRUE(settings.value().enabled);
  EXPECT_TRUE(settings.value().network);
  EXPECT_THAT(settings.value().writable_paths,
              ElementsAre("/home/me/shared", "/work/tree/build-cache", "/var/y"));
  EXPECT_THAT(settings.value().excluded_commands, ElementsAre("docker", "git push"));
}

TEST_F(SandboxSettingsTest, ClaudeCodesSectionGivesOnlyTheSharedKeys) {
  // Claude Code's "network" is an object of its own; it must neither fail nor turn it on.
  add("/w/.claude/settings.json",
      {{"sandbox",
        {{"enabled", true},
         {"autoAllowBashIfSandboxed", true},
         {"network", {{"allowUnixSockets", {"/var/run/docker.sock"}}}},
         {"excludedCommands", {"docker"}}}}},
      /*claude=*/true);
  const auto settings = read();
  ASSERT_TRUE(settings.ok()) << settings.error();
  EXPECT_FALSE(settings.value().network);
  EXPECT_THAT(settings.value().excluded_commands, ElementsAre("docker"));
}

TEST_F(SandboxSettingsTest, ProblemsNameTheFileAndTheField) {
  add("/w/.nib/settings.json", {{"sandbox", {{"enabeld", true}}}});
  EXPECT_THAT(read().error(), HasSubstr("/w/.nib/settings.json: sandbox.enabeld: unknown key"));
  documents_[0] = {{"sandbox", {{"network", "off"}}}};
  EXPECT_THAT(read().error(), HasSubstr("sandbox.network: must be true or false"));
  documents_[0] = {{"sandbox", {{"writablePaths", {"ok", 3}}}}};
  EXPECT_THAT(read().error(), HasSubstr("sandbox.writablePaths[1]: must be a non-empty string"));
  documents_[0] = {{"sandbox", {{"excludedCommands", "docker"}}}};
  EXPECT_THAT(read().error(), HasSubstr("sandbox.excludedCommands: must be an array"));
  documents_[0] = {{"sandbox", true}};
  EXPECT_THAT(read().error(), HasSubstr("/w/.nib/settings.json: sandbox: must be an object"));
}

TEST(ExcludedCommandTest, MatchesTheCommandOrItsPrefixWithABlank) {
  const std::vector<std::string> excluded = {"docker", "git push"};
  EXPECT_TRUE(is_excluded_command("docker", excluded));
  EXPECT_TRUE(is_excluded_command("\tdocker run x", excluded));
  EXPECT_TRUE(is_excluded_command("git push -f", excluded));
  EXPECT_FALSE(is_excluded_command("dockerfile-lint", excluded));
  EXPECT_FALSE(is_excluded_command("git pull", excluded));
  EXPECT_FALSE(is_excluded_command("   ", excluded));
}

}  // namespace
}  // namespace nib::sandbox
