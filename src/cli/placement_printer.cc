#include "cli/placement_printer.h"

#include <array>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli/text_table.h"
#include "engine/explain_types.h"
#include "engine/fleet_checks.h"
#include "engine/multikueue_dispatch.h"

namespace berth::cli {
namespace {

std::string ConditionText(const model::Condition& c) {
  std::string out = c.type + "=" + model::ConditionStatusName(c.status);
  if (!c.reason.empty()) out += " " + c.reason;
  if (!c.message.empty()) out += ": " + c.message;
  return out;
}

std::string Prioritizers(const model::Placement& p) {
  std::string mode = p.prioritizer_policy.mode == model::PrioritizerMode::kExact ? "Exact"
                     : p.prioritizer_policy.mode == model::PrioritizerMode::kAdditive
                         ? "Additive"
                         : p.prioritizer_policy.mode_text;
  std::string out;
  for (const model::PrioritizerConfig& c : p.prioritizer_policy.configurations) {
    if (!out.empty()) out += ", ";
    if (!c.score_coordinate) {
      out += "(no scoreCoordinate)";
    } else if (c.score_coordinate->type == model::ScoreCoordinateType::kBuiltIn) {
      out += c.score_coordinate->built_in;
    } else {
      out += "AddOn/" + c.score_coordinate->addon_resource_name + "/" +
             c.score_coordinate->addon_score_name;
    }
    out += " x" + std::to_string(c.weight);
  }
  if (out.empty()) out = "(none configured)";
  return mode + ": " + out;
}

void PrintSummary(const engine::PlacementExplanation& e, const engine::PlacementRun& run,
                  std::ostream& out) {
  const model::Placement& p = e.plan.planned.placements[static_cast<size_t>(e.placement)];
  out << "Placement " << p.meta.NamespacedName() << "\n";
  TextTable t({TextTable::Align::kLeft, TextTable::Align::kLeft});
  std::string sets;
  for (const std::string& s : p.cluster_sets) sets += (sets.empty() ? "" : ", ") + s;
  t.AddRow({"Cluster sets:", sets.empty() ? "every set bound to the namespace" : sets});
  t.AddRow({"Predicates:", p.predicates.empty() ? "none (every cluster passes)"
                                                : std::to_string(p.predicates.size()) + " (ORed)"});
  t.AddRow({"Prioritizers:", Prioritizers(p)});
  if (!p.spread_constraints.empty()) {
    std::string spread;
    for (const model::SpreadConstraint& c : p.spread_constraints) {
      if (!spread.empty()) spread += ", ";
      spread += c.topology_key + " maxSkew " + std::to_string(c.max_skew) +
                (c.when_unsatisfiable == model::WhenUnsatisfiable::kDoNotSchedule ? " DoNotSchedule"
                                                                                  : " ScheduleAnyway");
    }
    t.AddRow({"Spread:", spread});
  }
  t.AddRow({"Clusters wanted:",
            p.number_of_clusters ? std::to_string(*p.number_of_clusters) : "every feasible cluster"});
  if (run.outcome.skipped) {
    t.AddRow({"Outcome:", "not scheduled (annotation " +
                              std::string(model::kSchedulingDisableAnnotation) + ")"});
    t.Print(out, "  ");
    return;
  }
  int32_t feasible = 0;
  for (const engine::ClusterVerdict& v : run.outcome.clusters) feasible += v.feasible ? 1 : 0;
  t.AddRow({"Outcome:", std::to_string(run.outcome.selected.size()) + " selected of " +
                            std::to_string(feasible) + " feasible, " +
                            std::to_string(run.outcome.clusters.size()) + " candidates"});
  t.AddRow({"Conditions:", ConditionText(run.outcome.satisfied)});
  t.AddRow({"", ConditionText(run.outcome.misconfigured)});
  for (const std::string& w : run.outcome.warnings) t.AddRow({"Warning:", w});
  t.Print(out, "  ");
}

void PrintClusters(const engine::PlacementRun& run, std::ostream& out) {
  if (run.outcome.skipped) return;
  if (run.outcome.clusters.empty()) {
    out << "\nNo candidate clusters: no ManagedClusterSet bound to the namespace holds a cluster.\n";
    return;
  }
  // One column per active prioritizer, in the policy's order.
  std::vector<std::string> columns;
  for (const engine::PrioritizerInfo& p : run.outcome.prioritizers) columns.push_back(p.name);
  std::map<std::string, int32_t> rank;
  for (size_t i = 0; i < run.outcome.selected.size(); ++i) {
    rank[run.outcome.selected[i]] = static_cast<int32_t>(i) + 1;
  }
  out << "\nClusters (score x weight per prioritizer):\n";
  std::vector<TextTable::Align> aligns = {TextTable::Align::kLeft, TextTable::Align::kLeft,
                                          TextTable::Align::kRight};
  for (size_t i = 0; i < columns.size(); ++i) aligns.push_back(TextTable::Align::kRight);
  TextTable t(aligns);
  std::vector<std::string> header = {"CLUSTER", "VERDICT", "TOTAL"};
  header.insert(header.end(), columns.begin(), columns.end());
  t.AddRow(header);
  std::vector<std::string> excluded;
  // Feasible clusters by rank (selected first), then the others by name.
  std::vector<const engine::ClusterVerdict*> order;
  for (const std::string& name : run.outcome.selected) {
    for (const auto& v : run.outcome.clusters) {
      if (v.cluster_name == name) order.push_back(&v);
    }
  }
  for (const auto& v : run.outcome.clusters) {
    if (v.feasible && rank.count(v.cluster_name) == 0) order.push_back(&v);
  }
  std::vector<std::array<std::string, 2>> notes;  // cluster, "Prioritizer: note"
  for (const engine::ClusterVerdict* v : order) {
    for (const engine::ScoreTerm& s : run.outcome.ScoresOf(*v)) {
      if (const std::string* note = run.outcome.NoteOf(s)) {
        notes.push_back(
            {v->cluster_name, columns[static_cast<size_t>(s.prioritizer)] + ": " + *note});
      }
    }
    std::string verdict = v->selected ? "selected #" + std::to_string(rank[v->cluster_name])
                                      : "not selected";
    const model::Rejection* spread = run.outcome.SpreadSkipOf(*v);
    if (!v->selected && spread != nullptr) verdict += " (" + spread->reason + ")";
    std::vector<std::string> row = {v->cluster_name, verdict, std::to_string(v->total)};
    for (size_t c = 0; c < columns.size(); ++c) {
      std::string cell = "-";
      for (const engine::ScoreTerm& s : run.outcome.ScoresOf(*v)) {
        if (s.prioritizer == static_cast<int32_t>(c)) {
          cell = std::to_string(s.score) + " x" + std::to_string(s.weight);
        }
      }
      row.push_back(cell);
    }
    t.AddRow(row);
  }
  std::vector<std::string> spread;
  for (const auto& v : run.outcome.clusters) {
    const model::Rejection* skipped = run.outcome.SpreadSkipOf(v);
    if (v.feasible && !v.selected && skipped != nullptr) {
      spread.push_back(v.cluster_name + "  " + skipped->message);
    }
    if (v.feasible) continue;
    const model::Rejection* rejection = run.outcome.RejectionOf(v);
    std::string why = rejection != nullptr ? rejection->plugin + ": " + rejection->message : "excluded";
    excluded.push_back(v.cluster_name + "  " + why);
  }
  t.Print(out, "  ");
  if (!notes.empty()) {
    // DataLocality's estimated load time per cluster (and any prioritizer's detail).
    out << "\nPrioritizer notes:\n";
    TextTable n({TextTable::Align::kLeft, TextTable::Align::kLeft});
    for (auto& [cluster, text] : notes) n.AddRow({cluster, text});
    n.Print(out, "  ");
  }
  if (!excluded.empty()) {
    out << "\nExcluded:\n";
    for (const std::string& line : excluded) out << "  " << line << "\n";
  }
  if (!spread.empty()) {
    out << "\nLeft out by spreadPolicy:\n";
    for (const std::string& line : spread) out << "  " << line << "\n";
  }
  if (run.outcome.unscheduled > 0) {
    out << "\n" << run.outcome.unscheduled
        << " cluster decision(s) unscheduled: fewer feasible clusters than numberOfClusters.\n";
  }
}

void PrintDecisions(const engine::PlacementRun& run, std::ostream& out) {
  if (run.outcome.decisions.empty()) return;
  out << "\nDecisions:\n";
  TextTable t({TextTable::Align::kLeft, TextTable::Align::kLeft, TextTable::Align::kLeft});
  for (const model::PlacementDecision& pd : run.outcome.decisions) {
    std::string group;
    auto name = pd.meta.labels.find(model::kDecisionGroupNameLabel);
    auto index = pd.meta.labels.find(model::kDecisionGroupIndexLabel);
    if (index != pd.meta.labels.end()) group = "group " + index->second;
    if (name != pd.meta.labels.end() && !name->second.empty()) group += " (" + name->second + ")";
    std::string clusters;
    for (const model::ClusterDecision& d : pd.decisions) {
      clusters += (clusters.empty() ? "" : ", ") + d.cluster_name;
    }
    t.AddRow({pd.meta.name, group, clusters});
  }
  t.Print(out, "  ");
}

void PrintDispatched(const engine::PlacementExplanation& e, std::ostream& out) {
  const engine::Plan& plan = e.plan;
  const engine::FleetChecks checks = engine::FindFleetChecks(plan.planned, "default");
  std::set<std::string> names;
  for (const engine::FleetCheck& c : checks.checks) {
    if (c.placement && *c.placement == e.placement) names.insert(c.name);
  }
  if (names.empty()) return;
  out << "\nWorkloads dispatched through admission check";
  for (const std::string& n : names) out << " " << n;
  out << ":\n";
  TextTable t({TextTable::Align::kLeft, TextTable::Align::kLeft});
  for (const auto& [index, d] : plan.dispatches) {
    if (names.count(d.check) == 0) continue;
    const model::Workload& w = plan.planned.kueue_workloads[static_cast<size_t>(index)];
    t.AddRow({w.meta.NamespacedName(), d.cluster ? "-> " + *d.cluster : "waiting: " + d.message});
  }
  if (t.empty()) t.AddRow({"none"});
  t.Print(out, "  ");
}

}  // namespace

void PrintPlacementExplanation(const engine::PlacementExplanation& e, std::ostream& out) {
  const engine::PlacementRun& run = e.plan.placements[static_cast<size_t>(e.run)];
  PrintSummary(e, run, out);
  PrintClusters(run, out);
  PrintDecisions(run, out);
  PrintDispatched(e, out);
}

namespace {

// "5m", "10m": when round `round` (1-based) of the incremental dispatcher starts.
std::string RoundStart(int32_t round) {
  const int64_t s = static_cast<int64_t>(round - 1) * engine::kIncrementalRoundTimeoutS;
  if (s == 0) return "immediately";
  return "after " + (s % 60 == 0 ? std::to_string(s / 60) + "m" : std::to_string(s) + "s");
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Kueue's dispatchers: the mode, the rounds' nominations, and what became of each cluster.
void PrintNominations(const engine::Dispatch& d, std::ostream& out) {
  TextTable summary({TextTable::Align::kLeft, TextTable::Align::kLeft});
  std::string mode(engine::DispatchModeName(d.mode));
  if (d.mode == engine::DispatchMode::kAllAtOnce) {
    mode += " (" + std::string(engine::kAllAtOnceDispatcher) + ")";
  } else if (d.mode == engine::DispatchMode::kIncremental) {
    mode += " (" + std::string(engine::kIncrementalDispatcher) + ", stepSize " +
            std::to_string(d.step_size) + ", " +
            std::to_string(engine::kIncrementalRoundTimeoutS / 60) + "m rounds)";
  }
  summary.AddRow({"Dispatcher:", mode});
  const size_t rounds = d.rounds ? d.rounds->size() : 0;
  for (size_t r = 0; r < rounds && r < static_cast<size_t>(d.rounds_run); ++r) {
    const auto round = static_cast<int32_t>(r + 1);
    summary.AddRow({"Round " + std::to_string(round) + ":",
                    "nominates " + Join((*d.rounds)[r]) + " (" + RoundStart(round) + ")"});
  }
  if (d.cluster && static_cast<size_t>(d.rounds_run) < rounds) {
    summary.AddRow({"", std::to_string(rounds - static_cast<size_t>(d.rounds_run)) +
                            " more round(s) not needed"});
  }
  summary.Print(out, "  ");
}

}  // namespace

void PrintDispatch(const engine::Plan& plan, int32_t workload, std::ostream& out) {
  auto it = plan.dispatches.find(workload);
  if (it == plan.dispatches.end()) return;
  const engine::Dispatch& d = it->second;
  out << "\nFleet dispatch (admission check " << d.check << "):\n";
  TextTable summary({TextTable::Align::kLeft, TextTable::Align::kLeft});
  std::string candidates;
  const size_t total = d.candidates ? d.candidates->size() : 0;
  for (size_t i = 0; i < total && i < engine::kMaxDetailedAttempts; ++i) {
    candidates += (candidates.empty() ? "" : ", ") + (*d.candidates)[i];
  }
  if (total > engine::kMaxDetailedAttempts) {
    candidates += ", ... (" + std::to_string(total) + " in all)";
  }
  summary.AddRow({"Candidates:", candidates.empty() ? "none" : candidates});
  summary.AddRow({"Runs on:", d.cluster ? *d.cluster : "no cluster yet"});
  summary.AddRow({"Check:", d.message});
  if (d.worker_local_queue) summary.AddRow({"Worker queue:", *d.worker_local_queue});
  summary.Print(out, "  ");
  const bool kueue_mode = d.mode != engine::DispatchMode::kBestFit;
  if (kueue_mode) PrintNominations(d, out);
  if (d.attempts.empty()) return;
  out << "\n";
  if (!kueue_mode) {
    TextTable t({TextTable::Align::kLeft, TextTable::Align::kRight, TextTable::Align::kLeft});
    t.AddRow({"CLUSTER", "SCORE", "VERDICT"});
    for (const engine::ClusterAttempt& a : d.attempts) {
      t.AddRow({a.cluster, std::to_string(a.score), a.fits ? "fits: chosen" : "no: " + a.reason});
    }
    if (d.cluster) {
      for (size_t i = static_cast<size_t>(d.tried); i < total && i < engine::kMaxDetailedAttempts; ++i) {
        t.AddRow({(*d.candidates)[i], "", "not tried (a better-scored cluster fits)"});
      }
    } else if (static_cast<size_t>(d.tried) > d.attempts.size()) {
      t.AddRow({"...", "", std::to_string(static_cast<size_t>(d.tried) - d.attempts.size()) +
                               " more cluster(s) tried, none fits"});
    }
    t.Print(out, "  ");
  } else {
    // Clusters in the order their copies were judged: round by round, by name within one.
    TextTable t({TextTable::Align::kLeft, TextTable::Align::kRight, TextTable::Align::kRight,
                 TextTable::Align::kLeft});
    t.AddRow({"CLUSTER", "ROUND", "SCORE", "VERDICT"});
    std::set<std::string> judged;
    for (const engine::ClusterAttempt& a : d.attempts) {
      judged.insert(a.cluster);
      t.AddRow({a.cluster, std::to_string(a.round), std::to_string(a.score),
                a.fits ? "admits first: chosen" : "no: " + a.reason});
    }
    if (static_cast<size_t>(d.tried) > d.attempts.size()) {
      t.AddRow({"...", "", "", std::to_string(static_cast<size_t>(d.tried) - d.attempts.size()) +
                                   " more cluster(s) tried, none admits"});
    }
    size_t rows = d.attempts.size();
    std::set<std::string> nominated;
    const size_t rounds = d.rounds ? d.rounds->size() : 0;
    for (size_t r = 0; r < rounds; ++r) {
      for (const std::string& c : (*d.rounds)[r]) {
        nominated.insert(c);
        if (judged.count(c) != 0 || !d.cluster || rows >= engine::kMaxDetailedAttempts) continue;
        ++rows;
        const bool ran = r < static_cast<size_t>(d.rounds_run);
        t.AddRow({c, std::to_string(r + 1), "",
                  ran ? "copy removed (" + *d.cluster + " admitted it first)"
                      : "not nominated (admitted in round " + std::to_string(d.rounds_run) + ")"});
      }
    }
    for (size_t i = 0; i < total && rows < engine::kMaxDetailedAttempts; ++i) {
      const std::string& c = (*d.candidates)[i];
      if (nominated.count(c) != 0 || judged.count(c) != 0) continue;
      ++rows;
      t.AddRow({c, "", "", d.mode == engine::DispatchMode::kExternal
                               ? "not nominated by the dispatcher"
                               : "not nominated (its MultiKueueCluster is not active)"});
    }
    t.Print(out, "  ");
  }
  for (const engine::ClusterAttempt& a : d.attempts) {
    if (!a.fits || a.pods.empty()) continue;
    out << "\n  Pods on " << a.cluster << ":\n";
    TextTable pods({TextTable::Align::kLeft, TextTable::Align::kLeft});
    for (const auto& [pod, node] : a.pods) pods.AddRow({pod, "-> " + node});
    pods.Print(out, "    ");
  }
}

}  // namespace berth::cli
