#pragma once
// contains(): the substring check most tests assert with, and print the text beside on failure.

#include <string>

namespace nib::testing {

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace nib::testing
