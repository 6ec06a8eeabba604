#pragma once
// What a key means while the input area offers a choice instead of (or beside) the editor: an
// approval question, a picker, the completion menu. Each is a small state machine the key
// controller (interactive_controller.hpp) consults first; it then acts on the result. Pure
// functions; not thread-safe (the UI thread's state).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "permissions/approval_policy.hpp"
#include "ui/interactive_view.hpp"
#include "ui/key_decoder.hpp"
#include "ui/slash_commands.hpp"

namespace nib::ui {

// The answer `key` gives to an approval question: y or Enter yes, a always, n, Esc or Ctrl-C
// no; nullopt for any other key (the question stays).
std::optional<permissions::ApprovalAnswer> approval_answer(const Key& key);

enum class PickerKey {
  kNone,       // the selection moved, or the key means nothing here
  kChosen,     // Enter: the selected entry is chosen
  kCancelled,  // Esc or Ctrl-C
};
// Moves `picker`'s selection (↑ ↓) or ends the choice.
PickerKey handle_picker_key(PickerView& picker, const Key& key);

// The completion menu under the editor.
struct CompletionMenu {
  std::vector<Completion> entries;
  std::size_t selected = 0;
};
enum class MenuKeyKind {
  kNotHandled,  // the key belongs to the editor (also whenever the menu is empty)
  kMoved,       // ↑ ↓ moved the selection
  kAccept,      // Tab: put `text` into the editor
  kSubmit,      // Enter: put `text` into the editor and send it
  kDismiss,     // Esc: close the menu for the editor's current text
};
struct MenuKey {
  MenuKeyKind kind = MenuKeyKind::kNotHandled;
  std::string text;  // kAccept and kSubmit: the chosen completion's text
};
MenuKey handle_menu_key(CompletionMenu& menu, const Key& key);

}  // namespace nib::ui
