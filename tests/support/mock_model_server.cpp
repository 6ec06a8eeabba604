#include "support/mock_model_server.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <random>
#include <stdexcept>
#include <thread>

#include "support/mock_conversation.hpp"
#include "util/utf8.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

constexpr const char* kHost = "127.0.0.1";
constexpr const char* kMockServerModel = "mock-model";

// Splits `text` into pieces of about `size` bytes without cutting a UTF-8 sequence (a piece
// holds at least one whole character, so it may exceed `size` for a wide one).
std::vector<std::string> utf8_pieces(const std::string& text, std::size_t size) {
  std::vector<std::string> pieces;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::string_view rest(text.data() + pos, text.size() - pos);
    std::size_t length = util::utf8_prefix_length(rest, std::max<std::size_t>(size, 1));
    if (length == 0) length = std::max<std::size_t>(util::utf8_sequence_length(rest, 0), 1);
    pieces.emplace_back(rest.substr(0, length));
    pos += length;
  }
  return pieces;
}

// Every "\n" not preceded by "\r" as "\r\n".
std::string with_crlf(const std::string& text) {
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (std::size_t pos = 0; pos < text.size(); ++pos) {
    if (text[pos] == '\n' && (pos == 0 || text[pos - 1] != '\r')) out += '\r';
    out += text[pos];
  }
  return out;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// The HTTP 500 of a request no scripted reply is left for; `message` says which queue is empty.
MockReply no_reply_left(const std::string& message) {
  return MockReply::http_error(500,
                               json{{"error", {{"message", message}, {"type", "mock"}}}}.dump());
}

}  // namespace

MockReply MockReply::text(const std::string& text, std::size_t split_into,
                          const std::string& finish_reason, MockUsage usage) {
  MockReply reply;
  reply.chunks.push_back(sse(delta_chunk({{"role", "assistant"}, {"content", ""}})));
  // Cut points at even byte offsets, each moved back to a UTF-8 boundary.
  const std::size_t parts = std::max<std::size_t>(split_into, 1);
  std::size_t start = 0;
  for (std::size_t part = 1; part <= parts; ++part) {
    const std::size_t end =
        part == parts ? text.size() : util::utf8_prefix_length(text, text.size() * part / parts);
    if (end <= start) continue;
    reply.chunks.push_back(sse(delta_chunk({{"content", text.substr(start, end - start)}})));
    start = end;
  }
  reply.chunks.push_back(sse(delta_chunk(json::object(), finish_reason)));
  reply.chunks.push_back(sse(usage_chunk(usage)));
  return reply;
}

MockReply MockReply::tool_calls(const std::vector<MockToolCall>& calls, std::size_t fragment_size,
                                const std::string& finish_reason, MockUsage usage) {
  MockReply reply;
  reply.chunks.push_back(sse(delta_chunk({{"role", "assistant"}, {"content", nullptr}})));
  std::vector<std::vector<std::string>> fragments;
  std::size_t rounds = 1;
  for (const auto& call : calls) {
    fragments.push_back(utf8_pieces(call.arguments, fragment_size));
    rounds = std::max(rounds, fragments.back().size() + 1);
  }
  for (std::size_t round = 0; round < rounds; ++round) {
    for (std::size_t index = 0; index < calls.size(); ++index) {
      json fragment = {{"index", index}};
      if (round == 0) {
        fragment["id"] = calls[index].id;
        fragment["type"] = "function";
        fragment["function"] = {{"name", calls[index].name}, {"arguments", ""}};
      } else if (round <= fragments[index].size()) {
        fragment["function"] = {{"arguments", fragments[index][round - 1]}};
      } else {
        continue;
      }
      reply.chunks.push_back(sse(delta_chunk({{"tool_calls", json::array({fragment})}})));
    }
  }
  reply.chunks.push_back(sse(delta_chunk(json::object(), finish_reason)));
  reply.chunks.push_back(sse(usage_chunk(usage)));
  return reply;
}

MockReply MockReply::http_error(int status, std::string body,
                                std::vector<std::pair<std::string, std::string>> headers) {
  MockReply reply;
  reply.status = status;
  reply.body = std::move(body);
  reply.headers = std::move(headers);
  return reply;
}

MockReply MockReply::raw_stream(std::string bytes) {
  MockReply reply;
  reply.chunks.push_back(std::move(bytes));
  reply.send_done = false;
  return reply;
}

MockReply MockReply::events(const std::vector<json>& payloads, bool send_done) {
  MockReply reply;
  for (const json& payload : payloads) reply.chunks.push_back(sse(payload));
  reply.send_done = send_done;
  return reply;
}

std::string MockReply::sse(const json& payload) {
  return "data: " + payload.dump() + "\n\n";
}

json MockReply::delta_chunk(const json& delta, const std::string& finish_reason) {
  return {{"id", "chatcmpl-mock"},
          {"object", "chat.completion.chunk"},
          {"created", 1700000000},
          {"model", kMockServerModel},
          {"choices",
           json::array(
               {{{"index", 0},
                 {"delta", delta},
                 {"logprobs", nullptr},
                 {"finish_reason", finish_reason.empty() ? json(nullptr) : json(finish_reason)}}})},
          {"usage", nullptr}};
}

json MockReply::usage_chunk(const MockUsage& usage) {
  return {{"id", "chatcmpl-mock"},
          {"object", "chat.completion.chunk"},
          {"created", 1700000000},
          {"model", kMockServerModel},
          {"choices", json::array()},
          {"usage",
           {{"prompt_tokens", usage.prompt_tokens},
            {"completion_tokens", usage.completion_tokens},
            {"total_tokens", usage.prompt_tokens + usage.completion_tokens},
            {"prompt_tokens_details", {{"cached_tokens", usage.cached_tokens}}}}}};
}

MockReply& MockReply::disconnect_after(std::size_t count) {
  chunks.resize(std::min(count, chunks.size()));
  disconnect = true;
  send_done = false;
  return *this;
}

MockReply& MockReply::hold_after_chunks(std::size_t count) {
  hold_after = count;
  return *this;
}

MockReply& MockReply::after_peers(std::string barrier, std::size_t count) {
  peers = MockBarrier{std::move(barrier), count};
  return *this;
}

std::string RecordedRequest::header(const std::string& lower_name) const {
  const auto found = headers.find(lower_name);
  return found == headers.end() ? std::string() : found->second;
}

MockModelServer::MockModelServer(Nagle nagle) {
  // Every path: each protocol posts to its own endpoint, which the tests read from requests().
  server_.Post(".*", [this](const httplib::Request& request, httplib::Response& response) {
    handle(request, response);
  });
  // cpp-httplib leaves Nagle's algorithm on by default (CPPHTTPLIB_TCP_NODELAY is false); it
  // writes a reply's headers, each chunk and the chunked body's end in separate writes.
  server_.set_tcp_nodelay(nagle == Nagle::kOff);
  port_ = server_.bind_to_any_port(kHost);
  if (port_ <= 0) throw std::runtime_error("mock server: cannot bind a port on 127.0.0.1");
  // The socket already listens, so clients may connect before the accept loop runs.
  thread_ = std::thread([this] { server_.listen_after_bind(); });
  // stop() only works once the accept loop runs; wait for it so the destructor cannot hang.
  while (!server_.is_running()) std::this_thread::yield();
}

MockModelServer::~MockModelServer() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  server_.stop();
  thread_.join();
}

std::string MockModelServer::origin() const {
  return "http://" + std::string(kHost) + ":" + std::to_string(port_);
}

std::string MockModelServer::base_url() const {
  return origin() + "/v1";
}

void MockModelServer::enqueue(MockReply reply) {
  const std::lock_guard lock(mutex_);
  replies_.push_back(std::move(reply));
}

std::size_t MockModelServer::replies_left() const {
  const std::lock_guard lock(mutex_);
  return replies_.size();
}

void MockModelServer::enqueue_for(std::string first_user_text, MockReply reply) {
  const std::lock_guard lock(mutex_);
  conversation_replies_[std::move(first_user_text)].push_back(std::move(reply));
}

std::size_t MockModelServer::replies_left_for(const std::string& first_user_text) const {
  const std::lock_guard lock(mutex_);
  const auto found = conversation_replies_.find(first_user_text);
  return found == conversation_replies_.end() ? 0 : found->second.size();
}

std::vector<RecordedRequest> MockModelServer::requests() const {
  const std::lock_guard lock(mutex_);
  return requests_;
}

std::vector<RecordedRequest> MockModelServer::requests_for(
    const std::string& first_user_text) const {
  const std::lock_guard lock(mutex_);
  std::vector<RecordedRequest> out;
  for (const auto& request : requests_) {
    if (request.first_user_text == first_user_text) out.push_back(request);
  }
  return out;
}

bool MockModelServer::wait_for_requests(std::size_t count,
                                        std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return requests_.size() >= count; });
}

void MockModelServer::release() {
  {
    const std::lock_guard lock(mutex_);
    released_ = true;
  }
  changed_.notify_all();
}

bool MockModelServer::wait_for_release() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return released_ || stopping_; });
  return released_ && !stopping_;
}

bool MockModelServer::wait_for_peers(const MockBarrier& barrier) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] {
    const auto arrived = barrier_arrivals_.find(barrier.name);
    return released_ || stopping_ ||
           (arrived != barrier_arrivals_.end() && arrived->second >= barrier.count);
  });
  return !stopping_;
}

MockReply MockModelServer::take_reply(const RecordedRequest& recorded) {
  std::deque<MockReply>* queue = &replies_;
  std::string missing = "mock: no scripted reply left";
  if (recorded.first_user_text) {
    if (const auto found = conversation_replies_.find(*recorded.first_user_text);
        found != conversation_replies_.end()) {
      queue = &found->second;
      missing += " for the conversation starting \"" + *recorded.first_user_text + "\"";
    }
  }
  if (queue->empty()) return no_reply_left(missing);
  MockReply reply = std::move(queue->front());
  queue->pop_front();
  if (reply.peers) ++barrier_arrivals_[reply.peers->name];
  return reply;
}

void MockModelServer::handle(const httplib::Request& request, httplib::Response& response) {
  RecordedRequest recorded;
  recorded.arrived_at = std::chrono::steady_clock::now();
  recorded.path = request.path;
  recorded.remote_port = request.remote_port;
  recorded.raw_body = request.body;
  recorded.body = json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (recorded.body.is_discarded()) recorded.body = nullptr;
  for (const auto& [name, value] : request.headers) recorded.headers[lower(name)] = value;
  recorded.first_user_text = first_user_text(recorded.body);

  MockReply reply;
  std::size_t index = 0;
  {
    const std::lock_guard lock(mutex_);
    index = requests_.size();
    reply = take_reply(recorded);
    requests_.push_back(std::move(recorded));
  }
  changed_.notify_all();

  for (const auto& [name, value] : reply.headers) response.set_header(name, value);
  if (reply.status != 200) {
    response.status = reply.status;
    response.set_content(reply.body, "application/json");
    return;
  }
  auto shared = std::make_shared<MockReply>(std::move(reply));
  response.set_chunked_content_provider(
      "text/event-stream", [this, shared, index](std::size_t /*offset*/, httplib::DataSink& sink) {
        // Returning false makes httplib drop the connection without the final empty chunk.
        if (!write_stream(*shared, sink) || shared->disconnect) return false;
        sink.done();
        const std::lock_guard lock(mutex_);
        requests_[index].reply_completed_at = std::chrono::steady_clock::now();
        return true;
      });
}

bool MockModelServer::stopping() const {
  const std::lock_guard lock(mutex_);
  return stopping_;
}

bool MockModelServer::write_stream(const MockReply& reply, httplib::DataSink& sink) {
  std::mt19937 random(reply.split_seed.value_or(0));
  const auto piece_length = [&](std::size_t left) {
    if (reply.split_seed) {
      return std::min(left,
                      std::uniform_int_distribution<std::size_t>(1, kMaxRandomPieceBytes)(random));
    }
    return reply.max_write_bytes > 0 ? std::min(left, reply.max_write_bytes) : left;
  };
  const auto write = [&](const std::string& chunk) {
    const std::string bytes = reply.crlf ? with_crlf(chunk) : chunk;
    for (std::size_t pos = 0; pos < bytes.size();) {
      const std::size_t length = piece_length(bytes.size() - pos);
      if (!sink.write(bytes.data() + pos, length)) return false;
      pos += length;
    }
    return true;
  };
  if (reply.peers && !wait_for_peers(*reply.peers)) return false;
  // A model's time to its first token, for benchmarks; tests use barriers and holds instead.
  if (reply.latency.count() > 0) std::this_thread::sleep_for(reply.latency);
  for (std::size_t index = 0; index <= reply.chunks.size(); ++index) {
    if (reply.hold_after == index && !wait_for_release()) return false;
    if (index < reply.chunks.size() && !write(reply.chunks[index])) return false;
  }
  if (!reply.repeat_forever.empty()) {
    while (!stopping()) {
      if (!write(reply.repeat_forever)) return false;
    }
    return false;
  }
  return !reply.send_done || write("data: [DONE]\n\n");
}

}  // namespace nib::testing
