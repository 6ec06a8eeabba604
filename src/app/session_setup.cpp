#include "app/session_setup.hpp"

#include <algorithm>
#include <utility>

#include "process/command_registry.hpp"
#include "session/compaction.hpp"
#include "session/history_repair.hpp"
#include "session/session_store.hpp"

namespace nib::app {
namespace {

namespace fs = std::filesystem;

// The history to continue `loaded` from: after the last compaction, its summary and the
// messages it kept.
std::vector<core::Message> context_of(const session::LoadedSession& loaded) {
  if (loaded.compactions.empty()) return loaded.messages;
  const session::CompactionEntry* last = &loaded.compactions.back();
  std::vector<core::Message> context{session::summary_message(last->summary)};
  const std::size_t first = std::min(last->first_kept_index, loaded.messages.size());
  context.insert(context.end(), loaded.messages.begin() + static_cast<std::ptrdiff_t>(first),
                 loaded.messages.end());
  return context;
}

// What the model is told when a later nib ended commands of this session's previous run, which
// had died (killed, crashed) without ending them; empty when there were none.
std::string ended_commands_notice(const std::vector<process::EndedCommand>& ended) {
  if (ended.empty()) return {};
  std::string text =
      "[nib] The previous run of this session ended without stopping its commands (nib was "
      "killed or crashed). nib has since ended these commands of that run and every process "
      "they started, so anything they were serving or watching is no longer running; start "
      "again what is still needed:";
  for (const process::EndedCommand& command : ended) {
    std::string line = command.command;
    std::replace(line.begin(), line.end(), '\n', ' ');
    if (command.job_id != 0) {
      text += "\n- background job " + std::to_string(command.job_id) + " (`" + line +
              "`) of the previous run was ended";
    } else {
      text += "\n- " + (command.call_id.empty() ? "" : command.call_id + ": ") + line;
    }
  }
  return text;
}

}  // namespace

util::Result<std::optional<ExistingSession>> load_named_session(const CliOptions& options,
                                                                const util::UserPlaces& places,
                                                                const fs::path& cwd) {
  using Result = util::Result<std::optional<ExistingSession>>;
  fs::path file;
  if (options.session_file) {
    std::error_code error;
    if (!fs::exists(*options.session_file, error)) return std::optional<ExistingSession>();
    file = fs::absolute(*options.session_file);
  } else if (options.continue_latest || options.resume_id) {
    const auto store = session::SessionStore::for_user(places);
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

util::Result<RunSession> RunSession::open(const CliOptions& options, const util::UserPlaces& places,
                                          const fs::path& cwd,
                                          const std::optional<ExistingSession>& existing,
                                          const std::string& provider, const std::string& model,
                                          std::shared_ptr<TreeCheckpoints> checkpoints) {
  using Result = util::Result<RunSession>;
  RunSession run;
  if (options.no_session) {
    process::set_command_owner_label("");
    run.id_ = session::new_session_id();
    return run;
  }
  run.checkpoints_ = std::move(checkpoints);

  if (existing) {
    auto writer = session::SessionWriter::open_existing(existing->file);
    if (!writer.ok()) return Result::failure(writer.error());
    // The file was read before its lock was taken; another nib may have appended in between.
    std::error_code size_error;
    if (fs::file_size(existing->file, size_error) != existing->loaded.complete_bytes) {
      return Result::failure("the session " + existing->file.string() +
                             " changed while nib was starting (another nib wrote to it); run "
                             "nib again");
    }
    run.recorder_ = std::make_unique<session::SessionRecorder>(std::move(writer.value()),
                                                               existing->loaded.messages.size());
    const std::string& id = existing->loaded.header.id;
    run.id_ = id;
    process::set_command_owner_label(id);
    run.pending_notice_ = ended_commands_notice(process::take_ended_commands(id));
    if (!existing->loaded.pending_note.empty()) {
      run.pending_notice_ +=
          (run.pending_notice_.empty() ? "" : "\n\n") + existing->loaded.pending_note;
    }
    run.history_ = context_of(existing->loaded);
    const SessionModel last = session_model(existing->loaded);
    if (last.model != model || last.provider != provider) {
      run.recorder_->record_model_change(provider, model);
    }
    return run;
  }
  const auto header =
      session::make_header(cwd.string(), model, provider, std::chrono::system_clock::now());
  auto writer = [&]() -> util::Result<session::SessionWriter> {
    if (options.session_file) return session::SessionWriter::create(*options.session_file, header);
    const auto store = session::SessionStore::for_user(places);
    if (!store.ok()) return util::Result<session::SessionWriter>::failure(store.error());
    return store.value().create(header);
  }();
  if (!writer.ok()) return Result::failure(writer.error());
  run.recorder_ = std::make_unique<session::SessionRecorder>(std::move(writer.value()), 0);
  run.id_ = header.id;
  process::set_command_owner_label(header.id);
  return run;
}

void RunSession::add_prompt(core::UserMessage prompt, core::PendingNotices* notices) {
  checkpoint("before a prompt", /*turn_end=*/false);
  std::vector<std::string> before;
  if (!pending_notice_.empty()) before.push_back(std::exchange(pending_notice_, {}));
  if (notices != nullptr) {
    for (std::string& notice : notices->take_all()) before.push_back(std::move(notice));
  }
  for (auto it = before.rbegin(); it != before.rend(); ++it) {
    prompt.content.insert(prompt.content.begin(), core::TextBlock{std::move(*it)});
  }
  history_.emplace_back(prompt);
  on_event(core::UserMessageEvent{std::move(prompt)});
}

void RunSession::on_event(const core::Event& event) {
  if (recorder_) recorder_->on_event(event);
  if (std::holds_alternative<core::RunEndEvent>(event)) checkpoint("a run ended", true);
}

void RunSession::checkpoint(const std::string& label, bool turn_end) {
  if (!checkpoints_ || !recorder_) return;
  auto taken = checkpoints_->take(label);
  if (!taken.ok()) {
    if (checkpoint_notice_.empty()) {
      checkpoint_notice_ =
          "the working tree could not be checkpointed (rewinding to this prompt "
          "will not be possible): " +
          taken.error();
    }
    return;
  }
  recorder_->record_checkpoint(taken.value().id, turn_end);
  std::string large;
  for (const std::string& path : taken.value().skipped) {
    if (named_large_files_.insert(path).second) large += (large.empty() ? "" : ", ") + path;
  }
  if (!large.empty()) {
    checkpoint_notice_ += (checkpoint_notice_.empty() ? "" : "; ") +
                          std::string(
                              "files over 10 MiB are not checkpointed, so a rewind "
                              "leaves them as they are: ") +
                          large;
  }
}

std::string RunSession::take_checkpoint_notice() {
  return std::exchange(checkpoint_notice_, {});
}

namespace {

// Runs `use(loaded, store, now)` with the session file as it is now (for what is in force in
// it), the checkpoint store, and a checkpoint of the tree as it is now; R is its result.
template <typename R, typename Use>
R with_session_and_tree(const session::SessionRecorder* recorder,
                        const std::shared_ptr<TreeCheckpoints>& checkpoints, Use use) {
  if (recorder == nullptr || !checkpoints) {
    return R::failure(
        "this session has no checkpoints (nib runs with --no-session, or \"checkpoints\": "
        "{\"enabled\": false})");
  }
  auto loaded = session::load_session(recorder->file());
  if (!loaded.ok()) return R::failure(loaded.error());
  return checkpoints->with_store([&](session::CheckpointStore& store) -> R {
    auto now = store.take("rewind");
    if (!now.ok()) return R::failure(now.error());
    return use(loaded.value(), store, now.value().id);
  });
}

}  // namespace

util::Result<std::vector<RewindPoint>> RunSession::rewind_points() {
  using Result = util::Result<std::vector<RewindPoint>>;
  return with_session_and_tree<Result>(
      recorder_.get(), checkpoints_,
      [](const session::LoadedSession& loaded, session::CheckpointStore& store,
         const std::string& now) { return app::rewind_points(loaded, store, now); });
}

util::Result<RewindOutcome> RunSession::rewind(const RewindRequest& request) {
  using Result = util::Result<RewindOutcome>;
  auto outcome = with_session_and_tree<Result>(
      recorder_.get(), checkpoints_,
      [&](const session::LoadedSession& loaded, session::CheckpointStore& store,
          const std::string& now) { return app::rewind(loaded, store, *recorder_, now, request); });
  if (!outcome.ok() || !outcome.value().done) return outcome;
  auto after = session::load_session(recorder_->file());
  if (!after.ok()) return Result::failure(after.error());
  history_ = context_of(after.value());
  pending_notice_ = after.value().pending_note;
  return outcome;
}

void RunSession::apply(core::HistoryCompaction compaction) {
  on_event(core::apply_compaction(history_, std::move(compaction)));
}

void RunSession::record_forced_quit() {
  if (recorder_) recorder_->record_forced_quit();
}

void RunSession::record_model_change(const std::string& provider, const std::string& model) {
  if (recorder_) recorder_->record_model_change(provider, model);
}

std::string RunSession::file() const {
  return recorder_ ? recorder_->file().string() : "";
}

std::string RunSession::write_error() const {
  return recorder_ ? recorder_->write_error() : "";
}

}  // namespace nib::app
