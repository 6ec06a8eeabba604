// web_fetch_bench: what web_fetch costs on a large documentation-like page (headings,
// paragraphs with links, code blocks, tables, lists, scripts), 1 MB and 2 MB of HTML:
//   - the whole call through the tool against a local web server (GET over loopback, charset
//     decoding, libgumbo's parse, the conversion, the cut to max_chars and the saved full text);
//   - html_to_text alone, to tell the conversion from the transfer.
// Peak RSS is reported as a counter. Google Benchmark; never part of CI.

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <string>

#include "support/temp_dir.hpp"
#include "support/web_server.hpp"
#include "tools/html_text.hpp"
#include "tools/web_fetch.hpp"

namespace nib::tools {
namespace {

// One section of a documentation page, about 1.6 KB of HTML.
std::string section(int index) {
  const std::string n = std::to_string(index);
  return "<section><h2 id=\"s" + n + "\">Section " + n +
         "</h2>\n<p>The <code>widget</code> option controls how each <a href=\"../api/w" + n +
         ".html\">widget</a> is drawn; see <a href=\"https://example.org/faq#" + n +
         "\">the FAQ</a> and the <strong>notes</strong> below. Defaults differ between "
         "versions, so check the <em>changelog</em>.</p>\n"
         "<ul><li>First point about item " +
         n + "</li><li>Second point with <a href=\"/x/" + n +
         "\">a link</a></li><li>Third point</li></ul>\n"
         "<pre class=\"language-cpp\"><code>int widget_" +
         n +
         "(int size) {\n  return size * 2;  // doubled\n}\n</code></pre>\n"
         "<table><thead><tr><th>Name</th><th>Default</th><th>Meaning</th></tr></thead><tbody>"
         "<tr><td>size</td><td>3</td><td>How big</td></tr><tr><td>colour</td><td>red</td><td>"
         "The colour</td></tr></tbody></table>\n"
         "<script>window.track && track('s" +
         n +
         "');</script>\n"
         "<blockquote><p>A quoted remark number " +
         n + ".</p></blockquote></section>\n";
}

std::string page_of(std::size_t bytes) {
  std::string html =
      "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Big docs</title>"
      "<style>body{margin:0}</style></head><body><nav><a href=\"/\">Home</a></nav>"
      "<main><h1>Big documentation page</h1>\n";
  for (int i = 0; html.size() < bytes; ++i) html += section(i);
  return html + "</main></body></html>";
}

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

void BM_WebFetchCall(benchmark::State& state) {
  const std::string html = page_of(static_cast<std::size_t>(state.range(0)) << 20);
  testing::LocalWebServer server;
  // Served as application/octet-stream (sniffed as HTML by its doctype): cpp-httplib would
  // otherwise brotli-compress a text/html body at quality 11 for every request, seconds of
  // server time that a real site (which compresses once, or quickly) does not spend.
  server.page("/docs.html", testing::WebPage{200, "application/octet-stream", html, {}});
  testing::TempDir logs;
  WebFetchOptions options;
  options.fetch.allowed_addresses = {"127.0.0.1"};
  options.create_log = process::private_logs_in(logs.path() / "logs");
  const core::ToolPtr tool = make_web_fetch_tool(std::move(options));
  for (auto _ : state) {
    const core::ToolOutput result =
        tool->execute({{"url", server.url("/docs.html")}}, {}, {"bench", logs.path()});
    if (result.is_error) state.SkipWithError(result.output.c_str());
    benchmark::DoNotOptimize(result.output.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * html.size()));
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}
BENCHMARK(BM_WebFetchCall)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_HtmlToText(benchmark::State& state) {
  const std::string html = page_of(static_cast<std::size_t>(state.range(0)) << 20);
  std::size_t chars = 0;
  for (auto _ : state) {
    const HtmlText text = html_to_text(html, "https://docs.example.com/guide/index.html");
    chars = text.text.size();
    benchmark::DoNotOptimize(text.text.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * html.size()));
  state.counters["text_bytes"] = static_cast<double>(chars);
}
BENCHMARK(BM_HtmlToText)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace nib::tools

BENCHMARK_MAIN();
