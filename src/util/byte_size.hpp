#pragma once
// Counts and byte sizes as people and models read them ("12,345", "50 KB", "4.5 MB"). Pure;
// thread-safe.

#include <cstdint>
#include <string>

namespace nib::util {

// "512 bytes", "50 KB", "4.5 MB", "2.1 GB": powers of 1024, one decimal unless it is zero.
std::string format_byte_size(std::uint64_t bytes);

// "7", "12,345", "1,000,000,000": digits grouped in threes with commas.
std::string format_count(std::uint64_t count);

}  // namespace nib::util
