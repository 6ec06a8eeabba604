#pragma once
// Incremental Server-Sent Events parser (the WHATWG "text/event-stream" format).
//
// Bytes may be fed in chunks split anywhere (mid-line, between "\r" and "\n", mid-UTF-8): the
// parser works on whole lines only, so a split never changes the result. Not thread-safe: one
// parser belongs to one stream.

#include <string>
#include <string_view>
#include <vector>

namespace nib::provider {

struct SseEvent {
  std::string event = "message";  // the `event:` field, or "message" when the event had none
  std::string data;               // the `data:` lines joined by "\n"
};

class SseParser {
 public:
  // Consumes `bytes` and returns the events completed by them (those ended by a blank line).
  std::vector<SseEvent> feed(std::string_view bytes);

  // Ends the input: returns the event still pending when the stream stopped without its final
  // blank line. The standard drops such an event; some servers omit that last blank line, and
  // keeping the event lets the caller judge whether the stream was complete.
  std::vector<SseEvent> finish();

 private:
  void process_line(std::string_view line, std::vector<SseEvent>& out);
  void dispatch(std::vector<SseEvent>& out);

  std::string line_;           // bytes of the current, unfinished line
  bool skip_next_lf_ = false;  // the last byte was "\r": a following "\n" belongs to it
  bool first_line_ = true;     // a byte-order mark may open the stream
  std::string event_;
  std::string data_;
  bool has_data_ = false;
};

}  // namespace nib::provider
