#include "net/sse_parser.hpp"

namespace nib::net {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
// The room a line keeps between lines; a longer one's is given back.
constexpr std::size_t kKeptLineCapacity = 64 * 1024;

}  // namespace

std::vector<SseEvent> SseParser::feed(std::string_view bytes) {
  std::vector<SseEvent> out;
  if (overflowed_) return out;
  std::size_t pos = 0;
  if (skip_next_lf_ && !bytes.empty()) {
    if (bytes.front() == '\n') pos = 1;
    skip_next_lf_ = false;
  }
  while (pos < bytes.size()) {
    const std::size_t end = bytes.find_first_of("\r\n", pos);
    const std::size_t length = (end == std::string_view::npos ? bytes.size() : end) - pos;
    if (!room_for(length)) return out;
    line_.append(bytes.substr(pos, length));
    if (end == std::string_view::npos) break;
    process_line(line_, out);
    if (overflowed_) return out;
    line_.clear();
    // A long line's room is not kept for the rest of the stream.
    if (line_.capacity() > kKeptLineCapacity) std::string().swap(line_);
    pos = end + 1;
    if (bytes[end] == '\r') {
      if (pos == bytes.size()) {
        skip_next_lf_ = true;  // the "\n" of a "\r\n" may come with the next chunk
      } else if (bytes[pos] == '\n') {
        ++pos;
      }
    }
  }
  return out;
}

std::vector<SseEvent> SseParser::finish() {
  std::vector<SseEvent> out;
  if (overflowed_) return out;
  if (!line_.empty()) {
    process_line(line_, out);
    line_.clear();
  }
  dispatch(out);
  skip_next_lf_ = false;
  return out;
}

bool SseParser::room_for(std::size_t line_bytes) {
  if (line_.size() + line_bytes + data_.size() <= max_event_bytes_) return true;
  overflow();
  return false;
}

void SseParser::overflow() {
  overflowed_ = true;
  line_.clear();
  line_.shrink_to_fit();
  data_.clear();
  data_.shrink_to_fit();
}

void SseParser::process_line(std::string_view line, std::vector<SseEvent>& out) {
  if (first_line_) {
    first_line_ = false;
    if (line.starts_with(kByteOrderMark)) line.remove_prefix(kByteOrderMark.size());
  }
  if (line.empty()) {
    dispatch(out);
    return;
  }
  if (line.front() == ':') return;  // a comment, typically a keep-alive
  std::string_view field = line;
  std::string_view value;
  if (const std::size_t colon = line.find(':'); colon != std::string_view::npos) {
    field = line.substr(0, colon);
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    // The line is dropped once processed: what stays is the data.
    if (data_.size() + 1 + value.size() > max_event_bytes_) {
      overflow();  // `line` may point into line_: not used after this
      return;
    }
    if (has_data_) {
      data_ += '\n';
      data_.append(value);
    } else if (value.data() >= line_.data() && value.data() <= line_.data() + line_.size()) {
      // The event's first data line becomes its data in place, not as a copy of the line.
      const std::size_t start = static_cast<std::size_t>(value.data() - line_.data());
      data_.swap(line_);
      data_.erase(0, start);
    } else {
      data_.assign(value);
    }
    has_data_ = true;
  } else if (field == "event") {
    event_.assign(value);
  }
  // "id", "retry" and unknown fields are ignored: nib never reconnects a stream.
}

void SseParser::dispatch(std::vector<SseEvent>& out) {
  if (has_data_) {
    SseEvent event;
    if (!event_.empty()) event.event = std::move(event_);
    event.data = std::move(data_);
    out.push_back(std::move(event));
  }
  event_.clear();
  data_.clear();
  has_data_ = false;
}

}  // namespace nib::net
