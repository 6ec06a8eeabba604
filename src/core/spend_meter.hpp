#pragma once
// What a front end's model requests have cost, in US dollars, against the user's cap
// (--max-budget-usd, maxBudgetUsd). One meter serves a run and every subagent under it, since
// a subagent's requests are paid for like the parent's; the loop adds each reply and asks the
// meter before each request. Thread-safe: subagents run on their own threads.

#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "core/messages.hpp"

namespace nib::core {

class SpendMeter {
 public:
  // The cost of one reply: `usage` at the prices of `model_id` (the model the request named;
  // services answer with dated names). nullopt when the prices are not known, in which case
  // the reply counts nothing.
  using Price = std::function<std::optional<double>(const std::string& model_id, const Usage&)>;

  // `cap_usd`: stop when this much has been spent; nullopt: count only.
  SpendMeter(std::optional<double> cap_usd, Price price);

  void add(const std::string& model_id, const Usage& usage);
  double spent_usd() const;
  std::optional<double> cap_usd() const { return cap_usd_; }
  // The cap is set and what was spent has reached it: no more requests.
  bool exhausted() const;
  // "the spending cap of $1.00 was reached ($1.0312 spent)", for the run's end.
  std::string exhausted_message() const;

 private:
  const std::optional<double> cap_usd_;
  const Price price_;
  mutable std::mutex mutex_;
  double spent_usd_ = 0;
};

}  // namespace nib::core
