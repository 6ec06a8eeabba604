// End-to-end: the real nib binary in interactive mode, in a real terminal (tmux), against the
// mock OpenAI server. The screen can only be observed by looking, so the tests wait for what
// a user would see (wait_for polls; its timeout only guards against a hang).

#include <gtest/gtest.h>

#include <sys/types.h>

#include <csignal>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/host_pid.hpp"
#include "support/mock_anthropic_replies.hpp"
#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"
#include "support/tmux_session.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

// A bash command that runs until the test creates the file `release` in the working directory.
std::string blocked_until_released(const std::string& then) {
  return "while [ ! -e release ]; do sleep 0.02; done; " + then;
}

class InteractiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!TmuxSession::available()) GTEST_SKIP() << "tmux is not installed";
  }

  std::map<std::string, std::string> env() const {
    std::map<std::string, std::string> variables = {{"OPENAI_BASE_URL", server_.base_url()},
                                                    {"NIB_MODEL", "mock-model"}};
    if (!home_.empty()) variables["HOME"] = home_.string();
    return variables;
  }

  // Starts nib with `args` and waits for its footer.
  std::unique_ptr<TmuxSession> start(std::vector<std::string> args = {}, int columns = 100,
                                     int rows = 30) {
    TmuxOptions options;
    options.command = {NIB_BINARY};
    options.command.insert(options.command.end(), args.begin(), args.end());
    options.env = env();
    options.cwd = dir_.path();
    options.columns = columns;
    options.rows = rows;
    auto tmux = std::make_unique<TmuxSession>(options);
    EXPECT_TRUE(tmux->wait_for_text("mock-model · ")) << tmux->screen();
    return tmux;
  }

  // Waits until `text` is on the screen and nib is idle again: the run (or compaction) that
  // showed it has ended, so what the test types next is a new prompt, not a steering message.
  static bool wait_for_answer(const TmuxSession& tmux, const std::string& text) {
    return tmux.wait_for([text](const std::string& screen) {
      return contains(screen, text) && !contains(screen, "esc to interrupt");
    });
  }

  static void send(const TmuxSession& tmux, const std::string& text) {
    tmux.type(text);
    tmux.press("Enter");
  }

  // The messages of request number `index`, as the model received them.
  json messages(std::size_t index) const {
    const json body = server_.requests().at(index).body;
    return body["messages"];
  }

  // Waits until the screen shows `text` and a command has written its $$ to the file "pid";
  // returns that process's host pid (the sandbox's $$ is not the host's), or -1.
  pid_t wait_for_command_pid(const TmuxSession& tmux, const std::string& text) const {
    const bool shown = tmux.wait_for([this, text](const std::string& screen) {
      return contains(screen, text) && std::filesystem::exists(dir_.path() / "pid");
    });
    EXPECT_TRUE(shown) << tmux.screen();
    pid_t pid = 0;
    std::ifstream(dir_.path() / "pid") >> pid;
    return shown ? testing::host_pid_in(dir_.path(), pid) : -1;
  }

  // Quits with Ctrl-C twice and expects a clean exit.
  static void quit(TmuxSession& tmux) {
    tmux.press("C-c");
    EXPECT_TRUE(tmux.wait_for_text("Press Ctrl-C again to quit")) << tmux.screen();
    tmux.press("C-c");
    EXPECT_TRUE(tmux.wait_for_exit()) << tmux.screen();
    EXPECT_EQ(tmux.exit_status(), 0);
  }

  MockModelServer server_;
  TempDir dir_;
  std::filesystem::path home_;  // HOME for nib; empty: the working directory
};

TEST_F(InteractiveTest, AnswersAPromptInRenderedMarkdownAndQuitsCleanly) {
  server_.enqueue(MockReply::text("# Plan\n\nUse **bold** and `code`.\n\n- first\n- second\n", 5));
  auto tmux = start();
  send(*tmux, "hello there");
  ASSERT_TRUE(wait_for_answer(*tmux, "• second")) << tmux->screen();
  const std::string screen = tmux->screen();
  EXPECT_TRUE(contains(screen, "> hello there")) << screen;
  EXPECT_TRUE(contains(screen, "● Plan")) << screen;  // no '#': a rendered heading
  EXPECT_TRUE(contains(screen, "Use bold and code.")) << screen;
  EXPECT_EQ(messages(0).back()["content"], "hello there");
  quit(*tmux);
  EXPECT_TRUE(contains(tmux->history(), "Resume this session with: nib --session"))
      << tmux->history();
}

TEST_F(InteractiveTest, ToolRowsGoFromQueuedToRunningToDoneInPlace) {
  dir_.write("notes.txt", "one\ntwo\n");
  server_.enqueue(MockReply::tool_calls({
      {"call_1", "read", R"({"path":"notes.txt"})"},
      {"call_2", "bash", json{{"command", blocked_until_released("echo finished")}}.dump()},
      {"call_3", "bash", R"({"command":"echo second"})"},
  }));
  server_.enqueue(MockReply::text("All three ran."));
  auto tmux = start();
  send(*tmux, "run them");
  // The first bash call runs (spinner and elapsed time); the second waits its turn.
  ASSERT_TRUE(tmux->wait_for([](const std::string& screen) {
    return contains(screen, "✓ read notes.txt") && contains(screen, "queued") &&
           contains(screen, "s)");
  })) << tmux->screen();
  const std::string running = tmux->screen();
  EXPECT_TRUE(contains(running, "Read 2 lines")) << running;
  EXPECT_TRUE(contains(running, "bash echo second queued")) << running;

  dir_.write("release", "");
  ASSERT_TRUE(wait_for_answer(*tmux, "All three ran.")) << tmux->screen();
  const std::string done = tmux->screen();
  EXPECT_TRUE(contains(done, "✓ bash while [ ! -e release ]")) << done;
  EXPECT_TRUE(contains(done, "⎿ finished")) << done;
  EXPECT_TRUE(contains(done, "✓ bash echo second")) << done;
  EXPECT_FALSE(contains(done, "queued")) << done;
  quit(*tmux);
}

TEST_F(InteractiveTest, AnEditShowsItsDiffInColour) {
  dir_.write("app.py", "print('old')\n");
  // edit refuses a file the model has not read.
  server_.enqueue(MockReply::tool_calls({{"call_1", "read", R"({"path":"app.py"})"}}));
  server_.enqueue(MockReply::tool_calls(
      {{"call_2", "edit",
        R"j({"path":"app.py","oldText":"print('old')","newText":"print('new')"})j"}}));
  server_.enqueue(MockReply::text("Edited."));
  auto tmux = start();
  send(*tmux, "change it");
  ASSERT_TRUE(wait_for_answer(*tmux, "Edited.")) << tmux->screen();
  const std::string screen = tmux->screen();
  EXPECT_TRUE(contains(screen, "✓ edit app.py")) << screen;
  EXPECT_TRUE(contains(screen, "-print('old')")) << screen;
  EXPECT_TRUE(contains(screen, "+print('new')")) << screen;
  const std::string colours = tmux->screen_with_colors();
  EXPECT_TRUE(contains(colours, "\x1b[32m+print('new')")) << colours;
  EXPECT_TRUE(contains(colours, "\x1b[31m-print('old')")) << colours;
  quit(*tmux);
}

TEST_F(InteractiveTest, EscapeStopsALongCommandAndGivesThePromptBack) {
  server_.enqueue(MockReply::tool_calls(
      {{"call_1", "bash", R"({"command":"echo $$ > pid; exec sleep 300"})"}}));
  auto tmux = start();
  send(*tmux, "wait a long time");
  const pid_t pid = wait_for_command_pid(*tmux, "bash echo $$ > pid");
  ASSERT_GT(pid, 0);

  tmux->press("Escape");
  ASSERT_TRUE(wait_for_answer(*tmux, "Interrupted")) << tmux->screen();
  EXPECT_TRUE(tmux->wait_for([pid](const std::string&) { return kill(pid, 0) != 0; }))
      << "the command is still running";
  EXPECT_TRUE(contains(tmux->screen(), "✗ bash")) << tmux->screen();
  EXPECT_FALSE(contains(tmux->screen(), "Working")) << tmux->screen();
  EXPECT_EQ(server_.requests().size(), 1u);  // nothing more was asked of the model

  // The prompt works again.
  server_.enqueue(MockReply::text("Back again."));
  send(*tmux, "are you there?");
  EXPECT_TRUE(wait_for_answer(*tmux, "Back again.")) << tmux->screen();
  quit(*tmux);
}

TEST_F(InteractiveTest, CtrlCInterruptsTheRunAndStillOffersToQuit) {
  server_.enqueue(MockReply::tool_calls(
      {{"call_1", "bash", json{{"command", blocked_until_released("echo never")}}.dump()}}));
  auto tmux = start();
  send(*tmux, "wait");
  ASSERT_TRUE(tmux->wait_for_text("bash while [ ! -e release ]")) << tmux->screen();
  tmux->press("C-c");
  // The run ends (interrupted) while the offer to quit is still up.
  ASSERT_TRUE(tmux->wait_for([](const std::string& screen) {
    return contains(screen, "Interrupted") && contains(screen, "Press Ctrl-C again to quit");
  })) << tmux->screen();
  tmux->press("C-c");
  EXPECT_TRUE(tmux->wait_for_exit()) << tmux->screen();
  EXPECT_EQ(tmux->exit_status(), 0);
}

TEST_F(InteractiveTest, AMessageTypedWhileWorkingIsDeliveredAtTheNextTurn) {
  server_.enqueue(MockReply::tool_calls(
      {{"call_1", "bash", json{{"command", blocked_until_released("echo built")}}.dump()}}));
  server_.enqueue(MockReply::text("Using tabs, as you asked."));
  auto tmux = start();
  send(*tmux, "build it");
  ASSERT_TRUE(tmux->wait_for_text("esc to interrupt")) << tmux->screen();
  send(*tmux, "use tabs please");
  ASSERT_TRUE(tmux->wait_for_text("queued: use tabs please")) << tmux->screen();

  dir_.write("release", "");
  ASSERT_TRUE(wait_for_answer(*tmux, "Using tabs, as you asked.")) << tmux->screen();
  const json sent = messages(1);
  ASSERT_GE(sent.size(), 2u);
  EXPECT_EQ(sent[sent.size() - 2]["role"], "tool");
  EXPECT_EQ(sent.back()["role"], "user");
  EXPECT_EQ(sent.back()["content"], "use tabs please");
  EXPECT_FALSE(contains(tmux->screen(), "queued:")) << tmux->screen();
  EXPECT_TRUE(contains(tmux->screen(), "> use tabs please")) << tmux->screen();
  quit(*tmux);
}

TEST_F(InteractiveTest, ModelCommandCompletesAndSwitchesTheModel) {
  auto tmux = start();
  tmux->type("/mo");
  ASSERT_TRUE(tmux->wait_for_text("/model [id]")) << tmux->screen();
  tmux->press("Tab");
  tmux->type("other-model");
  tmux->press("Enter");
  ASSERT_TRUE(tmux->wait_for_text("Model: other-model")) << tmux->screen();
  EXPECT_TRUE(tmux->wait_for_text("other-model · ")) << tmux->screen();  // the footer

  server_.enqueue(MockReply::text("Hello from the other model."));
  send(*tmux, "hi");
  ASSERT_TRUE(wait_for_answer(*tmux, "Hello from the other model.")) << tmux->screen();
  EXPECT_EQ(server_.requests().at(0).body["model"], "other-model");
  quit(*tmux);
}

TEST_F(InteractiveTest, ResumePicksAnEarlierSessionAndContinuesIt) {
  server_.enqueue(MockReply::text("The answer is 42."));
  const auto earlier = run_nib({"-p", "what is the answer?"}, dir_.path(), env());
  ASSERT_EQ(earlier.exit_code, 0) << earlier.err;

  auto tmux = start();
  send(*tmux, "/resume");
  ASSERT_TRUE(tmux->wait_for_text("what is the answer?")) << tmux->screen();
  tmux->press("Enter");
  ASSERT_TRUE(wait_for_answer(*tmux, "The answer is 42.")) << tmux->screen();
  EXPECT_TRUE(contains(tmux->screen(), "> what is the answer?")) << tmux->screen();

  server_.enqueue(MockReply::text("Still 42."));
  send(*tmux, "and now?");
  ASSERT_TRUE(wait_for_answer(*tmux, "Still 42.")) << tmux->screen();
  const json sent = messages(1);
  ASSERT_EQ(sent.size(), 4u);  // system, the earlier exchange, the new prompt
  EXPECT_EQ(sent[1]["content"], "what is the answer?");
  EXPECT_EQ(sent[3]["content"], "and now?");
  quit(*tmux);
}

// Esc twice on an empty editor opens the rewind: the prompt, then what to restore; the file
// comes back, the conversation goes on from before the prompt, whose text returns to the editor.
TEST_F(InteractiveTest, EscEscRewindsTheCodeAndTheConversation) {
  home_ = dir_.path() / "home";  // checkpoints are not taken of the home directory itself
  std::filesystem::create_directories(home_);
  dir_.write("notes.txt", "first\n");
  server_.enqueue(MockReply::tool_calls(
      {{"call_1", "bash", json{{"command", "echo changed > notes.txt"}}.dump()}}));
  server_.enqueue(MockReply::text("Changed the notes."));
  auto tmux = start();
  send(*tmux, "change the notes");
  ASSERT_TRUE(wait_for_answer(*tmux, "Changed the notes.")) << tmux->screen();
  ASSERT_EQ(file_contents(dir_.path() / "notes.txt"), "changed\n");

  tmux->press("Escape");
  tmux->press("Escape");
  ASSERT_TRUE(tmux->wait_for_text("1 file: notes.txt (+1 -1)")) << tmux->screen();
  tmux->press("Enter");
  ASSERT_TRUE(tmux->wait_for_text("Restore the code and the conversation")) << tmux->screen();
  tmux->press("Enter");
  ASSERT_TRUE(tmux->wait_for_text("Restored 1 file")) << tmux->screen();
  EXPECT_EQ(file_contents(dir_.path() / "notes.txt"), "first\n");
  EXPECT_FALSE(contains(tmux->screen(), "Changed the notes.")) << tmux->screen();

  server_.enqueue(MockReply::text("Starting afresh."));
  tmux->press("Enter");  // the prompt rewound to, back in the editor
  ASSERT_TRUE(wait_for_answer(*tmux, "Starting afresh.")) << tmux->screen();
  const std::string sent = messages(2).dump();
  EXPECT_FALSE(contains(sent, "Changed the notes.")) << sent;
  EXPECT_TRUE(contains(sent, "restored the files to their state at this point")) << sent;
  EXPECT_TRUE(contains(sent, "change the notes")) << sent;
  quit(*tmux);
}

TEST_F(InteractiveTest, ContinueShowsTheLatestSessionAndGoesOnWithIt) {
  server_.enqueue(MockReply::tool_calls({{"call_1", "bash", R"({"command":"echo built"})"}}));
  server_.enqueue(MockReply::text("The build works."));
  const auto earlier = run_nib({"-p", "does it build?"}, dir_.path(), env());
  ASSERT_EQ(earlier.exit_code, 0) << earlier.err;

  auto tmux = start({"-c"});
  ASSERT_TRUE(wait_for_answer(*tmux, "The build works.")) << tmux->screen();
  const std::string screen = tmux->screen();
  EXPECT_TRUE(contains(screen, "> does it build?")) << screen;
  EXPECT_TRUE(contains(screen, "✓ bash echo built\n  ⎿ built")) << screen;

  server_.enqueue(MockReply::text("Yes, still."));
  send(*tmux, "still?");
  ASSERT_TRUE(wait_for_answer(*tmux, "Yes, still.")) << tmux->screen();
  EXPECT_EQ(messages(2).size(), 6u);  // system, the earlier four messages, the new prompt
  quit(*tmux);
}

TEST_F(InteractiveTest, JobsListsTheBackgroundJobsKillsOneAndTheModelHearsOfIt) {
  server_.enqueue(MockReply::tool_calls(
      {{"call_1", "bash",
        json{{"command", "echo serving-now; exec sleep 987661"}, {"run_in_background", true}}
            .dump()}}));
  server_.enqueue(MockReply::text("It runs."));
  server_.enqueue(MockReply::text("Noted: it was stopped."));
  auto tmux = start({}, 160);  // the notice of the job's end fits on one line
  send(*tmux, "start the server");
  ASSERT_TRUE(wait_for_answer(*tmux, "● It runs.")) << tmux->screen();
  send(*tmux, "/jobs");
  ASSERT_TRUE(wait_for_answer(*tmux, "job 1 (`echo serving-now; exec sleep 987661`)"))
      << tmux->screen();
  EXPECT_TRUE(contains(tmux->screen(), "· 1 job")) << "the footer counts it: " << tmux->screen();
  send(*tmux, "/jobs log 1");
  ASSERT_TRUE(wait_for_answer(*tmux, "  serving-now")) << tmux->screen();
  send(*tmux, "/jobs kill 1");
  ASSERT_TRUE(wait_for_answer(*tmux, "Ending job 1")) << tmux->screen();
  // Shown once nothing of the job runs, without a key pressed; the footer stops counting it in
  // the same redraw.
  const std::string ended =
      "Background job 1 (`echo serving-now; exec sleep 987661`) has finished: killed by nib "
      "(the user (/jobs kill))";
  ASSERT_TRUE(wait_for_answer(*tmux, ended)) << tmux->screen();
  EXPECT_FALSE(contains(tmux->screen(), "· 1 job")) << tmux->screen();
  send(*tmux, "/jobs");
  const std::regex listed_killed(R"(- job 1 \(`[^`]*`\), pid [0-9]+: killed by nib \(the user)");
  ASSERT_TRUE(tmux->wait_for([&](const std::string& screen) {
    return std::regex_search(screen, listed_killed);
  })) << tmux->screen();

  send(*tmux, "is it up?");
  ASSERT_TRUE(wait_for_answer(*tmux, "● Noted: it was stopped.")) << tmux->screen();
  const std::string prompt = messages(2).back()["content"].dump();
  EXPECT_TRUE(contains(prompt,
                       "Background job 1 (`echo serving-now; exec sleep 987661`) has "
                       "finished: killed by nib (the user (/jobs kill))"))
      << prompt;
}

TEST_F(InteractiveTest, CtrlBMovesALongCommandIntoTheBackgroundWhereTheModelFindsAndKillsIt) {
  server_.enqueue(MockReply::tool_calls(
      {{"call_1", "bash",
        json{{"command", "echo $$ > pid; echo before-the-move; exec sleep 987671"}}.dump()}}));
  server_.enqueue(MockReply::tool_calls({{"call_2", "job_list", "{}"}}));
  server_.enqueue(MockReply::tool_calls({{"call_3", "job_kill", json{{"id", 1}}.dump()}}));
  server_.enqueue(MockReply::text("Stopped the job."));
  auto tmux = start();
  send(*tmux, "run the long one");
  const pid_t pid = wait_for_command_pid(*tmux, "ctrl+b to run in background");
  ASSERT_GT(pid, 0);

  tmux->press("C-b");
  ASSERT_TRUE(wait_for_answer(*tmux, "● Stopped the job.")) << tmux->screen();
  EXPECT_TRUE(contains(tmux->history(), "Moving the running bash call into the background"))
      << tmux->history();
  std::map<std::string, std::string> results;
  for (const json& message : messages(3)) {
    if (message["role"] == "tool")
      results[message["tool_call_id"]] = message["content"].get<std::string>();
  }
  EXPECT_TRUE(contains(results["call_1"], "job 1: the user moved this command into the background"))
      << results["call_1"];
  EXPECT_TRUE(contains(results["call_1"], "Output before the move:\nbefore-the-move\n"))
      << results["call_1"];
  EXPECT_TRUE(contains(results["call_2"],
                       "job 1 (`echo $$ > pid; echo before-the-move; exec "
                       "sleep 987671`), pid "))
      << results["call_2"];
  EXPECT_TRUE(contains(results["call_2"], ": running for ")) << results["call_2"];
  EXPECT_TRUE(contains(results["call_3"], "killed by nib (job_kill)")) << results["call_3"];
  EXPECT_TRUE(tmux->wait_for([pid](const std::string&) { return kill(pid, 0) != 0; }))
      << "the command is still running";
  send(*tmux, "/jobs");
  ASSERT_TRUE(wait_for_answer(*tmux, "job 1 (`echo $$ > pid")) << tmux->screen();
  EXPECT_FALSE(contains(tmux->screen(), "· 1 job")) << "nothing runs: " << tmux->screen();
  quit(*tmux);
}

TEST_F(InteractiveTest, ThePlanIsShownAboveTheEditorAsItChangesAndComesBackWithContinue) {
  const std::string first = R"({"items":[{"content":"Write the parser","status":"in_progress"},)"
                            R"({"content":"Write tests","status":"pending"}]})";
  const std::string second = R"({"items":[{"content":"Write the parser","status":"completed"},)"
                             R"({"content":"Write tests","status":"in_progress"}]})";
  server_.enqueue(MockReply::tool_calls({{"call_1", "todo_write", first}}));
  server_.enqueue(MockReply::tool_calls(
      {{"call_2", "todo_write", second},
       {"call_3", "bash", json{{"command", blocked_until_released("echo ok")}}.dump()}}));
  server_.enqueue(MockReply::text("Halfway."));
  auto tmux = start();
  send(*tmux, "build it");
  // While the command runs, the second plan is already on screen, above the editor.
  ASSERT_TRUE(tmux->wait_for([](const std::string& screen) {
    return contains(screen, "Plan 1/2 done\n  ✔ Write the parser\n  ▶ Write tests\n");
  })) << tmux->screen();
  dir_.write("release", "");
  ASSERT_TRUE(wait_for_answer(*tmux, "Halfway.")) << tmux->screen();
  quit(*tmux);

  auto again = start({"-c"});
  ASSERT_TRUE(again->wait_for_text("Plan 1/2 done")) << again->screen();
  EXPECT_TRUE(contains(again->screen(), "  ▶ Write tests\n")) << again->screen();
  quit(*again);
}

TEST_F(InteractiveTest, SlashSkillLoadsItForTheNextMessageAndCommandsAreInHelp) {
  dir_.write(".claude/skills/release-notes/SKILL.md",
             "---\nname: release-notes\ndescription: Write release notes from the git log\n---\n"
             "List the changes since the last tag, grouped by kind.\n");
  dir_.write(".claude/commands/review.md",
             "---\ndescription: Review a file\nargument-hint: [file]\n---\n"
             "Review $1 on !`echo branch-$1`.\n");
  server_.enqueue(MockReply::text("Notes written."));
  server_.enqueue(MockReply::text("Reviewed."));
  auto tmux = start();
  tmux->type("/rev");
  ASSERT_TRUE(tmux->wait_for_text("/review [file]")) << tmux->screen();
  EXPECT_TRUE(contains(tmux->screen(), "Review a file (project)")) << tmux->screen();
  for (int i = 0; i < 4; ++i) tmux->press("BSpace");
  send(*tmux, "/help");
  ASSERT_TRUE(tmux->wait_for_text("Your commands and skills (a built-in command wins"))
      << tmux->screen();
  EXPECT_TRUE(contains(tmux->screen(), "/release-notes")) << tmux->screen();

  send(*tmux, "/release-notes");
  ASSERT_TRUE(tmux->wait_for_text("Skill release-notes loaded")) << tmux->screen();
  EXPECT_TRUE(server_.requests().empty());
  send(*tmux, "for 2.0");
  ASSERT_TRUE(wait_for_answer(*tmux, "Notes written.")) << tmux->screen();
  // The skill's instructions, then the prompt.
  const std::string sent = messages(0).back()["content"];
  EXPECT_TRUE(contains(sent, "<skill name=\"release-notes\"")) << sent;
  EXPECT_TRUE(contains(sent, "grouped by kind.\n</skill>\n\nfor 2.0")) << sent;

  send(*tmux, "/review main.cpp");
  ASSERT_TRUE(wait_for_answer(*tmux, "Reviewed.")) << tmux->screen();
  // Its !`command` ran on the worker, through the gate and the sandbox, before it was sent.
  EXPECT_EQ(messages(1).back()["content"], "Review main.cpp on branch-main.cpp.");
  EXPECT_TRUE(contains(tmux->screen(), "> /review main.cpp")) << tmux->screen();
  quit(*tmux);
}

TEST_F(InteractiveTest, CompactSummarisesWithTheUsersInstructions) {
  server_.enqueue(MockReply::text("one"));
  server_.enqueue(MockReply::text("two"));
  server_.enqueue(MockReply::text("The user counted: one."));  // the summary
  server_.enqueue(MockReply::text("three"));
  auto tmux = start();
  send(*tmux, "first");
  ASSERT_TRUE(wait_for_answer(*tmux, "● one")) << tmux->screen();
  send(*tmux, "second");
  ASSERT_TRUE(wait_for_answer(*tmux, "● two")) << tmux->screen();
  send(*tmux, "/compact keep the numbers");
  ASSERT_TRUE(wait_for_answer(*tmux, "compacted: ~")) << tmux->screen();
  EXPECT_TRUE(contains(server_.requests().at(2).raw_body, "keep the numbers"));

  send(*tmux, "third");
  ASSERT_TRUE(wait_for_answer(*tmux, "● three")) << tmux->screen();
  const json sent = messages(3);
  // system, the summary, the latest message (the reply "two"), the new prompt
  ASSERT_EQ(sent.size(), 4u) << sent.dump();
  EXPECT_TRUE(contains(sent[1]["content"].dump(), "The user counted: one.")) << sent.dump();
  EXPECT_EQ(sent[2]["content"], "two");
  EXPECT_EQ(sent[3]["content"], "third");

  send(*tmux, "/session");
  ASSERT_TRUE(tmux->wait_for_text("Messages in context: 4")) << tmux->screen();
  quit(*tmux);
}

TEST_F(InteractiveTest, ClearStartsANewSession) {
  server_.enqueue(MockReply::text("remembered"));
  server_.enqueue(MockReply::text("fresh"));
  auto tmux = start();
  send(*tmux, "remember this");
  ASSERT_TRUE(wait_for_answer(*tmux, "● remembered")) << tmux->screen();
  send(*tmux, "/clear");
  ASSERT_TRUE(tmux->wait_for_text("New session.")) << tmux->screen();
  EXPECT_FALSE(contains(tmux->screen(), "remembered")) << tmux->screen();
  send(*tmux, "hello");
  ASSERT_TRUE(wait_for_answer(*tmux, "● fresh")) << tmux->screen();
  EXPECT_EQ(messages(1).size(), 2u);  // system and the new prompt only
  quit(*tmux);
}

// The sandbox follows the mode as it changes: a session started in yolo runs its command
// unconfined, and after Shift+Tab to auto the next command is confined again (judged on the host:
// the file outside the tree is not written).
TEST_F(InteractiveTest, ShiftTabFromYoloToAutoConfinesTheNextCommand) {
  // The home directory: read-only in the sandbox (the temp directories are writable).
  const TempDir home;
  home_ = home.path();
  const std::string first = (home.path() / "in-yolo.txt").string();
  const std::string second = (home.path() / "in-auto.txt").string();
  server_.enqueue(
      MockReply::tool_calls({{"call_1", "bash", json{{"command", "echo x > " + first}}.dump()}}));
  server_.enqueue(MockReply::text("one"));
  server_.enqueue(
      MockReply::tool_calls({{"call_2", "bash", json{{"command", "echo x > " + second}}.dump()}}));
  server_.enqueue(MockReply::text("two"));
  auto tmux = start({"--permission-mode", "yolo"});
  send(*tmux, "first");
  ASSERT_TRUE(wait_for_answer(*tmux, "● one")) << tmux->screen();
  EXPECT_TRUE(std::filesystem::exists(first)) << "yolo runs commands without the sandbox";
  tmux->press("BTab");
  ASSERT_TRUE(tmux->wait_for_text("Permission mode: auto")) << tmux->screen();
  send(*tmux, "second");
  ASSERT_TRUE(wait_for_answer(*tmux, "● two")) << tmux->screen();
  EXPECT_FALSE(std::filesystem::exists(second)) << "auto confines it again";
  quit(*tmux);
}

// Hooks read the session and the mode from their owners at each event: after Shift+Tab they see
// the new mode, after /clear the new session (and SessionStart says "clear").
TEST_F(InteractiveTest, HooksSeeTheModeAndTheSessionAsTheyAreNow) {
  dir_.write(".nib/settings.json", R"json({"hooks": {
      "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "cat >> prompts.jsonl; echo >> prompts.jsonl"}]}],
      "SessionStart": [{"hooks": [{"type": "command", "command": "cat >> starts.jsonl; echo >> starts.jsonl"}]}]}})json");
  server_.enqueue(MockReply::text("one"));
  server_.enqueue(MockReply::text("two"));
  server_.enqueue(MockReply::text("three"));
  auto tmux = start();
  send(*tmux, "first");
  ASSERT_TRUE(wait_for_answer(*tmux, "● one")) << tmux->screen();
  tmux->press("BTab");  // auto → ask
  ASSERT_TRUE(tmux->wait_for_text("Permission mode: ask")) << tmux->screen();
  send(*tmux, "second");
  ASSERT_TRUE(wait_for_answer(*tmux, "● two")) << tmux->screen();
  send(*tmux, "/clear");
  ASSERT_TRUE(tmux->wait_for_text("New session.")) << tmux->screen();
  send(*tmux, "third");
  ASSERT_TRUE(wait_for_answer(*tmux, "● three")) << tmux->screen();
  quit(*tmux);
  std::vector<json> prompts;
  std::istringstream lines(file_contents(dir_.path() / "prompts.jsonl"));
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) prompts.push_back(json::parse(line));
  }
  ASSERT_EQ(prompts.size(), 3u);
  EXPECT_EQ(prompts[0]["permission_mode"], "acceptEdits");
  EXPECT_EQ(prompts[1]["permission_mode"], "default");
  EXPECT_EQ(prompts[1]["session_id"], prompts[0]["session_id"]);
  EXPECT_NE(prompts[2]["session_id"], prompts[0]["session_id"]) << "/clear started a new one";
  EXPECT_NE(prompts[2]["transcript_path"], prompts[0]["transcript_path"]);
  const std::string starts = file_contents(dir_.path() / "starts.jsonl");
  EXPECT_TRUE(contains(starts, "\"source\":\"startup\"")) << starts;
  EXPECT_TRUE(contains(starts, "\"source\":\"clear\"")) << starts;
}

TEST_F(InteractiveTest, AskedCallsWaitForTheUsersAnswer) {
  server_.enqueue(MockReply::tool_calls({{"call_1", "bash", R"({"command":"touch made"})"}}));
  server_.enqueue(MockReply::text("Understood, I will not."));
  auto tmux = start({"--ask", "bash"});
  send(*tmux, "make a file");
  ASSERT_TRUE(tmux->wait_for_text("Allow bash touch made?")) << tmux->screen();
  tmux->type("n");
  ASSERT_TRUE(wait_for_answer(*tmux, "Understood, I will not.")) << tmux->screen();
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "made"));
  const json sent = messages(1);
  EXPECT_EQ(sent.back()["role"], "tool");
  EXPECT_TRUE(contains(sent.back()["content"].dump(), "declined")) << sent.back().dump();
  quit(*tmux);
}

TEST_F(InteractiveTest, TheApprovalOfAnEditShowsItsDiffAndYesAppliesExactlyIt) {
  dir_.write("app.py", "import os\nprint('old')\nos.exit(0)\n");
  server_.enqueue(MockReply::tool_calls({{"call_1", "read", R"({"path":"app.py"})"}}));
  server_.enqueue(MockReply::tool_calls(
      {{"call_2", "edit",
        R"j({"path":"app.py","oldText":"print('old')","newText":"print('new')\nprint('more')"})j"}}));
  server_.enqueue(MockReply::text("Edited."));
  auto tmux = start({"--permission-mode", "ask"});
  send(*tmux, "change it");
  ASSERT_TRUE(tmux->wait_for_text("Allow edit app.py?")) << tmux->screen();
  const std::string question = tmux->screen();
  EXPECT_TRUE(contains(question,
                       "Allow edit app.py?\n"
                       "  edit calls ask in ask mode\n"
                       "  ⎿ --- app.py\n"
                       "    +++ app.py\n"
                       "    @@ -1,3 +1,4 @@\n"
                       "     import os\n"
                       "    -print('old')\n"
                       "    +print('new')\n"
                       "    +print('more')\n"
                       "     os.exit(0)\n"
                       "  [y]es  [n]o  [a]lways"))
      << question;
  const std::string colours = tmux->screen_with_colors();
  EXPECT_TRUE(contains(colours, "\x1b[31m-print('old')")) << colours;
  EXPECT_TRUE(contains(colours, "\x1b[32m+print('new')")) << colours;
  EXPECT_EQ(file_contents(dir_.path() / "app.py"), "import os\nprint('old')\nos.exit(0)\n")
      << "nothing changes before the answer";

  tmux->type("y");
  ASSERT_TRUE(wait_for_answer(*tmux, "Edited.")) << tmux->screen();
  EXPECT_EQ(file_contents(dir_.path() / "app.py"),
            "import os\nprint('new')\nprint('more')\nos.exit(0)\n");
  EXPECT_TRUE(contains(messages(2).back()["content"].dump(), "1 edit applied"))
      << messages(2).back().dump();
  quit(*tmux);
}

TEST_F(InteractiveTest, ResizingReflowsTheConversation) {
  server_.enqueue(MockReply::text(std::string(20, 'w') + " " + std::string(20, 'x') + " end"));
  auto tmux = start({}, 100, 20);
  send(*tmux, "say it");
  ASSERT_TRUE(wait_for_answer(*tmux, " end")) << tmux->screen();
  tmux->resize(30, 20);
  // At 30 columns the reply wraps onto two rows and the footer is redrawn.
  ASSERT_TRUE(tmux->wait_for([](const std::string& screen) {
    return contains(screen, "● wwwwwwwwwwwwwwwwwwww\n") && contains(screen, "mock-model");
  })) << tmux->screen();
  quit(*tmux);
}

TEST_F(InteractiveTest, MultiLinePromptsByShiftEnterBackslashAndPaste) {
  server_.enqueue(MockReply::text("got it"));
  server_.enqueue(MockReply::text("got the paste"));
  auto tmux = start();
  tmux->type("line one");
  tmux->press("S-Enter");
  tmux->type("line two\\");
  tmux->press("Enter");  // after a backslash: a new line, not send
  tmux->type("line three");
  ASSERT_TRUE(tmux->wait_for_text("  line three")) << tmux->screen();
  tmux->press("Enter");
  ASSERT_TRUE(wait_for_answer(*tmux, "got it")) << tmux->screen();
  EXPECT_EQ(messages(0).back()["content"], "line one\nline two\nline three");

  // A paste's newlines stay in the text; only Enter sends it.
  tmux->send_raw("\x1b[200~first pasted\r\nsecond pasted\x1b[201~");
  ASSERT_TRUE(tmux->wait_for_text("  second pasted")) << tmux->screen();
  tmux->press("Enter");
  ASSERT_TRUE(wait_for_answer(*tmux, "got the paste")) << tmux->screen();
  EXPECT_EQ(messages(1).back()["content"], "first pasted\nsecond pasted");
  quit(*tmux);
}

TEST_F(InteractiveTest, CtrlZSuspendsToTheShellAndFgComesBack) {
  server_.enqueue(MockReply::text("still here"));
  // A shell with job control, which brings nib back to the foreground as soon as it stops.
  TmuxOptions options;
  options.command = {"/bin/bash", "--noprofile", "--norc", "-c",
                     std::string("set -m; '") + NIB_BINARY + "'; fg"};
  options.env = env();
  options.cwd = dir_.path();
  TmuxSession tmux(options);
  ASSERT_TRUE(tmux.wait_for_text("mock-model · ")) << tmux.screen();
  tmux.press("C-z");
  ASSERT_TRUE(tmux.wait_for_text("Stopped")) << tmux.screen();
  send(tmux, "hello?");
  EXPECT_TRUE(wait_for_answer(tmux, "● still here")) << tmux.screen();
  EXPECT_TRUE(contains(tmux.screen(), "mock-model · ")) << tmux.screen();
  quit(tmux);
}

TEST_F(InteractiveTest, AnthropicThinkingIsOneDimLineAndTheFooterShowsTheWindowAndCost) {
  server_.enqueue(anthropic_thinking_then_text("Let me weigh the options.\nOption B is simpler.",
                                               "sig-1", "Go with **B**."));
  TmuxOptions options;
  options.command = {NIB_BINARY, "--model", "claude-sonnet-4-6", "--thinking", "high"};
  options.env = {{"ANTHROPIC_BASE_URL", server_.origin()}, {"ANTHROPIC_API_KEY", "sk-ant-test"}};
  options.cwd = dir_.path();
  TmuxSession tmux(options);
  ASSERT_TRUE(tmux.wait_for_text("claude-sonnet-4-6 (high)")) << tmux.screen();
  send(tmux, "A or B?");
  ASSERT_TRUE(wait_for_answer(tmux, "Go with B.")) << tmux.screen();
  const std::string screen = tmux.screen();
  EXPECT_TRUE(contains(screen, "✻ Let me weigh the options.\n")) << screen;
  EXPECT_FALSE(contains(screen, "Option B is simpler")) << screen;  // collapsed
  EXPECT_TRUE(contains(tmux.screen_with_colors(), "\x1b[2m")) << "thinking is dim";
  EXPECT_TRUE(contains(screen, "0% of 1.0M context")) << screen;
  EXPECT_TRUE(contains(screen, "$0.")) << screen;
  quit(tmux);
}

TEST_F(InteractiveTest, WithoutATerminalNibFallsBackToPrintMode) {
  server_.enqueue(MockReply::text("printed"));
  const auto result = run_nib({"say something"}, dir_.path(), env());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "printed\n");
  EXPECT_TRUE(contains(result.err, "print mode")) << result.err;
}

}  // namespace
}  // namespace nib::testing
