#include "ui/interactive_controller.hpp"

#include <utility>

#include "permissions/rule_list.hpp"
#include "util/blank_text.hpp"

namespace nib::ui {
namespace {

bool is_control(const Key& key, char letter) {
  return key.code == KeyCode::kCtrl && key.ctrl == letter;
}

// Shift+Tab: auto → ask → read-only → auto, by way of yolo only for a session started in it.
permissions::PermissionMode next_permission_mode(permissions::PermissionMode mode,
                                                 bool started_in_yolo) {
  using permissions::PermissionMode;
  switch (mode) {
    case PermissionMode::kAuto:
      return PermissionMode::kAsk;
    case PermissionMode::kAsk:
      return PermissionMode::kReadOnly;
    case PermissionMode::kReadOnly:
      return started_in_yolo ? PermissionMode::kYolo : PermissionMode::kAuto;
    case PermissionMode::kYolo:
      break;
  }
  return PermissionMode::kAuto;
}

}  // namespace

InteractiveController::InteractiveController(bool started_in_yolo, CommandCompleter completer)
    : started_in_yolo_(started_in_yolo), completer_(std::move(completer)) {}

std::optional<UiAction> InteractiveController::handle_key(const Key& key,
                                                          const KeyContext& context) {
  if (approval_) return approval_key(key);
  if (picker_) return picker_key(key);
  if (is_control(key, 'c')) return control_c(context);
  if (is_control(key, 'b') && context.commands_running) return MoveCommandsToBackground{};
  if (const MenuKey menu = handle_menu_key(completions_, key);
      menu.kind != MenuKeyKind::kNotHandled) {
    return menu_key(menu);
  }
  if (key.code == KeyCode::kShiftTab) {
    return SetPermissionMode{next_permission_mode(context.mode, started_in_yolo_)};
  }
  if (key.code == KeyCode::kEscape) {
    if (context.working) return InterruptRun{};
    if (!editor_.empty()) return std::nullopt;
    // A second Esc soon after the first opens the rewind, as Claude Code users expect.
    if (last_escape_ && context.now - *last_escape_ < kDoublePressWindow) {
      last_escape_.reset();
      return OpenRewind{};
    }
    last_escape_ = context.now;
    return std::nullopt;
  }
  last_escape_.reset();
  if (is_control(key, 'd') && editor_.empty()) return Quit{};
  if (is_control(key, 'l')) return Redraw{};
  if (is_control(key, 'z')) return SuspendToShell{};
  std::optional<UiAction> action;
  if (editor_.handle(key) == EditResult::kSubmit) action = take_submission();
  after_edit();
  return action;
}

void InteractiveController::advance(UiClock::time_point now) {
  if (last_control_c_ && now - *last_control_c_ >= kDoublePressWindow) {
    last_control_c_.reset();
    hint_.clear();
  }
}

void InteractiveController::ask(ApprovalView question) {
  approval_ = std::move(question);
}

void InteractiveController::set_editor_text(const std::string& text) {
  editor_.set_text(text);
  after_edit();
}

void InteractiveController::show_in(ViewState& state) const {
  state.editor = &editor_;
  state.approval = approval_;
  state.picker = picker_;
  state.completions = completions_.entries;
  state.completion_selected = completions_.selected;
  state.hint = hint_;
}

std::optional<UiAction> InteractiveController::approval_key(const Key& key) {
  if (approval_->editing_rules) return rule_edit_key(key);
  if (key.code == KeyCode::kText && (key.text == "e" || key.text == "E") &&
      !approval_->rules.empty()) {
    // The draft waits while the editor holds the rules.
    draft_before_rules_ = editor_.text();
    editor_.set_text(permissions::joined_rules(approval_->rules));
    approval_->editing_rules = true;
    return std::nullopt;
  }
  const auto answer = approval_answer(key);
  if (!answer) return std::nullopt;
  approval_.reset();
  return AnswerApproval{*answer};
}

std::optional<UiAction> InteractiveController::rule_edit_key(const Key& key) {
  if (key.code == KeyCode::kEscape) {
    editor_.set_text(draft_before_rules_);
    approval_->editing_rules = false;
    return std::nullopt;
  }
  if (editor_.handle(key) != EditResult::kSubmit) return std::nullopt;
  std::vector<std::string> rules = permissions::split_rules(editor_.take_submission());
  editor_.set_text(draft_before_rules_);
  if (rules.empty()) {
    approval_->editing_rules = false;
    return std::nullopt;
  }
  approval_.reset();
  return AnswerApproval{{permissions::ApprovalAnswer::kAlways, std::move(rules)}};
}

std::optional<UiAction> InteractiveController::picker_key(const Key& key) {
  switch (handle_picker_key(*picker_, key)) {
    case PickerKey::kNone:
      break;
    case PickerKey::kChosen: {
      const std::size_t index = picker_->selected;
      picker_.reset();
      return ChoosePickerEntry{index};
    }
    case PickerKey::kCancelled:
      picker_.reset();
      return CancelPicker{};
  }
  return std::nullopt;
}

std::optional<UiAction> InteractiveController::control_c(const KeyContext& context) {
  if (last_control_c_ && context.now - *last_control_c_ < kDoublePressWindow) return Quit{};
  last_control_c_ = context.now;
  hint_ = "Press Ctrl-C again to quit";
  if (context.working) return InterruptRun{};
  if (!editor_.empty()) {
    editor_.set_text("");
    after_edit();
  }
  return std::nullopt;
}

std::optional<UiAction> InteractiveController::menu_key(const MenuKey& menu) {
  switch (menu.kind) {
    case MenuKeyKind::kNotHandled:
    case MenuKeyKind::kMoved:
      break;
    case MenuKeyKind::kAccept:
      editor_.set_text(menu.text);
      after_edit();
      break;
    case MenuKeyKind::kSubmit: {
      editor_.set_text(menu.text);
      std::optional<UiAction> action = take_submission();
      after_edit();
      return action;
    }
    case MenuKeyKind::kDismiss:
      dismissed_completion_ = editor_.text();
      completions_.entries.clear();
      break;
  }
  return std::nullopt;
}

std::optional<UiAction> InteractiveController::take_submission() {
  std::string text = editor_.take_submission();
  if (util::trim_blanks(text).empty()) return std::nullopt;
  return SubmitText{std::move(text)};
}

void InteractiveController::after_edit() {
  if (editor_.text() == dismissed_completion_) return;
  dismissed_completion_.reset();
  // Only a command line has completions: the commands are gathered for it alone, not on every
  // key of a prompt.
  completions_.entries.clear();
  if (completer_ && editor_.text().starts_with('/'))
    completions_.entries = completer_(editor_.text());
  if (completions_.selected >= completions_.entries.size()) completions_.selected = 0;
}

}  // namespace nib::ui
