// Why one time axis for every small chart: the charts sit side by side so that a reader
// compares strategies by where each curve reaches the top; with an axis per chart a storm
// of 20 minutes and a warm start of one would look alike. Minutes throughout: model loads
// take seconds to hours, and the numbers under the charts are exact.
#include "sim/report/model_load_report.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/human_units.h"
#include "sim/report/internal/page_style.h"
#include "sim/report/internal/svg_chart.h"
#include "sim/report/internal/text.h"
#include "sim/report/internal/write_file.h"

namespace berth::sim::report {
namespace {

using Json = nlohmann::ordered_json;
using internal::HtmlEscape;
using modelload::StrategyResult;
using modelload::StudyResult;

constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;

// Charts side by side: as many 440-pixel columns as the page holds.
constexpr const char* kChartGridCss =
    ".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(440px,1fr));gap:4px 16px}\n"
    ".grid figure{margin:4px 0}\n";

std::string GiBText(int64_t bytes) {
  return internal::FormatShort(static_cast<double>(bytes) / kBytesPerGiB) + " GiB";
}

Json LoadDistribution(const DistributionSummary& d) {
  Json j = Json::object();
  j["count"] = d.count;
  j["mean"] = d.mean;
  j["p50"] = d.p50;
  j["p95"] = d.p95;
  j["p99"] = d.p99;
  j["max"] = d.max;
  return j;
}

// Replicas in GPU memory over time: a step up at each replica's ready time.
internal::Series ReadyOverTime(const StrategyResult& r, const std::string& color,
                               size_t max_points) {
  internal::Series s{r.strategy.name, color, {0}, {0}, 1.0, true};
  for (size_t i = 0; i < r.ready_s.size(); ++i) {
    s.x.push_back(r.ready_s[i] / 60);
    s.y.push_back(static_cast<double>(i + 1));
  }
  internal::Downsample(&s.x, &s.y, max_points);
  return s;
}

std::string SourceCounts(const StrategyResult& r) {
  std::string out;
  for (const auto& [source, n] : r.by_source) {
    out += (out.empty() ? "" : ", ") + source + " " + std::to_string(n);
  }
  return out.empty() ? "-" : out;
}

std::string StrategyTable(const StudyResult& study) {
  std::string out =
      "<table>\n<tr><th class=\"l\">strategy</th><th class=\"l\">setting</th><th>p50</th>"
      "<th>p95</th><th>p99</th><th>max</th><th>all ready</th><th>origin bytes</th>"
      "<th>peak origin pulls</th><th class=\"l\">replicas by source</th><th>warm-up</th>"
      "</tr>\n";
  for (const StrategyResult& r : study.strategies) {
    const auto& d = r.load_s;
    out += "<tr><td class=\"l\">" + HtmlEscape(r.strategy.name) + "</td><td class=\"l\">" +
           HtmlEscape(modelload::DescribeStrategy(r)) + "</td><td>" +
           core::HumanDuration(d.p50) + "</td><td>" + core::HumanDuration(d.p95) + "</td><td>" +
           core::HumanDuration(d.p99) + "</td><td>" + core::HumanDuration(d.max) + "</td><td>" +
           (r.all_ready ? core::HumanDuration(r.all_ready_s) : "never") + "</td><td>" +
           GiBText(r.origin_bytes) + "</td><td>" + std::to_string(r.peak_origin_pulls) +
           "</td><td class=\"l\">" + HtmlEscape(SourceCounts(r)) + "</td><td>" +
           (r.seed_nodes.empty()
                ? "-"
                : core::HumanDuration(r.warmup_s) + ", " + std::to_string(r.seed_nodes.size()) +
                      " seeds, " + GiBText(r.warmup_origin_bytes)) +
           "</td></tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace

std::string RenderModelLoadJson(const StudyResult& study, const ReportOptions& options) {
  Json j = Json::object();
  j["berth_version"] = options.berth_version;
  j["study"] = study.name;
  j["inference_service"] = study.service;
  j["artifact"] = study.artifact;
  j["model_bytes"] = study.model_bytes;
  j["origin"] = study.origin;
  j["replicas"] = study.replicas;
  j["unplaced"] = study.unplaced;
  j["nodes"] = study.nodes;
  Json strategies = Json::array();
  for (const StrategyResult& r : study.strategies) {
    Json s = Json::object();
    s["name"] = r.strategy.name;
    s["setting"] = modelload::DescribeStrategy(r);
    s["load_s"] = LoadDistribution(r.load_s);
    s["all_ready_s"] = r.all_ready ? Json(r.all_ready_s) : Json(nullptr);
    s["origin_bytes"] = r.origin_bytes;
    s["peak_origin_pulls"] = r.peak_origin_pulls;
    Json sources = Json::object();
    for (const auto& [source, n] : r.by_source) sources[source] = n;
    s["replicas_by_source"] = std::move(sources);
    s["forbidden"] = r.forbidden;
    s["warm_nodes"] = r.warm_nodes;
    if (!r.seed_nodes.empty()) {
      Json w = Json::object();
      w["seed_nodes"] = r.seed_nodes;
      w["duration_s"] = r.warmup_s;
      w["origin_bytes"] = r.warmup_origin_bytes;
      s["warmup"] = std::move(w);
    }
    strategies.push_back(std::move(s));
  }
  j["strategies"] = std::move(strategies);
  return j.dump(2) + "\n";
}

std::string RenderModelLoadHtml(const StudyResult& study, const ReportOptions& options) {
  const auto max_points = static_cast<size_t>(std::max(3, options.max_points_per_series));
  double x_max = 0;
  for (const StrategyResult& r : study.strategies) {
    if (!r.ready_s.empty()) x_max = std::max(x_max, r.ready_s.back() / 60);
  }
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<title>" + HtmlEscape(options.title) + "</title>\n<style>\n" + internal::kReportCss +
         kChartGridCss + "</style>\n</head>\n<body>\n<h1>" + HtmlEscape(options.title) + "</h1>\n";
  out += "<p class=\"meta\">InferenceService " + HtmlEscape(study.service) + " scaled out to " +
         std::to_string(study.replicas) + " replicas on " + std::to_string(study.nodes) + " nodes" +
         (study.unplaced > 0 ? " (" + std::to_string(study.unplaced) + " not placed)" : "") +
         " &middot; model " + HtmlEscape(study.artifact) + ", " + GiBText(study.model_bytes) +
         " from " + HtmlEscape(study.origin) + " &middot; " +
         std::to_string(study.strategies.size()) + " strategies</p>\n";
  out +=
      "<h2>Strategies</h2>\n<p class=\"note\">Load time: from the scale-out until the "
      "replica's model is in GPU memory. A staged warm-up runs before the scale-out; its "
      "duration and origin bytes are shown apart.</p>\n" +
      StrategyTable(study);

  out += "<h2>Replicas ready over time</h2>\n<div class=\"grid\">\n";
  for (size_t i = 0; i < study.strategies.size(); ++i) {
    const StrategyResult& r = study.strategies[i];
    internal::LineChart chart;
    chart.key = "ready-" + r.strategy.name;
    chart.title = r.strategy.name;
    chart.x_label = "minutes after the scale-out";
    chart.y_label = "replicas ready";
    chart.series.push_back(ReadyOverTime(r, internal::PaletteColor(i), max_points));
    chart.x_min = 0.0;
    chart.x_max = x_max;
    chart.y_min = 0.0;
    chart.y_max = static_cast<double>(study.replicas);
    out += internal::RenderLineChart(chart);
  }
  out += "</div>\n";

  internal::LineChart all;
  all.key = "ready-all";
  all.title = "All strategies";
  all.x_label = "minutes after the scale-out";
  all.y_label = "replicas ready";
  all.x_min = 0.0;
  all.y_min = 0.0;
  all.y_max = static_cast<double>(study.replicas);
  for (size_t i = 0; i < study.strategies.size(); ++i) {
    all.series.push_back(ReadyOverTime(study.strategies[i], internal::PaletteColor(i), max_points));
  }
  out += internal::RenderLineChart(all);

  out += "<h2>Load-time percentiles</h2>\n";
  internal::BarChart bars;
  bars.key = "load-percentiles";
  bars.title = "Load time (minutes)";
  bars.y_label = "minutes";
  bars.series_labels = {"p50", "p95", "p99"};
  bars.colors = {internal::PaletteColor(0), internal::PaletteColor(1), internal::PaletteColor(2)};
  for (const StrategyResult& r : study.strategies) {
    bars.groups.push_back(
        {r.strategy.name, {r.load_s.p50 / 60, r.load_s.p95 / 60, r.load_s.p99 / 60}, {}});
  }
  out += internal::RenderBarChart(bars);
  out += "<footer>" + HtmlEscape(options.berth_version) +
         " &middot; the same study gives the same page.</footer>\n</body>\n</html>\n";
  return out;
}

core::Status WriteModelLoadReport(const std::string& dir, const StudyResult& study,
                                  const ReportOptions& options) {
  BERTH_RETURN_IF_ERROR(internal::CreateReportDirectory(dir));
  const std::filesystem::path base(dir);
  BERTH_RETURN_IF_ERROR(
      internal::WriteFileAtomically(base / "summary.json", RenderModelLoadJson(study, options)));
  return internal::WriteFileAtomically(base / "report.html", RenderModelLoadHtml(study, options));
}

}  // namespace berth::sim::report
