// The JSON twins of explain_printer, workload_printer and placement_printer: the same
// explanations, every number kept, for scripts (jq) rather than eyes.
#include "cli/explain_json.h"

#include <string>

#include "engine/explain_types.h"
#include "io/json_writer.h"

namespace berth::cli {

namespace {

std::string ExplainAmountText(const model::ResourceCatalog& catalog, const std::string& resource,
                              int64_t amount) {
  model::ResourceId id;
  if (!catalog.Find(resource, &id)) return std::to_string(amount);
  return engine::FormatAmount(id, amount);
}

void ExplainRejectionJson(const model::Rejection* r, io::JsonWriter& w) {
  if (r == nullptr) {
    w.Null();
    return;
  }
  w.BeginObject();
  w.Field("plugin", r->plugin);
  w.Field("reason", r->reason);
  w.Field("message", r->message);
  w.EndObject();
}

}  // namespace

void PrintPodExplanationJson(const model::Snapshot& snapshot, const engine::Explanation& e,
                             std::ostream& out) {
  const model::Pod& pod = snapshot.pod(e.pod.pod);
  const model::PodDecision& d = e.pod.decision;
  io::JsonWriter w(out);
  w.BeginObject();
  w.Field("kind", "Pod");
  w.Field("namespace", pod.meta.namespace_.empty() ? "default" : pod.meta.namespace_);
  w.Field("name", pod.meta.name);
  w.Field("cluster", pod.cluster);
  w.Field("queuePosition", int64_t{e.queue_position});
  w.Field("queueLength", int64_t{e.queue_length});
  w.Field("status", d.node ? "Bound" : "Pending");
  w.Key("node");
  if (d.node) {
    w.String(snapshot.node(*d.node).meta.name);
  } else {
    w.Null();
  }
  w.Field("message", d.message);
  w.Key("nodes");
  w.BeginArray();
  for (const engine::NodeVerdict& v : e.pod.nodes) {
    w.BeginObject();
    w.Field("name", snapshot.node(v.node).meta.name);
    w.FieldBool("feasible", v.feasible);
    w.Key("failed");
    w.BeginArray();
    for (const engine::NodeFilterVerdict& f : v.filters) {
      if (f.passed) continue;
      w.BeginObject();
      w.Field("plugin", f.plugin);
      w.Field("reason", f.reason);
      w.Field("detail", f.detail);
      w.EndObject();
    }
    w.EndArray();
    w.Field("score", v.total_score);
    w.Key("scores");
    w.BeginArray();
    for (const auto& s : v.scores) {
      w.BeginObject();
      w.Field("plugin", s.plugin);
      w.Field("raw", s.raw);
      w.Field("normalized", s.normalized);
      w.Field("weight", int64_t{s.weight});
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.Finish();
}

void PrintWorkloadExplanationJson(const engine::WorkloadExplanation& e, std::ostream& out) {
  const model::Snapshot& s = e.plan.planned;
  const model::Workload& wl = s.kueue_workloads[static_cast<size_t>(e.workload)];
  auto key_of = [&s](int32_t index) {
    return s.kueue_workloads[static_cast<size_t>(index)].meta.NamespacedName();
  };
  io::JsonWriter w(out);
  w.BeginObject();
  w.Field("kind", "Workload");
  w.Field("namespace", wl.meta.namespace_.empty() ? "default" : wl.meta.namespace_);
  w.Field("name", wl.meta.name);
  w.Field("cluster", e.cluster);
  w.Field("queue", wl.queue_name);
  w.Field("outcome", engine::WorkloadOutcomeName(e.decision.outcome));
  w.Field("reason", e.decision.reason);
  w.Field("message", e.decision.message);
  w.Field("cycle", int64_t{e.decision.cycle});
  w.Key("clusterQueue");
  if (!e.cluster_queue) {
    w.Null();
  } else {
    const auto& cq = *e.cluster_queue;
    w.BeginObject();
    w.Field("name", cq.name);
    w.FieldBool("active", cq.active);
    w.Field("pending", int64_t{cq.pending});
    w.Field("reserving", int64_t{cq.reserving});
    w.Field("admitted", int64_t{cq.admitted});
    w.Key("usage");
    w.BeginArray();
    for (const auto& u : cq.usage) {
      w.BeginObject();
      w.Field("flavor", u.flavor);
      w.Field("resource", u.resource);
      w.Field("total", ExplainAmountText(s.resources, u.resource, u.total));
      w.Field("borrowed", ExplainAmountText(s.resources, u.resource, u.borrowed));
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.Key("attempts");
  w.BeginArray();
  for (const auto& a : e.decision.attempts) {
    w.BeginObject();
    w.Field("podSet", a.pod_set);
    w.Field("flavor", a.flavor);
    w.Field("mode", a.mode);
    w.Field("reason", a.reason);
    w.Key("resources");
    w.BeginArray();
    for (const auto& r : a.resources) {
      w.BeginObject();
      w.Field("resource", r.resource);
      w.Field("requested", ExplainAmountText(s.resources, r.resource, r.requested));
      w.Field("nominal", ExplainAmountText(s.resources, r.resource, r.nominal));
      w.Field("used", ExplainAmountText(s.resources, r.resource, r.used));
      w.Field("available", ExplainAmountText(s.resources, r.resource, r.available));
      w.Key("borrowingLimit");
      if (r.borrowing_limit < 0) {
        w.Null();
      } else {
        w.String(ExplainAmountText(s.resources, r.resource, r.borrowing_limit));
      }
      w.Field("verdict", r.verdict);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("victims");
  w.BeginArray();
  for (int32_t v : e.decision.victims) w.String(key_of(v));
  w.EndArray();
  w.Key("preemptedBy");
  if (e.decision.preempted_by) {
    w.String(key_of(*e.decision.preempted_by));
  } else {
    w.Null();
  }
  w.Key("pods");
  w.BeginArray();
  for (const model::PodDecision& d : e.pods) {
    w.BeginObject();
    w.Field("name", engine::PodKey(s.pod(d.pod)));
    w.Key("node");
    const model::Pod& pod = s.pod(d.pod);
    if (!pod.node_name.empty()) {
      w.String(pod.node_name);
    } else if (d.node) {
      w.String(s.node(*d.node).meta.name);
    } else {
      w.Null();
    }
    w.Field("message", d.message);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.Finish();
}

void PrintPlacementExplanationJson(const engine::PlacementExplanation& e, std::ostream& out) {
  const model::Snapshot& s = e.plan.planned;
  const model::Placement& p = s.placements[static_cast<size_t>(e.placement)];
  const auto& outcome = e.plan.placements[static_cast<size_t>(e.run)].outcome;
  io::JsonWriter w(out);
  w.BeginObject();
  w.Field("kind", "Placement");
  w.Field("namespace", p.meta.namespace_);
  w.Field("name", p.meta.name);
  w.FieldBool("skipped", outcome.skipped);
  w.Field("numberOfSelectedClusters", int64_t{outcome.number_of_selected_clusters});
  auto strings = [&w](const char* key, const std::vector<std::string>& values) {
    w.Key(key);
    w.BeginArray();
    for (const std::string& v : values) w.String(v);
    w.EndArray();
  };
  strings("selected", outcome.selected);
  std::vector<std::string> decisions;
  for (const auto& g : outcome.groups) decisions.insert(decisions.end(), g.decisions.begin(), g.decisions.end());
  strings("decisions", decisions);
  strings("warnings", outcome.warnings);
  w.Key("clusters");
  w.BeginArray();
  for (const engine::ClusterVerdict& v : outcome.clusters) {
    w.BeginObject();
    w.Field("name", v.cluster_name);
    w.FieldBool("feasible", v.feasible);
    w.FieldBool("selected", v.selected);
    w.Field("total", v.total);
    w.Key("rejection");
    ExplainRejectionJson(outcome.RejectionOf(v), w);
    w.Key("spreadSkipped");
    ExplainRejectionJson(outcome.SpreadSkipOf(v), w);
    w.Key("scores");
    w.BeginArray();
    for (const engine::ScoreTerm& t : outcome.ScoresOf(v)) {
      w.BeginObject();
      w.Field("prioritizer", outcome.prioritizers[static_cast<size_t>(t.prioritizer)].name);
      w.Field("score", t.score);
      w.Field("weight", int64_t{t.weight});
      if (const std::string* note = outcome.NoteOf(t)) w.Field("note", *note);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.Finish();
}

}  // namespace berth::cli
