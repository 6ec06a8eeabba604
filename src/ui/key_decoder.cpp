#include "ui/key_decoder.hpp"

#include <algorithm>
#include <optional>

#include "util/display_width.hpp"
#include "util/utf8.hpp"

namespace nib::ui {
namespace {

constexpr unsigned char kEsc = 0x1B;
constexpr std::string_view kPasteEnd = "\x1b[201~";
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// CSI parameter values that matter: key codes, modifiers, event types. Anything larger is
// clamped (it means nothing here), which also keeps the digit arithmetic from overflowing.
constexpr int kMaxParam = 0x10FFFF;
constexpr int kPasteStart = 200;
constexpr int kModifyOtherKeys = 27;  // ESC [ 27 ; modifiers ; code ~
constexpr int kKeyRelease = 3;        // kitty's event type for a released key

// Modifier bits of the xterm/kitty modifier parameter (which is 1 + the bits). Super, hyper,
// meta and the lock bits do not change what a key does here.
constexpr int kShift = 1;
constexpr int kAlt = 2;
constexpr int kControl = 4;

// The length of the UTF-8 character at bytes[pos]; kCutOff when it is a valid beginning cut by
// the end of `bytes`, kInvalid when the bytes are not UTF-8.
constexpr std::size_t kCutOff = 0;
constexpr std::size_t kInvalid = static_cast<std::size_t>(-1);

std::size_t utf8_length(std::string_view bytes, std::size_t pos) {
  const auto lead = static_cast<unsigned char>(bytes[pos]);
  std::size_t expected = 0;
  if (lead < 0x80) {
    expected = 1;
  } else if (lead >= 0xC2 && lead <= 0xDF) {
    expected = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    expected = 3;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    expected = 4;
  } else {
    return kInvalid;
  }
  const std::size_t available = bytes.size() - pos;
  if (available >= expected) {
    const std::size_t length = util::utf8_sequence_length(bytes, pos);
    return length == 0 ? kInvalid : length;
  }
  if (available == 1) return kCutOff;  // a valid lead byte
  // The bytes present are a valid beginning when continuation bytes could complete them;
  // padding checks that with the one set of UTF-8 rules in util.
  std::string padded(bytes.substr(pos));
  padded.append(expected - available, '\x80');
  return util::utf8_sequence_length(padded, 0) == 0 ? kInvalid : kCutOff;
}

bool is_c1_control(char32_t codepoint) {
  return codepoint >= 0x80 && codepoint < 0xA0;
}

// A code point that may be inserted as text. kitty reports its functional keys (keypad, media,
// modifier keys) as private-use code points, which are not text.
bool is_text_codepoint(int codepoint) {
  return codepoint >= 0x20 && codepoint != 0x7F && !is_c1_control(codepoint) &&
         !(codepoint >= 0xD800 && codepoint <= 0xDFFF) &&
         !(codepoint >= 0xE000 && codepoint <= 0xF8FF) && codepoint <= 0x10FFFF;
}

// What one decoding step found at the front of the input.
struct Step {
  std::size_t length = 0;    // bytes consumed; 0 = incomplete, wait for more bytes
  std::optional<Key> key;    // empty for input consumed and ignored
  bool paste_start = false;  // ESC[200~: what follows is pasted content
  bool overlong = false;     // an unterminated sequence too long to hold: skip its rest
};

Step ignored(std::size_t length) {
  return {length};
}

Step key_step(std::size_t length, KeyCode code) {
  return {length, Key{code}};
}

// An unterminated sequence of `length` bytes so far: wait for the rest, unless it is too long
// to be a key.
Step unterminated(std::size_t length) {
  if (length <= kMaxSequenceBytes) return {};
  return {length, std::nullopt, false, true};
}

// A C0 control byte or DEL on its own.
Key control_key(unsigned char byte) {
  switch (byte) {
    case '\r':
      return {KeyCode::kEnter};
    case '\n':
      return {KeyCode::kNewline};
    case '\t':
      return {KeyCode::kTab};
    case 0x08:
    case 0x7F:
      return {KeyCode::kBackspace};
    case 0x17:  // Ctrl-W
      return {KeyCode::kDeleteWordBack};
    case kEsc:
      return {KeyCode::kEscape};
    default:
      break;
  }
  const char letter = byte >= 0x01 && byte <= 0x1A ? static_cast<char>('a' + byte - 1)
                                                   : static_cast<char>(byte + 0x40);
  return {KeyCode::kCtrl, {}, letter};
}

// Alt (or Meta) with a character, where it is an editing key (readline's bindings).
std::optional<KeyCode> alt_key(int code) {
  switch (code) {
    case '\r':
    case '\n':
      return KeyCode::kNewline;
    case 0x7F:
    case 0x08:
      return KeyCode::kDeleteWordBack;
    case 'b':
      return KeyCode::kWordLeft;
    case 'f':
      return KeyCode::kWordRight;
    case 'd':
      return KeyCode::kDeleteWordForward;
    default:
      return std::nullopt;
  }
}

// A key reported as a code point plus modifiers (kitty's CSI u, xterm's modifyOtherKeys):
// the same key as its legacy encoding would give. `shifted` is kitty's shifted code point, 0
// when not reported.
std::optional<Key> modified_key(int code, int shifted, int modifiers) {
  const bool shift = (modifiers & kShift) != 0;
  const bool alt = (modifiers & kAlt) != 0;
  const bool control = (modifiers & kControl) != 0;
  switch (code) {
    case '\r':
      return Key{modifiers != 0 ? KeyCode::kNewline : KeyCode::kEnter};
    case '\t':
      return Key{shift ? KeyCode::kShiftTab : KeyCode::kTab};
    case 0x7F:
    case 0x08:
      return Key{alt || control ? KeyCode::kDeleteWordBack : KeyCode::kBackspace};
    case kEsc:
      return Key{KeyCode::kEscape};
    default:
      break;
  }
  if (control && !alt) {
    if (code >= 'A' && code <= 'Z') code += 'a' - 'A';
    if (code >= 'a' && code <= 'z') return control_key(static_cast<unsigned char>(code - 'a' + 1));
    return std::nullopt;
  }
  if (alt) {
    if (control) return std::nullopt;
    if (const auto alt_code = alt_key(code)) return Key{*alt_code};
    return std::nullopt;
  }
  int text = code;
  if (shift && shifted > 0) {
    text = shifted;
  } else if (shift && code >= 'a' && code <= 'z') {
    text = code - 'a' + 'A';
  }
  if (!is_text_codepoint(text)) return std::nullopt;
  return Key{KeyCode::kText, util::encode_utf8(static_cast<char32_t>(text))};
}

// CSI parameters: fields separated by ';', each with ':'-separated sub-parameters (kitty).
using Params = std::vector<std::vector<int>>;

Params parse_params(std::string_view text) {
  Params params{{0}};
  for (const char c : text) {
    if (c == ';') {
      params.push_back({0});
    } else if (c == ':') {
      params.back().push_back(0);
    } else if (c >= '0' && c <= '9') {
      int& value = params.back().back();
      value = std::min(value * 10 + (c - '0'), kMaxParam);
    }
  }
  return params;
}

// The parameter, or `fallback` when it is absent or 0 (the default in CSI syntax).
int param(const Params& params, std::size_t field, std::size_t sub = 0, int fallback = 0) {
  if (field >= params.size() || sub >= params[field].size()) return fallback;
  const int value = params[field][sub];
  return value == 0 ? fallback : value;
}

int modifiers(const Params& params, std::size_t field) {
  return (param(params, field, 0, 1) - 1) & (kShift | kAlt | kControl);
}

KeyCode horizontal(bool right, int modifiers) {
  const bool by_word = (modifiers & (kAlt | kControl)) != 0;
  if (right) return by_word ? KeyCode::kWordRight : KeyCode::kRight;
  return by_word ? KeyCode::kWordLeft : KeyCode::kLeft;
}

// ESC [ number ; modifiers ~ : the editing keypad, bracketed paste, modifyOtherKeys.
Step tilde_key(const Params& params, std::size_t length) {
  const int mods = modifiers(params, 1);
  switch (param(params, 0)) {
    case 1:
    case 7:
      return key_step(length, KeyCode::kHome);
    case 4:
    case 8:
      return key_step(length, KeyCode::kEnd);
    case 3:
      return key_step(
          length, (mods & (kAlt | kControl)) != 0 ? KeyCode::kDeleteWordForward : KeyCode::kDelete);
    case 5:
      return key_step(length, KeyCode::kPageUp);
    case 6:
      return key_step(length, KeyCode::kPageDown);
    case kPasteStart:
      return {length, std::nullopt, true};
    case kModifyOtherKeys:
      return {length, modified_key(param(params, 2), 0, mods)};
    default:
      return ignored(length);  // Insert, function keys, a stray paste end
  }
}

// bytes begins with ESC [.
Step decode_csi(std::string_view bytes) {
  constexpr std::size_t kBodyStart = 2;
  if (bytes.size() > kBodyStart && bytes[kBodyStart] == '[') {
    // The Linux console's F1-F5: ESC [ [ A-E.
    return bytes.size() > kBodyStart + 1 ? ignored(kBodyStart + 2) : Step{};
  }
  std::size_t end = kBodyStart;
  bool intermediate = false;
  for (; end < bytes.size(); ++end) {
    const auto byte = static_cast<unsigned char>(bytes[end]);
    if (byte >= 0x40 && byte <= 0x7E) break;
    // Malformed: drop what came so far; the byte starts the next key.
    if (byte < 0x20 || byte > 0x3F) return ignored(end);
    intermediate = intermediate || byte < 0x30;
  }
  if (end == bytes.size()) return unterminated(end);
  const char final_byte = bytes[end];
  const std::string_view body = bytes.substr(kBodyStart, end - kBodyStart);
  const std::size_t length = end + 1;
  if (body.empty() && final_byte == 'M') {
    // An X10 mouse report: three raw bytes follow (button, column, row).
    return bytes.size() >= length + 3 ? ignored(length + 3) : Step{};
  }
  // Private sequences (SGR mouse reports, terminal replies) and intermediates are no keys.
  if (intermediate || (!body.empty() && body[0] >= '<' && body[0] <= '?')) return ignored(length);
  const Params params = parse_params(body);
  const int mods = modifiers(params, 1);
  switch (final_byte) {
    case 'A':
      return key_step(length, KeyCode::kUp);
    case 'B':
      return key_step(length, KeyCode::kDown);
    case 'C':
      return key_step(length, horizontal(true, mods));
    case 'D':
      return key_step(length, horizontal(false, mods));
    case 'H':
      return key_step(length, KeyCode::kHome);
    case 'F':
      return key_step(length, KeyCode::kEnd);
    case 'Z':
      return key_step(length, KeyCode::kShiftTab);
    case '~':
      return tilde_key(params, length);
    case 'u':
      if (param(params, 1, 1) == kKeyRelease) return ignored(length);
      return {length, modified_key(param(params, 0), param(params, 0, 1), mods)};
    default:
      return ignored(length);  // focus reports, function keys, anything unknown
  }
}

// bytes begins with ESC O (SS3): the application-mode cursor keys, rxvt's Ctrl+arrows.
Step decode_ss3(std::string_view bytes) {
  constexpr std::size_t kBodyStart = 2;
  std::size_t end = kBodyStart;
  while (end < bytes.size() && bytes[end] >= 0x30 && bytes[end] <= 0x3F) ++end;
  if (end == bytes.size()) return unterminated(end);
  const char final_byte = bytes[end];
  if (final_byte < 0x40 || final_byte > 0x7E) return ignored(end);  // Alt+O, then another key
  const Params params = parse_params(bytes.substr(kBodyStart, end - kBodyStart));
  const int mods = modifiers(params, params.size() - 1);
  const std::size_t length = end + 1;
  switch (final_byte) {
    case 'A':
    case 'a':
      return key_step(length, KeyCode::kUp);
    case 'B':
    case 'b':
      return key_step(length, KeyCode::kDown);
    case 'C':
      return key_step(length, horizontal(true, mods));
    case 'D':
      return key_step(length, horizontal(false, mods));
    case 'c':
      return key_step(length, KeyCode::kWordRight);
    case 'd':
      return key_step(length, KeyCode::kWordLeft);
    case 'H':
      return key_step(length, KeyCode::kHome);
    case 'F':
      return key_step(length, KeyCode::kEnd);
    case 'M':  // keypad Enter in application keypad mode
      return key_step(length, KeyCode::kEnter);
    default:
      return ignored(length);
  }
}

// bytes begins with ESC.
Step decode_escape(std::string_view bytes) {
  if (bytes.size() < 2) return {};
  const auto next = static_cast<unsigned char>(bytes[1]);
  if (next == '[') return decode_csi(bytes);
  if (next == 'O') return decode_ss3(bytes);
  if (const auto code = alt_key(next)) return key_step(2, *code);
  // The Escape key pressed just before another control key (or ESC): report it and decode
  // the next byte on its own.
  if (next < 0x20) return key_step(1, KeyCode::kEscape);
  // Alt with a character that is no editing key: ignored whole, so Alt+x does not type x.
  const std::size_t length = utf8_length(bytes, 1);
  if (length == kCutOff) return {};
  return ignored(1 + (length == kInvalid ? 1 : length));
}

// bytes begins with a printable or non-ASCII byte: the run of characters typed.
Step decode_text(std::string_view bytes) {
  std::string text;
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    const auto byte = static_cast<unsigned char>(bytes[pos]);
    if (byte < 0x20 || byte == 0x7F) break;
    const std::size_t length = utf8_length(bytes, pos);
    if (length == kCutOff) break;  // the rest of the character comes with the next read
    if (length == kInvalid) {
      text += kReplacement;
      ++pos;
      continue;
    }
    std::size_t decoded_length = 0;
    // C1 controls are valid UTF-8 but would act on the terminal when drawn.
    if (!is_c1_control(util::decode_utf8(bytes, pos, decoded_length))) {
      text.append(bytes.substr(pos, length));
    }
    pos += length;
  }
  if (text.empty()) return ignored(pos);
  return {pos, Key{KeyCode::kText, std::move(text)}};
}

Step decode_step(std::string_view bytes) {
  const auto byte = static_cast<unsigned char>(bytes[0]);
  if (byte == kEsc) return decode_escape(bytes);
  if (byte < 0x20 || byte == 0x7F) return {1, control_key(byte)};
  return decode_text(bytes);
}

// Appends `key`, merging typed text into the text just before it.
void append_key(std::vector<Key>& keys, Key key) {
  if (key.code == KeyCode::kText && !keys.empty() && keys.back().code == KeyCode::kText) {
    keys.back().text += key.text;
  } else {
    keys.push_back(std::move(key));
  }
}

}  // namespace

std::vector<Key> KeyDecoder::feed(std::string_view bytes) {
  pending_.append(bytes);
  std::vector<Key> keys;
  decode(keys);
  return keys;
}

bool KeyDecoder::has_pending() const {
  return !in_paste_ && (skipping_ || !pending_.empty());
}

std::vector<Key> KeyDecoder::flush() {
  std::vector<Key> keys;
  if (in_paste_) return keys;  // a paste ends only at its end marker
  if (pending_.size() == 1 && static_cast<unsigned char>(pending_[0]) == kEsc) {
    keys.push_back({KeyCode::kEscape});
  }
  pending_.clear();
  skipping_ = false;
  return keys;
}

void KeyDecoder::decode(std::vector<Key>& keys) {
  const std::string_view bytes = pending_;
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    if (in_paste_) {
      pos = take_paste(pos, keys);
      if (in_paste_) break;
      continue;
    }
    if (skipping_) {
      pos = skip_overlong(pos);
      continue;
    }
    Step step = decode_step(bytes.substr(pos));
    if (step.length == 0) break;
    pos += step.length;
    skipping_ = step.overlong;
    if (step.paste_start) {
      in_paste_ = true;
      paste_.clear();
    }
    if (step.key) append_key(keys, std::move(*step.key));
  }
  pending_.erase(0, pos);
}

std::size_t KeyDecoder::take_paste(std::size_t pos, std::vector<Key>& keys) {
  const std::string_view bytes = std::string_view(pending_).substr(pos);
  const std::size_t end = bytes.find(kPasteEnd);
  if (end != std::string_view::npos) {
    paste_.append(bytes.substr(0, end));
    keys.push_back({KeyCode::kPaste, std::move(paste_)});
    paste_.clear();
    in_paste_ = false;
    return pos + end + kPasteEnd.size();
  }
  // Hold back a tail that may be the beginning of the end marker, cut by the read.
  std::size_t keep = std::min(bytes.size(), kPasteEnd.size() - 1);
  while (keep > 0 && !kPasteEnd.starts_with(bytes.substr(bytes.size() - keep))) --keep;
  paste_.append(bytes.substr(0, bytes.size() - keep));
  return pos + bytes.size() - keep;
}

std::size_t KeyDecoder::skip_overlong(std::size_t pos) {
  for (; pos < pending_.size(); ++pos) {
    const auto byte = static_cast<unsigned char>(pending_[pos]);
    if (byte >= 0x40 && byte <= 0x7E) {
      skipping_ = false;
      return pos + 1;
    }
    if (byte < 0x20 || byte > 0x3F) {
      skipping_ = false;
      return pos;
    }
  }
  return pos;
}

}  // namespace nib::ui
