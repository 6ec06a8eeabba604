#include "util/terminal_sanitize.hpp"

#include "util/utf8.hpp"

namespace nib::util {
namespace {

constexpr char kEsc = '\x1b';
constexpr char kBel = '\x07';
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

bool in_range(char c, unsigned char low, unsigned char high) {
  const auto byte = static_cast<unsigned char>(c);
  return byte >= low && byte <= high;
}

// Index just past a CSI sequence whose parameters start at `pos`: parameter bytes, then
// intermediate bytes, then one final byte. A malformed sequence ends before the offending byte.
std::size_t skip_csi(std::string_view text, std::size_t pos) {
  while (pos < text.size() && in_range(text[pos], 0x30, 0x3F)) ++pos;
  while (pos < text.size() && in_range(text[pos], 0x20, 0x2F)) ++pos;
  if (pos < text.size() && in_range(text[pos], 0x40, 0x7E)) ++pos;
  return pos;
}

// Index just past a control string (OSC, DCS, SOS, PM, APC) whose body starts at `pos`. It ends
// with BEL or ESC \ (consumed), or before a newline or the end of the text.
std::size_t skip_control_string(std::string_view text, std::size_t pos) {
  while (pos < text.size()) {
    const char c = text[pos];
    if (c == kBel) return pos + 1;
    if (c == '\n') return pos;
    if (c == kEsc) return pos + 1 < text.size() && text[pos + 1] == '\\' ? pos + 2 : pos + 1;
    ++pos;
  }
  return pos;
}

// Index just past the escape sequence that starts with the ESC at `pos`.
std::size_t skip_escape(std::string_view text, std::size_t pos) {
  ++pos;  // the ESC
  if (pos >= text.size()) return pos;
  switch (text[pos]) {
    case '[':
      return skip_csi(text, pos + 1);
    case ']':
    case 'P':
    case 'X':
    case '^':
    case '_':
      return skip_control_string(text, pos + 1);
    default:
      break;
  }
  // nF / Fp / Fe / Fs forms: intermediates, then one final byte (ESC ( B, ESC 7, ESC =, ...).
  while (pos < text.size() && in_range(text[pos], 0x20, 0x2F)) ++pos;
  if (pos < text.size() && in_range(text[pos], 0x30, 0x7E)) ++pos;
  return pos;
}

// Builds the output line by line, applying carriage returns and backspaces.
class LineWriter {
 public:
  explicit LineWriter(std::size_t reserve) { out_.reserve(reserve); }

  void newline() {
    out_ += '\n';
    line_start_ = out_.size();
    pending_return_ = false;
  }
  void carriage_return() { pending_return_ = true; }
  void backspace() {
    if (pending_return_ || out_.size() == line_start_) return;
    std::size_t cut = out_.size() - 1;
    while (cut > line_start_ && (static_cast<unsigned char>(out_[cut]) & 0xC0) == 0x80) --cut;
    out_.resize(cut);
  }
  // Visible text; after a carriage return it starts the line afresh.
  void text(std::string_view bytes) {
    if (pending_return_) {
      out_.resize(line_start_);
      pending_return_ = false;
    }
    out_ += bytes;
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
  std::size_t line_start_ = 0;
  bool pending_return_ = false;
};

}  // namespace

std::string sanitize_terminal_output(std::string_view raw) {
  LineWriter writer(raw.size());
  std::size_t pos = 0;
  while (pos < raw.size()) {
    const auto byte = static_cast<unsigned char>(raw[pos]);
    if (byte == '\n') {
      writer.newline();
      ++pos;
    } else if (byte == '\r') {
      writer.carriage_return();
      ++pos;
    } else if (byte == '\b') {
      writer.backspace();
      ++pos;
    } else if (byte == static_cast<unsigned char>(kEsc)) {
      pos = skip_escape(raw, pos);
    } else if (byte == '\t' || (byte >= 0x20 && byte < 0x7F)) {
      std::size_t end = pos + 1;
      while (end < raw.size() && raw[end] >= 0x20 && raw[end] < 0x7F) ++end;
      writer.text(raw.substr(pos, end - pos));
      pos = end;
    } else if (byte < 0x80) {
      ++pos;  // other C0 controls and DEL
    } else {
      const std::size_t length = util::utf8_sequence_length(raw, pos);
      if (length == 0) {
        writer.text(kReplacement);
        ++pos;
      } else {
        // U+0080..U+009F are the C1 controls, encoded as C2 80..C2 9F.
        const bool c1_control = length == 2 && byte == 0xC2 && in_range(raw[pos + 1], 0x80, 0x9F);
        if (!c1_control) writer.text(raw.substr(pos, length));
        pos += length;
      }
    }
  }
  return writer.take();
}

}  // namespace nib::util
