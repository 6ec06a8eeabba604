#include "tools/file_type.hpp"

#include <sys/stat.h>

#include <array>

#include "util/utf8.hpp"

namespace nib::tools {
namespace {

using namespace std::string_view_literals;

bool has_at(std::string_view head, std::size_t offset, std::string_view signature) {
  return head.size() >= offset + signature.size() &&
         head.substr(offset, signature.size()) == signature;
}

// A signature at a fixed offset and what it means. In `hint`, "{}" stands for the path.
struct Signature {
  std::size_t offset;
  std::string_view bytes;
  std::string_view description;
  std::string_view hint;
};

// Longer and more specific signatures come before shorter ones that would also match.
constexpr std::array kSignatures{
    Signature{0,
              "\x7f"
              "ELF"sv,
              "ELF executable or shared library", "readelf -h {}"},
    Signature{0, "%PDF-"sv, "PDF document", "pdftotext {} - | head -n 200"},
    Signature{0, "PK\x03\x04"sv, "zip archive (zip, jar, docx, xlsx, ...)", "unzip -l {}"},
    Signature{0, "PK\x05\x06"sv, "empty zip archive", ""},
    Signature{0, "\x1f\x8b"sv, "gzip-compressed data", "gzip -dc {} | head -n 200"},
    Signature{0, "BZh"sv, "bzip2-compressed data", "bzip2 -dc {} | head -n 200"},
    Signature{0,
              "\xfd"
              "7zXZ\0"sv,
              "xz-compressed data", "xz -dc {} | head -n 200"},
    Signature{0, "\x28\xb5\x2f\xfd"sv, "zstd-compressed data", "zstd -dc {} | head -n 200"},
    Signature{0, "7z\xbc\xaf\x27\x1c"sv, "7-Zip archive", "7z l {}"},
    Signature{0, "Rar!\x1a\x07"sv, "RAR archive", "unrar l {}"},
    Signature{257, "ustar"sv, "tar archive", "tar -tvf {}"},
    Signature{0, "SQLite format 3\0"sv, "SQLite database", "sqlite3 {} .schema"},
    Signature{0, "\0asm"sv, "WebAssembly module", ""},
    Signature{0, "\xca\xfe\xba\xbe"sv, "Java class file or Mach-O universal binary", ""},
    Signature{0, "\xcf\xfa\xed\xfe"sv, "Mach-O executable", ""},
    Signature{0, "\xce\xfa\xed\xfe"sv, "Mach-O executable", ""},
    Signature{0, "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"sv, "Microsoft Office (OLE) document", ""},
    Signature{0, "II*\0"sv, "TIFF image (not attachable; convert it to PNG to view it)", ""},
    Signature{0, "MM\0*"sv, "TIFF image (not attachable; convert it to PNG to view it)", ""},
    Signature{4, "ftypavif"sv, "AVIF image (not attachable; convert it to PNG to view it)", ""},
    Signature{4, "ftypheic"sv, "HEIC image (not attachable; convert it to JPEG to view it)", ""},
    Signature{4, "ftypmif1"sv, "HEIF image (not attachable; convert it to JPEG to view it)", ""},
    Signature{4, "ftyp"sv, "MP4/QuickTime media", ""},
    Signature{0, "\0\0\1\0"sv, "ICO icon", ""},
    Signature{0, "OggS"sv, "Ogg media", ""},
    Signature{0, "fLaC"sv, "FLAC audio", ""},
    Signature{0, "ID3"sv, "MP3 audio", ""},
    Signature{8, "WAVE"sv, "WAV audio", ""},
    Signature{8, "AVI "sv, "AVI video", ""},
    Signature{0, "\x1a\x45\xdf\xa3"sv, "Matroska/WebM media", ""},
    Signature{0, "wOFF"sv, "WOFF font", ""},
    Signature{0, "wOF2"sv, "WOFF2 font", ""},
    Signature{0, "OTTO"sv, "OpenType font", ""},
    Signature{0, "\0\1\0\0"sv, "TrueType font", ""},
    Signature{0, "\xff\xfe"sv, "UTF-16 (little-endian) text",
              "iconv -f UTF-16 -t UTF-8 {} | head -n 200"},
    Signature{0, "\xfe\xff"sv, "UTF-16 (big-endian) text",
              "iconv -f UTF-16 -t UTF-8 {} | head -n 200"},
    Signature{0, "MZ"sv, "Windows (PE/DOS) executable", ""},
    Signature{0, "BM"sv, "BMP image (not attachable; convert it to PNG to view it)", ""},
};

std::string fill_hint(std::string_view hint, std::string_view shell_path) {
  std::string out(hint);
  if (const auto at = out.find("{}"); at != std::string::npos) out.replace(at, 2, shell_path);
  return out;
}

}  // namespace

std::optional<ImageFormat> detect_image_format(std::string_view head) {
  if (has_at(head, 0, "\x89PNG\r\n\x1a\n"sv)) return ImageFormat::kPng;
  if (has_at(head, 0, "\xff\xd8\xff"sv)) return ImageFormat::kJpeg;
  if (has_at(head, 0, "GIF87a"sv) || has_at(head, 0, "GIF89a"sv)) return ImageFormat::kGif;
  if (has_at(head, 0, "RIFF"sv) && has_at(head, 8, "WEBP"sv)) return ImageFormat::kWebp;
  return std::nullopt;
}

const char* image_mime_type(ImageFormat format) {
  switch (format) {
    case ImageFormat::kPng:
      return "image/png";
    case ImageFormat::kJpeg:
      return "image/jpeg";
    case ImageFormat::kGif:
      return "image/gif";
    case ImageFormat::kWebp:
      return "image/webp";
  }
  return "application/octet-stream";
}

FileTypeGuess guess_file_type(std::string_view head, std::string_view shell_path) {
  for (const auto& signature : kSignatures) {
    if (has_at(head, signature.offset, signature.bytes)) {
      return {std::string(signature.description), fill_hint(signature.hint, shell_path)};
    }
  }
  if (head.find('\0') == std::string_view::npos) {
    return {"text that is not UTF-8 (another encoding such as Latin-1), or binary data",
            fill_hint("iconv -f LATIN1 -t UTF-8 {} | head -n 200", shell_path)};
  }
  return {"binary data", fill_hint("xxd {} | head -n 32", shell_path)};
}

bool looks_binary(std::string_view head, bool truncated) {
  if (head.find('\0') != std::string_view::npos) return true;
  std::size_t pos = 0;
  while (pos < head.size()) {
    const std::size_t length = util::utf8_sequence_length(head, pos);
    if (length == 0) break;
    pos += length;
  }
  if (pos == head.size()) return false;
  // An invalid sequence; forgive it only when it is a valid start cut off by the end of `head`.
  if (!truncated) return true;
  const std::string_view tail = head.substr(pos);
  const auto lead = static_cast<unsigned char>(tail[0]);
  const std::size_t wanted = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
  if (tail.size() >= wanted) return true;
  // Complete the sequence with continuation bytes; 0x90 and 0xA0 satisfy the narrower ranges
  // some lead bytes allow for their second byte.
  for (const char filler : {'\x80', '\x90', '\xA0'}) {
    std::string completed(tail);
    completed.append(wanted - tail.size(), filler);
    if (util::utf8_sequence_length(completed, 0) == wanted) return false;
  }
  return true;
}

const char* file_kind(mode_t mode) {
  return S_ISREG(mode)    ? "file"
         : S_ISDIR(mode)  ? "directory"
         : S_ISFIFO(mode) ? "FIFO"
         : S_ISSOCK(mode) ? "socket"
         : S_ISCHR(mode)  ? "character device"
         : S_ISBLK(mode)  ? "block device"
         : S_ISLNK(mode)  ? "symbolic link"
                          : "special file";
}

std::string file_kind_name(mode_t mode) {
  return std::string("a ") + file_kind(mode) + (S_ISFIFO(mode) ? " (named pipe)" : "");
}

}  // namespace nib::tools
