#include "app/session_setup.hpp"

#include <algorithm>
#include <utility>

#include "session/compaction.hpp"
#include "session/history_repair.hpp"
#include "session/session_store.hpp"
#include "tools/command_registry.hpp"

namespace nib::app {
namespace {

namespace fs = std::filesystem;

// The history to continue `loaded` from: after the last compaction, its summary and the
// messages it kept.
std::vector<core::Message> context_of(const session::LoadedSession& loaded) {
  const session::CompactionEntry* last = nullptr;
  for (const auto& entry : loaded.entries) {
    if (const auto* compaction = std::get_if<session::CompactionEntry>(&entry)) last = compaction;
  }
  if (last == nullptr) return loaded.messages;
  std::vector<core::Message> context{session::summary_message(last->summary)};
  const std::size_t first = std::min(last->first_kept_index, loaded.messages.size());
  context.insert(context.end(), loaded.messages.begin() + static_cast<std::ptrdiff_t>(first),
                 loaded.messages.end());
  return context;
}

// What the model is told when a later nib ended commands of this session's previous run, which
// had died (killed, crashed) without ending them; empty when there were none.
std::string ended_commands_notice(const std::vector<tools::EndedCommand>& ended) {
  if (ended.empty()) return {};
  std::string text =
      "[nib] The previous run of this session ended without stopping its commands (nib was "
      "killed or crashed). nib has since ended these commands of that run and every process "
      "they started, so anything they were serving or watching is no longer running; start "
      "again what is still needed:";
  for (const tools::EndedCommand& command : ended) {
    std::string line = command.command;
    std::replace(line.begin(), line.end(), '\n', ' ');
    text += "\n- " + (command.call_id.empty() ? "" : command.call_id + ": ") + line;
  }
  return text;
}

}  // namespace

session::Outcome<std::optional<ExistingSession>> load_named_session(const CliOptions& options,
                                                                    const EnvLookup& env,
                                                                    const fs::path& cwd) {
  using Result = session::Outcome<std::optional<ExistingSession>>;
  fs::path file;
  if (options.session_file) {
    std::error_code error;
    if (!fs::exists(*options.session_file, error)) return std::optional<ExistingSession>();
    file = fs::absolute(*options.session_file);
  } else if (options.continue_latest || options.resume_id) {
    const auto store = session::SessionStore::from_environment(env);
    if (!store.ok()) return Result::failure(store.error());
    auto found = options.continue_latest ? store.value().latest(cwd)
                                         : store.value().find(cwd, *options.resume_id);
    if (!found.ok()) return Result::failure(found.error());
    file = found.value();
  } else {
    return std::optional<ExistingSession>();
  }
  auto loaded = session::load_session(file);
  if (!loaded.ok()) return Result::failure(loaded.error());
  return std::optional<ExistingSession>(ExistingSession{file, std::move(loaded.value())});
}

SessionModel session_model(const session::LoadedSession& loaded) {
  SessionModel model{loaded.header.provider, loaded.header.model};
  for (const auto& entry : loaded.entries) {
    if (const auto* change = std::get_if<session::ModelChangeEntry>(&entry)) {
      model = {change->provider, change->model};
    }
  }
  return model;
}

session::Outcome<RunSession> RunSession::open(const CliOptions& options, const EnvLookup& env,
                                              const fs::path& cwd,
                                              const std::optional<ExistingSession>& existing,
                                              const std::string& provider,
                                              const std::string& model) {
  using Result = session::Outcome<RunSession>;
  RunSession run;
  if (options.no_session) {
    tools::set_command_owner_label("");
    return run;
  }

  if (existing) {
    auto writer = session::SessionWriter::open_existing(existing->file);
    if (!writer.ok()) return Result::failure(writer.error());
    run.writer_.emplace(std::move(writer.value()));
    const std::string& id = existing->loaded.header.id;
    tools::set_command_owner_label(id);
    run.pending_notice_ = ended_commands_notice(tools::take_ended_commands(id));
    run.stored_messages_ = existing->loaded.messages.size();
    run.history_ = context_of(existing->loaded);
    const SessionModel last = session_model(existing->loaded);
    if (last.model != model || last.provider != provider) {
      run.append(session::ModelChangeEntry{provider, model});
    }
    return run;
  }
  const auto header =
      session::make_header(cwd.string(), model, provider, std::chrono::system_clock::now());
  auto writer = session::Outcome<session::SessionWriter>::failure("");
  if (options.session_file) {
    writer = session::SessionWriter::create(*options.session_file, header);
  } else if (const auto store = session::SessionStore::from_environment(env); store.ok()) {
    writer = store.value().create(header);
  } else {
    return Result::failure(store.error());
  }
  if (!writer.ok()) return Result::failure(writer.error());
  run.writer_.emplace(std::move(writer.value()));
  tools::set_command_owner_label(header.id);
  return run;
}

void RunSession::append(const session::SessionEntry& entry) {
  const std::lock_guard lock(*mutex_);
  if (!writer_ || closed_) return;
  if (const auto* message = std::get_if<session::MessageEntry>(&entry)) {
    if (const auto* reply = std::get_if<core::AssistantMessage>(&message->message)) {
      pending_calls_ = core::tool_calls_of(*reply);
    } else if (const auto* results = std::get_if<core::ToolResultMessage>(&message->message)) {
      std::erase_if(pending_calls_, [results](const core::ToolCall& call) {
        return std::any_of(
            results->results.begin(), results->results.end(),
            [&call](const core::ToolResult& result) { return result.tool_call_id == call.id; });
      });
    }
  }
  const session::Status status = writer_->append(entry);
  if (!status.ok() && write_error_.empty()) write_error_ = status.error();
}

void RunSession::record_forced_quit() {
  const std::lock_guard lock(*mutex_);
  if (!writer_ || closed_) return;
  closed_ = true;
  if (pending_calls_.empty()) return;
  core::ToolResultMessage results;
  for (const auto& call : pending_calls_) {
    results.results.push_back(
        {call.id, call.name, core::text_content(session::kInterruptedResultText), true, {}});
  }
  // Best effort: the process ends right after this, and loading repairs a missing result too.
  (void)writer_->append(session::MessageEntry{std::move(results)});
}

void RunSession::add_message(core::Message message) {
  auto* prompt = std::get_if<core::UserMessage>(&message);
  if (prompt != nullptr && !pending_notice_.empty()) {
    prompt->content.insert(prompt->content.begin(),
                           core::TextBlock{std::exchange(pending_notice_, {})});
  }
  append(session::MessageEntry{message});
  ++stored_messages_;
  history_.push_back(std::move(message));
}

void RunSession::on_event(const core::Event& event) {
  if (const auto* end = std::get_if<core::MessageEndEvent>(&event)) {
    append(session::MessageEntry{end->message});
    ++stored_messages_;
  } else if (const auto* tool_end = std::get_if<core::ToolEndEvent>(&event)) {
    // Each result is kept as soon as it is final, so a kill in the middle of a long batch
    // loses only the calls still running; loading merges the parts into one batch.
    append(session::MessageEntry{core::ToolResultMessage{{tool_end->outcome.result}}});
    written_results_.push_back(tool_end->outcome.result.tool_call_id);
  } else if (const auto* batch = std::get_if<core::ToolResultsEvent>(&event)) {
    // Results that never passed tool_end (calls the loop settled without running them).
    core::ToolResultMessage rest;
    for (const auto& result : batch->message.results) {
      if (std::find(written_results_.begin(), written_results_.end(), result.tool_call_id) ==
          written_results_.end()) {
        rest.results.push_back(result);
      }
    }
    if (!rest.results.empty()) append(session::MessageEntry{std::move(rest)});
    written_results_.clear();
    ++stored_messages_;  // the parts load as one message
  } else if (const auto* steering = std::get_if<core::UserMessageEvent>(&event)) {
    append(session::MessageEntry{steering->message});
    ++stored_messages_;
  }
}

void RunSession::record_model_change(const std::string& provider, const std::string& model) {
  append(session::ModelChangeEntry{provider, model});
}

void RunSession::compact(std::size_t cut, const std::string& summary) {
  const std::size_t kept = history_.size() - cut;
  append(session::CompactionEntry{summary, stored_messages_ - kept});
  std::vector<core::Message> context{session::summary_message(summary)};
  context.insert(context.end(), history_.begin() + static_cast<std::ptrdiff_t>(cut),
                 history_.end());
  history_ = std::move(context);
}

std::string RunSession::file() const {
  return writer_ ? writer_->file().string() : "";
}

}  // namespace nib::app
