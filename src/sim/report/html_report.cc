// report.html: one self-contained page (inline CSS, inline SVG drawn here, no script, no
// network) a person reads after `berth simulate`. Every text from the input is escaped.
// Lines of many seeds of one configuration share its colour, drawn translucent, so spread
// between seeds shows without a legend entry per run.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/core/virtual_clock.h"
#include "sim/report/internal/run_groups.h"
#include "sim/report/internal/svg_chart.h"
#include "sim/report/internal/text.h"
#include "sim/report/run_report.h"

namespace berth::sim::report {
namespace {

using internal::BarChart;
using internal::BarGroup;
using internal::FormatShort;
using internal::HtmlEscape;
using internal::LineChart;
using internal::RunGroup;
using internal::Series;

// The page's whole style sheet: no external font or file, so the page renders offline.
constexpr const char* kCss =
    "body{font:14px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;margin:24px "
    "auto;max-width:1100px;padding:0 16px;color:#222}\n"
    "h1{font-size:22px;margin:0 0 4px}\n"
    "h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}\n"
    "p.meta{color:#555;margin:0 0 12px}\n"
    "p.note{color:#666;font-size:13px}\n"
    "table{border-collapse:collapse;font-size:12.5px;margin:8px 0;display:block;overflow-x:auto}\n"
    "th,td{border:1px solid #ddd;padding:3px 7px;text-align:right;white-space:nowrap}\n"
    "th{background:#f4f4f4}\n"
    "td.l,th.l{text-align:left}\n"
    "figure{margin:10px 0 18px}\n"
    "svg{width:100%;max-width:820px;height:auto;display:block}\n"
    "svg text{font:11px system-ui,sans-serif;fill:#333}\n"
    "svg text.ct{font-size:13px;font-weight:600}\n"
    "svg text.yt{text-anchor:end;dominant-baseline:middle}\n"
    "svg text.xt,svg text.xl,svg text.yl{text-anchor:middle}\n"
    "svg text.empty{text-anchor:middle;fill:#999}\n"
    "svg .grid{stroke:#e6e6e6}\n"
    "svg .tick{stroke:#999}\n"
    "svg .plot{fill:none;stroke:#bbb}\n"
    "svg .ln{fill:none;stroke-width:1.6}\n"
    "svg .mark{stroke:#000;stroke-width:2.5}\n"
    ".legend{font-size:12px;margin:2px 0 0 64px}\n"
    ".key{margin-right:14px;white-space:nowrap}\n"
    ".sw{display:inline-block;width:11px;height:11px;margin-right:4px;vertical-align:-1px;border-"
    "radius:2px}\n"
    "footer{margin-top:32px;color:#888;font-size:12px}\n";

// Pretty column names of the known figures; others print as they are named.
std::string Pretty(const std::string& name) {
  static const std::map<std::string, std::string> kNames = {
      {"gpu_allocation_pct", "GPU alloc %"},
      {"frag_pct", "frag %"},
      {"unallocated_gpu_pct_at_arrived_100", "unalloc GPU % @100% arrived"},
      {"wait_mean_s", "wait mean s"},
      {"wait_p95_s", "wait p95 s"},
      {"jct_mean_s", "JCT mean s"},
      {"jct_p95_s", "JCT p95 s"},
      {"jct_p99_s", "JCT p99 s"},
      {"makespan_s", "makespan s"},
      {"jobs_finished", "finished"},
      {"preemptions", "preemptions"},
      {"preemption_gpu_hours_lost", "GPU-h lost to preemption"},
      {"failures", "failures"},
      {"failure_gpu_hours_lost", "GPU-h rerun after failures"},
      {"jobs_not_recovered", "not recovered"},
      {"jain_index", "Jain index"},
  };
  auto it = kNames.find(name);
  return it != kNames.end() ? it->second : name;
}

// The time unit of the x axes, picked from the longest run so labels stay short.
struct TimeUnit {
  double ms;
  const char* name;
};
TimeUnit PickUnit(const std::vector<RunReport>& runs) {
  int64_t span = 0;
  for (const RunReport& r : runs) {
    if (!r.metrics.rows.empty()) {
      span = std::max(span, r.metrics.rows.back().end_ms - r.metrics.rows.front().start_ms);
    }
  }
  if (span <= 2 * kMsPerHour) return {60.0 * kMsPerSecond, "minutes"};
  if (span <= 72 * kMsPerHour) return {static_cast<double>(kMsPerHour), "hours"};
  return {24.0 * kMsPerHour, "days"};
}

struct Context {
  const std::vector<RunReport>& runs;
  const ReportOptions& options;
  std::vector<RunGroup> groups;
  bool several_traces = false;
  TimeUnit unit{};
  size_t max_points = 400;

  std::string Label(size_t g) const { return internal::GroupLabel(groups[g], several_traces); }
  std::string Color(size_t g) const { return internal::PaletteColor(g); }
};

size_t RunsWithRows(const Context& c, size_t g) {
  size_t n = 0;
  for (size_t i : c.groups[g].runs) n += c.runs[i].metrics.rows.empty() ? 0 : 1;
  return n;
}

// One translucent line per run (opaque when its group has one run) of value(row).
template <typename ValueFn>
std::vector<Series> TimeSeries(const Context& c, ValueFn value) {
  std::vector<Series> out;
  for (size_t g = 0; g < c.groups.size(); ++g) {
    const double opacity = RunsWithRows(c, g) > 1 ? 0.45 : 1.0;
    for (size_t i : c.groups[g].runs) {
      const RunMetrics& m = c.runs[i].metrics;
      if (m.rows.empty()) continue;
      Series s{c.Label(g), c.Color(g), {}, {}, opacity, false};
      double acc = 0;
      for (const IntervalRow& row : m.rows) {
        const double mid = 0.5 * static_cast<double>(row.start_ms + row.end_ms);
        s.x.push_back(mid / c.unit.ms);
        s.y.push_back(value(row, &acc));
      }
      internal::Downsample(&s.x, &s.y, c.max_points);
      out.push_back(std::move(s));
    }
  }
  return out;
}

// CDF points (value, % of samples <= value), at most max_points quantiles of the samples.
Series Cdf(std::vector<double> samples, std::string label, std::string color, size_t max_points) {
  std::sort(samples.begin(), samples.end());
  Series s{std::move(label), std::move(color), {}, {}, 1.0, true};
  const size_t n = samples.size();
  const size_t k = std::min(n, max_points);
  for (size_t j = 1; j <= k; ++j) {
    const size_t idx = (j * n + k - 1) / k - 1;  // ceil(j*n/k) - 1
    s.x.push_back(samples[idx]);
    s.y.push_back(100.0 * static_cast<double>(idx + 1) / static_cast<double>(n));
  }
  return s;
}

std::string RunsTable(const Context& c) {
  std::vector<std::string> columns;
  std::vector<std::vector<internal::Scalar>> per_run;
  std::set<std::string> seen;
  for (const RunReport& r : c.runs) {
    per_run.push_back(internal::ScalarMetrics(r));
    for (const auto& s : per_run.back()) {
      if (seen.insert(s.name).second) columns.push_back(s.name);
    }
  }
  std::string out =
      "<table>\n<tr><th>run</th><th class=\"l\">trace</th><th class=\"l\">policy</th><th>seed</th>";
  for (const std::string& col : columns) out += "<th>" + HtmlEscape(Pretty(col)) + "</th>";
  out += "</tr>\n";
  for (size_t i = 0; i < c.runs.size(); ++i) {
    const RunReport& r = c.runs[i];
    out += "<tr><td>" + std::to_string(i) + "</td><td class=\"l\">" + HtmlEscape(r.trace) +
           "</td><td class=\"l\">" + HtmlEscape(r.policy) + "</td><td>" + std::to_string(r.seed) +
           "</td>";
    for (const std::string& col : columns) {
      auto it = std::find_if(per_run[i].begin(), per_run[i].end(),
                             [&](const internal::Scalar& s) { return s.name == col; });
      out += "<td>" + (it == per_run[i].end() ? std::string("&ndash;") : FormatShort(it->value)) +
             "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string ComparisonTable(const Context& c) {
  std::vector<std::string> columns;
  std::set<std::string> seen;
  std::vector<std::vector<internal::ComparedMetric>> per_group;
  for (const RunGroup& g : c.groups) {
    per_group.push_back(internal::CompareGroup(c.runs, g));
    for (const auto& m : per_group.back()) {
      if (seen.insert(m.name).second) columns.push_back(m.name);
    }
  }
  std::string out =
      "<table>\n<tr><th class=\"l\">trace</th><th class=\"l\">policy</th><th>runs</th>";
  for (const std::string& col : columns) out += "<th>" + HtmlEscape(Pretty(col)) + "</th>";
  out += "</tr>\n";
  for (size_t g = 0; g < c.groups.size(); ++g) {
    out += "<tr><td class=\"l\">" + HtmlEscape(c.groups[g].trace) + "</td><td class=\"l\">" +
           HtmlEscape(c.groups[g].policy) + "</td><td>" + std::to_string(c.groups[g].runs.size()) +
           "</td>";
    for (const std::string& col : columns) {
      auto it = std::find_if(per_group[g].begin(), per_group[g].end(),
                             [&](const internal::ComparedMetric& m) { return m.name == col; });
      if (it == per_group[g].end()) {
        out += "<td>&ndash;</td>";
      } else {
        out += "<td>" + FormatShort(it->stats.mean) + " &plusmn; " + FormatShort(it->stats.sd) +
               "</td>";
      }
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string AllocationSection(const Context& c, bool any_rows, bool any_curve) {
  std::string out = "<h2>GPU allocation</h2>\n";
  if (any_rows) {
    LineChart chart{"GPU allocation over time",
                    std::string("time (") + c.unit.name + ")",
                    "allocated GPU %",
                    TimeSeries(c, [](const IntervalRow& r, double*) { return r.allocated_pct; }),
                    std::nullopt,
                    std::nullopt,
                    0.0,
                    100.0};
    out += internal::RenderLineChart(chart);
  }
  if (any_curve) {
    LineChart chart{"GPU allocation by arrived workload (mean over seeds)",
                    "arrived workload, % of GPU capacity",
                    "allocated GPU %",
                    {},
                    0.0,
                    std::nullopt,
                    0.0,
                    100.0};
    for (size_t g = 0; g < c.groups.size(); ++g) {
      std::map<int, std::pair<double, int>> sum;
      for (size_t i : c.groups[g].runs) {
        for (const auto& [pct, v] : c.runs[i].allocation_pct_by_arrived_pct) {
          sum[pct].first += v;
          sum[pct].second += 1;
        }
      }
      if (sum.empty()) continue;
      Series s{c.Label(g), c.Color(g), {}, {}, 1.0, false};
      for (const auto& [pct, acc] : sum) {
        s.x.push_back(pct);
        s.y.push_back(acc.first / acc.second);
      }
      chart.series.push_back(std::move(s));
    }
    out += internal::RenderLineChart(chart);
  }
  return out;
}

std::string QueueSection(const Context& c) {
  std::string out;
  for (size_t g = 0; g < c.groups.size(); ++g) {
    // The group's first run with queues stands for it (seeds of one policy look alike).
    const RunReport* run = nullptr;
    for (size_t i : c.groups[g].runs) {
      if (!c.runs[i].metrics.rows.empty() && !c.runs[i].metrics.queue_names.empty()) {
        run = &c.runs[i];
        break;
      }
    }
    if (run == nullptr) continue;
    const RunMetrics& m = run->metrics;
    // At most 10 lines: the queues with the longest peaks (ties by name order).
    std::vector<std::pair<int64_t, size_t>> peaks;
    for (size_t q = 0; q < m.queue_names.size(); ++q) {
      int64_t peak = 0;
      for (const IntervalRow& row : m.rows) peak = std::max(peak, row.pending_by_queue[q]);
      peaks.push_back({-peak, q});
    }
    std::sort(peaks.begin(), peaks.end());
    const size_t shown = std::min<size_t>(peaks.size(), 10);
    LineChart chart{
        "Pending workloads per queue: " + c.Label(g) + ", seed " + std::to_string(run->seed),
        std::string("time (") + c.unit.name + ")",
        "pending",
        {},
        std::nullopt,
        std::nullopt,
        0.0,
        std::nullopt};
    for (size_t k = 0; k < shown; ++k) {
      const size_t q = peaks[k].second;
      Series s{m.queue_names[q], internal::PaletteColor(k), {}, {}, 1.0, false};
      for (const IntervalRow& row : m.rows) {
        s.x.push_back(static_cast<double>(row.end_ms) / c.unit.ms);
        s.y.push_back(static_cast<double>(row.pending_by_queue[q]));
      }
      internal::Downsample(&s.x, &s.y, c.max_points);
      chart.series.push_back(std::move(s));
    }
    out += internal::RenderLineChart(chart);
    if (shown < peaks.size()) {
      out += "<p class=\"note\">" + std::to_string(peaks.size() - shown) +
             " queues with shorter peaks are not drawn.</p>\n";
    }
  }
  return out.empty() ? out : "<h2>Queue length</h2>\n" + out;
}

std::string CdfSection(const Context& c) {
  std::string out;
  for (int which = 0; which < 2; ++which) {
    std::vector<Series> series;
    double cut = 0;
    for (size_t g = 0; g < c.groups.size(); ++g) {
      std::vector<double> pooled;
      for (size_t i : c.groups[g].runs) {
        const RunMetrics& m = c.runs[i].metrics;
        const auto& v = which == 0 ? m.wait_samples_s : m.jct_samples_s;
        pooled.insert(pooled.end(), v.begin(), v.end());
      }
      if (pooled.empty()) continue;
      Series s = Cdf(std::move(pooled), c.Label(g), c.Color(g), c.max_points);
      // The axis ends at the largest 99th percentile: one extreme job must not flatten the rest.
      cut = std::max(cut, NearestRankPercentile(s.x, 99));
      series.push_back(std::move(s));
    }
    if (series.empty()) continue;
    // Seconds, minutes or hours, whichever keeps the axis labels short.
    const double unit_s = cut >= 7200 ? 3600 : (cut >= 120 ? 60 : 1);
    const char* unit_name = cut >= 7200 ? "hours" : (cut >= 120 ? "minutes" : "seconds");
    for (Series& s : series) {
      for (double& x : s.x) x /= unit_s;
    }
    LineChart chart{
        which == 0 ? "Waiting time (submission to first start), CDF" : "Job completion time, CDF",
        unit_name,
        "% of jobs",
        std::move(series),
        0.0,
        cut > 0 ? std::optional<double>(cut / unit_s) : std::nullopt,
        0.0,
        100.0};
    out += internal::RenderLineChart(chart);
  }
  if (out.empty()) return out;
  return "<h2>Waiting time and JCT</h2>\n<p class=\"note\">Pooled over the seeds of each policy; "
         "the x axis ends at the largest 99th percentile.</p>\n" +
         out;
}

std::string TenantSection(const Context& c) {
  std::vector<std::string> tenants;  // sorted by name through the set
  std::set<std::string> names;
  std::map<std::string, double> entitlement;
  for (const RunReport& r : c.runs) {
    for (const TenantShare& t : r.metrics.tenants) {
      names.insert(t.tenant);
      if (t.entitlement > 0 && !entitlement.contains(t.tenant))
        entitlement[t.tenant] = t.entitlement;
    }
  }
  if (names.empty()) return "";
  tenants.assign(names.begin(), names.end());
  BarChart chart;
  chart.title = "Dominant share per tenant against entitlement (mean over seeds)";
  chart.y_label = "% of the cluster";
  chart.marker_label = entitlement.empty() ? "" : "entitlement";
  std::vector<size_t> used_groups;
  for (size_t g = 0; g < c.groups.size(); ++g) {
    bool has = false;
    for (size_t i : c.groups[g].runs) has = has || !c.runs[i].metrics.tenants.empty();
    if (!has) continue;
    used_groups.push_back(g);
    chart.series_labels.push_back(c.Label(g));
    chart.colors.push_back(c.Color(g));
  }
  for (const std::string& tenant : tenants) {
    BarGroup bg{tenant, {}, std::nullopt};
    for (size_t g : used_groups) {
      double sum = 0;
      int n = 0;
      for (size_t i : c.groups[g].runs) {
        for (const TenantShare& t : c.runs[i].metrics.tenants) {
          if (t.tenant == tenant) {
            sum += t.dominant_share;
            ++n;
          }
        }
      }
      bg.values.push_back(n > 0 ? 100.0 * sum / n : 0.0);
    }
    if (auto it = entitlement.find(tenant); it != entitlement.end()) bg.marker = 100.0 * it->second;
    chart.groups.push_back(std::move(bg));
  }
  std::string out = "<h2>Tenants</h2>\n" + internal::RenderBarChart(chart);
  // Jain's index per group, next to the bars it summarizes.
  out += "<p class=\"note\">Jain's fairness index";
  bool first = true;
  for (size_t g : used_groups) {
    std::vector<double> j;
    for (size_t i : c.groups[g].runs) j.push_back(c.runs[i].metrics.jain_index);
    out += std::string(first ? ": " : "; ") + HtmlEscape(c.Label(g)) + " " +
           FormatShort(ComputeMeanSd(j).mean);
    first = false;
  }
  return out + ".</p>\n";
}

std::string DisruptionSection(const Context& c) {
  int64_t preemptions = 0;
  int64_t failures = 0;
  bool any_rows = false;
  for (const RunReport& r : c.runs) {
    preemptions += r.metrics.preemptions;
    failures += r.metrics.failures;
    any_rows = any_rows || !r.metrics.rows.empty();
  }
  if (!any_rows) return "";
  std::string out = "<h2>Preemptions and failures</h2>\n";
  if (preemptions > 0) {
    LineChart chart{
        "Preemptions (cumulative)",
        std::string("time (") + c.unit.name + ")",
        "preemptions",
        TimeSeries(c, [](const IntervalRow& r,
                         double* acc) { return *acc += static_cast<double>(r.preemptions); }),
        std::nullopt,
        std::nullopt,
        0.0,
        std::nullopt};
    out += internal::RenderLineChart(chart);
  } else {
    out += "<p class=\"note\">No preemptions in any run.</p>\n";
  }
  if (failures > 0) {
    LineChart chart{
        "Failed attempts (cumulative)",
        std::string("time (") + c.unit.name + ")",
        "failures",
        TimeSeries(c, [](const IntervalRow& r,
                         double* acc) { return *acc += static_cast<double>(r.failures); }),
        std::nullopt,
        std::nullopt,
        0.0,
        std::nullopt};
    out += internal::RenderLineChart(chart);
  } else {
    out += "<p class=\"note\">No failures in any run.</p>\n";
  }
  return out;
}

std::string JoinSet(const std::set<std::string>& items, size_t limit) {
  std::string out;
  size_t n = 0;
  for (const std::string& s : items) {
    if (n == limit) {
      return out + ", ... (" + std::to_string(items.size()) + " in all)";
    }
    out += (n++ > 0 ? ", " : "") + s;
  }
  return out;
}

}  // namespace

std::string RenderHtml(const std::vector<RunReport>& runs, const ReportOptions& options) {
  const Context c{runs,
                  options,
                  internal::GroupRuns(runs),
                  internal::SeveralTraces(runs),
                  PickUnit(runs),
                  static_cast<size_t>(std::max(3, options.max_points_per_series))};
  std::set<std::string> traces;
  std::set<std::string> policies;
  std::set<uint64_t> seeds;
  bool any_rows = false;
  bool any_curve = false;
  bool any_frag = false;
  for (const RunReport& r : runs) {
    traces.insert(r.trace);
    policies.insert(r.policy);
    seeds.insert(r.seed);
    any_rows = any_rows || !r.metrics.rows.empty();
    any_curve = any_curve || !r.allocation_pct_by_arrived_pct.empty();
    for (const IntervalRow& row : r.metrics.rows) any_frag = any_frag || row.frag_pct.has_value();
  }
  std::string seed_list;
  for (uint64_t s : seeds) seed_list += (seed_list.empty() ? "" : ", ") + std::to_string(s);

  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<title>" + HtmlEscape(options.title) + "</title>\n<style>\n" + kCss + "\n</style>\n";
  out += "</head>\n<body>\n<h1>" + HtmlEscape(options.title) + "</h1>\n";
  out += "<p class=\"meta\">" + std::to_string(runs.size()) + " run" +
         (runs.size() == 1 ? "" : "s") + " &middot; traces: " + HtmlEscape(JoinSet(traces, 20)) +
         " &middot; policies: " + HtmlEscape(JoinSet(policies, 20)) + " &middot; seeds: " +
         HtmlEscape(seeds.size() > 20 ? std::to_string(seeds.size()) : seed_list) + "</p>\n";

  if (internal::DistinctPolicies(runs) >= 2) {
    out +=
        "<h2>Comparison</h2>\n<p class=\"note\">Mean &plusmn; sample standard deviation over "
        "the seeds of each trace and policy.</p>\n" +
        ComparisonTable(c);
  }
  out += "<h2>Runs</h2>\n" + RunsTable(c);
  if (any_rows || any_curve) out += AllocationSection(c, any_rows, any_curve);
  if (any_frag) {
    out += "<h2>Fragmentation</h2>\n";
    LineChart chart{"Fragmented GPU, % of capacity",
                    std::string("time (") + c.unit.name + ")",
                    "fragmented GPU %",
                    TimeSeries(c, [](const IntervalRow& r,
                                     double*) { return r.frag_pct.value_or(std::nan("")); }),
                    std::nullopt,
                    std::nullopt,
                    0.0,
                    std::nullopt};
    out += internal::RenderLineChart(chart);
  }
  out += QueueSection(c);
  out += CdfSection(c);
  out += TenantSection(c);
  out += DisruptionSection(c);
  out += "<footer>berth " + HtmlEscape(options.berth_version) +
         " &middot; the same runs give the same page.</footer>\n</body>\n</html>\n";
  return out;
}

}  // namespace berth::sim::report
