// report.html: one self-contained page (inline CSS, inline SVG drawn here, no script, no
// network) a person reads after `berth simulate`. Every text from the input is escaped.
// Lines of many seeds of one configuration share its colour, drawn translucent, so spread
// between seeds shows without a legend entry per run. Each chart's figure carries a stable
// data-chart key (listed in docs/simulate.md); the headless-browser test finds charts by it.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/human_units.h"
#include "sim/core/virtual_clock.h"
#include "sim/report/internal/html_tables.h"
#include "sim/report/internal/page_style.h"
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

// One translucent line per run (opaque when its group has one run) of value(row, &acc), at
// each interval's middle (a mean over it) or, for running totals, at its end.
template <typename ValueFn>
std::vector<Series> TimeSeries(const Context& c, ValueFn value, bool at_end) {
  std::vector<Series> out;
  for (size_t g = 0; g < c.groups.size(); ++g) {
    const double opacity = RunsWithRows(c, g) > 1 ? 0.45 : 1.0;
    for (size_t i : c.groups[g].runs) {
      const RunMetrics& m = c.runs[i].metrics;
      if (m.rows.empty()) continue;
      Series s{c.Label(g), c.Color(g), {}, {}, opacity, false};
      double acc = 0;
      for (const IntervalRow& row : m.rows) {
        const double t = at_end ? static_cast<double>(row.end_ms)
                                : 0.5 * static_cast<double>(row.start_ms + row.end_ms);
        s.x.push_back(t / c.unit.ms);
        s.y.push_back(value(row, &acc));
      }
      internal::Downsample(&s.x, &s.y, c.max_points);
      out.push_back(std::move(s));
    }
  }
  return out;
}

// CDF points (value, % of samples <= value), at most max_points quantiles of the samples,
// after a first point at 0 % so that the step up to the smallest value is drawn (a CDF of one
// sample is a visible step, not a single point).
Series Cdf(std::vector<double> samples, std::string label, std::string color, size_t max_points) {
  std::sort(samples.begin(), samples.end());
  Series s{std::move(label), std::move(color), {}, {}, 1.0, true};
  const size_t n = samples.size();
  const size_t k = std::min(n, max_points);
  if (n > 0) {
    s.x.push_back(samples.front());
    s.y.push_back(0);
  }
  for (size_t j = 1; j <= k; ++j) {
    const size_t idx = (j * n + k - 1) / k - 1;  // ceil(j*n/k) - 1
    s.x.push_back(samples[idx]);
    s.y.push_back(100.0 * static_cast<double>(idx + 1) / static_cast<double>(n));
  }
  return s;
}

// The scenario's events of every run (runs of one scenario share them), each once, in time
// order, as "5h 0m: drain gpu-h100-0" at their time in the axis unit.
std::vector<internal::LineChart::XMarker> EventMarkers(const Context& c) {
  std::set<std::pair<int64_t, std::string>> events;
  for (const RunReport& r : c.runs) {
    for (const RunReport::Event& e : r.events) events.emplace(e.at_ms, e.label);
  }
  std::vector<internal::LineChart::XMarker> out;
  for (const auto& [at_ms, label] : events) {
    out.push_back({static_cast<double>(at_ms) / c.unit.ms,
                   core::HumanDuration(static_cast<double>(at_ms) / 1000.0) + ": " + label});
  }
  return out;
}

std::string TimeAxis(const Context& c) { return std::string("time (") + c.unit.name + ")"; }

// A chart over time of value(row, &acc) for every run with interval rows.
template <typename ValueFn>
std::string TimeChart(const Context& c, std::string key, std::string title, std::string y_label,
                      ValueFn value, bool at_end, std::optional<double> y_max) {
  LineChart chart;
  chart.key = std::move(key);
  chart.title = std::move(title);
  chart.x_label = TimeAxis(c);
  chart.y_label = std::move(y_label);
  chart.series = TimeSeries(c, value, at_end);
  chart.y_min = 0.0;
  chart.y_max = y_max;
  chart.x_markers = EventMarkers(c);
  return internal::RenderLineChart(chart);
}

// A CDF per group of the samples samples_of(run) gives, pooled over the group's seeds; the x
// axis ends at the largest 99th percentile (one extreme sample must not flatten the rest) and
// is in seconds, minutes or hours, whichever keeps its labels short. "" without samples.
template <typename SamplesFn>
std::string CdfChart(const Context& c, std::string key, std::string title, std::string y_label,
                     SamplesFn samples_of) {
  std::vector<Series> series;
  double cut = 0;
  for (size_t g = 0; g < c.groups.size(); ++g) {
    std::vector<double> pooled;
    for (size_t i : c.groups[g].runs) {
      const std::vector<double> v = samples_of(c.runs[i].metrics);
      pooled.insert(pooled.end(), v.begin(), v.end());
    }
    if (pooled.empty()) continue;
    Series s = Cdf(std::move(pooled), c.Label(g), c.Color(g), c.max_points);
    cut = std::max(cut, NearestRankPercentile(s.x, 99));
    series.push_back(std::move(s));
  }
  if (series.empty()) return "";
  const double unit_s = cut >= 7200 ? 3600 : (cut >= 120 ? 60 : 1);
  for (Series& s : series) {
    for (double& x : s.x) x /= unit_s;
  }
  LineChart chart;
  chart.key = std::move(key);
  chart.title = std::move(title);
  chart.x_label = cut >= 7200 ? "hours" : (cut >= 120 ? "minutes" : "seconds");
  chart.y_label = std::move(y_label);
  chart.series = std::move(series);
  chart.x_min = 0.0;
  if (cut > 0) chart.x_max = cut / unit_s;
  chart.y_min = 0.0;
  chart.y_max = 100.0;
  return internal::RenderLineChart(chart);
}

std::string AllocationSection(const Context& c, bool any_rows, bool any_curve) {
  std::string out = "<h2>GPU allocation</h2>\n";
  if (any_rows) {
    out += TimeChart(
        c, "gpu-allocation", "GPU allocation over time", "allocated GPU %",
        [](const IntervalRow& r, double*) { return r.allocated_pct; }, false, 100.0);
  }
  if (any_curve) {
    LineChart chart;
    chart.key = "allocation-by-arrived";
    chart.title = "GPU allocation by arrived workload (mean over seeds)";
    chart.x_label = "arrived workload, % of GPU capacity";
    chart.y_label = "allocated GPU %";
    chart.x_min = 0.0;
    chart.y_min = 0.0;
    chart.y_max = 100.0;
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

std::string FragmentationSection(const Context& c) {
  return "<h2>Fragmentation</h2>\n" +
         TimeChart(
             c, "fragmentation", "Fragmented GPU, % of capacity", "fragmented GPU %",
             [](const IntervalRow& r, double*) { return r.frag_pct.value_or(std::nan("")); }, false,
             std::nullopt);
}

// Bars per flavor (or GPU model) and policy: the time-weighted allocation %, mean over the
// seeds that had capacity for the label.
std::string UtilisationChart(const Context& c, bool by_model) {
  auto labels_of = [by_model](const RunMetrics& m) -> const std::vector<LabelUtilisation>& {
    return by_model ? m.by_gpu_model : m.by_flavor;
  };
  std::set<std::string> names;
  for (const RunReport& r : c.runs) {
    for (const LabelUtilisation& u : labels_of(r.metrics)) {
      if (u.allocated_pct) names.insert(u.name);
    }
  }
  if (names.empty()) return "";
  BarChart chart;
  chart.key = by_model ? "utilisation-by-gpu-model" : "utilisation-by-flavor";
  chart.title = by_model ? "GPU utilisation per GPU model (mean over seeds)"
                         : "GPU utilisation per flavor (mean over seeds)";
  chart.y_label = "allocated GPU %";
  std::vector<size_t> used_groups;
  for (size_t g = 0; g < c.groups.size(); ++g) {
    bool has = false;
    for (size_t i : c.groups[g].runs) has = has || !labels_of(c.runs[i].metrics).empty();
    if (!has) continue;
    used_groups.push_back(g);
    chart.series_labels.push_back(c.Label(g));
    chart.colors.push_back(c.Color(g));
  }
  for (const std::string& name : names) {
    BarGroup bar{name, {}, std::nullopt};
    for (size_t g : used_groups) {
      double sum = 0;
      int n = 0;
      for (size_t i : c.groups[g].runs) {
        for (const LabelUtilisation& u : labels_of(c.runs[i].metrics)) {
          if (u.name == name && u.allocated_pct) {
            sum += *u.allocated_pct;
            ++n;
          }
        }
      }
      bar.values.push_back(n > 0 ? sum / n : std::nan(""));
    }
    chart.groups.push_back(std::move(bar));
  }
  return internal::RenderBarChart(chart);
}

std::string UtilisationSection(const Context& c) {
  const std::string out = UtilisationChart(c, false) + UtilisationChart(c, true);
  return out.empty() ? out : "<h2>Utilisation per flavor and GPU model</h2>\n" + out;
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
    LineChart chart;
    chart.key = "queue-length";
    chart.title =
        "Pending workloads per queue: " + c.Label(g) + ", seed " + std::to_string(run->seed);
    chart.x_label = TimeAxis(c);
    chart.y_label = "pending";
    chart.y_min = 0.0;
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
  const std::string out =
      CdfChart(c, "wait-cdf", "Waiting time (submission to first start), CDF", "% of jobs",
               [](const RunMetrics& m) { return m.wait_samples_s; }) +
      CdfChart(c, "jct-cdf", "Job completion time, CDF", "% of jobs",
               [](const RunMetrics& m) { return m.jct_samples_s; });
  if (out.empty()) return out;
  return "<h2>Waiting time and JCT</h2>\n<p class=\"note\">Pooled over the seeds of each policy; "
         "the x axis ends at the largest 99th percentile.</p>\n" +
         out;
}

std::string TenantSection(const Context& c) {
  std::set<std::string> names;  // sorted by name
  std::map<std::string, double> entitlement;
  for (const RunReport& r : c.runs) {
    for (const TenantShare& t : r.metrics.tenants) {
      names.insert(t.tenant);
      if (t.entitlement > 0 && !entitlement.contains(t.tenant)) {
        entitlement[t.tenant] = t.entitlement;
      }
    }
  }
  if (names.empty()) return "";
  BarChart chart;
  chart.key = "tenant-share";
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
  for (const std::string& tenant : names) {
    BarGroup bar{tenant, {}, std::nullopt};
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
      bar.values.push_back(n > 0 ? 100.0 * sum / n : 0.0);
    }
    if (auto it = entitlement.find(tenant); it != entitlement.end()) {
      bar.marker = 100.0 * it->second;
    }
    chart.groups.push_back(std::move(bar));
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

// A running total over time, drawn when some run has a non-zero total.
struct CumulativeChart {
  const char* key;
  const char* title;
  const char* y_label;
  const char* none_note;  // said when no run has any; nullptr: say nothing
  double (*run_total)(const RunMetrics&);
  double (*row_value)(const IntervalRow&);
};

constexpr CumulativeChart kCumulativeCharts[] = {
    {"preemptions", "Preemptions (cumulative)", "preemptions", "No preemptions in any run.",
     [](const RunMetrics& m) { return static_cast<double>(m.preemptions); },
     [](const IntervalRow& r) { return static_cast<double>(r.preemptions); }},
    {"preemption-work-lost", "Work lost to preemption, GPU-hours (cumulative)", "GPU-hours",
     nullptr, [](const RunMetrics& m) { return m.preemption_gpu_hours_lost; },
     [](const IntervalRow& r) { return r.preemption_gpu_hours_lost; }},
    {"failures", "Failed attempts (cumulative)", "failures", "No failures in any run.",
     [](const RunMetrics& m) { return static_cast<double>(m.failures); },
     [](const IntervalRow& r) { return static_cast<double>(r.failures); }},
    {"failure-work-lost", "Work rerun after failures, GPU-hours (cumulative)", "GPU-hours", nullptr,
     [](const RunMetrics& m) { return m.failure_gpu_hours_lost; },
     [](const IntervalRow& r) { return r.failure_gpu_hours_lost; }},
};

std::string DisruptionSection(const Context& c) {
  const bool any_rows = std::any_of(c.runs.begin(), c.runs.end(),
                                    [](const RunReport& r) { return !r.metrics.rows.empty(); });
  if (!any_rows) return "";
  std::string out = "<h2>Preemptions and failures</h2>\n";
  for (const CumulativeChart& spec : kCumulativeCharts) {
    const bool any = std::any_of(c.runs.begin(), c.runs.end(),
                                 [&](const RunReport& r) { return spec.run_total(r.metrics) > 0; });
    if (any) {
      auto running_total = [&spec](const IntervalRow& r, double* acc) {
        return *acc += spec.row_value(r);
      };
      out += TimeChart(c, spec.key, spec.title, spec.y_label, running_total, true, std::nullopt);
    } else if (spec.none_note != nullptr) {
      out += std::string("<p class=\"note\">") + spec.none_note + "</p>\n";
    }
  }
  const std::string failures = internal::FailureTable(c.runs, c.groups, c.several_traces);
  if (!failures.empty()) {
    out +=
        "<p class=\"note\">Failures in the fleet (nodes, GPUs, clusters lost, drains) and "
        "their cost. A failure has recovered when every job it hit runs again; a job that "
        "never came back failed for good or was still waiting at the end.</p>\n" +
        failures;
  }
  out += CdfChart(c, "recovery-cdf", "Time to recover from a failure, CDF", "% of failures",
                  [](const RunMetrics& m) {
                    std::vector<double> v;
                    for (const FailureRecord& f : m.failure_events) {
                      if (f.jobs_hit > 0 && f.recovered_after_s) v.push_back(*f.recovered_after_s);
                    }
                    return v;
                  });
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
  out += "<title>" + HtmlEscape(options.title) + "</title>\n<style>\n" + internal::kReportCss +
         "\n</style>\n";
  out += "</head>\n<body>\n<h1>" + HtmlEscape(options.title) + "</h1>\n";
  out += "<p class=\"meta\">" + std::to_string(runs.size()) + " run" +
         (runs.size() == 1 ? "" : "s") + " &middot; traces: " + HtmlEscape(JoinSet(traces, 20)) +
         " &middot; policies: " + HtmlEscape(JoinSet(policies, 20)) + " &middot; seeds: " +
         HtmlEscape(seeds.size() > 20 ? std::to_string(seeds.size()) : seed_list) + "</p>\n";

  if (internal::DistinctPolicies(runs) >= 2) {
    out +=
        "<h2>Comparison</h2>\n<p class=\"note\">Mean &plusmn; sample standard deviation over "
        "the seeds of each trace and policy.</p>\n" +
        internal::ComparisonTable(runs, c.groups);
  }
  out += "<h2>Runs</h2>\n" + internal::RunsTable(runs);
  if (any_rows || any_curve) out += AllocationSection(c, any_rows, any_curve);
  if (any_frag) out += FragmentationSection(c);
  out += UtilisationSection(c);
  out += QueueSection(c);
  out += CdfSection(c);
  out += TenantSection(c);
  out += DisruptionSection(c);
  out += "<footer>berth " + HtmlEscape(options.berth_version) +
         " &middot; the same runs give the same page.</footer>\n</body>\n</html>\n";
  return out;
}

}  // namespace berth::sim::report
