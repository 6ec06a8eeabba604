// The mock model server's routing by conversation and its barrier, driven over plain HTTP with
// cpp-httplib's client as nib's providers drive it: one connection per concurrent request.

#include "support/mock_model_server.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

namespace nib::testing {
namespace {

using nlohmann::json;

// How long a client waits for bytes of a held reply; the tests release every hold themselves,
// so this only ends a test whose barrier never opens.
constexpr std::chrono::seconds kClientReadTimeout{60};

struct Answer {
  bool completed = false;  // a whole HTTP response arrived
  int status = 0;
  std::string body;
  std::chrono::steady_clock::time_point received_at;  // when the response had arrived
};

Answer post(const MockModelServer& server, const std::string& path, const json& body) {
  httplib::Client client(server.origin());
  client.set_read_timeout(kClientReadTimeout);
  const auto result = client.Post(path, body.dump(), "application/json");
  if (!result) return {};
  return {true, result->status, result->body, std::chrono::steady_clock::now()};
}

// A Chat Completions body whose first user message has `first_user_content` (a string or parts).
json chat_body(const json& first_user_content) {
  return {{"model", "mock-model"},
          {"stream", true},
          {"messages", json::array({{{"role", "system"}, {"content", "You are nib."}},
                                    {{"role", "user"}, {"content", first_user_content}},
                                    {{"role", "assistant"}, {"content", "Which file?"}},
                                    {{"role", "user"}, {"content", "later turn"}}})}};
}

bool has_text(const Answer& answer, const std::string& text) {
  return answer.completed && answer.status == 200 && answer.body.find(text) != std::string::npos;
}

TEST(MockModelServerTest, RoutesChatCompletionsByTheFirstUserMessage) {
  MockModelServer server;
  server.enqueue_for("fix the parser", MockReply::text("parser fixed"));
  server.enqueue_for("write the docs\nin English", MockReply::text("docs written"));

  // The second conversation first, its first message as a list of parts (an image among them).
  const json parts = json::array({{{"type", "text"}, {"text", "write the docs"}},
                                  {{"type", "image_url"}, {"image_url", {{"url", "data:,"}}}},
                                  {{"type", "text"}, {"text", "in English"}}});
  EXPECT_TRUE(has_text(post(server, "/v1/chat/completions", chat_body(parts)), "docs written"));
  EXPECT_TRUE(
      has_text(post(server, "/v1/chat/completions", chat_body("fix the parser")), "parser fixed"));

  EXPECT_EQ(server.replies_left_for("fix the parser"), 0u);
  const auto parser = server.requests_for("fix the parser");
  ASSERT_EQ(parser.size(), 1u);
  EXPECT_EQ(parser[0].body["messages"][1]["content"], "fix the parser");
  EXPECT_EQ(server.requests_for("write the docs\nin English").size(), 1u);
  EXPECT_TRUE(server.requests_for("later turn").empty());
}

TEST(MockModelServerTest, RoutesResponsesByTheFirstUserInputItem) {
  MockModelServer server;
  server.enqueue_for("fix the parser", MockReply::text("parser fixed"));
  server.enqueue_for("write the docs", MockReply::text("docs written"));
  server.enqueue_for("write the docs", MockReply::text("docs revised"));
  const json items = {
      {"model", "mock-model"},
      {"instructions", "You are nib."},
      {"input",
       json::array(
           {{{"type", "message"},
             {"role", "user"},
             {"content", json::array({{{"type", "input_text"}, {"text", "fix the parser"}}})}},
            {{"type", "function_call_output"}, {"call_id", "call_1"}, {"output", "ok"}},
            {{"type", "message"},
             {"role", "user"},
             {"content", json::array({{{"type", "input_text"}, {"text", "later turn"}}})}}})}};
  // The service's shorthand forms: a plain string input, and a message without "type".
  const json string_input = {{"model", "mock-model"}, {"input", "write the docs"}};
  const json easy_message = {
      {"model", "mock-model"},
      {"input", json::array({{{"role", "user"}, {"content", "write the docs"}}})}};

  EXPECT_TRUE(has_text(post(server, "/v1/responses", string_input), "docs written"));
  EXPECT_TRUE(has_text(post(server, "/v1/responses", items), "parser fixed"));
  EXPECT_TRUE(has_text(post(server, "/v1/responses", easy_message), "docs revised"));
  EXPECT_EQ(server.requests_for("fix the parser").size(), 1u);
  EXPECT_EQ(server.requests_for("write the docs").size(), 2u);
}

TEST(MockModelServerTest, RoutesAnthropicMessagesByTheFirstUserMessage) {
  MockModelServer server;
  server.enqueue_for("fix the parser", MockReply::raw_stream("event: parser\n\n"));
  server.enqueue_for("write the docs", MockReply::raw_stream("event: docs\n\n"));
  const auto body = [](const json& content) {
    return json{{"model", "mock-model"},
                {"system", json::array({{{"type", "text"}, {"text", "You are nib."}}})},
                {"messages", json::array({{{"role", "user"}, {"content", content}}})}};
  };
  const json blocks = json::array(
      {{{"type", "text"}, {"text", "fix the parser"}, {"cache_control", {{"type", "ephemeral"}}}}});

  EXPECT_TRUE(has_text(post(server, "/v1/messages", body("write the docs")), "event: docs"));
  EXPECT_TRUE(has_text(post(server, "/v1/messages", body(blocks)), "event: parser"));
  EXPECT_EQ(server.requests_for("fix the parser").at(0).path, "/v1/messages");
}

TEST(MockModelServerTest, OtherConversationsTakeFromTheGeneralQueue) {
  MockModelServer server;
  server.enqueue(MockReply::text("general one"));
  server.enqueue(MockReply::text("general two"));
  server.enqueue_for("fix the parser", MockReply::text("parser fixed"));

  EXPECT_TRUE(
      has_text(post(server, "/v1/chat/completions", chat_body("main agent")), "general one"));
  EXPECT_TRUE(
      has_text(post(server, "/v1/chat/completions", chat_body("fix the parser")), "parser fixed"));
  // A body without a user message belongs to no conversation.
  EXPECT_TRUE(has_text(post(server, "/v1/chat/completions", json::object()), "general two"));
  EXPECT_EQ(server.replies_left(), 0u);
  EXPECT_EQ(server.requests_for("main agent").size(), 1u);
  EXPECT_FALSE(server.requests().at(2).first_user_text.has_value());
}

TEST(MockModelServerTest, AnEmptiedConversationQueueAnswers500NamingTheConversation) {
  MockModelServer server;
  server.enqueue(MockReply::text("general"));
  server.enqueue_for("fix \"the\" parser", MockReply::text("parser fixed"));
  EXPECT_TRUE(has_text(post(server, "/v1/chat/completions", chat_body("fix \"the\" parser")),
                       "parser fixed"));

  const Answer second = post(server, "/v1/chat/completions", chat_body("fix \"the\" parser"));
  EXPECT_EQ(second.status, 500);
  EXPECT_EQ(json::parse(second.body)["error"]["message"],
            "mock: no scripted reply left for the conversation starting \"fix \"the\" parser\"");
  EXPECT_EQ(server.replies_left(), 1u);  // the general queue is not a fallback for it
}

TEST(MockModelServerTest, AnEmptyGeneralQueueAnswersAsBefore) {
  MockModelServer server;
  const Answer answer = post(server, "/v1/chat/completions", chat_body("anything"));
  EXPECT_EQ(answer.status, 500);
  EXPECT_EQ(answer.body, R"({"error":{"message":"mock: no scripted reply left","type":"mock"}})");
}

// Posts one request per prompt, each from its own thread and connection.
class Clients {
 public:
  Clients(const MockModelServer& server, const std::vector<std::string>& prompts)
      : answers_(prompts.size()) {
    for (std::size_t index = 0; index < prompts.size(); ++index) {
      threads_.emplace_back([this, &server, index, prompt = prompts[index]] {
        answers_[index] = post(server, "/v1/chat/completions", chat_body(prompt));
        ++finished_;
      });
    }
  }
  std::size_t finished() const { return finished_; }
  const std::vector<Answer>& join() {
    threads_.clear();
    return answers_;
  }

 private:
  std::vector<Answer> answers_;
  std::atomic<std::size_t> finished_{0};
  std::vector<std::jthread> threads_;
};

const std::vector<std::string> kSubagents = {"task one", "task two", "task three"};

void enqueue_held(MockModelServer& server, std::size_t peers) {
  for (const auto& prompt : kSubagents) {
    server.enqueue_for(prompt, MockReply::text("done: " + prompt).after_peers("subagents", peers));
  }
}

TEST(MockModelServerTest, ABarrierOpensWhenAllItsPeersHaveArrived) {
  MockModelServer server;
  enqueue_held(server, kSubagents.size());
  Clients clients(server, kSubagents);
  const auto& answers = clients.join();

  for (std::size_t index = 0; index < kSubagents.size(); ++index) {
    EXPECT_TRUE(has_text(answers[index], "done: " + kSubagents[index])) << index;
    EXPECT_NE(answers[index].body.find("data: [DONE]"), std::string::npos);
  }
  // Every request arrived before any client had its reply: all three were in flight at once.
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), kSubagents.size());
  const auto last_arrival =
      std::max_element(requests.begin(), requests.end(), [](const auto& a, const auto& b) {
        return a.arrived_at < b.arrived_at;
      })->arrived_at;
  for (const Answer& answer : answers) EXPECT_LE(last_arrival, answer.received_at);
}

TEST(MockModelServerTest, ABarrierShortOfPeersHoldsUntilRelease) {
  MockModelServer server;
  enqueue_held(server, kSubagents.size() + 1);
  Clients clients(server, kSubagents);
  ASSERT_TRUE(server.wait_for_requests(kSubagents.size()));

  EXPECT_EQ(clients.finished(), 0u);
  for (const auto& request : server.requests())
    EXPECT_FALSE(request.reply_completed_at.has_value());
  server.release();
  for (std::size_t index = 0; const Answer& answer : clients.join()) {
    EXPECT_TRUE(has_text(answer, "done: " + kSubagents[index++]));
  }
}

TEST(MockModelServerTest, AnErrorReplyCountsAsAPeerWithoutBeingHeld) {
  MockModelServer server;
  server.enqueue_for("task one", MockReply::text("done").after_peers("pair", 2));
  server.enqueue_for(
      "task two",
      MockReply::http_error(429, R"({"error":{"message":"slow down"}})").after_peers("pair", 2));
  Clients held(server, {"task one"});
  ASSERT_TRUE(server.wait_for_requests(1));

  EXPECT_EQ(post(server, "/v1/chat/completions", chat_body("task two")).status, 429);
  EXPECT_TRUE(has_text(held.join().at(0), "done"));
}

TEST(MockModelServerTest, StoppingTheServerEndsAStreamHeldAtABarrier) {
  auto server = std::make_unique<MockModelServer>();
  server->enqueue(MockReply::text("never sent").after_peers("pair", 2));
  Clients held(*server, {"task one"});
  ASSERT_TRUE(server->wait_for_requests(1));

  server.reset();  // returns: the held stream gives up its thread
  const Answer answer = held.join().at(0);
  EXPECT_FALSE(answer.completed);
}

}  // namespace
}  // namespace nib::testing
