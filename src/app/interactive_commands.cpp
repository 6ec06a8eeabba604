// The slash commands of InteractiveSession (see interactive_session.hpp).

#include <algorithm>
#include <set>

#include "app/command_shell.hpp"
#include "app/interactive_session.hpp"
#include "app/session_list.hpp"
#include "app/slash_prompt.hpp"
#include "extensions/skill_tool.hpp"
#include "provider/provider_factory.hpp"
#include "session/session_store.hpp"
#include "ui/footer.hpp"
#include "util/ascii.hpp"

namespace nib::app {
namespace {

// Commands that make sense while a run works; the others wait for it to finish.
const std::set<std::string, std::less<>> kWhileWorking{"help", "session", "jobs",
                                                       "mcp",  "quit",    "exit"};

// /help's lines for `commands`, under `heading`, when there are any.
std::string command_lines(const std::string& heading,
                          const std::vector<ui::ExtraCommand>& commands) {
  if (commands.empty()) return {};
  std::string text = heading + "\n";
  for (const ui::ExtraCommand& command : commands) {
    std::string usage = "/" + command.name;
    if (!command.argument.empty()) usage += " " + command.argument;
    usage.resize(std::max<std::size_t>(usage.size() + 2, 28), ' ');  // a long one too is apart
    text += "  " + usage + command.help + "\n";
  }
  return text;
}

}  // namespace

void InteractiveSession::run_command(const ui::CommandLine& command, const std::string& text) {
  const std::string& name = command.name;
  if (working_ && !kWhileWorking.contains(name)) {
    notice("/" + name + " waits until the run has finished (esc interrupts it).",
           ui::NoticeKind::kWarning);
    return;
  }
  if (name == "help") return show_help();
  if (name == "quit" || name == "exit") {
    quit_ = true;
    return;
  }
  if (name == "session") return show_session_info();
  if (name == "jobs") return show_jobs(command.argument);
  if (name == "mcp") return show_mcp_servers();
  if (name == "clear") return new_session();
  if (name == "resume") return open_resume_picker();
  if (name == "rewind") return open_rewind_picker();
  if (name == "compact") return compact(command.argument);
  if (name == "model" && !command.argument.empty()) return switch_model(command.argument);
  if (name == "thinking" && !command.argument.empty()) return set_thinking(command.argument);
  if (name == "model" || name == "thinking") return pick_argument(name);
  run_user_command(command, text);
}

void InteractiveSession::run_user_command(const ui::CommandLine& command, const std::string& text) {
  if (names_mcp_prompt(command.name)) return run_mcp_prompt(command, text);
  const extensions::SkillDefinition* skill = context_.extensions.skills->find(command.name);
  if (skill != nullptr && skill->user_invocable && command.argument.empty()) {
    pending_skill_ = extensions::loaded_skill_text(*skill, "");
    return notice("Skill " + skill->name +
                  " loaded: its instructions go to the model with your next message.");
  }
  const auto slash = expand_slash_prompt(text, context_.extensions, context_.cwd);
  if (!slash.ok()) {
    return notice(util::ascii_capitalized(slash.error()) + " /help lists the commands.",
                  ui::NoticeKind::kWarning);
  }
  if (!slash.value()) return start_run(text);  // a path such as /tmp: a prompt
  ModelConfig model = model_;
  if (const auto& named = slash.value()->model) {
    auto with_model = with_named_model(model_, configuration_, *named);
    if (with_model.ok()) {
      model = std::move(with_model.value());
    } else {
      notice("/" + command.name + " asks for a model " + with_model.error() + "; using " +
                 model_.model.id + ".",
             ui::NoticeKind::kWarning);
    }
  }
  const SlashPrompt& expanded = *slash.value();
  // Its commands run on the worker's thread once the hooks let the prompt through, where a slow
  // one can be interrupted.
  start_run(text, expanded.prompt.text, model, {}, expanded.grants,
            command_finish(expanded.prompt, expanded.name, *context_.guard, expanded.grants));
}

void InteractiveSession::pick_argument(const std::string& command) {
  std::vector<std::string> entries;
  for (const ui::Completion& choice : argument_choices(command)) entries.push_back(choice.label);
  const std::string current =
      command == "model" ? model_.model.id : core::thinking_level_name(model_.thinking);
  const auto selected = std::find(entries.begin(), entries.end(), current);
  ui::PickerView picker{
      command == "model" ? "Switch to model" : "Thinking", entries,
      static_cast<std::size_t>(selected == entries.end() ? 0 : selected - entries.begin())};
  open_picker(std::move(picker), [this, command, entries](std::size_t index) {
    if (command == "model") {
      switch_model(entries[index]);
    } else {
      set_thinking(entries[index]);
    }
  });
}

std::vector<ui::Completion> InteractiveSession::argument_choices(std::string_view command) const {
  std::vector<ui::Completion> choices;
  if (command == "thinking") {
    for (const core::ThinkingLevel level :
         {core::ThinkingLevel::kOff, core::ThinkingLevel::kLow, core::ThinkingLevel::kMedium,
          core::ThinkingLevel::kHigh}) {
      choices.push_back({"", core::thinking_level_name(level), ""});
    }
  } else if (command == "model") {
    // The current provider's models first, then every other provider's.
    std::vector<const provider::ProviderEntry*> providers;
    if (const auto* current = configuration_.find_provider(model_.provider)) {
      providers.push_back(current);
    }
    for (const provider::ProviderEntry& entry : configuration_.providers) {
      if (entry.name != model_.provider) providers.push_back(&entry);
    }
    for (const provider::ProviderEntry* entry : providers) {
      for (const provider::ModelEntry& model : entry->models) {
        std::string description = entry->name;
        if (model.context_window > 0) {
          description +=
              " · " + ui::short_count(static_cast<std::size_t>(model.context_window)) + " context";
        }
        choices.push_back({"", model.id, std::move(description)});
      }
    }
    // A model no provider lists (a local server's) is still a choice to go back to.
    const bool listed =
        std::any_of(choices.begin(), choices.end(),
                    [this](const ui::Completion& c) { return c.label == model_.model.id; });
    if (!listed) choices.insert(choices.begin(), {"", model_.model.id, model_.provider});
  }
  return choices;
}

void InteractiveSession::show_help() {
  std::string text = "Commands:\n";
  for (const ui::SlashCommand& command : ui::slash_commands()) {
    std::string usage = "/" + std::string(command.name);
    if (!command.argument.empty()) usage += " " + std::string(command.argument);
    usage.resize(std::max<std::size_t>(usage.size(), 28), ' ');
    text += "  " + usage + std::string(command.help) + "\n";
  }
  text +=
      command_lines("Your commands and skills (a built-in command wins over one of the same name):",
                    user_commands_);
  text +=
      command_lines("MCP prompts (/mcp shows the servers):",
                    mcp_ ? mcp_prompt_commands(mcp_->statuses()) : std::vector<ui::ExtraCommand>{});
  text +=
      "Keys:\n"
      "  enter send · shift+enter, ctrl+j or \\ then enter: new line · ↑↓ history\n"
      "  while nib works: enter queues a message for its next turn · esc interrupts\n"
      "  ctrl+c clears the input or interrupts; twice quits · ctrl+d on an empty input quits\n"
      "  ctrl+z suspends (fg comes back) · ctrl+l redraws · tab completes a command";
  notice(std::move(text));
}

void InteractiveSession::switch_model(const std::string& id) {
  CliOptions options = options_;
  options.model = id;
  options.thinking.reset();
  // A model another provider lists (and the current one does not) switches the provider too.
  const auto* current = configuration_.find_provider(model_.provider);
  options.provider = model_.provider;
  if (current == nullptr || current->find(id) == nullptr) {
    for (const provider::ProviderEntry& entry : configuration_.providers) {
      if (entry.find(id) != nullptr) {
        options.provider = entry.name;
        if (entry.name != model_.provider) {
          options.base_url.reset();
          options.api.reset();
        }
        break;
      }
    }
  }
  auto outcome = resolve_model_config(options, context_.env, configuration_);
  if (!outcome.ok()) return notice(outcome.error(), ui::NoticeKind::kError);
  outcome.value().thinking = model_.thinking;
  model_ = std::move(outcome.value());
  options_ = std::move(options);
  provider_ = provider::make_provider({model_.api, model_.base_url, model_.api_key}, model_.retry);
  session_->record_model_change(model_.provider, model_.model.id);
  notice("Model: " + model_.model.id + " (" + model_.provider + ")");
}

void InteractiveSession::set_thinking(const std::string& level) {
  const auto parsed = core::parse_thinking_level(level);
  if (!parsed) {
    return notice("Thinking levels are off, low, medium and high.", ui::NoticeKind::kWarning);
  }
  model_.thinking = *parsed;
  std::string text = std::string("Thinking: ") + core::thinking_level_name(*parsed);
  if (*parsed != core::ThinkingLevel::kOff && !model_.model.reasoning) {
    text += " (" + model_.model.id + " does not think; this applies to models that do)";
  }
  notice(std::move(text));
}

void InteractiveSession::new_session() {
  CliOptions options = options_;
  options.continue_latest = false;
  options.resume_id.reset();
  options.session_file.reset();
  auto opened = RunSession::open(options, context_.places, context_.cwd, std::nullopt,
                                 model_.provider, model_.model.id, context_.checkpoints);
  if (!opened.ok()) return notice(opened.error(), ui::NoticeKind::kError);
  // The session that ends is told so; the next prompt starts the new one (SessionStart "clear").
  end_session_hooks(*hooks_, "clear", job_notice());
  session_started_ = false;
  session_source_ = "clear";
  options_ = std::move(options);
  session_.emplace(std::move(opened.value()));
  plan_->replace({});
  pending_skill_.clear();
  usage_ = {};
  last_reply_usage_ = {};
  cost_usd_.reset();
  context_tokens_ = 0;
  transcript_.clear();
  reflow();
  notice("New session.");
}

void InteractiveSession::open_resume_picker() {
  const auto store = session::SessionStore::for_user(context_.places);
  if (!store.ok()) return notice(store.error(), ui::NoticeKind::kError);
  std::vector<std::filesystem::path> files;
  std::vector<std::string> entries;
  for (const session::SessionSummary& summary : store.value().list(context_.cwd)) {
    if (summary.file == session_->file()) continue;
    files.push_back(summary.file);
    entries.push_back(describe_session(summary));
  }
  if (files.empty()) return notice("No other saved sessions for this directory.");
  open_picker({"Resume a session", std::move(entries), 0},
              [this, files](std::size_t index) { resume(files[index]); });
}

void InteractiveSession::resume(const std::filesystem::path& file) {
  CliOptions options = options_;
  options.continue_latest = false;
  options.resume_id.reset();
  options.no_session = false;
  options.session_file = file.string();
  auto existing = load_named_session(options, context_.places, context_.cwd);
  if (!existing.ok()) return notice(existing.error(), ui::NoticeKind::kError);
  auto opened = RunSession::open(options, context_.places, context_.cwd, existing.value(),
                                 model_.provider, model_.model.id, context_.checkpoints);
  if (!opened.ok()) return notice(opened.error(), ui::NoticeKind::kError);
  end_session_hooks(*hooks_, "other", job_notice());
  session_started_ = false;
  session_source_ = "resume";
  options_ = std::move(options);
  session_.emplace(std::move(opened.value()));
  plan_->replace(tools::latest_plan(existing.value()->loaded.messages).value_or(core::Plan{}));
  usage_ = {};
  last_reply_usage_ = {};
  cost_usd_.reset();
  transcript_.clear();
  reflow();
  show_loaded_history();
  notice("Resumed " + file.filename().string() + ".");
}

void InteractiveSession::show_session_info() {
  std::string text =
      "Session: " + (session_->file().empty() ? "not saved (--no-session)" : session_->file());
  if (!working_) {
    std::size_t prompts = 0;
    std::size_t replies = 0;
    for (const core::Message& message : session_->history()) {
      prompts += std::holds_alternative<core::UserMessage>(message) ? 1 : 0;
      replies += std::holds_alternative<core::AssistantMessage>(message) ? 1 : 0;
    }
    text += "\nMessages in context: " + std::to_string(session_->history().size()) + " (" +
            std::to_string(prompts) + " from you, " + std::to_string(replies) +
            " replies), about " + ui::short_count(context_tokens_) + " tokens";
  }
  text += "\nModel: " + model_.model.id + " (" + model_.provider + ")";
  if (context_.checkpoints && !working_) {
    auto bytes = context_.checkpoints->with_store(
        [](session::CheckpointStore& store) -> util::Result<std::uint64_t> {
          return store.size_on_disk();
        });
    text += "\nCheckpoints: " +
            (bytes.ok() ? std::to_string((bytes.value() + 512 * 1024) / (1024 * 1024)) +
                              " MB of this directory's (/rewind goes back; nib rewind --gc "
                              "trims them)"
                        : bytes.error());
  }
  text += "\nUsed this session: " +
          ui::short_count(static_cast<std::size_t>(usage_.input_tokens + usage_.cache_read_tokens +
                                                   usage_.cache_write_tokens)) +
          " tokens in, " + ui::short_count(static_cast<std::size_t>(usage_.output_tokens)) + " out";
  if (cost_usd_) {
    char cost[32];
    std::snprintf(cost, sizeof cost, ", $%.4f", *cost_usd_);
    text += cost;
  }
  notice(std::move(text));
}

}  // namespace nib::app
