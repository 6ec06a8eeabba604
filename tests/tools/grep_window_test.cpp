// Tests of grep's class windows: what required_window() reads off patterns, that every match of
// random patterns holds the window read (checked against RE2 itself), the finder against a
// brute-force search on random texts, and that LineMatcher finds the same lines with the window
// prefilter as RE2 run line by line.

#include <re2/re2.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "tools/grep_search.hpp"
#include "tools/grep_window.hpp"

#include "tools/line_matcher_test_util.hpp"

namespace nib::tools {
namespace {

// A window written like a regex: a position of one printable byte as itself, any other as a
// class of ranges ("[0-9]", "[Xx]"), bytes outside printable ASCII as \xNN.
std::string describe(const ClassWindow& window) {
  const auto byte_text = [](unsigned byte) {
    if (byte > 0x20 && byte < 0x7F) return std::string(1, static_cast<char>(byte));
    char escaped[8];
    std::snprintf(escaped, sizeof escaped, "\\x%02X", byte);
    return std::string(escaped);
  };
  std::string text;
  for (const ByteSet& set : window.positions) {
    if (set.count() == 1) {
      for (unsigned byte = 0; byte < 256; ++byte) {
        if (set[byte]) text += byte_text(byte);
      }
      continue;
    }
    text += '[';
    for (unsigned byte = 0; byte < 256; ++byte) {
      if (!set[byte]) continue;
      unsigned high = byte;
      while (high + 1 < 256 && set[high + 1]) ++high;
      text += byte_text(byte);
      if (high > byte + 1) text += '-';
      if (high > byte) text += byte_text(high);
      byte = high;
    }
    text += ']';
  }
  return text;
}

// The window read off `pattern`, described, or "none".
std::string window_of(const std::string& pattern, bool ignore_case = false) {
  const auto window = required_window(pattern, ignore_case);
  return window ? describe(*window) : "none";
}

// Whether `window` occurs at `at` in `text`.
bool occurs_at(const ClassWindow& window, std::string_view text, std::size_t at) {
  if (text.size() - at < window.positions.size()) return false;
  for (std::size_t i = 0; i < window.positions.size(); ++i) {
    if (!window.positions[i][static_cast<unsigned char>(text[at + i])]) return false;
  }
  return true;
}

// Brute force: the first place at or after `from` where `window` occurs, or npos.
std::size_t brute_find(const ClassWindow& window, std::string_view text, std::size_t from) {
  for (std::size_t at = from; at + window.positions.size() <= text.size(); ++at) {
    if (occurs_at(window, text, at)) return at;
  }
  return std::string_view::npos;
}

// The numbers of the lines of `text` that RE2 matches, one line at a time.
std::vector<std::size_t> reference_lines(const RE2& regex, std::string_view text) {
  std::vector<std::size_t> numbers;
  std::size_t number = 1;
  for (std::size_t start = 0; start < text.size(); ++number) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (RE2::PartialMatch(text.substr(start, end - start), regex)) numbers.push_back(number);
    start = end + 1;
  }
  return numbers;
}

TEST(RequiredWindowTest, ReadsRunsOfSingleByteClasses) {
  EXPECT_EQ(window_of("[0-9]{4}-[0-9]{2}-[0-9]{2}"), "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]");
  EXPECT_EQ(window_of("\\d{3}-\\d{4}"), "[0-9][0-9][0-9]-[0-9][0-9][0-9][0-9]");
  EXPECT_EQ(window_of("\\d{2}:\\d{2}"), "[0-9][0-9]:[0-9][0-9]");
  EXPECT_EQ(window_of("\\d\\t\\."), "[0-9]\\x09.");
  EXPECT_EQ(window_of("\\s\\d"), "[\\x09\\x0A\\x0C\\x0D\\x20][0-9]");
  EXPECT_EQ(window_of("\\w\\w"), "[0-9A-Z_a-z][0-9A-Z_a-z]");
  EXPECT_EQ(window_of("h\xC3\xA9\\d"), "h\\xC3\\xA9[0-9]");  // a character beyond ASCII, bytewise
  // Classes: ranges, escapes, a '-' or ']' that stands for itself.
  EXPECT_EQ(window_of("[\\d_.-]x"), "[-.0-9_]x");
  EXPECT_EQ(window_of("[a-]\\d"), "[-a][0-9]");
  EXPECT_EQ(window_of("[]a]\\d"), "[]a][0-9]");
  EXPECT_EQ(window_of("[\\]\\\\x]\\d"), "[\\]x][0-9]");
  EXPECT_EQ(window_of("[a-cx-z\\s]"), "[\\x09\\x0A\\x0C\\x0D\\x20a-cx-z]");
}

TEST(RequiredWindowTest, RepetitionsKeepWhatIsSurelyAdjacent) {
  // X+ after P and before Y: "PX" and "XY" are both held, "PXY" is not.
  EXPECT_EQ(window_of("x+y"), "xy");
  EXPECT_EQ(window_of("x{2,}y"), "xxy");
  EXPECT_EQ(window_of("[A-Z][a-z]+Error"), "[a-z]Error");
  EXPECT_EQ(window_of("\\d{2,3}"), "[0-9][0-9]");
  EXPECT_EQ(window_of("\\d{1,2}/\\d{1,2}/\\d{4}"), "[0-9]/[0-9][0-9][0-9][0-9]");
  // Optional atoms end the run.
  EXPECT_EQ(window_of("q?\\d\\d-"), "[0-9][0-9]-");
  EXPECT_EQ(window_of("\\d\\d-?x*"), "[0-9][0-9]");
  EXPECT_EQ(window_of("\\d\\d{0}-"), "[0-9]-");
  // At most kMaxWindowPositions positions, the rarest stretch.
  std::string letters;
  for (int i = 0; i < 15; ++i) letters += "[a-z]";
  EXPECT_EQ(window_of("[a-z]{30}X"), letters + "X");
  EXPECT_EQ(required_window("\\d{40}")->positions.size(), kMaxWindowPositions);
}

TEST(RequiredWindowTest, ReadsThroughGroupsAndOverAssertions) {
  EXPECT_EQ(window_of("(\\d{4})-(\\d{2})"), "[0-9][0-9][0-9][0-9]-[0-9][0-9]");
  EXPECT_EQ(window_of("(?P<year>\\d{4})-(?:\\d\\d)"), "[0-9][0-9][0-9][0-9]-[0-9][0-9]");
  EXPECT_EQ(window_of("(?:ab|cd)\\d{2}:\\d{2}"), "[0-9][0-9]:[0-9][0-9]");
  EXPECT_EQ(window_of("(?:\\d\\d-)+x"), "[0-9][0-9]-");
  EXPECT_EQ(window_of("(?:\\d\\d-)?x"), "x");
  EXPECT_EQ(window_of("\\b\\d{2}\\b:"), "[0-9][0-9]:");
  EXPECT_EQ(window_of("^\\d\\d$"), "[0-9][0-9]");
}

TEST(RequiredWindowTest, AnythingOfSeveralBytesEndsTheRun) {
  // '.', negated classes and \D may match a character of two to four bytes.
  EXPECT_EQ(window_of("\\d.\\d\\d"), "[0-9][0-9]");
  EXPECT_EQ(window_of("[^a-z]\\d"), "[0-9]");
  EXPECT_EQ(window_of("\\d\\D\\d\\d"), "[0-9][0-9]");
  EXPECT_EQ(window_of("[[:digit:]]\\d"), "[0-9]");
  EXPECT_EQ(window_of("[\xC3\xA9x]\\d"), "[0-9]");
}

TEST(RequiredWindowTest, GivesUpWhereAWindowMayBeMissing) {
  EXPECT_EQ(window_of("\\d{4}|\\d{3}"), "none");
  EXPECT_EQ(window_of("(?i)\\d\\d"), "none");
  EXPECT_EQ(window_of("(?i:x)\\d\\d"), "none");
  EXPECT_EQ(window_of("\\x41\\d"), "none");
  EXPECT_EQ(window_of("\\pN\\d"), "none");
  EXPECT_EQ(window_of("\\Qa\\E"), "none");
  EXPECT_EQ(window_of("a{x"), "none");
  EXPECT_EQ(window_of(".*"), "none");
  EXPECT_EQ(window_of("a*"), "none");
  EXPECT_EQ(window_of(""), "none");
}

TEST(RequiredWindowTest, IgnoringCaseFoldsAsciiLettersButNotKOrS) {
  EXPECT_EQ(window_of("x\\d", true), "[Xx][0-9]");
  EXPECT_EQ(window_of("[a-j]\\d", true), "[A-Ja-j][0-9]");
  // k and s fold with the Kelvin sign and the long s, which take more than one byte.
  EXPECT_EQ(window_of("k\\d\\d", true), "[0-9][0-9]");
  EXPECT_EQ(window_of("[a-z]\\d\\d", true), "[0-9][0-9]");
  EXPECT_EQ(window_of("\\w\\d\\d", true), "[0-9][0-9]");
  EXPECT_EQ(window_of("\xC3\xA9\\d\\d", true), "[0-9][0-9]");
}

// A one-position window holds exactly the ASCII bytes RE2 matches with the atom, and the atom
// matches no character beyond ASCII (which would make it longer than one byte).
TEST(RequiredWindowTest, SingleAtomsHoldWhatRe2Matches) {
  const std::vector<std::string> atoms = {
      "\\d", "\\w", "\\s", "[a-z]",       "[\\d_.-]", "[]a]", "[a-]", "[\\]\\\\x]", "[\\t\\n\\r ]",
      "\\.", "\\t", "x",   "[A-Fa-f0-9]", "[%-/]",    "\\v",  "\\f",  "\\a",        "[\\s\\d]"};
  const std::vector<std::string> beyond_ascii = {"\xC3\xA9", "\xE2\x84\xAA", "\xC5\xBF", "\xC2\xA0",
                                                 "\xE2\x80\x83"};
  for (const auto& atom : atoms) {
    for (const bool ignore_case : {false, true}) {
      const auto window = required_window(atom, ignore_case);
      RE2::Options options;
      options.set_case_sensitive(!ignore_case);
      const RE2 regex(atom, options);
      ASSERT_TRUE(regex.ok()) << atom;
      if (!window) {
        EXPECT_TRUE(ignore_case) << atom;  // only a fold beyond ASCII may end the run
        continue;
      }
      ASSERT_EQ(window->positions.size(), 1u) << atom;
      for (unsigned byte = 0; byte < 0x80; ++byte) {
        EXPECT_EQ(window->positions[0][byte],
                  RE2::FullMatch(std::string(1, static_cast<char>(byte)), regex))
            << atom << " ignore_case " << ignore_case << " byte " << byte;
      }
      for (const auto& character : beyond_ascii) {
        EXPECT_FALSE(RE2::FullMatch(character, regex)) << atom << " " << character;
      }
    }
  }
}

// Whatever the pattern, a text the regex matches holds the window read from it.
TEST(RequiredWindowTest, EveryMatchHoldsTheWindowOnRandomPatterns) {
  const std::vector<std::string> pieces = {
      "a",     "1",     "-",      "\\d",    "[a-c]", "[^a]", ".",     "x*",      "\\d+",
      "(a|1)", "(1-)+", "\\d{2}", "a{1,2}", "\\b",   "^",    "$",     "[0-9a]",  "\xC3\xA9",
      "(\\d)", "\\w",   "\\s",    "K",      "s",     "\\D",  "(?:a)", "[\\d-]?", "b{0}"};
  const std::string alphabet[] = {
      "a",        "b", "1", "2", "-", " ", "x", "\xC3\xA9", "\xE2\x84\xAA",
      "\xC5\xBF", "A", "k", "s", "S"};
  std::mt19937 random(5);
  std::size_t checked = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string pattern;
    for (int i = 1 + static_cast<int>(random() % 6); i > 0; --i) {
      pattern += pieces[random() % pieces.size()];
    }
    const bool ignore_case = round % 3 == 0;
    RE2::Options options;
    options.set_log_errors(false);
    options.set_case_sensitive(!ignore_case);
    RE2 regex(pattern, options);
    if (!regex.ok()) continue;
    const auto window = required_window(pattern, ignore_case);
    if (!window) continue;
    ASSERT_FALSE(window->positions.empty());
    ASSERT_LE(window->positions.size(), kMaxWindowPositions);
    const ClassWindowFinder finder(*window);
    for (int sample = 0; sample < 60; ++sample) {
      std::string text;
      for (int i = static_cast<int>(random() % 12); i > 0; --i) {
        text += alphabet[random() % std::size(alphabet)];
      }
      re2::StringPiece match;
      if (!regex.Match(text, 0, text.size(), RE2::UNANCHORED, &match, 1)) continue;
      ++checked;
      const auto begin = static_cast<std::size_t>(match.data() - text.data());
      const std::string_view matched = std::string_view(text).substr(begin, match.size());
      ASSERT_NE(brute_find(*window, matched, 0), std::string_view::npos)
          << "pattern " << pattern << " window " << describe(*window) << " text " << text;
      ASSERT_EQ(finder.find(text, 0), brute_find(*window, text, 0));
    }
  }
  EXPECT_GT(checked, 2000u);
}

// A random set: one byte, a range, several ranges (some more than a vector test takes), or
// scattered bytes, drawn from the whole byte range so that bytes above 0x7F are tested too.
ByteSet random_set(std::mt19937& random) {
  ByteSet set;
  const auto byte = [&] { return static_cast<unsigned>(random() % 256); };
  switch (random() % 4) {
    case 0:
      set.set(byte());
      break;
    case 1:
    case 2:
      for (int r = 1 + static_cast<int>(random() % 5); r > 0; --r) {
        const unsigned low = byte();
        const unsigned high = std::min(255u, low + static_cast<unsigned>(random() % 40));
        for (unsigned b = low; b <= high; ++b) set.set(b);
      }
      break;
    default:
      for (int i = 0; i < 60; ++i) set.set(byte());
  }
  return set;
}

TEST(ClassWindowFinderTest, AgreesWithBruteForceOnRandomTexts) {
  std::mt19937 random(17);
  for (int round = 0; round < 400; ++round) {
    ClassWindow window;
    for (int i = 1 + static_cast<int>(random() % kMaxWindowPositions); i > 0; --i) {
      window.positions.push_back(random_set(random));
    }
    const ClassWindowFinder finder(window);
    // Texts drawn from the bytes the window's first sets hold (so that it occurs) and a few
    // others, of lengths around the 16-byte steps.
    std::vector<unsigned char> bytes;
    for (const ByteSet& set : window.positions) {
      for (unsigned b = 0; b < 256; ++b) {
        if (set[b] && random() % 4 == 0) bytes.push_back(static_cast<unsigned char>(b));
      }
    }
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<unsigned char>(random() % 256));
    for (const std::size_t length : {0, 1, 15, 16, 17, 31, 32, 33, 47, 64, 100, 257}) {
      std::string text(length, '\0');
      for (char& c : text) c = static_cast<char>(bytes[random() % bytes.size()]);
      // Plant the window near the end sometimes, where the vector loop hands over to the tail.
      if (length >= window.positions.size() && random() % 2 == 0) {
        const std::size_t at =
            length - window.positions.size() -
            std::min<std::size_t>(random() % 3, length - window.positions.size());
        for (std::size_t i = 0; i < window.positions.size(); ++i) {
          const ByteSet& set = window.positions[i];
          std::vector<unsigned char> members;
          for (unsigned b = 0; b < 256; ++b) {
            if (set[b]) members.push_back(static_cast<unsigned char>(b));
          }
          if (!members.empty())
            text[at + i] = static_cast<char>(members[random() % members.size()]);
        }
      }
      for (std::size_t from = 0; from <= length + 1; from += 1 + random() % 5) {
        ASSERT_EQ(finder.find(text, from), brute_find(window, text, from))
            << "window " << describe(window) << " length " << length << " from " << from;
      }
    }
  }
}

TEST(ClassWindowFinderTest, FindsWindowsAtEveryOffsetOfAStep) {
  const auto window = required_window("\\d{4}-\\d{2}");
  ASSERT_TRUE(window);
  const ClassWindowFinder finder(*window);
  for (std::size_t at = 0; at < 48; ++at) {
    std::string text(at, 'x');
    text += "2024-05";
    text += std::string(at % 19, '-');
    EXPECT_EQ(finder.find(text, 0), at);
    EXPECT_EQ(finder.find(text, at), at);
    EXPECT_EQ(finder.find(text, at + 1), std::string_view::npos);
  }
  EXPECT_EQ(finder.find("2024-0", 0), std::string_view::npos);
  EXPECT_EQ(finder.find("", 0), std::string_view::npos);
  EXPECT_EQ(finder.find("2024-05", 8), std::string_view::npos);
}

// LineMatcher finds what RE2 finds line by line, whichever prefilter it picked.
TEST(LineMatcherWindowTest, FindsTheSameLinesAsRe2LineByLine) {
  const std::vector<std::string> patterns = {"[0-9]{4}-[0-9]{2}-[0-9]{2}",
                                             "\\d{3}-\\d{4}",
                                             "[A-Z][a-z]+Error",
                                             "\\d+\\.\\d+\\.\\d+",
                                             "^\\d\\d:\\d\\d",
                                             "\\b\\d{2}-\\d\\d\\b",
                                             "\\d.\\d\\d-",
                                             "x\\d\\d-\\d",
                                             "Ab\\d\\d-\\d\\d"};
  const std::vector<std::string> pieces = {"2024", "-",  "05", "1",     "\n", " ",        "x",
                                           ".",    "Ab", "c",  "Error", ":",  "\xC3\xA9", "X"};
  std::mt19937 random(23);
  for (const auto& pattern : patterns) {
    for (const bool ignore_case : {false, true}) {
      const auto matcher = compile(pattern, {.ignore_case = ignore_case});
      RE2::Options options;
      options.set_case_sensitive(!ignore_case);
      const RE2 reference(pattern, options);
      for (int round = 0; round < 150; ++round) {
        std::string text;
        for (int i = static_cast<int>(random() % 60); i > 0; --i) {
          text += pieces[random() % pieces.size()];
        }
        ASSERT_EQ(matching_lines(matcher, text), reference_lines(reference, text))
            << "pattern " << pattern << " ignore_case " << ignore_case << " text " << text;
      }
    }
  }
}

TEST(LineMatcherWindowTest, MatchesThroughCharactersOfSeveralBytes) {
  // '.' matches "é", two bytes: the window must not assume one byte for it.
  EXPECT_EQ(matching_lines(compile("\\d\\d.\\d\\d-\\d"),
                           "12\xC3\xA9"
                           "34-5\n12x34-5\n"),
            (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(matching_lines(compile("\\d{4}[^x]\\d{2}"),
                           "2024\xE2\x80\x93"
                           "05\n"),
            (std::vector<std::size_t>{1}));
}

}  // namespace
}  // namespace nib::tools
