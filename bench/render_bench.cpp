// render_bench: what the interactive screen costs per update, in process, into a writer that
// only counts bytes (the terminal's own drawing is not nib's cost):
//   - a streaming reply: per text delta, the transcript's update, the Markdown re-render of the
//     reply so far, committing what overflows the screen, composing the frame and diffing it
//     (for replies of 2, 20 and 100 KB streamed in 40-byte deltas);
//   - a spinner tick with five tool calls running (only their rows change);
//   - an idle frame (nothing changed: the diff finds no row to write).
// "bytes_per_update" is what reaches the terminal. Google Benchmark; run by bench/run.

#include <benchmark/benchmark.h>

#include <string>

#include "ui/inline_renderer.hpp"
#include "ui/interactive_view.hpp"

namespace nib::ui {
namespace {

constexpr std::size_t kColumns = 120;
constexpr std::size_t kRows = 40;

// A reply with the constructs a model writes: headings, paragraphs, lists, code.
std::string reply_of(std::size_t bytes) {
  static const std::string kPiece =
      "## Step\n\nThe **parser** reads `input.json` and then walks every entry, keeping the "
      "ones that match the filter the user gave.\n\n- first item with some words\n- second "
      "item, a little longer than the first one\n\n```cpp\nfor (auto& entry : entries) "
      "keep(entry);\n```\n\n";
  std::string text;
  while (text.size() < bytes) text += kPiece;
  text.resize(bytes);
  return text;
}

struct Screen {
  std::size_t written = 0;
  InlineRenderer renderer{[this](std::string_view bytes) { written += bytes.size(); }, kColumns,
                          kRows};
  Transcript transcript;
  LineEditor editor;
  InteractiveView view;
  ViewState state;

  Screen() {
    state.editor = &editor;
    state.footer.model = "gpt-5.4";
    state.footer.cwd = "/home/user/src/project";
    state.working = true;
  }

  void update(UiClock::time_point now) {
    const ScreenUpdate update = view.update(transcript, state, renderer.width(), kRows, now);
    renderer.update(update.committed, update.live);
  }
};

void BM_StreamReply(benchmark::State& state) {
  const std::string text = reply_of(static_cast<std::size_t>(state.range(0)) * 1024);
  std::size_t updates = 0;
  std::size_t bytes = 0;
  for (auto _ : state) {
    Screen screen;
    const auto now = UiClock::now();
    screen.transcript.on_event(core::TurnStartEvent{1}, now);
    for (std::size_t pos = 0; pos < text.size(); pos += 40) {
      screen.transcript.on_event(core::TextDeltaEvent{text.substr(pos, 40)}, now);
      screen.update(now);
      ++updates;
    }
    bytes += screen.written;
  }
  state.counters["us_per_update"] = benchmark::Counter(
      static_cast<double>(updates), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["bytes_per_update"] = static_cast<double>(bytes) / static_cast<double>(updates);
}
BENCHMARK(BM_StreamReply)->Arg(2)->Arg(20)->Arg(100)->Unit(benchmark::kMillisecond);

void BM_SpinnerTick(benchmark::State& state) {
  Screen screen;
  auto now = UiClock::now();
  for (int i = 0; i < 5; ++i) {
    const std::string id = "call_" + std::to_string(i);
    screen.transcript.on_event(core::ToolStartEvent{id, "bash", R"({"command":"make test"})"}, now);
    screen.transcript.on_event(core::ToolRunningEvent{id, "bash"}, now);
  }
  screen.update(now);
  std::size_t ticks = 0;
  const std::size_t before = screen.written;
  for (auto _ : state) {
    now += kSpinnerFrame;
    screen.update(now);
    ++ticks;
  }
  state.counters["bytes_per_update"] =
      static_cast<double>(screen.written - before) / static_cast<double>(ticks);
}
BENCHMARK(BM_SpinnerTick)->Unit(benchmark::kMicrosecond);

void BM_IdleFrame(benchmark::State& state) {
  Screen screen;
  screen.state.working = false;
  const auto now = UiClock::now();
  screen.update(now);
  std::size_t frames = 0;
  const std::size_t before = screen.written;
  for (auto _ : state) {
    screen.update(now);
    ++frames;
  }
  state.counters["bytes_per_update"] =
      static_cast<double>(screen.written - before) / static_cast<double>(frames);
}
BENCHMARK(BM_IdleFrame)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace nib::ui

BENCHMARK_MAIN();
