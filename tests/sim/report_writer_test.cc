#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/metrics_recorder.h"
#include "sim/report/internal/text.h"
#include "sim/report/run_report.h"
#include "sim/report_test_util.h"

namespace berth::sim::report {
namespace BERTH_UNITY_ID {

using testing::ChartKeys;
using testing::MakeCurveRun;
using testing::MakeRun;
using testing::Options;

TEST(SummaryJsonTest, HasVersionRunsAndMetrics) {
  const std::vector<RunReport> runs = {MakeRun("fifo", 1), MakeRun("fifo", 2)};
  const nlohmann::json j = nlohmann::json::parse(RenderSummaryJson(runs, Options()));
  EXPECT_EQ(j["berth_version"], "0.1.0-test");
  ASSERT_EQ(j["runs"].size(), 2u);
  const auto& r = j["runs"][1];
  EXPECT_EQ(r["run"], 1);
  EXPECT_EQ(r["policy"], "fifo");
  EXPECT_EQ(r["seed"], 2);
  EXPECT_EQ(r["trace"], "unit");
  const auto& m = r["metrics"];
  for (const char* key : {"gpu_allocation_pct",
                          "frag_pct",
                          "jobs",
                          "wait_s",
                          "jct_s",
                          "by_queue",
                          "by_class",
                          "makespan_s",
                          "preemptions",
                          "preemption_gpu_hours_lost",
                          "failures",
                          "failure_gpu_hours_lost",
                          "recovery_s",
                          "jobs_not_recovered",
                          "failure_recovery_s",
                          "failure_events_not_recovered",
                          "failure_events",
                          "utilisation_by_flavor",
                          "utilisation_by_gpu_model",
                          "tenants",
                          "jain_index",
                          "custom_figure"}) {
    EXPECT_TRUE(m.contains(key)) << key;
  }
  // The node failure hit one job, which ran again 4 s later.
  ASSERT_EQ(m["failure_events"].size(), 1u);
  EXPECT_EQ(m["failure_events"][0]["what"], "node n<1>");
  EXPECT_EQ(m["failure_events"][0]["jobs_hit"], 1);
  EXPECT_EQ(m["failure_events"][0]["recovered_after_s"], 4.0);
  EXPECT_DOUBLE_EQ(m["failure_events"][0]["t_s"].get<double>(),
                   static_cast<double>(runs[1].metrics.failure_events[0].t_ms) / 1000);
  EXPECT_EQ(m["failure_recovery_s"]["count"], 1);
  EXPECT_EQ(m["failure_recovery_s"]["max"], 4.0);
  EXPECT_EQ(m["failure_events_not_recovered"], 0);
  // Utilisation per flavor and model, in name order, as the recorder measured it.
  const auto& flavors = m["utilisation_by_flavor"];
  ASSERT_EQ(flavors.size(), 2u);
  EXPECT_EQ(flavors.begin().key(), "on-demand");
  ASSERT_TRUE(runs[1].metrics.by_flavor[1].allocated_pct.has_value());
  EXPECT_DOUBLE_EQ(flavors["spot"]["allocated_pct"].get<double>(),
                   *runs[1].metrics.by_flavor[1].allocated_pct);
  EXPECT_GT(flavors["spot"]["gpu_hours_allocated"].get<double>(), 0);
  EXPECT_TRUE(m["utilisation_by_gpu_model"].contains("H100"));
  EXPECT_EQ(m["jobs"]["submitted"], 40);
  EXPECT_EQ(m["preemptions"], 1);
  EXPECT_EQ(m["failures"], 1);
  for (const char* key : {"count", "mean", "p50", "p95", "p99", "max"}) {
    EXPECT_TRUE(m["jct_s"].contains(key)) << key;
  }
  EXPECT_EQ(m["jct_s"]["count"], 40);
  EXPECT_TRUE(m["by_queue"].contains("q-a"));
  EXPECT_EQ(m["tenants"][0]["tenant"], "team-a");
  EXPECT_EQ(m["tenants"][0]["entitlement"], 0.5);
  EXPECT_FALSE(r.contains("allocation_pct_by_arrived_pct"));
  EXPECT_FALSE(j.contains("comparison"));  // one policy
  EXPECT_DOUBLE_EQ(m["gpu_allocation_pct"].get<double>(), runs[1].metrics.gpu_allocation_pct);
}

TEST(SummaryJsonTest, ArrivedCurveHasEveryWholePercentInOrder) {
  const std::vector<RunReport> runs = {MakeCurveRun("fgd", 42, 95.25)};
  const std::string text = RenderSummaryJson(runs, Options());
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(text);
  const auto& run = j["runs"][0];
  const auto& curve = run["allocation_pct_by_arrived_pct"];
  ASSERT_EQ(curve.size(), 131u);
  int expect = 0;
  for (auto it = curve.begin(); it != curve.end(); ++it, ++expect) {
    EXPECT_EQ(it.key(), std::to_string(expect));
  }
  EXPECT_EQ(curve["100"], 95.25);
  EXPECT_DOUBLE_EQ(run["metrics"]["unallocated_gpu_pct_at_arrived_100"].get<double>(), 4.75);
  // No jobs and no capacity samples: no job or time-weighted figures.
  EXPECT_FALSE(run["metrics"].contains("jct_s"));
  EXPECT_FALSE(run["metrics"].contains("gpu_allocation_pct"));
}

TEST(SummaryJsonTest, ComparisonGivesMeanAndSampleSdPerPolicy) {
  const std::vector<RunReport> runs = {MakeCurveRun("fgd", 42, 95), MakeCurveRun("fgd", 43, 97),
                                       MakeCurveRun("bestfit", 42, 92),
                                       MakeCurveRun("bestfit", 43, 93)};
  const nlohmann::json j = nlohmann::json::parse(RenderSummaryJson(runs, Options()));
  ASSERT_TRUE(j.contains("comparison"));
  const auto& groups = j["comparison"]["groups"];
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0]["policy"], "fgd");  // first appearance order
  EXPECT_EQ(groups[0]["runs"], 2);
  EXPECT_EQ(groups[0]["seeds"], nlohmann::json::array({42, 43}));
  const auto& fgd = groups[0]["metrics"]["unallocated_gpu_pct_at_arrived_100"];
  EXPECT_DOUBLE_EQ(fgd["mean"].get<double>(), 4.0);           // 5 and 3
  EXPECT_DOUBLE_EQ(fgd["sd"].get<double>(), std::sqrt(2.0));  // (1 + 1) / (2 - 1)
  EXPECT_EQ(fgd["n"], 2);
  const auto& bf = groups[1]["metrics"]["unallocated_gpu_pct_at_arrived_100"];
  EXPECT_DOUBLE_EQ(bf["mean"].get<double>(), 7.5);
}

TEST(MetricsCsvTest, HeaderAndOneLinePerIntervalOfEveryRun) {
  const std::vector<RunReport> runs = {MakeRun("fifo", 1), MakeRun("drf", 2, "q-c")};
  const std::string csv = RenderMetricsCsv(runs);
  std::istringstream in(csv);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header,
            "run,trace,policy,seed,start_s,end_s,allocated_pct,frag_pct,running,pending,"
            "submitted,started,finished,preemptions,failures,preemption_gpu_hours_lost,"
            "failure_gpu_hours_lost,pending:q-a,pending:q-b,pending:q-c,"
            "allocated_pct:flavor:on-demand,allocated_pct:flavor:spot,"
            "allocated_pct:gpu_model:A100,allocated_pct:gpu_model:H100");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), runs[0].metrics.rows.size() + runs[1].metrics.rows.size());
  EXPECT_EQ(lines.front().rfind("0,unit,fifo,1,0.000,60.000,", 0), 0u) << lines.front();
  EXPECT_EQ(lines.back().rfind("1,unit,drf,2,", 0), 0u);
  // Every line has as many fields as the header.
  for (const std::string& line : lines) {
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), 23) << line;
  }
  // The first interval's spot column is the recorder's figure for it (flavor index 0).
  const double spot = runs[0].metrics.rows[0].allocated_pct_by_flavor[0];
  EXPECT_NE(lines.front().find("," + internal::FormatFixed(spot, 4) + ","), std::string::npos)
      << lines.front();
  // The submitted column adds up to the jobs of both runs.
  int64_t submitted = 0;
  for (const std::string& line : lines) {
    std::istringstream fields(line);
    std::string f;
    for (int i = 0; i <= 10; ++i) std::getline(fields, f, ',');
    submitted += std::stoll(f);
  }
  EXPECT_EQ(submitted, 80);
}

TEST(MetricsCsvTest, LabelsARunDoesNotHaveAreEmptyAndLostWorkAddsUp) {
  RunReport unlabelled;
  unlabelled.policy = "plain";
  unlabelled.trace = "unit";
  {
    MetricsRecorder r({.interval_ms = 1000, .entitlements = {}});
    JobIndex j = r.RecordSubmitted(0, {"t", "q", "c", 2000, 0, 0});
    r.RecordStarted(0, j);
    r.RecordPreempted(1500, j);  // 2 GPUs x 1.5 s lost
    unlabelled.metrics = r.Finish(2000);
  }
  const std::vector<RunReport> runs = {MakeRun("fifo", 1), unlabelled};
  std::istringstream in(RenderMetricsCsv(runs));
  std::string line;
  std::getline(in, line);  // header
  std::vector<std::string> plain;
  while (std::getline(in, line)) {
    if (line.rfind("1,", 0) == 0) plain.push_back(line);
  }
  ASSERT_EQ(plain.size(), 2u);
  // No flavor or model columns filled: the line ends in four empty fields.
  EXPECT_EQ(plain[1].substr(plain[1].size() - 4), ",,,,") << plain[1];
  // The preemption at 1.5 s is booked in [1, 2): 3 GPU-s = 0.000833 GPU-hours.
  EXPECT_NE(plain[1].find(",1,0,0.000833,0.000000,"), std::string::npos) << plain[1];
}

TEST(MetricsCsvTest, NamesWithCommasAreQuoted) {
  RunReport run = MakeRun("fifo", 1);
  run.trace = "a,b";
  run.policy = "say \"x\"";
  const std::string csv = RenderMetricsCsv({run});
  EXPECT_NE(csv.find("\n0,\"a,b\",\"say \"\"x\"\"\",1,"), std::string::npos);
}

// Checks that every element the page opens is closed in order (void and self-closing
// elements excepted) and returns the first problem, or "" when balanced.
std::string CheckBalanced(const std::string& html) {
  static const std::set<std::string> kVoid = {"meta", "br", "hr", "img", "input", "link"};
  std::vector<std::string> stack;
  for (size_t i = html.find('<'); i != std::string::npos; i = html.find('<', i + 1)) {
    if (html.compare(i, 2, "<!") == 0) continue;
    const size_t close = html.find('>', i);
    if (close == std::string::npos) return "unterminated tag at " + std::to_string(i);
    const bool closing = html[i + 1] == '/';
    size_t name_start = i + (closing ? 2 : 1);
    size_t name_end = name_start;
    while (name_end < close && (std::isalnum(static_cast<unsigned char>(html[name_end])) != 0)) {
      ++name_end;
    }
    const std::string name = html.substr(name_start, name_end - name_start);
    if (name.empty()) return "bad tag at " + std::to_string(i);
    if (closing) {
      if (stack.empty() || stack.back() != name) {
        return "</" + name + "> closes " + (stack.empty() ? "nothing" : stack.back());
      }
      stack.pop_back();
    } else if (html[close - 1] != '/' && kVoid.count(name) == 0) {
      stack.push_back(name);
    }
  }
  return stack.empty() ? "" : "unclosed <" + stack.back() + ">";
}

TEST(ReportHtmlTest, SelfContainedBalancedAndWithCharts) {
  const std::vector<RunReport> runs = {MakeRun("fifo", 1), MakeRun("fifo", 2), MakeRun("drf", 1),
                                       MakeRun("drf", 2)};
  const std::string html = RenderHtml(runs, Options());
  EXPECT_EQ(CheckBalanced(html), "");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);  // no URL of any kind: works offline
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  for (const char* title :
       {"GPU allocation over time", "Fragmented GPU", "Pending workloads per queue",
        "Waiting time (submission to first start), CDF", "Job completion time, CDF",
        "Dominant share per tenant", "Preemptions (cumulative)", "Failed attempts (cumulative)",
        "GPU utilisation per flavor", "GPU utilisation per GPU model", "Work lost to preemption",
        "Work rerun after failures", "Time to recover from a failure, CDF",
        "jobs that never came back", "<h2>Comparison</h2>", "alloc % spot", "recovery mean",
        "0.1.0-test"}) {
    EXPECT_NE(html.find(title), std::string::npos) << title;
  }
  for (const std::string& key : ChartKeys()) {
    EXPECT_NE(html.find("<figure data-chart=\"" + key + "\">"), std::string::npos) << key;
  }
  EXPECT_NE(html.find("&plusmn;"), std::string::npos);
}

TEST(ReportHtmlTest, FailureTableGivesMeansPerPolicy) {
  const std::string html = RenderHtml({MakeRun("fifo", 1), MakeRun("fifo", 2)}, Options());
  // One event per run hitting one job, 4 s to recover, nothing lost for good.
  const size_t row = html.find("<tr><td class=\"l\">fifo</td><td>2</td><td>1</td><td>1</td>");
  ASSERT_NE(row, std::string::npos) << html;
  // Times to recover in the CLI's units, the exact seconds in the tooltip.
  EXPECT_NE(html.find("<td title=\"4 s\">4s</td><td title=\"4 s\">4s</td><td>0</td><td>0</td></tr>",
                      row),
            std::string::npos);
  // Without failures there is no table and no recovery chart.
  RunReport calm;
  calm.policy = "calm";
  calm.trace = "unit";
  {
    MetricsRecorder r;
    JobIndex j = r.RecordSubmitted(0, {"t", "q", "c", 1000, 0, 0});
    r.RecordStarted(0, j);
    r.RecordFinished(1000, j);
    calm.metrics = r.Finish(1000);
  }
  const std::string quiet = RenderHtml({calm}, Options());
  EXPECT_EQ(quiet.find("jobs that never came back"), std::string::npos);
  EXPECT_EQ(quiet.find("recovery-cdf"), std::string::npos);
  EXPECT_EQ(quiet.find("utilisation-by-flavor"), std::string::npos);
  EXPECT_NE(quiet.find("No failures in any run."), std::string::npos);
}

TEST(ReportHtmlTest, ScenarioEventsAreMarkedOnTheTimeCharts) {
  std::vector<RunReport> runs = {MakeRun("fifo", 1), MakeRun("fifo", 2)};
  for (RunReport& run : runs) {
    run.events = {{2'000, "Drain n1"}, {4'000, "NodeFailure n2"}};
  }
  const std::string html = RenderHtml(runs, Options());
  const size_t fig = html.find("<figure data-chart=\"gpu-allocation\">");
  ASSERT_NE(fig, std::string::npos);
  const size_t end = html.find("</figure>", fig);
  const std::string chart = html.substr(fig, end - fig);
  // Two runs share the events: each is marked once, numbered, and listed under the chart.
  EXPECT_NE(chart.find("<title>1: 2s: Drain n1</title>"), std::string::npos) << chart;
  EXPECT_NE(chart.find("<title>2: 4s: NodeFailure n2</title>"), std::string::npos);
  EXPECT_EQ(chart.find("<title>3:"), std::string::npos);
  EXPECT_NE(chart.find("<ol class=\"events\"><li>2s: Drain n1</li><li>4s: NodeFailure n2</li></ol>"),
            std::string::npos);
  EXPECT_EQ(CheckBalanced(html), "");
  // Without events, no marker.
  EXPECT_EQ(RenderHtml({MakeRun("fifo", 1)}, Options()).find("class=\"ev\""), std::string::npos);
}

TEST(ReportHtmlTest, CdfOfOneSampleIsAVisibleStep) {
  RunReport run;
  run.policy = "one";
  run.trace = "unit";
  MetricsRecorder r;
  JobIndex j = r.RecordSubmitted(0, {"t", "q", "c", 1000, 0, 0});
  r.RecordStarted(5'000, j);
  r.RecordFinished(65'000, j);
  run.metrics = r.Finish(65'000);
  const std::string html = RenderHtml({run}, Options());
  const size_t fig = html.find("<figure data-chart=\"jct-cdf\">");
  ASSERT_NE(fig, std::string::npos);
  const size_t d = html.find("<path class=\"ln\" d=\"", fig);
  ASSERT_NE(d, std::string::npos);
  const std::string path = html.substr(d, html.find('"', d + 22) - d);
  // From 0 % at the sample up to 100 %: a vertical step, not a lone point.
  EXPECT_NE(path.find('V'), std::string::npos) << path;
}

TEST(ReportHtmlTest, OnePolicyHasNoComparisonAndCurvesHaveTheirChart) {
  const std::string one = RenderHtml({MakeRun("fifo", 1)}, Options());
  EXPECT_EQ(one.find("<h2>Comparison</h2>"), std::string::npos);
  EXPECT_EQ(CheckBalanced(one), "");
  const std::string curves =
      RenderHtml({MakeCurveRun("fgd", 42, 95), MakeCurveRun("random", 42, 86)}, Options());
  EXPECT_EQ(CheckBalanced(curves), "");
  EXPECT_NE(curves.find("GPU allocation by arrived workload"), std::string::npos);
  EXPECT_EQ(curves.find("over time"), std::string::npos);  // no time rows in such runs
}

TEST(ReportHtmlTest, EscapesEveryInputText) {
  RunReport run = MakeRun("<script>alert(1)</script>", 1, "q<&>");
  run.trace = "t\"'";
  ReportOptions options = Options();
  options.title = "a <b>";
  const std::string html = RenderHtml({run}, options);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("q&lt;&amp;&gt;"), std::string::npos);
  EXPECT_NE(html.find("t&quot;&#39;"), std::string::npos);
  EXPECT_NE(html.find("<title>a &lt;b&gt;</title>"), std::string::npos);
  EXPECT_EQ(CheckBalanced(html), "");
}

TEST(ReportDeterminismTest, SameRunsSameBytes) {
  const std::vector<RunReport> a = {MakeRun("fifo", 7), MakeRun("drf", 7),
                                    MakeCurveRun("fgd", 7, 95)};
  const std::vector<RunReport> b = {MakeRun("fifo", 7), MakeRun("drf", 7),
                                    MakeCurveRun("fgd", 7, 95)};
  EXPECT_EQ(RenderSummaryJson(a, Options()), RenderSummaryJson(b, Options()));
  EXPECT_EQ(RenderMetricsCsv(a), RenderMetricsCsv(b));
  EXPECT_EQ(RenderHtml(a, Options()), RenderHtml(b, Options()));
  // And a different seed changes the output (the check above can fail).
  const std::vector<RunReport> c = {MakeRun("fifo", 8), MakeRun("drf", 7),
                                    MakeCurveRun("fgd", 7, 95)};
  EXPECT_NE(RenderMetricsCsv(a), RenderMetricsCsv(c));
}

std::string ReadAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(WriteReportTest, WritesTheThreeFilesIntoANewDirectory) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("berth_report_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const std::vector<RunReport> runs = {MakeRun("fifo", 1), MakeRun("drf", 1)};
  ASSERT_TRUE(WriteReport((dir / "nested").string(), runs, Options()).ok());
  EXPECT_EQ(ReadAll(dir / "nested" / "summary.json"), RenderSummaryJson(runs, Options()));
  EXPECT_EQ(ReadAll(dir / "nested" / "metrics.csv"), RenderMetricsCsv(runs));
  EXPECT_EQ(ReadAll(dir / "nested" / "report.html"), RenderHtml(runs, Options()));
  EXPECT_FALSE(std::filesystem::exists(dir / "nested" / "report.html.tmp"));
  // Writing again replaces the files with the same bytes.
  ASSERT_TRUE(WriteReport((dir / "nested").string(), runs, Options()).ok());
  EXPECT_EQ(ReadAll(dir / "nested" / "metrics.csv"), RenderMetricsCsv(runs));

  // A file where the directory should be: an error naming the path.
  { std::ofstream(dir / "plain") << "x"; }
  core::Status bad = WriteReport((dir / "plain").string(), runs, Options());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code(), core::ErrorCode::kUnavailable);
  EXPECT_EQ(bad.error().location().file, (dir / "plain").string());
  core::Status empty = WriteReport((dir / "empty").string(), {}, Options());
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().code(), core::ErrorCode::kInvalidArgument);
  std::filesystem::remove_all(dir);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim::report
