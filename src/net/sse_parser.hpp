#pragma once
// Incremental Server-Sent Events parser (the WHATWG "text/event-stream" format).
//
// Bytes may be fed in chunks split anywhere (mid-line, between "\r" and "\n", mid-UTF-8): the
// parser works on whole lines only, so a split never changes the result. The event being read
// is held in memory up to a limit; a stream that goes past it (an endless line, an endless run
// of data lines) makes the parser stop. Not thread-safe: one parser belongs to one stream.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nib::net {

struct SseEvent {
  std::string event = "message";  // the `event:` field, or "message" when the event had none
  std::string data;               // the `data:` lines joined by "\n"
};

// The most one event may hold (its unfinished line plus its data so far). The largest
// legitimate events repeat a whole reply (a Responses response.completed event carries every
// output item), and the longest replies models write are a few MiB. An event is parsed into
// JSON beside its text, so while one is decoded about three times its size is alive, beside
// the reply held so far: half of provider::kMaxReplyBytes keeps a hostile stream's peak within
// three times the reply limit. Anything larger is a broken or hostile stream.
inline constexpr std::size_t kMaxSseEventBytes = 16 * 1024 * 1024;

class SseParser {
 public:
  explicit SseParser(std::size_t max_event_bytes = kMaxSseEventBytes)
      : max_event_bytes_(max_event_bytes) {}

  // Consumes `bytes` and returns the events completed by them (those ended by a blank line).
  // Once an event outgrows the limit, returns the events completed before it and ignores
  // everything from there on (see overflowed()).
  std::vector<SseEvent> feed(std::string_view bytes);

  // Ends the input: returns the event still pending when the stream stopped without its final
  // blank line. The standard drops such an event; some servers omit that last blank line, and
  // keeping the event lets the caller judge whether the stream was complete.
  std::vector<SseEvent> finish();

  // True once an event grew past the limit given at construction; the stream cannot be read
  // further.
  bool overflowed() const { return overflowed_; }
  std::size_t max_event_bytes() const { return max_event_bytes_; }

 private:
  // False, after overflow(), when `line_bytes` more bytes of the current line would take the
  // event past the limit.
  bool room_for(std::size_t line_bytes);
  // Marks the parser overflowed and lets go of what it held.
  void overflow();
  void process_line(std::string_view line, std::vector<SseEvent>& out);
  void dispatch(std::vector<SseEvent>& out);

  std::size_t max_event_bytes_;
  bool overflowed_ = false;

  std::string line_;           // bytes of the current, unfinished line
  bool skip_next_lf_ = false;  // the last byte was "\r": a following "\n" belongs to it
  bool first_line_ = true;     // a byte-order mark may open the stream
  std::string event_;
  std::string data_;
  bool has_data_ = false;
};

}  // namespace nib::net
