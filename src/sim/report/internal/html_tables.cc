// Tables are plain HTML; numbers go through FormatShort so the same runs give the same bytes.
// Columns are the union of the runs' figures in order of first appearance, so runs that
// measured different things (a job replay next to an arrival-only one) share one table and
// show a dash where a figure is missing.
#include "sim/report/internal/html_tables.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/human_units.h"
#include "sim/report/internal/text.h"

namespace berth::sim::report::internal {
namespace {

constexpr const char* kDash = "<td>&ndash;</td>";

template <typename Item, typename NameOf>
std::vector<std::string> UnionOfNames(const std::vector<std::vector<Item>>& lists, NameOf name_of) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const auto& list : lists) {
    for (const Item& item : list) {
      if (seen.insert(name_of(item)).second) names.push_back(name_of(item));
    }
  }
  return names;
}

// Durations (figures named *_s) in the CLI's human units ("5h 4m"), the exact seconds in the
// cell's tooltip; every other figure through FormatShort.
bool IsSeconds(const std::string& name) {
  return name.size() > 2 && name.compare(name.size() - 2, 2, "_s") == 0;
}

std::string FigureText(const std::string& name, double value) {
  return IsSeconds(name) ? core::HumanDuration(value) : FormatShort(value);
}

std::string FigureCell(const std::string& name, double value) {
  if (!IsSeconds(name)) return "<td>" + FormatShort(value) + "</td>";
  return "<td title=\"" + FormatShort(value) + " s\">" + core::HumanDuration(value) + "</td>";
}

std::string HeaderCells(const std::vector<std::string>& columns) {
  std::string out;
  for (const std::string& col : columns)
    out += "<th>" + HtmlEscape(PrettyMetricName(col)) + "</th>";
  return out;
}

}  // namespace

std::string PrettyMetricName(const std::string& name) {
  static const std::map<std::string, std::string> kNames = {
      {"gpu_allocation_pct", "GPU alloc %"},
      {"frag_pct", "frag %"},
      {"unallocated_gpu_pct_at_arrived_100", "unalloc GPU % @100% arrived"},
      {"wait_mean_s", "wait mean"},
      {"wait_p95_s", "wait p95"},
      {"jct_mean_s", "JCT mean"},
      {"jct_p95_s", "JCT p95"},
      {"jct_p99_s", "JCT p99"},
      {"makespan_s", "makespan"},
      {"jobs_finished", "finished"},
      {"preemptions", "preemptions"},
      {"preemption_gpu_hours_lost", "GPU-h lost to preemption"},
      {"failures", "failures"},
      {"failure_gpu_hours_lost", "GPU-h rerun after failures"},
      {"jobs_not_recovered", "never came back"},
      {"failure_recovery_mean_s", "recovery mean"},
      {"failure_recovery_max_s", "recovery max"},
      {"failure_events_not_recovered", "failures not recovered"},
      {"jain_index", "Jain index"},
  };
  if (auto it = kNames.find(name); it != kNames.end()) return it->second;
  // Per-label utilisation: "flavor_allocation_pct:spot" -> "alloc % spot".
  for (const char* prefix : {"flavor_allocation_pct:", "gpu_model_allocation_pct:"}) {
    const std::string p(prefix);
    if (name.rfind(p, 0) == 0) return "alloc % " + name.substr(p.size());
  }
  return name;
}

std::string RunsTable(const std::vector<RunReport>& runs) {
  std::vector<std::vector<Scalar>> per_run;
  per_run.reserve(runs.size());
  for (const RunReport& r : runs) per_run.push_back(ScalarMetrics(r));
  const std::vector<std::string> columns =
      UnionOfNames(per_run, [](const Scalar& s) -> const std::string& { return s.name; });
  std::string out =
      "<table>\n<tr><th>run</th><th class=\"l\">trace</th><th "
      "class=\"l\">policy</th><th>seed</th>" +
      HeaderCells(columns) + "</tr>\n";
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunReport& r = runs[i];
    out += "<tr><td>" + std::to_string(i) + "</td><td class=\"l\">" + HtmlEscape(r.trace) +
           "</td><td class=\"l\">" + HtmlEscape(r.policy) + "</td><td>" + std::to_string(r.seed) +
           "</td>";
    for (const std::string& col : columns) {
      auto it = std::find_if(per_run[i].begin(), per_run[i].end(),
                             [&](const Scalar& s) { return s.name == col; });
      out += it == per_run[i].end() ? std::string(kDash) : FigureCell(col, it->value);
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string ComparisonTable(const std::vector<RunReport>& runs,
                            const std::vector<RunGroup>& groups) {
  std::vector<std::vector<ComparedMetric>> per_group;
  per_group.reserve(groups.size());
  for (const RunGroup& g : groups) per_group.push_back(CompareGroup(runs, g));
  const std::vector<std::string> columns =
      UnionOfNames(per_group, [](const ComparedMetric& m) -> const std::string& { return m.name; });
  std::string out =
      "<table>\n<tr><th class=\"l\">trace</th><th class=\"l\">policy</th><th>runs</th>" +
      HeaderCells(columns) + "</tr>\n";
  for (size_t g = 0; g < groups.size(); ++g) {
    out += "<tr><td class=\"l\">" + HtmlEscape(groups[g].trace) + "</td><td class=\"l\">" +
           HtmlEscape(groups[g].policy) + "</td><td>" + std::to_string(groups[g].runs.size()) +
           "</td>";
    for (const std::string& col : columns) {
      auto it = std::find_if(per_group[g].begin(), per_group[g].end(),
                             [&](const ComparedMetric& m) { return m.name == col; });
      if (it == per_group[g].end()) {
        out += kDash;
      } else {
        out += "<td>" + FigureText(col, it->stats.mean) + " &plusmn; " +
               FigureText(col, it->stats.sd) + "</td>";
      }
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string FailureTable(const std::vector<RunReport>& runs, const std::vector<RunGroup>& groups,
                         bool several_traces) {
  std::string rows;
  for (const RunGroup& g : groups) {
    double events = 0, hit = 0, rerun = 0, not_recovered = 0, never_back = 0;
    std::vector<double> recovery;  // every recovered event of the group's runs, in seconds
    bool any = false;
    for (size_t i : g.runs) {
      const RunMetrics& m = runs[i].metrics;
      any = any || m.failures > 0 || !m.failure_events.empty();
      events += static_cast<double>(m.failure_events.size());
      for (const FailureRecord& f : m.failure_events) {
        hit += static_cast<double>(f.jobs_hit);
        if (f.jobs_hit > 0 && f.recovered_after_s) recovery.push_back(*f.recovered_after_s);
      }
      rerun += m.failure_gpu_hours_lost;
      not_recovered += static_cast<double>(m.failure_events_not_recovered);
      never_back += static_cast<double>(m.jobs_not_recovered);
    }
    if (!any) continue;
    const auto n = static_cast<double>(g.runs.size());
    auto cell = [](double v) { return "<td>" + FormatShort(v) + "</td>"; };
    rows += "<tr><td class=\"l\">" + HtmlEscape(GroupLabel(g, several_traces)) + "</td><td>" +
            std::to_string(g.runs.size()) + "</td>" + cell(events / n) + cell(hit / n) +
            cell(rerun / n);
    if (recovery.empty()) {
      rows += std::string(kDash) + kDash;
    } else {
      const DistributionSummary d = Summarize(std::move(recovery));
      rows += FigureCell("recovery_s", d.mean) + FigureCell("recovery_s", d.max);
    }
    rows += cell(not_recovered / n) + cell(never_back / n) + "</tr>\n";
  }
  if (rows.empty()) return "";
  return "<table>\n<tr><th class=\"l\">policy</th><th>runs</th><th>failure events</th>"
         "<th>jobs hit</th><th>GPU-h rerun</th><th>time to recover mean</th>"
         "<th>time to recover max</th><th>failures not recovered</th>"
         "<th>jobs that never came back</th></tr>\n" +
         rows + "</table>\n";
}

}  // namespace berth::sim::report::internal
