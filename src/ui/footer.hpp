#pragma once
// The interactive screen's bottom row: which model, where, how full the context is, and what
// the session has used so far. Pure functions; thread-safe.

#include <cstddef>
#include <optional>
#include <string>

#include "core/messages.hpp"
#include "ui/styled_text.hpp"

namespace nib::ui {

struct FooterInfo {
  std::string model;     // "gpt-5.4"
  std::string thinking;  // "high"; empty when off
  std::string cwd;       // shown with ~ for the home directory
  std::string home;
  std::size_t context_tokens = 0;  // estimated size of the next request
  std::size_t context_window = 0;  // 0 when unknown
  core::Usage usage;               // the session's total so far
  core::Usage last_reply;          // the latest reply's: how much of its prompt was cached
  std::optional<double> cost_usd;  // when the model's prices are known
  std::string permission_mode;     // "auto"; empty: not shown
  std::size_t running_jobs = 0;    // background jobs running (/jobs lists them)
};

// "gpt-5.4 (high) · auto · ~/src/nib · 2 jobs · 12% of 400k context · ↑12.3k ↓456 · 97% cached
// · $0.0123", cut to width; the jobs only while some run. "97% cached" is the share of the latest
// request's prompt the service read from its cache ("cache written" when it only wrote it).
StyledLine render_footer(const FooterInfo& info, std::size_t width);

// "12.3k", "456", "1.2M": a token count in a few characters.
std::string short_count(std::size_t count);

}  // namespace nib::ui
