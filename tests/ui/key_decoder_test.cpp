#include "ui/key_decoder.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace nib::ui {

// Readable failure messages (found by argument-dependent lookup, so outside the unnamed
// namespace; static keeps it to this file).
static void PrintTo(const Key& key, std::ostream* out) {
  *out << "KeyCode(" << static_cast<int>(key.code) << ")";
  if (!key.text.empty()) *out << " " << ::testing::PrintToString(key.text);
  if (key.ctrl != 0) *out << " ctrl='" << key.ctrl << "'";
}

namespace {

using Keys = std::vector<Key>;

Key text(std::string value) {
  return {KeyCode::kText, std::move(value)};
}

Key paste(std::string value) {
  return {KeyCode::kPaste, std::move(value)};
}

Key ctrl(char letter) {
  return {KeyCode::kCtrl, {}, letter};
}

// Everything the bytes decode to, as if no more bytes followed.
Keys decode(std::string_view bytes) {
  KeyDecoder decoder;
  Keys keys = decoder.feed(bytes);
  for (Key& key : decoder.flush()) keys.push_back(std::move(key));
  return keys;
}

// Typed text may come as several kText keys when the read was cut; joined, it is the same.
Keys joined(const Keys& keys) {
  Keys out;
  for (const Key& key : keys) {
    if (key.code == KeyCode::kText && !out.empty() && out.back().code == KeyCode::kText) {
      out.back().text += key.text;
    } else {
      out.push_back(key);
    }
  }
  return out;
}

// The bytes fed in pieces cut at the given offsets, then flushed.
Keys decode_split(std::string_view bytes, const std::vector<std::size_t>& cuts) {
  KeyDecoder decoder;
  Keys keys;
  std::size_t start = 0;
  for (const std::size_t cut : cuts) {
    for (Key& key : decoder.feed(bytes.substr(start, cut - start))) keys.push_back(key);
    start = cut;
  }
  for (Key& key : decoder.feed(bytes.substr(start))) keys.push_back(key);
  for (Key& key : decoder.flush()) keys.push_back(key);
  return joined(keys);
}

struct Mapping {
  std::string bytes;
  Keys keys;
};

// Every mapping the decoder supports, with the keys each gives.
const std::vector<Mapping>& mappings() {
  static const std::vector<Mapping> table{
      {"\r", {{KeyCode::kEnter}}},
      {"\n", {{KeyCode::kNewline}}},
      {"\x1b[13;2u", {{KeyCode::kNewline}}},     // kitty Shift+Enter
      {"\x1b[27;2;13~", {{KeyCode::kNewline}}},  // modifyOtherKeys Shift+Enter
      {"\x1b\r", {{KeyCode::kNewline}}},         // Alt+Enter
      {"\x7f", {{KeyCode::kBackspace}}},
      {"\x08", {{KeyCode::kBackspace}}},
      {"\x1b[3~", {{KeyCode::kDelete}}},
      {"\x1b[A", {{KeyCode::kUp}}},
      {"\x1b[B", {{KeyCode::kDown}}},
      {"\x1b[C", {{KeyCode::kRight}}},
      {"\x1b[D", {{KeyCode::kLeft}}},
      {"\x1bOA", {{KeyCode::kUp}}},
      {"\x1bOB", {{KeyCode::kDown}}},
      {"\x1bOC", {{KeyCode::kRight}}},
      {"\x1bOD", {{KeyCode::kLeft}}},
      {"\x1b[1;5C", {{KeyCode::kWordRight}}},
      {"\x1b[1;5D", {{KeyCode::kWordLeft}}},
      {"\x1b[1;3C", {{KeyCode::kWordRight}}},
      {"\x1b[1;3D", {{KeyCode::kWordLeft}}},
      {"\x1b[1;2C", {{KeyCode::kRight}}},  // Shift+arrow: no selection, a plain move
      {"\x1b[1;5A", {{KeyCode::kUp}}},
      {"\x1b[1;5B", {{KeyCode::kDown}}},
      {"\x1bOc", {{KeyCode::kWordRight}}},  // rxvt Ctrl+arrows
      {"\x1bOd", {{KeyCode::kWordLeft}}},
      {"\x1b"
       "b",
       {{KeyCode::kWordLeft}}},
      {"\x1b"
       "f",
       {{KeyCode::kWordRight}}},
      {"\x1b"
       "d",
       {{KeyCode::kDeleteWordForward}}},
      {"\x1b[3;5~", {{KeyCode::kDeleteWordForward}}},  // Ctrl+Delete
      {"\x17", {{KeyCode::kDeleteWordBack}}},
      {"\x1b\x7f", {{KeyCode::kDeleteWordBack}}},
      {"\x1b\x08", {{KeyCode::kDeleteWordBack}}},
      {"\x1b[H", {{KeyCode::kHome}}},
      {"\x1b[F", {{KeyCode::kEnd}}},
      {"\x1b[1~", {{KeyCode::kHome}}},
      {"\x1b[4~", {{KeyCode::kEnd}}},
      {"\x1b[7~", {{KeyCode::kHome}}},
      {"\x1b[8~", {{KeyCode::kEnd}}},
      {"\x1bOH", {{KeyCode::kHome}}},
      {"\x1bOF", {{KeyCode::kEnd}}},
      {"\x1b[1;5H", {{KeyCode::kHome}}},
      {"\x1b[5~", {{KeyCode::kPageUp}}},
      {"\x1b[6~", {{KeyCode::kPageDown}}},
      {"\t", {{KeyCode::kTab}}},
      {"\x1b[Z", {{KeyCode::kShiftTab}}},
      {"\x1bOM", {{KeyCode::kEnter}}},  // keypad Enter
      {"\x03", {ctrl('c')}},
      {std::string(1, '\0'), {ctrl('@')}},
      {"\x1c", {ctrl('\\')}},
      {"\x1f", {ctrl('_')}},
      {"\x1b\x1b", {{KeyCode::kEscape}, {KeyCode::kEscape}}},
      {"\x1b\x1b[A", {{KeyCode::kEscape}, {KeyCode::kUp}}},
      {"\x1b\x03", {{KeyCode::kEscape}, ctrl('c')}},
      // kitty's CSI u and modifyOtherKeys mean what the legacy encoding of the key means.
      {"\x1b[13u", {{KeyCode::kEnter}}},
      {"\x1b[13;5u", {{KeyCode::kNewline}}},
      {"\x1b[9;2u", {{KeyCode::kShiftTab}}},
      {"\x1b[127u", {{KeyCode::kBackspace}}},
      {"\x1b[127;3u", {{KeyCode::kDeleteWordBack}}},
      {"\x1b[27u", {{KeyCode::kEscape}}},
      {"\x1b[99;5u", {ctrl('c')}},
      {"\x1b[98;5u", {ctrl('b')}},  // Ctrl+B: moves running bash calls into the background
      {"\x1b[119;5u", {{KeyCode::kDeleteWordBack}}},  // Ctrl+W
      {"\x1b[27;5;100~", {ctrl('d')}},
      {"\x1b[98;3u", {{KeyCode::kWordLeft}}},  // Alt+b
      {"\x1b[97u", {text("a")}},
      {"\x1b[97;2u", {text("A")}},
      {"\x1b[49:33;2u", {text("!")}},  // the shifted key, as kitty reports it
      {"\x1b[13;1:3u", {}},            // a key release
      {"hé日🎉", {text("hé日🎉")}},
      {"\x1b[200~a\r\nb\x1b[A\x1b[201~", {paste("a\r\nb\x1b[A")}},
  };
  return table;
}

TEST(KeyDecoder, DecodesEveryMapping) {
  for (const Mapping& mapping : mappings()) {
    EXPECT_EQ(decode(mapping.bytes), mapping.keys) << ::testing::PrintToString(mapping.bytes);
  }
}

TEST(KeyDecoder, MapsEveryOtherControlByteToItsLetter) {
  // Bytes with a key of their own: Backspace (h), Tab (i), Ctrl-J (j), Enter (m), Ctrl-W (w).
  const std::string mapped = "hijmw";
  for (char letter = 'a'; letter <= 'z'; ++letter) {
    if (mapped.find(letter) != std::string::npos) continue;
    const std::string byte(1, static_cast<char>(letter - 'a' + 1));
    EXPECT_EQ(decode(byte), Keys{ctrl(letter)}) << letter;
  }
}

TEST(KeyDecoder, GivesTheSameKeysWhereverTheBytesAreCut) {
  for (const Mapping& mapping : mappings()) {
    for (std::size_t cut = 1; cut < mapping.bytes.size(); ++cut) {
      EXPECT_EQ(decode_split(mapping.bytes, {cut}), mapping.keys)
          << ::testing::PrintToString(mapping.bytes) << " cut at " << cut;
    }
  }
}

TEST(KeyDecoder, DecodesAllMappingsInOneStreamFedByteByByte) {
  std::string stream;
  Keys expected;
  for (const Mapping& mapping : mappings()) {
    stream += mapping.bytes;
    expected.insert(expected.end(), mapping.keys.begin(), mapping.keys.end());
  }
  std::vector<std::size_t> every_byte;
  for (std::size_t cut = 1; cut < stream.size(); ++cut) every_byte.push_back(cut);
  EXPECT_EQ(decode_split(stream, {}), joined(expected));
  EXPECT_EQ(decode_split(stream, every_byte), joined(expected));
}

TEST(KeyDecoder, DecodesRandomInputTheSameHoweverItIsCut) {
  // Pieces of sequences, UTF-8 characters and junk, so that the streams cut sequences and
  // characters in every way, start and end pastes, and run into the overlong limit.
  const std::vector<std::string> pieces{
      "\x1b",     "[",    "O",    "1",    ";",        "5",        "~",    "u",
      "200~",     "201~", "A",    "C",    "M",        "<",        "?",    "\r",
      "\n",       "\x7f", "\x03", "\t",   "a",        " ",        "\xc3", "\xa9",
      "\xe6\x97", "\xa5", "\x80", "\xff", "\xf0\x9f", "\x8e\x89", "日",   std::string(40, '7')};
  std::mt19937 random(7);
  for (int round = 0; round < 3000; ++round) {
    std::string bytes;
    for (std::uint32_t count = random() % 30; count > 0; --count) {
      bytes += pieces[random() % pieces.size()];
    }
    std::vector<std::size_t> cuts;
    for (std::size_t cut = 1 + random() % 4; cut < bytes.size(); cut += 1 + random() % 4) {
      cuts.push_back(cut);
    }
    ASSERT_EQ(decode_split(bytes, cuts), decode_split(bytes, {}))
        << ::testing::PrintToString(bytes);
  }
}

TEST(KeyDecoder, MergesPrintableBytesOfOneFeedIntoOneText) {
  KeyDecoder decoder;
  EXPECT_EQ(decoder.feed("hello world"), Keys{text("hello world")});
  EXPECT_EQ(decoder.feed("ab\rcd"), (Keys{text("ab"), {KeyCode::kEnter}, text("cd")}));
  EXPECT_FALSE(decoder.has_pending());
}

TEST(KeyDecoder, HoldsALoneEscapeUntilFlush) {
  KeyDecoder decoder;
  EXPECT_EQ(decoder.feed("a\x1b"), Keys{text("a")});
  EXPECT_TRUE(decoder.has_pending());
  EXPECT_EQ(decoder.flush(), Keys{{KeyCode::kEscape}});
  EXPECT_FALSE(decoder.has_pending());
  EXPECT_EQ(decoder.flush(), Keys{});
}

TEST(KeyDecoder, CompletesAnEscapeSequenceCutBetweenReads) {
  KeyDecoder decoder;
  EXPECT_EQ(decoder.feed("\x1b"), Keys{});
  EXPECT_EQ(decoder.feed("[1;"), Keys{});
  EXPECT_TRUE(decoder.has_pending());
  EXPECT_EQ(decoder.feed("5Cx"), (Keys{{KeyCode::kWordRight}, text("x")}));
  EXPECT_FALSE(decoder.has_pending());
}

TEST(KeyDecoder, EscapeEscapeGivesEscapeAndHoldsTheSecond) {
  KeyDecoder decoder;
  EXPECT_EQ(decoder.feed("\x1b\x1b"), Keys{{KeyCode::kEscape}});
  EXPECT_TRUE(decoder.has_pending());
  EXPECT_EQ(decoder.feed("[B"), Keys{{KeyCode::kDown}});
}

TEST(KeyDecoder, FlushDropsAPartialSequence) {
  KeyDecoder decoder;
  EXPECT_EQ(decoder.feed("\x1b[1;5"), Keys{});
  EXPECT_EQ(decoder.flush(), Keys{});
  EXPECT_FALSE(decoder.has_pending());
  EXPECT_EQ(decoder.feed("x"), Keys{text("x")});
}

TEST(KeyDecoder, IgnoresSequencesThatAreNoKeys) {
  const std::vector<std::string> ignored{
      "\x1b[I",          // focus in
      "\x1b[O",          // focus out
      "\x1b[<0;10;20M",  // SGR mouse press
      "\x1b[<0;10;20m",  // SGR mouse release
      "\x1b[M !!",       // X10 mouse report with its three raw bytes
      "\x1b[15~",        // F5
      "\x1b[2~",         // Insert
      "\x1b[201~",       // a paste end without a start
      "\x1bOP",          // F1
      "\x1bO2Q",         // Shift+F2
      "\x1b[[A",         // the Linux console's F1
      "\x1b[57399u",     // kitty: keypad 0 (a private-use code point)
      "\x1b[97;7u",      // Ctrl+Alt+A: nothing here
      "\x1b[?1;2c",      // a terminal's device attributes reply
      "\x1b[2 q",        // a sequence with an intermediate byte
      "\x1bx",           // Alt+x
      "\x1b\xc3\xa9",    // Alt+é
      "\xc2\x9b",        // a C1 control
  };
  for (const std::string& sequence : ignored) {
    EXPECT_EQ(decode("a" + sequence + "b"), Keys{text("ab")}) << ::testing::PrintToString(sequence);
  }
}

TEST(KeyDecoder, DropsAMalformedSequenceAndDecodesTheByteThatBrokeIt) {
  EXPECT_EQ(decode("\x1b[1\x03"), Keys{ctrl('c')});
  EXPECT_EQ(decode("\x1bO\r"), Keys{{KeyCode::kEnter}});
}

TEST(KeyDecoder, SkipsAnOverlongSequenceWithoutHoldingIt) {
  KeyDecoder decoder;
  for (int chunk = 0; chunk < 1000; ++chunk) {
    EXPECT_EQ(decoder.feed(chunk == 0 ? "\x1b[" + std::string(100, '1') : std::string(100, '2')),
              Keys{});
  }
  EXPECT_TRUE(decoder.has_pending());
  EXPECT_EQ(decoder.feed("3;4~ok"), Keys{text("ok")});
  EXPECT_FALSE(decoder.has_pending());

  EXPECT_EQ(decoder.feed("\x1b[" + std::string(kMaxSequenceBytes, '1')), Keys{});
  EXPECT_EQ(decoder.flush(), Keys{});
  EXPECT_EQ(decoder.feed("12"), Keys{text("12")});  // after a flush, digits are text again
}

TEST(KeyDecoder, AssemblesAPasteFedInPieces) {
  const std::string content = "line one\r\n\ttabbed \x1b[31mred\x1b[0m 日本\x1b[201";
  const std::string bytes = "x\x1b[200~" + content + "x\x1b[201~y";
  const Keys expected{text("x"), paste(content + "x"), text("y")};
  std::vector<std::size_t> every_byte;
  for (std::size_t cut = 1; cut < bytes.size(); ++cut) every_byte.push_back(cut);
  EXPECT_EQ(decode_split(bytes, every_byte), expected);
  for (std::size_t cut = 1; cut < bytes.size(); ++cut) {
    EXPECT_EQ(decode_split(bytes, {cut}), expected) << cut;
  }
}

TEST(KeyDecoder, AFlushDoesNotCutAPaste) {
  KeyDecoder decoder;
  EXPECT_EQ(decoder.feed("\x1b[200~first "), Keys{});
  EXPECT_FALSE(decoder.has_pending());  // nothing for a quiet-spell flush to resolve
  EXPECT_EQ(decoder.flush(), Keys{});
  EXPECT_EQ(decoder.feed("second\x1b[2"), Keys{});
  EXPECT_EQ(decoder.flush(), Keys{});
  EXPECT_EQ(decoder.feed("01~"), Keys{paste("first second")});
}

TEST(KeyDecoder, GivesAnEmptyPaste) {
  EXPECT_EQ(decode("\x1b[200~\x1b[201~"), Keys{paste("")});
}

TEST(KeyDecoder, CompletesAUtf8CharacterCutBetweenReads) {
  const std::string typed = "é日🎉";
  for (std::size_t cut = 1; cut < typed.size(); ++cut) {
    KeyDecoder decoder;
    Keys keys = decoder.feed(typed.substr(0, cut));
    const bool inside_character = cut != 2 && cut != 5;
    EXPECT_EQ(decoder.has_pending(), inside_character) << cut;
    for (Key& key : decoder.feed(typed.substr(cut))) keys.push_back(key);
    EXPECT_EQ(joined(keys), Keys{text(typed)}) << cut;
  }
}

TEST(KeyDecoder, ReplacesInvalidUtf8) {
  EXPECT_EQ(decode("a\xff"
                   "b"),
            Keys{text("a\uFFFD"
                      "b")});
  EXPECT_EQ(decode("\xc3("), Keys{text("\uFFFD(")});
  // A character cut short by another: each byte is replaced, as util::sanitize_utf8 does.
  EXPECT_EQ(decode("\xe6\x97"
                   "x"),
            Keys{text("\uFFFD\uFFFDx")});
  EXPECT_EQ(decode("\xed\xa0\x80"), Keys{text("\uFFFD\uFFFD\uFFFD")});  // a surrogate
}

TEST(KeyDecoder, DropsACutCharacterAtFlush) {
  KeyDecoder decoder;
  EXPECT_EQ(decoder.feed("\xe6\x97"), Keys{});
  EXPECT_TRUE(decoder.has_pending());
  EXPECT_EQ(decoder.flush(), Keys{});
  EXPECT_FALSE(decoder.has_pending());
}

}  // namespace
}  // namespace nib::ui
