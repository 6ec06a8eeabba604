#include "mcp/stdio_transport.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "mcp/client.hpp"
#include "mcp/stdio_fixture.hpp"
#include "support/temp_dir.hpp"

namespace nib::mcp {
namespace {

using namespace std::chrono_literals;

std::unique_ptr<Client> client_for(const std::string& mode, Pairs env = {}) {
  auto transport = real_transports(std::filesystem::current_path(), testing::process_environment())(
      testing::fake_server("fake", mode, std::move(env)));
  EXPECT_TRUE(transport.ok()) << transport.error();
  return std::make_unique<Client>(std::move(transport.value()));
}

TEST(FindProgram, LooksInPathAndSaysWhereItLooked) {
  nib::testing::TempDir dir;
  EXPECT_EQ(find_program("sh", {"PATH=/nonexistent:/bin"}, dir.path()).value(), "/bin/sh");
  EXPECT_EQ(find_program("/bin/sh", {}, dir.path()).value(), "/bin/sh");
  EXPECT_EQ(find_program("no-such-program-x", {"PATH=/bin"}, dir.path()).error(),
            "the command \"no-such-program-x\" was not found in PATH (/bin)");
  EXPECT_FALSE(find_program("./missing", {}, dir.path()).ok());
}

TEST(StdioTransport, TalksToAServerLineByLine) {
  auto client = client_for("normal");
  const auto hello = client->connect({}, 30s);
  ASSERT_TRUE(hello.ok()) << hello.error();
  const auto tools = client->list_tools({}, 30s);
  ASSERT_TRUE(tools.ok()) << tools.error();
  EXPECT_EQ(tools.value().size(), 5u);
  const auto echoed =
      client->request("tools/call", {{"name", "echo"}, {"arguments", {{"text", "hi"}}}}, {}, 30s);
  ASSERT_TRUE(echoed.ok()) << echoed.error();
  EXPECT_EQ(echoed.value()["content"][0]["text"], "echo: hi");
  EXPECT_NE(client->diagnostics().find("fake server started in mode normal"), std::string::npos);
}

TEST(StdioTransport, SkipsStdoutLinesThatAreNotJsonRpcAndNotesThem) {
  auto client = client_for("garbage");
  ASSERT_TRUE(client->connect({}, 30s).ok());
  const std::string diagnostics = client->diagnostics();
  EXPECT_NE(diagnostics.find("stdout line skipped (not JSON): npm WARN deprecated something@1.0"),
            std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("stdout line skipped (not JSON): {not json"), std::string::npos);
}

TEST(StdioTransport, AServerThatExitsAtOnceFailsWithItsStderr) {
  auto client = client_for("exit");
  const auto hello = client->connect({}, 30s);
  ASSERT_FALSE(hello.ok());
  EXPECT_EQ(hello.error(), "the server exited with status 3");
  EXPECT_NE(client->diagnostics().find("fatal: missing configuration FOO"), std::string::npos);
}

TEST(StdioTransport, AServerThatCrashesMidCallFailsTheCallAtOnce) {
  auto client = client_for("normal");
  ASSERT_TRUE(client->connect({}, 30s).ok());
  RequestFailure failure;
  const auto result = client->request("tools/call", {{"name", "crash"}}, {}, 120s, &failure);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(failure.kind, RequestFailure::Kind::kClosed);
  EXPECT_EQ(result.error(), "the server exited with status 1");
  EXPECT_NE(client->diagnostics().find("crashing now"), std::string::npos);
}

TEST(StdioTransport, ACancelledCallReachesTheServer) {
  nib::testing::TempDir dir;
  const std::string log = (dir.path() / "cancelled").string();
  auto client = client_for("normal", {{"FAKE_CANCEL_LOG", log}});
  ASSERT_TRUE(client->connect({}, 30s).ok());
  std::stop_source stop;
  stop.request_stop();
  ASSERT_FALSE(client->request("tools/call", {{"name", "slow"}}, stop.get_token(), 120s).ok());
  // A request after it is answered only once the server has read the notification.
  ASSERT_TRUE(
      client->request("tools/call", {{"name", "echo"}, {"arguments", {{"text", "x"}}}}, {}, 30s)
          .ok());
  std::ifstream cancelled(log);
  std::string line;
  std::getline(cancelled, line);
  EXPECT_EQ(nlohmann::json::parse(line)["reason"], "the user interrupted the request");
}

TEST(StdioTransport, AProgramThatIsMissingIsAClearError) {
  ServerConfig config = testing::fake_server("x", "normal");
  config.command = "no-such-mcp-server";
  const auto transport = real_transports(std::filesystem::current_path(), {"PATH=/bin"})(config);
  ASSERT_FALSE(transport.ok());
  EXPECT_EQ(transport.error(), "the command \"no-such-mcp-server\" was not found in PATH (/bin)");
}

}  // namespace
}  // namespace nib::mcp
