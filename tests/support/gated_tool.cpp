#include "support/gated_tool.hpp"

#include <algorithm>

namespace nib::testing {

GatedTool::GatedTool(std::string name, bool concurrency_safe, bool honour_stop, bool delegates)
    : core::Tool(
          core::ToolSpec{std::move(name),
                         "A test tool that waits for the test to let it finish.",
                         {{"type", "object"},
                          {"properties",
                           {{"id", {{"type", "string"}}},
                            {"resource", {{"type", "string"}}},
                            {"shared", {{"type", "boolean"}}},
                            {"fail", {{"type", "boolean"}}},
                            {"throw", {{"type", "boolean"}}}}},
                          {"required", {"id"}}},
                         concurrency_safe,
                         delegates ? core::AccessKind::kDelegate : core::AccessKind::kChange}),
      honour_stop_(honour_stop) {}

core::ToolOutput GatedTool::execute(const nlohmann::json& args, std::stop_token stop,
                                    const core::ToolContext&) {
  const std::string id = args.at("id");
  std::unique_lock lock(mutex_);
  started_.push_back(id);
  max_running_ = std::max(max_running_, ++running_);
  changed_.notify_all();
  const auto is_open = [&] { return all_open_ || open_.count(id) > 0; };
  bool opened = true;
  if (honour_stop_) {
    opened = changed_.wait(lock, stop, is_open);
  } else {
    changed_.wait(lock, is_open);
  }
  --running_;
  changed_.notify_all();
  if (!opened) return core::ToolOutput::error("aborted " + id);
  if (args.value("throw", false)) throw std::runtime_error("boom " + id);
  if (args.value("fail", false)) return core::ToolOutput::error("failed " + id);
  core::ToolOutput output{"done " + id};
  output.display = "display " + id;
  return output;
}

std::vector<core::ResourceClaim> GatedTool::claims(const core::CallAccess&,
                                                   const nlohmann::json& args) const {
  if (!args.contains("resource")) return {};
  return {core::ResourceClaim{args["resource"], /*exclusive=*/!args.value("shared", false)}};
}

void GatedTool::open(const std::string& id) {
  std::lock_guard lock(mutex_);
  open_.insert(id);
  changed_.notify_all();
}

void GatedTool::open_all() {
  std::lock_guard lock(mutex_);
  all_open_ = true;
  changed_.notify_all();
}

void GatedTool::await_started(const std::string& id) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return std::count(started_.begin(), started_.end(), id) > 0; });
}

void GatedTool::await_started_count(std::size_t count) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return started_.size() >= count; });
}

std::vector<std::string> GatedTool::start_order() {
  std::lock_guard lock(mutex_);
  return started_;
}

std::size_t GatedTool::max_concurrent() {
  std::lock_guard lock(mutex_);
  return max_running_;
}

core::ToolPtr make_echo_tool(std::string name, bool concurrency_safe) {
  return core::make_tool(core::ToolSpec{std::move(name),
                                        "Echoes its text.",
                                        {{"type", "object"},
                                         {"properties", {{"text", {{"type", "string"}}}}},
                                         {"required", {"text"}}},
                                        concurrency_safe},
                         [](const nlohmann::json& args, std::stop_token, const core::ToolContext&) {
                           return core::ToolOutput{args.at("text").get<std::string>()};
                         });
}

}  // namespace nib::testing
