#pragma once
// A scripted model server for tests: it answers each POST, whatever its path, with the next
// queued MockReply and records every request. A MockReply is raw SSE bytes, so one server
// speaks every protocol; MockReply's own builders write OpenAI Chat Completions streams, and
// mock_*_replies.hpp build the other protocols' streams.
//
// Conversations that run at the same time (subagents, each with its own history) get replies
// scripted per conversation: enqueue_for() queues for the requests whose first user message
// has a given text (see mock_conversation.hpp), whatever order they arrive in, and a reply's
// after_peers() barrier holds its stream until all the conversations' requests are in flight.
//
// It listens on 127.0.0.1 with an ephemeral port and serves from its own threads, so it can
// back both in-process provider tests and end-to-end tests that run the real `nib` binary with
// `--base-url server.base_url()`. All public methods are thread-safe.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

namespace nib::testing {

struct MockToolCall {
  std::string id;
  std::string name;
  std::string arguments;  // raw argument text, sent in fragments
};

// Holds a stream until `count` requests whose replies carry this barrier name have arrived.
struct MockBarrier {
  std::string name;
  std::size_t count = 0;
};

struct MockUsage {
  std::int64_t prompt_tokens = 12;
  std::int64_t completion_tokens = 7;
  std::int64_t cached_tokens = 0;  // reported as prompt_tokens_details.cached_tokens
};

// One scripted answer. A status other than 200 makes it an HTTP error reply (body and headers
// as given); otherwise `chunks` are written as an SSE stream, each chunk written and flushed
// separately.
// The longest write of a MockReply with a split_seed.
inline constexpr std::size_t kMaxRandomPieceBytes = 48;

struct MockReply {
  int status = 200;
  std::string body;                                          // error replies only
  std::vector<std::pair<std::string, std::string>> headers;  // extra response headers
  std::vector<std::string> chunks;  // raw stream bytes, normally whole "data: ...\n\n" events
  bool send_done = true;  // end with "data: [DONE]" after the chunks (Chat Completions only)
  // After the chunks, close the connection without "[DONE]" and without ending the HTTP
  // response properly, as a crashed server or a broken network would.
  bool disconnect = false;
  // Before writing chunk number `*hold_after` (so after that many chunks), wait until the test
  // calls MockModelServer::release() or the server stops.
  std::optional<std::size_t> hold_after;
  // Before the first chunk (and before any hold_after), wait until `peers->count` requests
  // whose replies carry the barrier `peers->name` have arrived (this one included), or
  // release() is called, or the server stops. An error reply is not held but counts as a peer.
  // Each held stream keeps one of httplib's serving threads (8 or more), so a count beyond
  // them opens only at release() or shutdown.
  std::optional<MockBarrier> peers;
  // Before the first chunk (after any barrier): how long the model takes to start answering.
  // For benchmarks that need a model's latency; never for a test's correctness.
  std::chrono::milliseconds latency{0};
  // When > 0, every chunk is written in pieces of at most this many bytes (which splits lines
  // and UTF-8 sequences at the transport level).
  std::size_t max_write_bytes = 0;
  // When set, every chunk is written in pieces of 1 to kMaxRandomPieceBytes bytes whose
  // lengths a std::mt19937 seeded with it draws: the write boundaries fall anywhere (inside
  // "\r\n", UTF-8 sequences, JSON), differently for each seed and alike for one seed, so a
  // failing seed replays. Takes the place of max_write_bytes.
  std::optional<std::uint32_t> split_seed;
  // Every line ends in "\r\n" on the wire (a "\n" of the chunks not preceded by "\r" is
  // written as "\r\n"), as servers on some stacks write them.
  bool crlf = false;
  // When not empty, written again and again after the chunks until the client goes away or the
  // server stops: a stream that never ends.
  std::string repeat_forever;

  // A text answer in `split_into` content deltas of about equal size (fewer when the text has
  // fewer characters; cut on UTF-8 boundaries), then the finish chunk and a usage chunk.
  static MockReply text(const std::string& text, std::size_t split_into = 1,
                        const std::string& finish_reason = "stop", MockUsage usage = {});
  // Tool calls streamed as OpenAI does: a first fragment per call with id and name, then the
  // arguments in fragments of `fragment_size` bytes (moved to the next UTF-8 boundary), the
  // calls' fragments interleaved round-robin; then the finish chunk and a usage chunk.
  static MockReply tool_calls(const std::vector<MockToolCall>& calls, std::size_t fragment_size = 7,
                              const std::string& finish_reason = "tool_calls",
                              MockUsage usage = {});
  // An HTTP error reply, e.g. http_error(429, R"({"error":{"message":"slow down"}})",
  // {{"Retry-After", "3"}}).
  static MockReply http_error(int status, std::string body,
                              std::vector<std::pair<std::string, std::string>> headers = {});
  // A stream of the given chunk payloads, each sent as one "data: <json>" event.
  static MockReply events(const std::vector<nlohmann::json>& payloads, bool send_done = true);
  // `bytes` as the whole stream, written as one chunk (no "[DONE]" added).
  static MockReply raw_stream(std::string bytes);

  // Chunk builders. sse(): one "data: <payload>\n\n" event. delta_chunk(): a
  // chat.completion.chunk whose single choice carries `delta` (and `finish_reason` when not
  // empty). usage_chunk(): the final chunk with empty choices and the usage.
  static std::string sse(const nlohmann::json& payload);
  static nlohmann::json delta_chunk(const nlohmann::json& delta,
                                    const std::string& finish_reason = "");
  static nlohmann::json usage_chunk(const MockUsage& usage);

  // Keeps the first `count` chunks and then drops the connection (see `disconnect`).
  MockReply& disconnect_after(std::size_t count);
  // Holds the stream after the first `count` chunks (see `hold_after`).
  MockReply& hold_after_chunks(std::size_t count);
  // Holds the stream until `count` peers of `barrier` have arrived (see `peers`).
  MockReply& after_peers(std::string barrier, std::size_t count);
};

struct RecordedRequest {
  std::string path;
  std::string raw_body;
  nlohmann::json body;                         // the parsed body; null when not JSON
  std::map<std::string, std::string> headers;  // names lower-cased
  // The conversation: the text of the first user message (see mock_conversation.hpp); nullopt
  // when the body has none.
  std::optional<std::string> first_user_text;
  int remote_port = 0;  // the client's port: equal for requests over one kept-alive connection
  // When the handler received the request (its body fully read), for latency benchmarks.
  std::chrono::steady_clock::time_point arrived_at;
  // When the last byte of the streamed reply to it was written; unset for error replies and
  // while the stream is still being written.
  std::optional<std::chrono::steady_clock::time_point> reply_completed_at;

  // The header's value (name in lower case), or "" when absent.
  std::string header(const std::string& lower_name) const;
};

// Whether the server sends each write at once (TCP_NODELAY, as llama.cpp, uvicorn and Go's
// net/http do) or leaves Nagle's algorithm on, as Python's http.server and any server that does
// not set TCP_NODELAY do. With it on, a small write waits in the kernel until everything
// written before it is ACKed, which a client in delayed-ACK mode (Linux's, on a kept-alive
// connection) does only after about 40 ms: all of a reply after its headers may wait that long.
enum class Nagle { kOff, kOn };

class MockModelServer {
 public:
  // Starts listening and serving; throws std::runtime_error if no port can be bound.
  explicit MockModelServer(Nagle nagle = Nagle::kOff);
  // Releases any held stream, stops the server and joins its threads.
  ~MockModelServer();
  MockModelServer(const MockModelServer&) = delete;
  MockModelServer& operator=(const MockModelServer&) = delete;

  // "http://127.0.0.1:<port>/v1": the value for OpenAIChatConfig::base_url or --base-url.
  std::string base_url() const;
  // "http://127.0.0.1:<port>": the base URL of services whose paths start with /v1 themselves
  // (Anthropic's /v1/messages).
  std::string origin() const;
  int port() const { return port_; }

  // Queues the answer to a later request. When the queue is empty a request gets HTTP 500
  // with the JSON error "mock: no scripted reply left".
  void enqueue(MockReply reply);
  // The replies left in the general queue.
  std::size_t replies_left() const;
  // Queues the answer to a later request of the conversation whose first user message's text
  // is `first_user_text`. Once a conversation has been given a reply, its requests take only
  // from its own queue: when that is empty they get HTTP 500 with the JSON error "mock: no
  // scripted reply left for the conversation starting \"<text>\"".
  void enqueue_for(std::string first_user_text, MockReply reply);
  std::size_t replies_left_for(const std::string& first_user_text) const;

  // Every request received so far, in arrival order.
  std::vector<RecordedRequest> requests() const;
  // The requests of the conversation whose first user message's text is `first_user_text`
  // (routed or not), in arrival order.
  std::vector<RecordedRequest> requests_for(const std::string& first_user_text) const;
  // Waits until at least `count` requests have arrived; false when `timeout` passes first.
  bool wait_for_requests(std::size_t count,
                         std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;

  // Lets every held stream (now and later) continue, whether held by hold_after or by a barrier.
  void release();

 private:
  void handle(const httplib::Request& request, httplib::Response& response);
  // The next reply for `recorded` (from its conversation's queue or the general one) or the
  // HTTP 500 that says none is left; counts the reply's barrier peer. Called with mutex_ held.
  MockReply take_reply(const RecordedRequest& recorded);
  bool write_stream(const MockReply& reply, httplib::DataSink& sink);
  bool stopping() const;
  // Waits until release() or shutdown; true when released.
  bool wait_for_release();
  // Waits until the barrier's peers have arrived, release() or shutdown; false on shutdown.
  bool wait_for_peers(const MockBarrier& barrier);

  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::deque<MockReply> replies_;
  std::map<std::string, std::deque<MockReply>> conversation_replies_;  // by first user text
  std::map<std::string, std::size_t> barrier_arrivals_;                // by barrier name
  std::vector<RecordedRequest> requests_;
  bool released_ = false;
  bool stopping_ = false;
};

}  // namespace nib::testing
