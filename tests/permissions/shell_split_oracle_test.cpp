// The bash splitter against bash itself, over thousands of generated command lines (seeded, so
// a failure repeats):
// - words: bash prints each generated word after quote removal (one bash for all of them); the
//   splitter must give the same bytes;
// - structure: a generated line is valid for `bash -n`, and the splitter understands it and
//   finds exactly the simple commands the generator put in;
// - mutated lines (a quote, bracket or operator inserted or deleted): whatever bash rejects the
//   splitter never understands, and what both accept splits the same as the normalised form
//   bash prints for a function wrapping it (`f() { LINE; }; declare -f f`), which moves every
//   blank, line end and operator around.

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "permissions/shell_split.hpp"
#include "support/spawn.hpp"

namespace nib::permissions {
namespace {

struct BashRun {
  int status = -1;
  std::string out;
  std::string err;
};

BashRun run_bash(const std::vector<std::string>& arguments) {
  std::vector<std::string> argv = {"bash", "--norc", "--noprofile"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  const testing::SpawnedProcess bash =
      testing::spawn_with_pipes(argv, {"PATH=/usr/bin:/bin", "LC_ALL=C"});
  BashRun run;
  pollfd fds[2] = {{bash.out_fd, POLLIN, 0}, {bash.err_fd, POLLIN, 0}};
  std::string* into[2] = {&run.out, &run.err};
  int open = 2;
  char buffer[8192];
  while (open > 0) {
    if (::poll(fds, 2, -1) < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        into[i]->append(buffer, static_cast<std::size_t>(n));
      } else {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  ::waitpid(bash.pid, &run.status, 0);
  return run;
}

// bash accepts the line without a word on stderr (a warning, such as a here-document closed by
// the end of the input, counts as rejection: the splitter is stricter there on purpose).
bool bash_accepts(const std::string& line) {
  const BashRun run = run_bash({"-n", "-c", line});
  return run.status == 0 && run.err.empty();
}

// The body bash prints for `f() { LINE; }`.
std::optional<std::string> bash_normal_form(const std::string& line) {
  const BashRun run = run_bash({"-c", "f() {\n" + line + "\n}\ndeclare -f f"});
  const std::string head = "f () \n{ \n";
  if (run.status != 0 || !run.err.empty() || !run.out.starts_with(head)) return std::nullopt;
  const std::size_t tail = run.out.rfind("\n}");
  if (tail == std::string::npos || tail < head.size()) return std::nullopt;
  return run.out.substr(head.size(), tail - head.size());
}

// A simple command's words as compared: the text of a literal word, nullopt for an opaque one.
using Words = std::vector<std::optional<std::string>>;

// The same, in an order of their own: bash's normal form moves redirections (and so the
// substitutions in them) to the end of their command, which changes the order the splitter
// meets them in, not what runs.
std::vector<Words> sorted(std::vector<Words> commands) {
  std::sort(commands.begin(), commands.end());
  return commands;
}

std::vector<Words> split_words(const ShellSplit& split) {
  std::vector<Words> commands;
  for (const SimpleCommand& command : split.commands) {
    Words words;
    for (const ShellWord& word : command.words) {
      words.push_back(word.literal() ? std::optional<std::string>(word.text) : std::nullopt);
    }
    commands.push_back(std::move(words));
  }
  return commands;
}

// Builds random command lines from the part of bash's grammar the splitter understands, and
// the words of each simple command in the order the splitter lists them.
class LineGenerator {
 public:
  explicit LineGenerator(unsigned seed) : random_(seed) {}

  struct Word {
    std::string source;
    std::string text;
  };

  // One word whose every byte is known: plain text, '...', "...", \x and $'...' pieces.
  Word literal_word() {
    Word word;
    const int pieces = 1 + pick(3);
    for (int i = 0; i < pieces; ++i) {
      switch (pick(5)) {
        case 0: {
          const std::string text = plain(1 + pick(6));
          word.source += text;
          word.text += text;
          break;
        }
        case 1: {
          std::string text;
          for (int n = pick(6); n > 0; --n) text += from("ab \"$|;&()\\*`\n<>#{}~");
          word.source += "'" + text + "'";
          word.text += text;
          break;
        }
        case 2: {
          word.source += '"';
          for (int n = pick(5); n > 0; --n) {
            switch (pick(6)) {
              case 0:
                word.source += "\\\"";
                word.text += '"';
                break;
              case 1:
                word.source += "\\\\";
                word.text += '\\';
                break;
              case 2:
                word.source += "\\$";
                word.text += '$';
                break;
              case 3:
                word.source += "\\a";
                word.text += "\\a";
                break;
              default: {
                const char c = from("xy '|;*(&#~\n");
                word.source += c;
                word.text += c;
              }
            }
          }
          word.source += '"';
          break;
        }
        case 3: {
          const char c = from(" ;|&()<>'\"$*?#~{}\\");
          word.source += std::string("\\") + c;
          word.text += c;
          break;
        }
        default: {
          word.source += "$'";
          for (int n = 1 + pick(4); n > 0; --n) {
            switch (pick(7)) {
              case 0:
                word.source += "\\n";
                word.text += '\n';
                break;
              case 1:
                word.source += "\\t";
                word.text += '\t';
                break;
              case 2:
                word.source += "\\x41";
                word.text += 'A';
                break;
              case 3:
                word.source += "\\101";
                word.text += 'A';
                break;
              case 4:
                word.source += "\\'";
                word.text += '\'';
                break;
              case 5:
                word.source += "\\\\";
                word.text += '\\';
                break;
              default:
                word.source += "q r";
                word.text += "q r";
            }
          }
          word.source += "'";
        }
      }
    }
    return word;
  }

  // A list of and-or lists; `commands` gets the words of its simple commands.
  std::string list(int depth, std::vector<Words>& commands) {
    std::string line = and_or(depth, commands);
    for (int n = depth > 0 ? pick(2) : pick(3); n > 0; --n) {
      static const char* const kSeparators[] = {"; ", " & ", "\n", ";\n\n  "};
      line += kSeparators[pick(4)];
      line += and_or(depth, commands);
    }
    return line;
  }

  bool chance(int percent) { return pick(100) < percent; }
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }

 private:
  char from(std::string_view set) {
    return set[static_cast<std::size_t>(pick(static_cast<int>(set.size())))];
  }
  std::string plain(int length) {
    std::string text;
    for (int i = 0; i < length; ++i) text += from("abcxyz019._/-+,:@%");
    return text;
  }

  std::string and_or(int depth, std::vector<Words>& commands) {
    std::string line = pipeline(depth, commands);
    for (int n = pick(2); n > 0; --n) {
      static const char* const kOperators[] = {" && ", " || ", " &&\n  ", "||"};
      line += kOperators[pick(4)];
      line += pipeline(depth, commands);
    }
    return line;
  }

  std::string pipeline(int depth, std::vector<Words>& commands) {
    std::string line = chance(10) ? "! " : "";
    line += command(depth, commands);
    for (int n = pick(2); n > 0; --n) {
      line += chance(70) ? " | " : " |& ";
      line += command(depth, commands);
    }
    return line;
  }

  std::string command(int depth, std::vector<Words>& commands) {
    if (depth < 2 && chance(12)) return "( " + list(depth + 1, commands) + " )" + redirection();
    if (depth < 2 && chance(10)) return "{ " + list(depth + 1, commands) + "; }" + redirection();
    return simple_command(depth, commands);
  }

  std::string redirection() {
    if (!chance(30)) return "";
    static const char* const kRedirections[] = {" > out",       " 2>&1",   " >> 'l o g'",  " < in",
                                                " 2>/dev/null", " &> log", " <<< \"s t\"", " >&2"};
    return kRedirections[pick(8)];
  }

  std::string simple_command(int depth, std::vector<Words>& commands) {
    Words words;
    std::string line;
    if (chance(15)) {
      const Word value = literal_word();
      const std::string name = "FOO_" + std::to_string(pick(9)) + "=";
      line += name + value.source + " ";
      words.push_back(name + value.text);
    }
    static const char* const kNames[] = {"git", "ls", "make", "npm", "cat", "grep", "cmd", "t'o'p"};
    const int name = pick(8);
    line += kNames[name];
    words.push_back(name == 7 ? "top" : kNames[name]);
    std::vector<Words> inner;
    for (int n = pick(4); n > 0; --n) {
      line += ' ';
      if (depth < 2 && chance(8)) {
        static const char* const kOpen[] = {"$(", "\"$(", "<(", ">("};
        static const char* const kClose[] = {")", ")\"", ")", ")"};
        const int kind = pick(4);
        const std::string inside = list(depth + 1, inner);
        // "$((" would open an arithmetic expansion.
        line +=
            kOpen[kind] + std::string(inside.starts_with("(") ? " " : "") + inside + kClose[kind];
        words.push_back(std::nullopt);
      } else if (chance(5)) {
        const std::string inside = plain(3) + " " + plain(2);
        line += "`" + inside + "`";
        inner.push_back({inside.substr(0, 3), inside.substr(4)});
        words.push_back(std::nullopt);
      } else {
        const Word word = literal_word();
        line += word.source;
        words.push_back(word.text);
      }
      line += redirection();
    }
    commands.insert(commands.end(), inner.begin(), inner.end());
    commands.push_back(std::move(words));
    return line;
  }

  std::mt19937 random_;
};

// NIB_SPLIT_SEED=N explores other lines; the suite runs the fixed seed.
const unsigned kSeed = [] {
  const char* seed = std::getenv("NIB_SPLIT_SEED");
  return seed != nullptr ? static_cast<unsigned>(std::stoul(seed)) : 20261201u;
}();

TEST(ShellSplitOracle, WordsAreWhatBashPasses) {
  constexpr int kWords = 3000;
  LineGenerator generator(kSeed);
  std::vector<LineGenerator::Word> words;
  std::string script;
  for (int i = 0; i < kWords; ++i) {
    words.push_back(generator.literal_word());
    script += "printf '%s\\0' " + words.back().source + "\n";
  }
  const BashRun run = run_bash({"-c", script});
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<std::string> printed;
  for (std::size_t start = 0, end; (end = run.out.find('\0', start)) != std::string::npos;
       start = end + 1) {
    printed.push_back(run.out.substr(start, end - start));
  }
  ASSERT_EQ(printed.size(), words.size());
  for (std::size_t i = 0; i < words.size(); ++i) {
    const ShellSplit split = split_command("printf '%s\\0' " + words[i].source);
    ASSERT_TRUE(split.understood) << words[i].source << ": " << split.problem;
    ASSERT_EQ(split.commands.size(), 1u) << words[i].source;
    ASSERT_EQ(split.commands[0].words.size(), 3u) << words[i].source;
    const ShellWord& word = split.commands[0].words[2];
    EXPECT_TRUE(word.literal()) << words[i].source;
    EXPECT_EQ(word.text, printed[i]) << "bash and the splitter differ on " << words[i].source;
    EXPECT_EQ(word.source, words[i].source);
  }
}

TEST(ShellSplitOracle, GeneratedLinesSplitAsBuilt) {
  constexpr int kLines = 1200;
  LineGenerator generator(kSeed + 1);
  for (int i = 0; i < kLines; ++i) {
    std::vector<Words> expected;
    const std::string line = generator.list(0, expected);
    ASSERT_TRUE(bash_accepts(line)) << "the generator made a line bash rejects:\n" << line;
    const ShellSplit split = split_command(line);
    ASSERT_TRUE(split.understood) << split.problem << "\n" << line;
    EXPECT_EQ(split_words(split), expected) << line;
    const std::optional<std::string> normal = bash_normal_form(line);
    ASSERT_TRUE(normal) << line;
    const ShellSplit again = split_command(*normal);
    ASSERT_TRUE(again.understood) << *normal << "\n" << again.problem;
    EXPECT_EQ(sorted(split_words(again)), sorted(expected)) << "bash's normal form:\n" << *normal;
  }
}

TEST(ShellSplitOracle, WhatBashRejectsIsNeverUnderstood) {
  constexpr int kLines = 1500;
  LineGenerator generator(kSeed + 2);
  int rejected = 0;
  for (int i = 0; i < kLines; ++i) {
    std::vector<Words> ignored;
    std::string line = generator.list(0, ignored);
    for (int edits = 1 + generator.pick(2); edits > 0; --edits) {
      const std::size_t at =
          static_cast<std::size_t>(generator.pick(static_cast<int>(line.size())));
      if (generator.chance(50)) {
        static constexpr std::string_view kBreakers = "'\"()`{};|&$\\<>\n";
        line.insert(at, 1, kBreakers[static_cast<std::size_t>(generator.pick(kBreakers.size()))]);
      } else {
        line.erase(at, 1);
      }
    }
    const ShellSplit split = split_command(line);
    if (!bash_accepts(line)) {
      ++rejected;
      EXPECT_FALSE(split.understood) << "bash rejects this line, the splitter understood it:\n"
                                     << line;
      continue;
    }
    if (!split.understood) continue;  // stricter than bash: the caller asks
    const std::optional<std::string> normal = bash_normal_form(line);
    if (!normal) continue;
    const ShellSplit again = split_command(*normal);
    EXPECT_TRUE(again.understood) << line << "\nnormal form:\n" << *normal << "\n" << again.problem;
    EXPECT_EQ(sorted(split_words(again)), sorted(split_words(split))) << line << "\nnormal form:\n"
                                                                      << *normal;
  }
  EXPECT_GT(rejected, kLines / 10) << "the mutations should break a good share of the lines";
}

}  // namespace
}  // namespace nib::permissions
