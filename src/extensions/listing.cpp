#include "extensions/listing.hpp"

#include "extensions/limits.hpp"
#include "util/text_cut.hpp"
#include "util/utf8.hpp"

namespace nib::extensions {

std::string listing_entry(std::string_view name, std::string_view description) {
  const std::size_t kept = util::utf8_prefix_length(description, kMaxListedDescriptionBytes);
  const std::size_t left_out = description.size() - kept;
  description = description.substr(0, kept);
  while (!description.empty() && (description.back() == '\n' || description.back() == ' ')) {
    description.remove_suffix(1);
  }
  std::string entry = "- " + std::string(name) + ": ";
  for (char c : description) {
    entry += c;
    if (c == '\n') entry += "  ";
  }
  if (left_out > 0) entry += util::cut_marker(left_out);
  return entry + "\n";
}

}  // namespace nib::extensions
