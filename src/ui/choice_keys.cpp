#include "ui/choice_keys.hpp"

namespace nib::ui {
namespace {

bool is_control_c(const Key& key) {
  return key.code == KeyCode::kCtrl && key.ctrl == 'c';
}

}  // namespace

std::optional<permissions::ApprovalAnswer> approval_answer(const Key& key) {
  const std::string typed = key.code == KeyCode::kText ? key.text : "";
  if (typed == "y" || typed == "Y" || key.code == KeyCode::kEnter) {
    return permissions::ApprovalAnswer::kYes;
  }
  if (typed == "a" || typed == "A") return permissions::ApprovalAnswer::kAlways;
  if (typed == "n" || typed == "N" || key.code == KeyCode::kEscape || is_control_c(key)) {
    return permissions::ApprovalAnswer::kNo;
  }
  return std::nullopt;
}

PickerKey handle_picker_key(PickerView& picker, const Key& key) {
  if (key.code == KeyCode::kUp && picker.selected > 0) --picker.selected;
  if (key.code == KeyCode::kDown && picker.selected + 1 < picker.entries.size()) ++picker.selected;
  if (key.code == KeyCode::kEnter) return PickerKey::kChosen;
  if (key.code == KeyCode::kEscape || is_control_c(key)) return PickerKey::kCancelled;
  return PickerKey::kNone;
}

MenuKey handle_menu_key(CompletionMenu& menu, const Key& key) {
  if (menu.entries.empty()) return {};
  const std::size_t count = menu.entries.size();
  switch (key.code) {
    case KeyCode::kUp:
      menu.selected = (menu.selected + count - 1) % count;
      return {MenuKeyKind::kMoved, {}};
    case KeyCode::kDown:
      menu.selected = (menu.selected + 1) % count;
      return {MenuKeyKind::kMoved, {}};
    case KeyCode::kTab:
      return {MenuKeyKind::kAccept, menu.entries[menu.selected].text};
    case KeyCode::kEnter:
      return {MenuKeyKind::kSubmit, menu.entries[menu.selected].text};
    case KeyCode::kEscape:
      return {MenuKeyKind::kDismiss, {}};
    default:
      return {};
  }
}

}  // namespace nib::ui
