#include "cli/model_load_printer.h"

#include <string>

#include "cli/human_amount.h"
#include "cli/text_table.h"
#include "core/human_units.h"

namespace berth::cli {
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
  head.AddRow({"Cache label:", "models.cache.berth.dev/" + e.cache_name + "=true"});
  std::string replicas = std::to_string(m.min_replicas) + " (minReplicas)";
  if (m.max_replicas > 0) replicas += ", up to " + std::to_string(m.max_replicas);
  head.AddRow({"Replicas:", replicas});
  if (m.cluster != "default") head.AddRow({"Cluster:", m.cluster});
  head.Print(out, "  ");

  if (!e.pods.empty()) {
    out << "\nPods (" << e.pods.size() << ")\n";
    TextTable pods({TextTable::Align::kLeft, TextTable::Align::kLeft});
    for (const model::PodDecision& d : e.pods) {
      pods.AddRow({s.pod(d.pod).meta.name,
                   d.node ? "bound to " + s.node(*d.node).meta.name : "unschedulable: " + d.message});
    }
    pods.Print(out, "  ");
  }

  out << "\nModel load (fetch schedule, docs/data.md)\n";
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

}  // namespace berth::cli
