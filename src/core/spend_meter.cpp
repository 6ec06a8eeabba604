#include "core/spend_meter.hpp"

#include <cstdio>

namespace nib::core {

SpendMeter::SpendMeter(std::optional<double> cap_usd, Price price)
    : cap_usd_(cap_usd), price_(std::move(price)) {}

void SpendMeter::add(const std::string& model_id, const Usage& usage) {
  const std::optional<double> cost = price_ ? price_(model_id, usage) : std::nullopt;
  if (!cost) return;
  std::lock_guard lock(mutex_);
  spent_usd_ += *cost;
}

double SpendMeter::spent_usd() const {
  std::lock_guard lock(mutex_);
  return spent_usd_;
}

bool SpendMeter::exhausted() const {
  return cap_usd_ && spent_usd() >= *cap_usd_;
}

std::string SpendMeter::exhausted_message() const {
  char text[128];
  std::snprintf(text, sizeof text, "the spending cap of $%.2f was reached ($%.4f spent)",
                cap_usd_.value_or(0), spent_usd());
  return text;
}

}  // namespace nib::core
