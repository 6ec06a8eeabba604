#include "app/tool_command.hpp"

#include <filesystem>

#include "core/tool_registry.hpp"
#include "core/tool_scheduler.hpp"
#include "tools/builtin.hpp"
#include "util/base64.hpp"

namespace nib::app {
namespace {

void write_content(const core::Content& content, std::ostream& out) {
  for (const auto& block : content) {
    std::string text;
    if (const auto* text_block = std::get_if<core::TextBlock>(&block)) {
      text = text_block->text;
    } else {
      const auto& image = std::get<core::ImageBlock>(block);
      const auto bytes = util::base64_decode(image.data_base64);
      text = "[image mime=" + image.mime_type +
             " bytes=" + std::to_string(bytes ? bytes->size() : 0) + "]";
    }
    out << text;
    if (text.empty() || text.back() != '\n') out << '\n';
  }
  out << std::flush;
}

}  // namespace

int run_tool_command(const ToolArgs& args, RunGuard& guard, std::stop_token stop, std::ostream& out,
                     std::ostream& err) {
  tools::BuiltinOptions tool_options = guard.tool_options();
  tool_options.trust_unread_files = true;
  const auto registry = core::ToolRegistry::create(tools::builtin_tools(tool_options), {});
  if (!registry.ok()) {
    err << "nib: " << registry.error() << '\n';
    return 2;
  }
  core::SchedulerOptions options;
  options.tools = registry.value().get();
  options.cwd = guard.working_tree();
  options.pre_tool = guard.pre_tool();
  options.gate = guard.gate({});  // nobody to ask: a call that needs asking is refused
  options.after_tool = guard.after_tool();
  core::ToolScheduler scheduler(options);
  const core::ToolCall call{"cli", args.name, args.arguments};
  const auto results = scheduler.execute_batch({call}, stop);
  const auto& result = results.results.at(0);
  write_content(result.content, out);
  if (stop.stop_requested()) return 130;
  return result.is_error ? 1 : 0;
}

}  // namespace nib::app
