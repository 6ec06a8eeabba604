#include "ui/choice_keys.hpp"

#include <gtest/gtest.h>

namespace nib::ui {
namespace {

using permissions::ApprovalAnswer;

Key text_key(const std::string& typed) {
  return Key{KeyCode::kText, typed};
}
Key code_key(KeyCode key) {
  return Key{key};
}
Key ctrl_key(char letter) {
  return Key{KeyCode::kCtrl, "", letter};
}

TEST(ChoiceKeys, ApprovalAnswers) {
  EXPECT_EQ(approval_answer(text_key("y")), ApprovalAnswer::kYes);
  EXPECT_EQ(approval_answer(code_key(KeyCode::kEnter)), ApprovalAnswer::kYes);
  EXPECT_EQ(approval_answer(text_key("A")), ApprovalAnswer::kAlways);
  EXPECT_EQ(approval_answer(text_key("n")), ApprovalAnswer::kNo);
  EXPECT_EQ(approval_answer(code_key(KeyCode::kEscape)), ApprovalAnswer::kNo);
  EXPECT_EQ(approval_answer(ctrl_key('c')), ApprovalAnswer::kNo);
  EXPECT_EQ(approval_answer(text_key("x")), std::nullopt);
  EXPECT_EQ(approval_answer(code_key(KeyCode::kUp)), std::nullopt);
}

TEST(ChoiceKeys, PickerMovesWithinItsEntriesAndEnds) {
  PickerView picker{"Pick", {"a", "b"}, 0};
  EXPECT_EQ(handle_picker_key(picker, code_key(KeyCode::kUp)), PickerKey::kNone);
  EXPECT_EQ(picker.selected, 0u);
  handle_picker_key(picker, code_key(KeyCode::kDown));
  handle_picker_key(picker, code_key(KeyCode::kDown));
  EXPECT_EQ(picker.selected, 1u);
  EXPECT_EQ(handle_picker_key(picker, code_key(KeyCode::kEnter)), PickerKey::kChosen);
  EXPECT_EQ(handle_picker_key(picker, code_key(KeyCode::kEscape)), PickerKey::kCancelled);
  EXPECT_EQ(handle_picker_key(picker, ctrl_key('c')), PickerKey::kCancelled);
}

TEST(ChoiceKeys, CompletionMenuWrapsAcceptsSubmitsAndDismisses) {
  CompletionMenu empty;
  EXPECT_EQ(handle_menu_key(empty, code_key(KeyCode::kTab)).kind, MenuKeyKind::kNotHandled);
  CompletionMenu menu{{{"/help", "/help", ""}, {"/model ", "/model", ""}}, 0};
  EXPECT_EQ(handle_menu_key(menu, code_key(KeyCode::kUp)).kind, MenuKeyKind::kMoved);
  EXPECT_EQ(menu.selected, 1u) << "wraps to the last entry";
  const MenuKey accepted = handle_menu_key(menu, code_key(KeyCode::kTab));
  EXPECT_EQ(accepted.kind, MenuKeyKind::kAccept);
  EXPECT_EQ(accepted.text, "/model ");
  EXPECT_EQ(handle_menu_key(menu, code_key(KeyCode::kDown)).kind, MenuKeyKind::kMoved);
  EXPECT_EQ(handle_menu_key(menu, code_key(KeyCode::kEnter)).text, "/help");
  EXPECT_EQ(handle_menu_key(menu, code_key(KeyCode::kEnter)).kind, MenuKeyKind::kSubmit);
  EXPECT_EQ(handle_menu_key(menu, code_key(KeyCode::kEscape)).kind, MenuKeyKind::kDismiss);
  EXPECT_EQ(handle_menu_key(menu, text_key("x")).kind, MenuKeyKind::kNotHandled);
}

}  // namespace
}  // namespace nib::ui
