#pragma once
// What grep's prefilters share: how common each byte is in source code and text, ASCII case
// folding, and the reading of pieces of RE2 syntax (classes, groups, repetition counts) needed to
// find what every match of a regex contains (required_literal(), required_window()). Pure
// functions; thread-safe.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace nib::tools {

// How common `byte` is in source code and text, as a rank from 0 (never seen) to 255 (the space).
std::uint8_t byte_rank(unsigned char byte);

// The estimated share of text bytes equal to `byte` (the 256 values sum to 1), from its rank:
// byte frequencies fall off with rank roughly as Zipf's law says, 1/k for the k-th commonest.
double byte_frequency(unsigned char byte);

bool is_ascii_letter(char c);
char ascii_lower(char c);
char ascii_upper(char c);

// Whether `c` folds case with a character outside ASCII: k and s do, with U+212A KELVIN SIGN and
// U+017F LATIN SMALL LETTER LONG S, so a case-insensitive k or s may match more than one byte.
bool folds_beyond_ascii(char c);

// Whether a repetition operator (*, +, ?, {n,m}) may begin at `c`.
bool is_quantifier_start(char c);

// Whether `c` ends what the readers can take as a run of atoms: an alternation (then no single
// piece is required), a closing ')', ']' or '}' without its opening, or a repetition operator
// with nothing to repeat.
bool ends_atom_reading(char c);

// The end of the character class that opens at pattern[start] ('['), or npos.
std::size_t skip_class(std::string_view pattern, std::size_t start);

// The position after pattern[i] for a reader that looks for groups and '|': past an escape
// (two bytes) or a whole character class, else one byte on; npos for a class that does not
// close.
std::size_t skip_escape_or_class(std::string_view pattern, std::size_t i);

// The end of the group that opens at pattern[start] ('('), or npos.
std::size_t skip_group(std::string_view pattern, std::size_t start);

// A repetition operator: where it ends and how many repetitions it allows.
struct Quantifier {
  std::size_t end = 0;
  std::size_t minimum = 0;
  std::size_t maximum = SIZE_MAX;  // SIZE_MAX: no limit
};

// The quantifier at pattern[start], or nullopt for a '{' that does not open a repetition count
// (RE2 reads such a brace as a plain character; the readers give up instead).
std::optional<Quantifier> read_quantifier(std::string_view pattern, std::size_t start);

}  // namespace nib::tools
