// Kueue's topology-aware scheduler tables (pkg/scheduler/scheduler_tas_test.go:
// TestScheduleForTAS, TestScheduleForTASPreemption, TestScheduleForTASCohorts), ported as
// data: tests/queueing/upstream/schedule_tas.yaml holds each case's Nodes, Topologies,
// ResourceFlavors, ClusterQueues, Cohorts and workloads, and what upstream asserts after one
// `schedule()` call: the admissions in the cache with each pod set's topologyAssignment
// (levels and domains with counts, as Kueue writes status.admission), and which pending
// workloads are left in the active heaps or inadmissible. Each case runs berth's admission
// with max_cycles = 1 (`--cycles 1`).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "queueing/admission.h"
#include "queueing/kueue_builders.h"
#include "queueing/upstream_table_util.h"
#include "support/model_builders.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using testing::CqBuilder;
using testing::KueueSnapshot;
using testing::WlBuilder;
using upstream::AddQuotas;
using upstream::Amount;
using upstream::BuildQueue;
using upstream::Requirement;
using upstream::KeyLists;
using upstream::kNow;
using upstream::ReadKeyLists;
using upstream::Show;
using upstream::TablePath;

core::Taint ReadTaint(const YAML::Node& t) {
  core::Taint taint;
  taint.key = t["key"].as<std::string>();
  taint.value = t["value"].as<std::string>();
  taint.effect = t["effect"].as<std::string>() == "NoExecute" ? core::TaintEffect::kNoExecute
                                                              : core::TaintEffect::kNoSchedule;
  return taint;
}

core::Toleration ReadToleration(const YAML::Node& t) {
  core::Toleration tol;
  tol.key = t["key"].as<std::string>();
  if (t["operator"] && t["operator"].as<std::string>() == "Exists")
    tol.op = core::TolerationOp::kExists;
  if (t["value"]) tol.value = t["value"].as<std::string>();
  if (t["effect"]) {
    tol.effect = t["effect"].as<std::string>() == "NoExecute" ? core::TaintEffect::kNoExecute
                                                              : core::TaintEffect::kNoSchedule;
  }
  return tol;
}

model::TopologyRequest ReadRequest(const YAML::Node& n) {
  model::TopologyRequest r;
  if (!n) return r;
  if (n["required"]) r.required = n["required"].as<std::string>();
  if (n["preferred"]) r.preferred = n["preferred"].as<std::string>();
  if (n["unconstrained"]) r.unconstrained = n["unconstrained"].as<bool>();
  if (n["sliceRequired"]) r.slice_required_topology = n["sliceRequired"].as<std::string>();
  if (n["sliceSize"]) r.slice_size = n["sliceSize"].as<int32_t>();
  if (n["group"]) r.pod_set_group_name = n["group"].as<std::string>();
  return r;
}

// "levels|v1,v2:count;..." of one topology assignment, "-" without one.
std::string RenderTopology(const std::optional<model::TopologyAssignment>& ta) {
  if (!ta) return "-";
  std::string out;
  for (const auto& l : ta->levels) out += (out.empty() ? "" : ",") + l;
  out += "|";
  for (const auto& d : ta->domains) {
    std::string v;
    for (const auto& x : d.values) v += (v.empty() ? "" : ",") + x;
    out += v + ":" + std::to_string(d.count) + ";";
  }
  return out;
}

std::string Render(const std::string& cq, const std::vector<model::PodSetAssignment>& psas) {
  std::string out = cq;
  for (const auto& psa : psas) {
    out += " [" + psa.name + " x" + std::to_string(psa.count);
    for (const auto& [res, flavor] : psa.flavors) {
      auto it = psa.resource_usage.find(res);
      out += " " + res + "=" + flavor + ":" +
             std::to_string(it == psa.resource_usage.end() ? 0 : it->second);
    }
    out += " topology=" + RenderTopology(psa.topology_assignment) + "]";
  }
  return out;
}

std::vector<model::PodSetAssignment> Assignments(const YAML::Node& pod_sets) {
  std::vector<model::PodSetAssignment> out = upstream::Assignments(pod_sets);
  size_t i = 0;
  for (const auto& ps : pod_sets) {
    if (const YAML::Node t = ps["topology"]) {
      model::TopologyAssignment ta;
      for (const auto& l : t["levels"]) ta.levels.push_back(l.as<std::string>());
      for (const auto& d : t["domains"]) {
        model::TopologyDomainAssignment da;
        for (const auto& v : d[0]) da.values.push_back(v.as<std::string>());
        da.count = d[1].as<int32_t>();
        ta.domains.push_back(std::move(da));
      }
      out[i].topology_assignment = std::move(ta);
    }
    ++i;
  }
  return out;
}

void RunCase(const YAML::Node& table, const YAML::Node& c) {
  KueueSnapshot k;
  for (const auto& n : c["nodes"]) {
    testing::NodeBuilder b(n["name"].as<std::string>());
    // Upstream's nodes carry only the labels they set (no implicit hostname).
    b.NoLabel("kubernetes.io/hostname");
    b.Allocatable("pods", 0);
    for (const auto& kv : n["labels"])
      b.Label(kv.first.as<std::string>(), kv.second.as<std::string>());
    for (const auto& kv : n["allocatable"]) {
      const std::string res = kv.first.as<std::string>();
      b.Allocatable(res, Amount(res, kv.second.as<std::string>()));
    }
    for (const auto& t : n["taints"]) {
      const core::Taint taint = ReadTaint(t);
      b.Taint(taint.key, taint.value, taint.effect);
    }
    if (n["unschedulable"]) b.Unschedulable();
    k.snapshot.nodes.push_back(b.Build(k.snapshot.resources));
  }
  // Pods outside Kueue bound to the nodes: their requests take node capacity.
  for (const auto& p : c["pods"]) {
    testing::PodBuilder b(p["name"].as<std::string>(), p["namespace"].as<std::string>());
    if (p["node"]) b.NodeName(p["node"].as<std::string>());
    const std::string phase = p["phase"] ? p["phase"].as<std::string>() : "Pending";
    b.Phase(phase == "Running"     ? model::PodPhase::kRunning
            : phase == "Succeeded" ? model::PodPhase::kSucceeded
            : phase == "Failed"    ? model::PodPhase::kFailed
                                   : model::PodPhase::kPending);
    testing::Amounts requests;
    for (const auto& r : p["requests"]) {
      const std::string res = r.first.as<std::string>();
      requests.emplace_back(res, Amount(res, r.second.as<std::string>()));
    }
    b.Container(requests);
    k.snapshot.pods.push_back(b.Build(k.snapshot.resources));
  }
  for (const auto& t : c["topologies"]) {
    model::Topology topo;
    topo.meta.name = t["name"].as<std::string>();
    for (const auto& l : t["levels"]) topo.levels.push_back(l.as<std::string>());
    k.snapshot.topologies.push_back(std::move(topo));
  }
  for (const auto& f : c["flavors"]) {
    core::Labels labels;
    for (const auto& kv : f["labels"])
      labels[kv.first.as<std::string>()] = kv.second.as<std::string>();
    std::vector<core::Taint> taints;
    for (const auto& t : f["taints"]) taints.push_back(ReadTaint(t));
    model::ResourceFlavor& rf = k.Flavor(f["name"].as<std::string>(), labels, std::move(taints));
    if (f["topologyName"]) rf.topology_name = f["topologyName"].as<std::string>();
    for (const auto& t : f["tolerations"]) rf.tolerations.push_back(ReadToleration(t));
  }
  model::Namespace ns;
  ns.meta.name = "default";
  k.snapshot.namespaces.push_back(std::move(ns));
  std::set<std::string> cq_names;
  for (const auto& q : c["clusterQueues"]) {
    CqBuilder b = BuildQueue(q);
    if (!q["namespaceSelector"]) b.NamespaceSelector(core::LabelSelector{});
    k.Add(b);
    cq_names.insert(q["name"].as<std::string>());
  }
  for (const auto& co : c["cohorts"]) {
    CqBuilder quota("quota");
    if (co["groups"]) AddQuotas(co["groups"], quota);
    k.Cohort(co["name"].as<std::string>(), co["parent"] ? co["parent"].as<std::string>() : "",
             &quota);
  }
  for (const auto& lq : table["localQueues"]) {
    k.LocalQueue(lq["name"].as<std::string>(), lq["cq"].as<std::string>(),
                 lq["namespace"].as<std::string>());
  }
  std::vector<std::string> keys;
  for (const auto& w : c["workloads"]) {
    const std::string name = w["name"].as<std::string>();
    const std::string wns = w["namespace"].as<std::string>();
    WlBuilder b(name);
    b.Namespace(wns).Queue(w["queue"] ? w["queue"].as<std::string>() : "");
    b.Priority(w["priority"] ? w["priority"].as<int32_t>() : 0);
    b.Created(w["created"] ? kNow + w["created"].as<int64_t>() : 0);
    for (const auto& ps : w["podSets"]) {
      std::vector<std::pair<std::string, int64_t>> per_pod;
      for (const auto& r : ps["requests"]) {
        const std::string res = r.first.as<std::string>();
        per_pod.emplace_back(res, Amount(res, r.second.as<std::string>()));
      }
      std::optional<int32_t> min_count;
      if (ps["minCount"]) min_count = ps["minCount"].as<int32_t>();
      b.PodSet(ps["name"].as<std::string>(), ps["count"].as<int32_t>(), per_pod, min_count);
    }
    const int32_t i = k.Add(b);
    model::Workload& wl = k.snapshot.kueue_workloads[static_cast<size_t>(i)];
    wl.meta.uid = w["uid"] ? w["uid"].as<std::string>() : "";
    size_t p = 0;
    for (const auto& ps : w["podSets"]) {
      wl.pod_sets[p].topology_request = ReadRequest(ps["topology"]);
      for (const auto& term : ps["requiredAffinity"]) {
        core::NodeSelectorTerm t;
        for (const auto& e : term) t.match_expressions.push_back(Requirement(e, true));
        auto& required = wl.pod_sets[p].pod_template.node_affinity.required;
        if (!required) required = core::NodeSelector{};
        required->terms.push_back(std::move(t));
      }
      for (const auto& t : ps["tolerations"]) {
        wl.pod_sets[p].pod_template.tolerations.push_back(ReadToleration(t));
      }
      for (const auto& kv : ps["nodeSelector"]) {
        wl.pod_sets[p].pod_template.node_selector[kv.first.as<std::string>()] =
            kv.second.as<std::string>();
      }
      ++p;
    }
    if (const YAML::Node a = w["admission"]) {
      model::Admission adm;
      adm.cluster_queue = a["cq"].as<std::string>();
      adm.pod_set_assignments = Assignments(a["podSets"]);
      wl.admission = std::move(adm);
      const int64_t at = kNow + (w["reservedAt"] ? w["reservedAt"].as<int64_t>() : 0);
      wl.conditions.push_back({"QuotaReserved", "True", "AdmittedByTest", "", {at}});
      if (w["admitted"]) {
        wl.conditions.push_back(
            {"Admitted", w["admitted"].as<bool>() ? "True" : "False", "ByTest", "", {at}});
      }
    }
    for (const auto& cond : w["conditions"]) {
      wl.conditions.push_back(
          {cond["type"].as<std::string>(),
           cond["status"].as<std::string>(),
           cond["reason"] ? cond["reason"].as<std::string>() : "",
           cond["message"] && !cond["message"].IsNull() ? cond["message"].as<std::string>() : "",
           {kNow}});
    }
    keys.push_back(wns + "/" + name);
  }

  core::Diagnostics diags;
  AdmissionOptions options;
  options.now.unix_s = kNow;
  options.max_cycles = 1;
  const AdmissionResult r = RunAdmission(k.snapshot, options, nullptr, diags);

  std::map<std::string, std::string> got;
  KeyLists got_left, got_inadmissible;
  for (const WorkloadDecision& d : r.decisions) {
    const std::string& key = keys[static_cast<size_t>(d.workload)];
    const model::Workload& in = k.snapshot.kueue_workloads[static_cast<size_t>(d.workload)];
    switch (d.outcome) {
      case WorkloadOutcome::kAdmitted:
      case WorkloadOutcome::kQuotaReserved:
        // wantNewAssignments: only the admissions this cycle made.
        if (d.admission && !in.admission) {
          got[key] = Render(d.admission->cluster_queue, d.admission->pod_set_assignments);
        }
        break;
      case WorkloadOutcome::kPending:
      case WorkloadOutcome::kInadmissible: {
        std::string cq;
        for (const auto& lq : k.snapshot.local_queues) {
          if (lq.meta.name == in.queue_name && lq.meta.namespace_ == in.meta.namespace_) {
            cq = lq.cluster_queue;
          }
        }
        if (cq.empty() || !cq_names.count(cq)) break;
        const bool popped = d.cycle == 1;
        const bool failed_after_nomination =
            d.reason == "WaitingForPreemptedWorkloads" ||
            d.message.find("after processing another workload") != std::string::npos ||
            d.message.find("overlapping preemption targets") != std::string::npos;
        if (d.outcome == WorkloadOutcome::kPending && (!popped || failed_after_nomination)) {
          got_left[cq].insert(key);
        } else {
          got_inadmissible[cq].insert(key);
        }
        break;
      }
      default:
        break;
    }
  }
  std::map<std::string, std::string> want;
  for (const auto& kv : c["want"]["assignments"]) {
    want[kv.first.as<std::string>()] =
        Render(kv.second["cq"].as<std::string>(), Assignments(kv.second["podSets"]));
  }
  for (const auto& [key, text] : want) {
    auto it = got.find(key);
    if (it == got.end()) {
      ADD_FAILURE() << key << " was not admitted; want " << text;
    } else {
      EXPECT_EQ(it->second, text) << key;
    }
  }
  for (const auto& [key, text] : got) {
    EXPECT_TRUE(want.count(key)) << key << " admitted: " << text;
  }
  EXPECT_EQ(Show(got_left), Show(ReadKeyLists(c["want"]["left"]))) << "left in the active heaps";
  EXPECT_EQ(Show(got_inadmissible), Show(ReadKeyLists(c["want"]["inadmissible"])))
      << "left inadmissible";
}

TEST(UpstreamScheduleTasTest, EveryCasePassesOrIsSkippedWithAReason) {
  const YAML::Node root = YAML::LoadFile(TablePath("schedule_tas.yaml"));
  for (const auto& table : root["tables"]) {
    const std::string test = table["test"].as<std::string>();
    int ported = 0, skipped = 0;
    for (const auto& c : table["cases"]) {
      ++ported;
      const std::string name = c["name"].as<std::string>();
      if (c["skip"] || c["unsupported"]) {
        EXPECT_TRUE(c["skip"]) << test << " \"" << name << "\" is unsupported without a skip";
        ++skipped;
        continue;
      }
      SCOPED_TRACE(test + " \"" + name + "\"");
      RunCase(table, c);
    }
    std::printf("%s: %d cases, %d run, %d skipped\n", test.c_str(), ported, ported - skipped,
                skipped);
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
