// The permission layer's pieces app builds from the settings: here, which hosts the rules open
// to web_fetch on loopback and private addresses.

#include "app/permission_setup.hpp"

#include <gtest/gtest.h>

namespace nib::app {
namespace {

std::function<bool(std::string_view)> opened_by(const nlohmann::json& permissions) {
  auto rules = permissions::RuleSet::load({{.file = "/p/.nib/settings.json",
                                            .document = {{"permissions", permissions}},
                                            .project = "/p"}});
  EXPECT_TRUE(rules.ok()) << rules.error();
  return hosts_opened_to_web_fetch(
      std::make_shared<const permissions::RuleSet>(std::move(rules.value())));
}

TEST(HostsOpenedToWebFetch, AreTheHostsADomainAllowRuleNames) {
  const auto opened =
      opened_by({{"allow", {"WebFetch(domain:localhost)", "WebFetch(domain:*.corp)"}}});
  EXPECT_TRUE(opened("localhost"));
  EXPECT_TRUE(opened("wiki.corp"));
  EXPECT_FALSE(opened("corp"));
  EXPECT_FALSE(opened("127.0.0.1"));
}

TEST(HostsOpenedToWebFetch, ABareAllowOpensNoneAndADenyOrAskCloses) {
  EXPECT_FALSE(opened_by({{"allow", {"WebFetch"}}})("localhost"));
  const auto opened = opened_by({{"allow", {"WebFetch(domain:*.corp)"}},
                                 {"deny", {"WebFetch(domain:secret.corp)"}},
                                 {"ask", {"WebFetch(domain:hr.corp)"}}});
  EXPECT_TRUE(opened("wiki.corp"));
  EXPECT_FALSE(opened("secret.corp"));
  EXPECT_FALSE(opened("hr.corp"));
  EXPECT_FALSE(hosts_opened_to_web_fetch(nullptr));
}

}  // namespace
}  // namespace nib::app
