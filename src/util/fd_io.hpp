#pragma once
// Writing to a file descriptor without losing bytes. Thread-safe (as write(2) is).

#include <string_view>

namespace nib::util {

// Writes all of `bytes` to `fd`, retrying short writes and EINTR; false with errno set when a
// write fails (e.g. the terminal or the disk went away).
bool write_all(int fd, std::string_view bytes);

}  // namespace nib::util
