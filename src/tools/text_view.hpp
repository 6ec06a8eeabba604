#pragma once
// A file's text as the model sees it, and the way back to the file's bytes.
//
// The read tool shows a file without its UTF-8 byte order mark and with the "\r" of every
// "\r\n" dropped (models cannot reliably write it back). Edit locates text in that view, and
// splices replacements into the original bytes through it: the byte order mark and the ending
// of every line outside a replacement stay exactly as they were, and line breaks inside a
// replacement take the ending of the line they are written into.
//
// TextView is immutable after construction, so it can be shared between threads; the free
// functions are pure.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nib::tools {

// One replacement in view coordinates: text[begin, end) becomes `text` (line breaks as "\n").
struct ViewReplacement {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string text;
};

class TextView {
 public:
  // The view of `original` (the file's bytes).
  explicit TextView(std::string_view original);

  // The text as read shows it: no byte order mark, "\r\n" as "\n".
  const std::string& text() const { return text_; }

  bool has_bom() const { return has_bom_; }

  // The offset in the original bytes of view offset `offset` (0..text().size()). A boundary
  // just before a "\n" that was "\r\n" maps to before the "\r", so inserted text never lands
  // between the two.
  std::size_t original_offset(std::size_t offset) const;

  // The line ending text inserted at view offset `offset` should use: the ending of the line
  // holding `offset` ("\r\n" or "\n"); for a last line without one, that of the line before;
  // "\n" for a file of one line without an ending.
  std::string_view ending_at(std::size_t offset) const;

  // `original` with every replacement applied. `replacements` must be sorted by `begin` and
  // must not overlap. Each replacement is first narrowed to the bytes that really differ
  // (the common start and end of the old and new text are kept), so untouched lines inside it
  // keep their original bytes and endings; the "\n"s of the rest become ending_at(begin).
  std::string apply(std::string_view original,
                    const std::vector<ViewReplacement>& replacements) const;

 private:
  std::string text_;
  bool has_bom_ = false;
  // View offsets of the "\n"s whose "\r" was dropped, ascending.
  std::vector<std::size_t> crlf_newlines_;
};

// `text` with every "\r\n" turned into "\n": what the model's own oldText/newText mean.
std::string without_carriage_returns(std::string_view text);

}  // namespace nib::tools
