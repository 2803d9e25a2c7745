// report.html in a real browser: writes a report of several policies with every chart, checks
// the file references nothing outside itself, then opens it in headless Chromium with the
// network unusable (proxy to a closed port, every host unresolvable) and checks that every
// chart is laid out with drawn marks of non-empty geometry, that the page loaded no resource,
// and that a screenshot of it is not blank (coloured chart pixels). Chromium is a test
// dependency (Debian package `chromium`, installed by scripts/install-deps.sh); without it the
// test fails, on purpose, rather than skipping: the issue's acceptance rests on it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/report/model_load_report.h"
#include "sim/report/run_report.h"
#include "sim/report_test_util.h"

namespace berth::sim::report {
namespace BERTH_UNITY_ID {

namespace fs = std::filesystem;

// BERTH_CHROMIUM when set, else the first of the usual names on PATH.
std::optional<std::string> FindChromium() {
  if (const char* env = std::getenv("BERTH_CHROMIUM"); env != nullptr && *env != '\0') {
    return std::string(env);
  }
  const char* path = std::getenv("PATH");
  if (path == nullptr) return std::nullopt;
  for (const char* name :
       {"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}) {
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');) {
      const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
  }
  return std::nullopt;
}

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// Runs Chromium headless on a local page; --dump-dom's output goes to dom_out. Returns "" on
// success, else the exit status and the end of Chromium's log.
std::string RunChromium(const std::string& chromium, const fs::path& dir, const fs::path& page,
                        const fs::path& dom_out, const std::string& extra_flags) {
  const fs::path log = dir / "chromium.log";
  const std::string cmd =
      "timeout -k 5 60 " + Quote(chromium) +
      " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run"
      " --no-default-browser-check --disable-extensions --disable-background-networking"
      " --disable-component-update --disable-sync --mute-audio --hide-scrollbars"
      // No network: every host is unresolvable and any fetch goes to a closed local port.
      " --host-resolver-rules='MAP * ~NOTFOUND' --proxy-server=127.0.0.1:9"
      " --user-data-dir=" +
      Quote((dir / "profile").string()) + " " + extra_flags + " --dump-dom " +
      Quote("file://" + page.string()) + " > " + Quote(dom_out.string()) + " 2> " +
      Quote(log.string());
  const int status = std::system(cmd.c_str());
  if (status == 0) return "";
  std::string tail = ReadFile(log);
  if (tail.size() > 2000) tail = tail.substr(tail.size() - 2000);
  return "chromium exited with status " + std::to_string(status) + "; its log ends:\n" + tail;
}

// The JSON a probe script left in <body data-NAME="...">, unescaped from the serialized DOM.
nlohmann::json ProbeResult(const std::string& dom, const std::string& name) {
  const std::string open = "data-" + name + "=\"";
  const size_t at = dom.find(open);
  if (at == std::string::npos) return nullptr;
  const size_t begin = at + open.size();
  const size_t end = dom.find('"', begin);
  if (end == std::string::npos) return nullptr;
  const std::string raw = dom.substr(begin, end - begin);
  std::string text;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '&') {
      text += raw[i];
      continue;
    }
    // The entities Chromium writes in attribute values.
    static const std::pair<std::string_view, std::string_view> kEntities[] = {
        {"&quot;", "\""}, {"&amp;", "&"}, {"&lt;", "<"},
        {"&gt;", ">"},    {"&#39;", "'"}, {"&nbsp;", "\xc2\xa0"}};
    const size_t semi = raw.find(';', i);
    const std::string_view entity = std::string_view(raw).substr(i, semi - i + 1);
    std::string_view decoded = entity;
    for (const auto& [name, value] : kEntities) {
      if (entity == name) decoded = value;
    }
    text += decoded;
    i = semi == std::string::npos ? raw.size() : semi;
  }
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

std::string Base64(const std::string& bytes) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) |
                       (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                       static_cast<uint8_t>(bytes[i + 2]);
    for (int shift : {18, 12, 6, 0}) out += kDigits[(v >> shift) & 63];
  }
  if (i < bytes.size()) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kDigits[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// Appended to a copy of the report (the report itself has no script): for every figure with a
// data-chart key, the laid-out size of its SVG and how many of its data marks (lines, bars,
// entitlement ticks) are visible, painted and have a non-empty bounding box.
constexpr const char* kLayoutProbe = R"(<script>
(() => {
  const out = {charts: [], resources: performance.getEntriesByType('resource').map(e => e.name)};
  for (const fig of document.querySelectorAll('figure[data-chart]')) {
    const svg = fig.querySelector('svg');
    const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
    let marks = 0, drawn = 0;
    for (const el of svg ? svg.querySelectorAll('path.ln, rect.bar, line.mark') : []) {
      ++marks;
      const b = el.getBBox();
      const st = getComputedStyle(el);
      const paint = el.tagName === 'rect' ? st.fill : st.stroke;
      if (st.display !== 'none' && st.visibility !== 'hidden' && paint !== 'none' &&
          (b.width > 0 || b.height > 0)) ++drawn;
    }
    out.charts.push({key: fig.dataset.chart, title: svg ? svg.getAttribute('aria-label') : '',
                     width: box.width, height: box.height, marks: marks, drawn: drawn});
  }
  document.body.setAttribute('data-probe', JSON.stringify(out));
})();
</script>
)";

// A page that draws a PNG (inline, as a data: URL) on a canvas and counts its non-white and
// coloured pixels (channel spread > 60: the charts' lines and bars, not text, grid or frame).
std::string PixelProbePage(const std::string& png) {
  return "<!DOCTYPE html><html><body><img id=\"shot\" src=\"data:image/png;base64," + Base64(png) +
         "\"><script>\n"
         "window.addEventListener('load', () => {\n"
         "  const img = document.getElementById('shot');\n"
         "  const c = document.createElement('canvas');\n"
         "  c.width = img.naturalWidth; c.height = img.naturalHeight;\n"
         "  const g = c.getContext('2d');\n"
         "  g.drawImage(img, 0, 0);\n"
         "  const d = g.getImageData(0, 0, c.width, c.height).data;\n"
         "  let nonwhite = 0, coloured = 0;\n"
         "  for (let k = 0; k < d.length; k += 4) {\n"
         "    const hi = Math.max(d[k], d[k + 1], d[k + 2]), lo = Math.min(d[k], d[k + 1], d[k + "
         "2]);\n"
         "    if (lo < 245) ++nonwhite;\n"
         "    if (hi - lo > 60) ++coloured;\n"
         "  }\n"
         "  document.body.setAttribute('data-pixels', JSON.stringify(\n"
         "      {width: c.width, height: c.height, nonwhite: nonwhite, coloured: coloured}));\n"
         "});\n"
         "</script></body></html>\n";
}

TEST(ReportBrowserTest, EveryChartRendersInHeadlessChromiumWithoutNetwork) {
  const std::optional<std::string> chromium = FindChromium();
  ASSERT_TRUE(chromium.has_value())
      << "headless Chromium is needed to test report.html and was not found on PATH (or in "
         "BERTH_CHROMIUM). Run `make test` or scripts/install-deps.sh, which install Debian's "
         "`chromium` package.";

  const fs::path dir =
      fs::temp_directory_path() / ("berth_report_browser_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  // Three policies (one over two seeds), queues that differ between runs, and an arrival-only
  // replay: every chart and both tables.
  const std::vector<RunReport> runs = {
      testing::MakeRun("fifo", 1), testing::MakeRun("fifo", 2), testing::MakeRun("drf", 1, "q-c"),
      testing::MakeCurveRun("fgd", 42, 95), testing::MakeCurveRun("random", 42, 86)};
  ASSERT_TRUE(WriteReport(dir.string(), runs, testing::Options()).ok());
  const std::string html = ReadFile(dir / "report.html");

  // Nothing outside the file: no URL, script, stylesheet, font, image or frame.
  for (const char* banned : {"http:", "https:", "//", "<script", "<link", "<img", "<iframe",
                             "<object", "<embed", "src=", "href=", "url(", "@import", "@font"}) {
    EXPECT_EQ(html.find(banned), std::string::npos) << "report.html contains " << banned;
  }

  // Layout: the report plus the probe script, rendered and screenshot in one run.
  std::string probe_page = html;
  probe_page.insert(probe_page.rfind("</body>"), kLayoutProbe);
  WriteFile(dir / "probe.html", probe_page);
  const fs::path shot = dir / "shot.png";
  const std::string error =
      RunChromium(*chromium, dir, dir / "probe.html", dir / "dom.html",
                  "--window-size=1200,2600 --screenshot=" + Quote(shot.string()));
  ASSERT_EQ(error, "");
  const nlohmann::json probe = ProbeResult(ReadFile(dir / "dom.html"), "probe");
  ASSERT_TRUE(probe.is_object()) << "the probe script left no result";
  EXPECT_TRUE(probe["resources"].empty()) << "the page loaded " << probe["resources"].dump();

  const std::vector<std::string> keys = testing::ChartKeys();
  std::set<std::string> expected(keys.begin(), keys.end());
  expected.insert("allocation-by-arrived");
  std::set<std::string> seen;
  for (const auto& chart : probe["charts"]) {
    const std::string key = chart["key"].get<std::string>();
    seen.insert(key);
    SCOPED_TRACE(key + ": " + chart.dump());
    EXPECT_FALSE(chart["title"].get<std::string>().empty());
    EXPECT_GT(chart["width"].get<double>(), 300);  // laid out at a readable size
    EXPECT_GT(chart["height"].get<double>(), 100);
    EXPECT_GT(chart["marks"].get<int>(), 0);
    EXPECT_EQ(chart["drawn"], chart["marks"]);  // every line and bar has visible geometry
  }
  for (const std::string& key : expected) {
    EXPECT_EQ(seen.count(key), 1u) << "no chart " << key << " in the rendered page";
  }
  // One queue chart per policy with queues: fifo and drf.
  int queue_charts = 0;
  for (const auto& chart : probe["charts"]) queue_charts += chart["key"] == "queue-length" ? 1 : 0;
  EXPECT_EQ(queue_charts, 2);

  // Pixels: the screenshot shows coloured chart marks, not a blank or grey page.
  ASSERT_TRUE(fs::exists(shot)) << "chromium wrote no screenshot";
  WriteFile(dir / "pixels.html", PixelProbePage(ReadFile(shot)));
  ASSERT_EQ(RunChromium(*chromium, dir, dir / "pixels.html", dir / "pixels_dom.html", ""), "");
  const nlohmann::json pixels = ProbeResult(ReadFile(dir / "pixels_dom.html"), "pixels");
  ASSERT_TRUE(pixels.is_object()) << "the pixel probe left no result";
  EXPECT_EQ(pixels["width"], 1200);
  EXPECT_EQ(pixels["height"], 2600);
  EXPECT_GT(pixels["nonwhite"].get<int>(), 20'000) << pixels.dump();
  EXPECT_GT(pixels["coloured"].get<int>(), 5'000) << pixels.dump();

  fs::remove_all(dir);
}

// A model-load study's report.html: every strategy's chart side by side, the combined chart
// and the percentile bars laid out at a readable size with every mark drawn, no resource
// loaded. The study is made by hand (the figures need not come from a run to be drawn).
TEST(ReportBrowserTest, ModelLoadStudyChartsRenderSideBySide) {
  const std::optional<std::string> chromium = FindChromium();
  ASSERT_TRUE(chromium.has_value()) << "headless Chromium is needed; see the test above";
  const fs::path dir =
      fs::temp_directory_path() / ("berth_model_load_browser_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  modelload::StudyResult study;
  study.name = "s";
  study.service = "serve/llm";
  study.artifact = "model/llm";
  study.model_bytes = int64_t{3} << 30;
  study.origin = "s3://bucket (r1)";
  study.replicas = 4;
  study.nodes = 2;
  for (const char* name : {"storm", "p2p", "warm"}) {
    modelload::StrategyResult r;
    r.strategy.name = name;
    r.ready_s = {60, 120, 600, 660};
    r.load_s = Summarize(r.ready_s);
    r.all_ready = true;
    r.all_ready_s = 660;
    r.by_source = {{"origin", 2}, {"node-cache", 2}};
    study.strategies.push_back(std::move(r));
  }
  ASSERT_TRUE(WriteModelLoadReport(dir.string(), study, testing::Options()).ok());
  const std::string html = ReadFile(dir / "report.html");
  // No reference outside the file ("//" alone may appear: the origin's "s3://bucket" is text).
  for (const char* banned :
       {"http:", "https:", "<script", "<link", "<img", "src=", "href=", "url(", "@import"}) {
    EXPECT_EQ(html.find(banned), std::string::npos) << "report.html contains " << banned;
  }
  std::string probe_page = html;
  probe_page.insert(probe_page.rfind("</body>"), kLayoutProbe);
  WriteFile(dir / "probe.html", probe_page);
  ASSERT_EQ(
      RunChromium(*chromium, dir, dir / "probe.html", dir / "dom.html", "--window-size=1200,2600"),
      "");
  const nlohmann::json probe = ProbeResult(ReadFile(dir / "dom.html"), "probe");
  ASSERT_TRUE(probe.is_object()) << "the probe script left no result";
  EXPECT_TRUE(probe["resources"].empty()) << "the page loaded " << probe["resources"].dump();
  std::set<std::string> seen;
  for (const auto& chart : probe["charts"]) {
    const std::string key = chart["key"].get<std::string>();
    seen.insert(key);
    SCOPED_TRACE(key + ": " + chart.dump());
    EXPECT_GT(chart["width"].get<double>(), 300);
    EXPECT_GT(chart["marks"].get<int>(), 0);
    EXPECT_EQ(chart["drawn"], chart["marks"]);
  }
  EXPECT_EQ(seen, (std::set<std::string>{"ready-storm", "ready-p2p", "ready-warm", "ready-all",
                                         "load-percentiles"}));
  fs::remove_all(dir);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim::report
