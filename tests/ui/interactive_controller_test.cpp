#include "ui/interactive_controller.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace nib::ui {
namespace {

// Drives a controller as the app does: keys with the session's facts of the moment.
class InteractiveControllerTest : public ::testing::Test {
 protected:
  using Mode = permissions::PermissionMode;

  template <class Action>
  static bool is(const std::optional<UiAction>& action) {
    return action && std::holds_alternative<Action>(*action);
  }

  std::optional<UiAction> key(const Key& pressed) {
    return controller_.handle_key(pressed, context_);
  }
  std::optional<UiAction> press(KeyCode code) { return key(Key{code}); }
  std::optional<UiAction> type(const std::string& text) { return key(Key{KeyCode::kText, text}); }
  std::optional<UiAction> control(char letter) { return key(Key{KeyCode::kCtrl, "", letter}); }

  ViewState view() const {
    ViewState state;
    controller_.show_in(state);
    return state;
  }
  const std::string& editor_text() const { return controller_.editor().text(); }

  // The answer an approval action carries; fails the test for any other action.
  static permissions::ApprovalReply reply_of(const std::optional<UiAction>& action) {
    EXPECT_TRUE(is<AnswerApproval>(action));
    if (!is<AnswerApproval>(action)) return permissions::ApprovalAnswer::kInterrupted;
    return std::get<AnswerApproval>(*action).reply;
  }

  // A question whose "always" would save `rules`.
  static ApprovalView question(std::vector<std::string> rules = {"Bash(npm install)"}) {
    ApprovalView view{"Allow bash npm install?"};
    view.rules = std::move(rules);
    return view;
  }

  // Completes the built-in commands, as the app does (without arguments or commands of its own).
  InteractiveController controller_{false,
                                    [](const std::string& text) { return complete(text, {}); }};
  KeyContext context_{UiClock::time_point(std::chrono::hours(1))};
};

TEST_F(InteractiveControllerTest, TwoCtrlCWithinTheWindowQuit) {
  EXPECT_FALSE(control('c'));
  EXPECT_EQ(view().hint, "Press Ctrl-C again to quit");
  EXPECT_TRUE(controller_.quit_confirmation_pending());
  context_.now += kDoublePressWindow - std::chrono::milliseconds(1);
  EXPECT_TRUE(is<Quit>(control('c')));
}

TEST_F(InteractiveControllerTest, ACtrlCOnceTheWindowHasPassedIsAFirstOneAgain) {
  EXPECT_FALSE(control('c'));
  context_.now += kDoublePressWindow;
  EXPECT_FALSE(control('c')) << "too late to be the second";
  EXPECT_TRUE(controller_.quit_confirmation_pending());
  context_.now += std::chrono::milliseconds(10);
  EXPECT_TRUE(is<Quit>(control('c')));
}

TEST_F(InteractiveControllerTest, TheClockForgetsTheFirstCtrlCAndItsHint) {
  control('c');
  controller_.advance(context_.now + kDoublePressWindow - std::chrono::milliseconds(1));
  EXPECT_TRUE(controller_.quit_confirmation_pending());
  EXPECT_EQ(view().hint, "Press Ctrl-C again to quit");
  controller_.advance(context_.now + kDoublePressWindow);
  EXPECT_FALSE(controller_.quit_confirmation_pending());
  EXPECT_EQ(view().hint, "");
}

TEST_F(InteractiveControllerTest, CtrlCClearsTheEditorOrInterruptsAWorkingRun) {
  type("half a thought");
  EXPECT_FALSE(control('c'));
  EXPECT_EQ(editor_text(), "");

  context_.now += kDoublePressWindow;
  context_.working = true;
  type("a steering message");
  EXPECT_TRUE(is<InterruptRun>(control('c')));
  EXPECT_EQ(editor_text(), "a steering message") << "interrupting keeps what is typed";
}

TEST_F(InteractiveControllerTest, EscapeInterruptsOnlyWhileWorking) {
  EXPECT_FALSE(press(KeyCode::kEscape));
  context_.working = true;
  EXPECT_TRUE(is<InterruptRun>(press(KeyCode::kEscape)));
}

TEST_F(InteractiveControllerTest, EscapeClosesTheCompletionsForTheTextItWasPressedOn) {
  context_.working = true;
  type("/mo");
  ASSERT_EQ(view().completions.size(), 1u);
  EXPECT_EQ(view().completions[0].label, "/model [id]");
  EXPECT_FALSE(press(KeyCode::kEscape)) << "Esc closes the menu before it interrupts";
  EXPECT_TRUE(view().completions.empty());
  press(KeyCode::kLeft);
  press(KeyCode::kRight);
  EXPECT_TRUE(view().completions.empty()) << "the same text: the menu stays closed";
  type("d");
  EXPECT_EQ(view().completions.size(), 1u) << "other text: the menu is back";
  press(KeyCode::kEscape);
  press(KeyCode::kBackspace);
  EXPECT_EQ(view().completions.size(), 1u);
  press(KeyCode::kEscape);
  EXPECT_TRUE(is<InterruptRun>(press(KeyCode::kEscape))) << "a closed menu: Esc interrupts";
}

TEST_F(InteractiveControllerTest, TabTakesTheSelectedCompletionAndEnterSendsIt) {
  type("/he");
  EXPECT_FALSE(press(KeyCode::kTab));
  EXPECT_EQ(editor_text(), "/help");
  const auto sent = press(KeyCode::kEnter);
  ASSERT_TRUE(is<SubmitText>(sent));
  EXPECT_EQ(std::get<SubmitText>(*sent).text, "/help");
  EXPECT_EQ(editor_text(), "");
  EXPECT_TRUE(view().completions.empty());
}

TEST_F(InteractiveControllerTest, EnterSendsALineButNotABlankOne) {
  type("   ");
  EXPECT_FALSE(press(KeyCode::kEnter));
  type("hello");
  const auto sent = press(KeyCode::kEnter);
  ASSERT_TRUE(is<SubmitText>(sent));
  EXPECT_EQ(std::get<SubmitText>(*sent).text, "hello");
  EXPECT_EQ(editor_text(), "");
}

TEST_F(InteractiveControllerTest, ApprovalKeysAnswerTheQuestion) {
  const std::vector<std::pair<Key, permissions::ApprovalAnswer>> answers = {
      {Key{KeyCode::kText, "y"}, permissions::ApprovalAnswer::kYes},
      {Key{KeyCode::kText, "Y"}, permissions::ApprovalAnswer::kYes},
      {Key{KeyCode::kEnter}, permissions::ApprovalAnswer::kYes},
      {Key{KeyCode::kText, "a"}, permissions::ApprovalAnswer::kAlways},
      {Key{KeyCode::kText, "n"}, permissions::ApprovalAnswer::kNo},
      {Key{KeyCode::kEscape}, permissions::ApprovalAnswer::kNo},
      {Key{KeyCode::kCtrl, "", 'c'}, permissions::ApprovalAnswer::kNo},
  };
  context_.working = true;
  for (const auto& [pressed, answer] : answers) {
    controller_.ask(question());
    const permissions::ApprovalReply reply = reply_of(key(pressed));
    EXPECT_EQ(reply.answer, answer) << "key code " << static_cast<int>(pressed.code);
    EXPECT_TRUE(reply.rules.empty()) << "the question's own rules";
    EXPECT_FALSE(view().approval);
  }
  EXPECT_FALSE(controller_.quit_confirmation_pending()) << "Ctrl-C answered, it did not quit";
}

TEST_F(InteractiveControllerTest, OtherKeysLeaveTheQuestionAndTheEditorAlone) {
  type("draft");
  controller_.ask(question());
  context_.commands_running = true;
  for (const Key& pressed :
       {Key{KeyCode::kUp}, Key{KeyCode::kDown}, Key{KeyCode::kTab}, Key{KeyCode::kShiftTab},
        Key{KeyCode::kText, "x"}, Key{KeyCode::kCtrl, "", 'b'}, Key{KeyCode::kCtrl, "", 'd'}}) {
    EXPECT_FALSE(key(pressed));
  }
  ASSERT_TRUE(view().approval);
  EXPECT_EQ(editor_text(), "draft");
}

TEST_F(InteractiveControllerTest, EditedRulesAreSavedByEnterAndTheDraftComesBack) {
  type("my draft");
  controller_.ask(question());
  EXPECT_FALSE(type("e"));
  ASSERT_TRUE(view().approval);
  EXPECT_TRUE(view().approval->editing_rules);
  EXPECT_EQ(editor_text(), "Bash(npm install)");
  type(", Bash(npm test)");
  const permissions::ApprovalReply reply = reply_of(press(KeyCode::kEnter));
  EXPECT_EQ(reply.answer, permissions::ApprovalAnswer::kAlways);
  EXPECT_EQ(reply.rules, (std::vector<std::string>{"Bash(npm install)", "Bash(npm test)"}));
  EXPECT_FALSE(view().approval);
  EXPECT_EQ(editor_text(), "my draft");
}

TEST_F(InteractiveControllerTest, EscapeWhileEditingRulesGoesBackToTheQuestionAndTheDraft) {
  type("my draft");
  controller_.ask(question());
  type("E");
  type(", Bash(rm *)");
  EXPECT_FALSE(press(KeyCode::kEscape));
  ASSERT_TRUE(view().approval);
  EXPECT_FALSE(view().approval->editing_rules);
  EXPECT_EQ(editor_text(), "my draft");
  EXPECT_EQ(reply_of(type("y")).answer, permissions::ApprovalAnswer::kYes);
}

TEST_F(InteractiveControllerTest, NoRulesLeftGoesBackToTheQuestion) {
  controller_.ask(question());
  type("e");
  control('u');  // erases the line
  EXPECT_FALSE(press(KeyCode::kEnter));
  ASSERT_TRUE(view().approval);
  EXPECT_FALSE(view().approval->editing_rules);
  EXPECT_EQ(editor_text(), "");
}

TEST_F(InteractiveControllerTest, AQuestionWithoutRulesHasNoRuleEditor) {
  controller_.ask(question({}));
  EXPECT_FALSE(type("e"));
  ASSERT_TRUE(view().approval);
  EXPECT_FALSE(view().approval->editing_rules);
  EXPECT_EQ(editor_text(), "");
}

TEST_F(InteractiveControllerTest, APickerMovesWithinItsEntriesAndChoosesOne) {
  controller_.open_picker(PickerView{"Start the MCP server?", {"Yes", "Yes, all", "No"}, 0});
  EXPECT_FALSE(type("x"));
  EXPECT_EQ(editor_text(), "") << "the picker takes the keys";
  EXPECT_FALSE(press(KeyCode::kUp));
  ASSERT_TRUE(view().picker);
  EXPECT_EQ(view().picker->selected, 0u);
  for (int i = 0; i < 3; ++i) press(KeyCode::kDown);
  ASSERT_TRUE(view().picker);
  EXPECT_EQ(view().picker->selected, 2u);
  const auto chosen = press(KeyCode::kEnter);
  ASSERT_TRUE(is<ChoosePickerEntry>(chosen));
  EXPECT_EQ(std::get<ChoosePickerEntry>(*chosen).index, 2u);
  EXPECT_FALSE(view().picker);
}

TEST_F(InteractiveControllerTest, EscapeOrCtrlCCancelsAPicker) {
  context_.working = true;
  controller_.open_picker(PickerView{"Resume a session", {"one", "two"}, 1});
  EXPECT_TRUE(is<CancelPicker>(press(KeyCode::kEscape))) << "not an interrupt";
  EXPECT_FALSE(view().picker);
  controller_.open_picker(PickerView{"Resume a session", {"one", "two"}, 1});
  EXPECT_TRUE(is<CancelPicker>(control('c')));
  EXPECT_FALSE(controller_.quit_confirmation_pending());
}

TEST_F(InteractiveControllerTest, ShiftTabCyclesAutoAskReadOnly) {
  const auto after = [this](InteractiveController& controller, Mode mode) {
    context_.mode = mode;
    const auto action = controller.handle_key(Key{KeyCode::kShiftTab}, context_);
    EXPECT_TRUE(is<SetPermissionMode>(action));
    return is<SetPermissionMode>(action) ? std::get<SetPermissionMode>(*action).mode : mode;
  };
  EXPECT_EQ(after(controller_, Mode::kAuto), Mode::kAsk);
  EXPECT_EQ(after(controller_, Mode::kAsk), Mode::kReadOnly);
  EXPECT_EQ(after(controller_, Mode::kReadOnly), Mode::kAuto) << "yolo only for a yolo start";

  InteractiveController started_in_yolo(true, {});
  EXPECT_EQ(after(started_in_yolo, Mode::kReadOnly), Mode::kYolo);
  EXPECT_EQ(after(started_in_yolo, Mode::kYolo), Mode::kAuto);
}

TEST_F(InteractiveControllerTest, CtrlBMovesCommandsOnlyWhileOneRuns) {
  type("ab");
  EXPECT_FALSE(control('b'));
  EXPECT_EQ(editor_text(), "ab");
  context_.commands_running = true;
  EXPECT_TRUE(is<MoveCommandsToBackground>(control('b')));
}

TEST_F(InteractiveControllerTest, ControlKeysOfTheSession) {
  EXPECT_TRUE(is<Redraw>(control('l')));
  EXPECT_TRUE(is<SuspendToShell>(control('z')));
  type("ab");
  press(KeyCode::kHome);
  EXPECT_FALSE(control('d')) << "on text Ctrl-D deletes";
  EXPECT_EQ(editor_text(), "b");
  control('k');
  EXPECT_TRUE(is<Quit>(control('d'))) << "on an empty input Ctrl-D quits";
}

TEST_F(InteractiveControllerTest, TextGivenBackIsEditedAndCompleted) {
  controller_.set_editor_text("/mo");
  EXPECT_EQ(editor_text(), "/mo");
  EXPECT_EQ(view().completions.size(), 1u);
  controller_.set_history({"earlier prompt"});
  controller_.set_editor_text("");
  press(KeyCode::kUp);
  EXPECT_EQ(editor_text(), "earlier prompt");
}

}  // namespace
}  // namespace nib::ui
