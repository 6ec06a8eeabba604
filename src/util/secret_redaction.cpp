#include "util/secret_redaction.hpp"

#include <algorithm>
#include <mutex>
#include <shared_mutex>
#include <vector>

namespace nib::util {
namespace {

struct Secrets {
  std::shared_mutex mutex;
  std::vector<std::string> values;  // longest first, so a key containing another goes whole
};

Secrets& secrets() {
  static Secrets instance;
  return instance;
}

}  // namespace

void register_secret(std::string_view value) {
  if (value.size() < kMinSecretLength) return;
  Secrets& all = secrets();
  const std::unique_lock lock(all.mutex);
  if (std::find(all.values.begin(), all.values.end(), value) != all.values.end()) return;
  all.values.emplace_back(value);
  std::sort(all.values.begin(), all.values.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
}

std::string redact_secrets(std::string text) {
  Secrets& all = secrets();
  const std::shared_lock lock(all.mutex);
  for (const std::string& secret : all.values) {
    for (auto at = text.find(secret); at != std::string::npos;
         at = text.find(secret, at + kRedacted.size())) {
      text.replace(at, secret.size(), kRedacted);
    }
  }
  return text;
}

void clear_secrets_for_testing() {
  Secrets& all = secrets();
  const std::unique_lock lock(all.mutex);
  all.values.clear();
}

}  // namespace nib::util
