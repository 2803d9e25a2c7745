#include "cli/model_load_printer.h"

#include <string>

#include "cli/human_amount.h"
#include "cli/text_table.h"
#include "core/human_units.h"
#include "io/json_writer.h"
#include "model/data_objects.h"

namespace berth::cli {
namespace {

// When the service serves: the plan binds pods now (no queue wait for them), so a bound
// replica is ready after its load; a pod the plan leaves waiting has no estimate until it
// binds, and the line says how many wait.
std::string ExpectedReady(const engine::ModelLoad& e) {
  size_t waiting = 0;
  for (const model::PodDecision& d : e.pods) waiting += d.node.has_value() ? 0 : 1;
  const size_t bound = e.pods.size() - waiting;
  const std::string running =
      e.running.empty() ? "" : "; " + std::to_string(e.running.size()) + " running already";
  if (bound == 0) {
    return e.pods.empty() ? "now: every replica runs already"
                          : "unknown: no new pod is bound yet (they wait in the queue)" + running;
  }
  std::string out = waiting == 0 ? (bound == 1 ? std::string("the new replica")
                                               : "all " + std::to_string(bound) + " new replicas")
                                 : std::to_string(bound) + " of " + std::to_string(e.pods.size()) +
                                       " new replicas";
  if (!e.no_schedule.empty()) return out + " bound now; load time unknown (see below)" + running;
  out += " " + core::HumanSeconds(e.all_ready_s) +
         " after the plan (bound in it: no queue wait; then the model load)";
  if (waiting > 0) out += "; " + std::to_string(waiting) + " wait in the queue, no estimate";
  return out + running;
}

}  // namespace

void PrintModelLoadExplanation(const engine::ModelLoadExplanation& explanation,
                               std::ostream& out) {
  const engine::ModelLoad& e = explanation.load;
  const model::Snapshot& s = explanation.plan.planned;
  const model::InferenceServiceModel& m = s.inference_services[static_cast<size_t>(e.service)];
  out << "InferenceService " << m.meta.NamespacedName() << "\n";
  TextTable head({TextTable::Align::kLeft, TextTable::Align::kLeft});
  std::string format = m.format.empty() ? "custom containers" : m.format;
  if (!m.format_version.empty()) format += " " + m.format_version;
  if (!m.runtime.empty()) format += " (runtime " + m.runtime + ")";
  head.AddRow({"Model:", format});
  if (!m.storage.uri.empty()) head.AddRow({"Storage:", m.storage.uri});
  head.AddRow({"Size:", m.size_bytes ? HumanAmount("memory", *m.size_bytes) : "unknown"});
  head.AddRow({"Origin region:", m.origin_region.empty() ? "unknown" : m.origin_region});
  head.AddRow({"Cache label:", std::string(model::kModelCacheLabelPrefix) + e.cache_name + "=true"});
  std::string replicas = std::to_string(m.min_replicas) + " (minReplicas)";
  if (m.max_replicas > 0) replicas += ", up to " + std::to_string(m.max_replicas);
  head.AddRow({"Replicas:", replicas});
  if (m.cluster != "default") head.AddRow({"Cluster:", m.cluster});
  head.Print(out, "  ");

  if (!e.pods.empty() || !e.running.empty()) {
    out << "\nPods (" << e.pods.size() + e.running.size() << ")\n";
    TextTable pods({TextTable::Align::kLeft, TextTable::Align::kLeft});
    for (const engine::RunningReplica& r : e.running) {
      pods.AddRow({r.pod, "running on " + r.node +
                                (e.share_in_cluster ? " (model loaded; serves peers)"
                                                    : " (model loaded)")});
    }
    for (const model::PodDecision& d : e.pods) {
      pods.AddRow({s.pod(d.pod).meta.name,
                   d.node ? "bound to " + s.node(*d.node).meta.name : "unschedulable: " + d.message});
    }
    pods.Print(out, "  ");
    out << "  Expected ready: " << ExpectedReady(e) << "\n";
  }

  out << "\nModel load (fetch schedule, docs/data.md)\n";
  for (const std::string& w : e.warnings) out << "  note: " << w << "\n";
  if (!e.no_schedule.empty()) {
    out << "  none: " << e.no_schedule << "\n";
    return;
  }
  TextTable t({TextTable::Align::kLeft, TextTable::Align::kLeft, TextTable::Align::kLeft,
               TextTable::Align::kRight, TextTable::Align::kRight, TextTable::Align::kRight});
  t.AddRow({"POD", "NODE", "SOURCE", "START", "READY", "ORIGIN BYTES"});
  for (const engine::ReplicaLoad& l : e.loads) {
    if (!l.forbidden.empty()) {
      t.AddRow({l.pod, l.node, "forbidden: " + l.forbidden, "-", "-", "-"});
      continue;
    }
    std::string source = l.source;
    if (!l.peer.empty()) source += " " + l.peer;
    t.AddRow({l.pod, l.node, source, core::HumanSeconds(l.start_s), core::HumanSeconds(l.end_s),
              l.origin_bytes > 0 ? HumanAmount("memory", l.origin_bytes) : "0"});
  }
  t.Print(out, "  ");
  out << "\n  All replicas ready after " << core::HumanSeconds(e.all_ready_s) << "; origin bytes "
      << (e.origin_bytes > 0 ? HumanAmount("memory", e.origin_bytes) : "0") << "; at most "
      << e.peak_origin_pulls << " origin pull" << (e.peak_origin_pulls == 1 ? "" : "s")
      << " at once (limit "
      << (e.max_origin_pulls > 0 ? std::to_string(e.max_origin_pulls) : std::string("none"))
      << ", berth.dev/max-origin-pulls); in-cluster sharing "
      << (e.share_in_cluster ? "on" : "off") << " (berth.dev/model-p2p)\n";
}

void PrintModelLoadExplanationJson(const engine::ModelLoadExplanation& explanation,
                                   std::ostream& out) {
  const engine::ModelLoad& e = explanation.load;
  const model::Snapshot& s = explanation.plan.planned;
  const model::InferenceServiceModel& m = s.inference_services[static_cast<size_t>(e.service)];
  io::JsonWriter w(out);
  w.BeginObject();
  w.Field("inferenceService", m.meta.NamespacedName());
  w.Field("cluster", m.cluster);
  w.Key("model");
  w.BeginObject();
  w.Field("format", m.format);
  w.Field("storageUri", m.storage.uri);
  w.Key("sizeBytes");
  if (m.size_bytes.has_value()) {
    w.Int(*m.size_bytes);
  } else {
    w.Null();
  }
  w.Field("originRegion", m.origin_region);
  w.Field("cacheLabel", std::string(model::kModelCacheLabelPrefix) + e.cache_name);
  w.EndObject();
  w.Key("pods");
  w.BeginArray();
  for (const model::PodDecision& d : e.pods) {
    w.BeginObject();
    w.Field("name", s.pod(d.pod).meta.name);
    w.Key("node");
    if (d.node.has_value()) {
      w.String(s.node(*d.node).meta.name);
    } else {
      w.Null();
      w.Field("message", d.message);
    }
    w.EndObject();
  }
  w.EndArray();
  w.Key("running");
  w.BeginArray();
  for (const engine::RunningReplica& r : e.running) {
    w.BeginObject();
    w.Field("name", r.pod);
    w.Field("node", r.node);
    w.EndObject();
  }
  w.EndArray();
  w.Key("fetchSchedule");
  w.BeginObject();
  if (!e.no_schedule.empty()) {
    w.Field("none", e.no_schedule);
  } else {
    w.Key("replicas");
    w.BeginArray();
    for (const engine::ReplicaLoad& l : e.loads) {
      w.BeginObject();
      w.Field("pod", l.pod);
      w.Field("node", l.node);
      if (!l.forbidden.empty()) {
        w.Field("forbidden", l.forbidden);
      } else {
        w.Field("source", l.source_id);
        if (!l.peer.empty()) w.Field("peer", l.peer);
        w.Key("startSeconds");
        w.Double(l.start_s);
        w.Key("readySeconds");
        w.Double(l.end_s);
        w.Field("originBytes", l.origin_bytes);
      }
      w.EndObject();
    }
    w.EndArray();
    w.Key("allReadySeconds");
    w.Double(e.all_ready_s);
    w.Field("originBytes", e.origin_bytes);
    w.Field("peakOriginPulls", static_cast<int64_t>(e.peak_origin_pulls));
  }
  w.Field("maxOriginPulls", static_cast<int64_t>(e.max_origin_pulls));
  if (!e.warnings.empty()) {
    w.Key("warnings");
    w.BeginArray();
    for (const std::string& warning : e.warnings) w.String(warning);
    w.EndArray();
  }
  w.FieldBool("shareInCluster", e.share_in_cluster);
  w.EndObject();
  w.EndObject();
  w.Finish();
}

}  // namespace berth::cli
