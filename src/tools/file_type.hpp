#pragma once
// What kind of file a few leading bytes reveal: the images read can attach, a guess at the type
// of other binary files (for a one-line notice instead of garbage), and whether the bytes look
// like text at all. Decisions come from content only, never from the file name, because names
// lie (a screenshot saved as .txt, a PNG named .jpg). Also the name of the kind of file a stat
// mode gives, for errors. Pure functions; thread-safe.

#include <sys/types.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace nib::tools {

// How many leading bytes the detection looks at: enough for every signature below and for a
// fair sample of text.
inline constexpr std::size_t kSniffBytes = 8 * 1024;

// An image format the read tool can decode and attach.
enum class ImageFormat { kPng, kJpeg, kGif, kWebp };

// The format whose signature starts `head`, or nullopt.
std::optional<ImageFormat> detect_image_format(std::string_view head);

// "image/png", "image/jpeg", ...
const char* image_mime_type(ImageFormat format);

// A guess at what a binary file is, from its signature.
struct FileTypeGuess {
  std::string description;  // "ELF executable", "PDF document", ..., or "binary data"
  std::string hint;         // a way to look inside with bash, or empty
};

// The guess for `head`, with `shell_path` (the file as a shell word) in the hint. Without a
// known signature: "binary data" with a hex-dump hint, or, when `head` has no NUL byte, text in
// some other encoding with an iconv hint.
FileTypeGuess guess_file_type(std::string_view head, std::string_view shell_path);

// True when `head` is not UTF-8 text: it holds a NUL byte or an invalid sequence. When
// `truncated` (more of the file follows), a sequence cut off by the end of `head` is not held
// against it.
bool looks_binary(std::string_view head, bool truncated);

// The kind of file `mode` (st_mode) describes: "file", "directory", "FIFO", "socket",
// "character device", "block device", "symbolic link", or "special file".
const char* file_kind(mode_t mode);

// file_kind() with its article, for a sentence: "a file", "a directory", "a FIFO (named pipe)",
// "a socket", ...
std::string file_kind_name(mode_t mode);

}  // namespace nib::tools
