// Kueue's own scheduler tables (pkg/scheduler/scheduler_test.go, TestSchedule;
// scheduler_fs_test.go, TestScheduleForFairSharing), ported as data:
// tests/queueing/upstream/schedule{,_fair}.yaml hold every case's ResourceFlavors,
// ClusterQueues, Cohorts, LocalQueues, namespaces and workloads (admitted and pending), and
// what upstream asserts after one `schedule()` call: the admissions in the cache (victims
// still hold theirs: Kueue removes them only when the eviction completes), which pending
// workloads are left in the active heaps and which are inadmissible, and the conditions the
// cycle wrote (type, status, reason, message). Each case runs berth's admission with
// max_cycles = 1 (`--cycles 1`): one head per ClusterQueue, nominated and processed once.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/quantity.h"
#include "queueing/admission.h"
#include "queueing/kueue_builders.h"
#include "queueing/upstream_table_util.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using testing::CqBuilder;
using testing::KueueSnapshot;
using testing::WlBuilder;
using upstream::AddQuotas;
using upstream::Amount;
using upstream::Assignments;
using upstream::BuildQueue;
using upstream::KeyLists;
using upstream::kNow;
using upstream::ReadKeyLists;
using upstream::Render;
using upstream::Show;
using upstream::State;
using upstream::TablePath;
using upstream::TestName;

void RunCase(const YAML::Node& table, const YAML::Node& c) {
  KueueSnapshot k;
  for (const auto& f : table["flavors"]) {
    std::vector<core::Taint> taints;
    for (const auto& t : f["taints"]) {
      core::Taint taint;
      taint.key = t["key"].as<std::string>();
      taint.value = t["value"].as<std::string>();
      taint.effect = t["effect"].as<std::string>() == "NoExecute" ? core::TaintEffect::kNoExecute
                                                                  : core::TaintEffect::kNoSchedule;
      taints.push_back(std::move(taint));
    }
    k.Flavor(f["name"].as<std::string>(), {}, std::move(taints));
  }
  for (const auto& ns : table["namespaces"]) {
    model::Namespace n;
    n.meta.name = ns.first.as<std::string>();
    for (const auto& kv : ns.second) {
      n.meta.labels[kv.first.as<std::string>()] = kv.second.as<std::string>();
    }
    k.snapshot.namespaces.push_back(std::move(n));
  }
  // A workload carries admission-check states only for the checks its ClusterQueue lists
  // (Kueue's workload controller syncs them from it); upstream's tables set the states alone,
  // so the checks are added to the workload's ClusterQueue here.
  std::map<std::string, std::set<std::string>> checks_of_cq;
  for (const auto& w : c["workloads"]) {
    if (!w["checks"] || !w["queue"]) continue;
    for (const YAML::Node& lqs : {table["localQueues"], c["localQueues"]}) {
      for (const auto& lq : lqs) {
        if (lq["name"].as<std::string>() != w["queue"].as<std::string>() ||
            lq["namespace"].as<std::string>() != w["namespace"].as<std::string>()) {
          continue;
        }
        for (const auto& ch : w["checks"]) {
          checks_of_cq[lq["cq"].as<std::string>()].insert(ch["name"].as<std::string>());
        }
      }
    }
  }
  std::set<std::string> all_checks;
  for (const auto& [cq, names] : checks_of_cq) all_checks.insert(names.begin(), names.end());
  for (const auto& name : all_checks) k.AdmissionCheck(name);
  std::set<std::string> cq_names;
  for (const YAML::Node& queues : {table["clusterQueues"], c["clusterQueues"]}) {
    for (const auto& q : queues) {
      CqBuilder b = BuildQueue(q);
      for (const auto& check : checks_of_cq[q["name"].as<std::string>()]) b.Check(check);
      if (!q["namespaceSelector"]) b.NamespaceSelector(core::LabelSelector{});
      k.Add(b);
      cq_names.insert(q["name"].as<std::string>());
    }
  }
  for (const auto& co : c["cohorts"]) {
    CqBuilder quota("quota");
    if (co["groups"]) AddQuotas(co["groups"], quota);
    k.Cohort(co["name"].as<std::string>(), co["parent"] ? co["parent"].as<std::string>() : "",
             &quota);
  }
  for (const YAML::Node& lqs : {table["localQueues"], c["localQueues"]}) {
    for (const auto& lq : lqs) {
      k.LocalQueue(lq["name"].as<std::string>(), lq["cq"].as<std::string>(),
                   lq["namespace"].as<std::string>());
    }
  }
  if (c["fairSharing"] && c["fairSharing"].as<bool>()) {
    model::KueueConfig config;
    config.fair_sharing = model::FairSharingConfig{};
    k.snapshot.kueue_config = config;
  }
  std::vector<std::string> keys;
  std::map<std::string, int32_t> index_of;
  for (const auto& w : c["workloads"]) {
    const std::string name = w["name"].as<std::string>();
    const std::string ns = w["namespace"].as<std::string>();
    WlBuilder b(name);
    b.Namespace(ns).Queue(w["queue"] ? w["queue"].as<std::string>() : "");
    b.Priority(w["priority"] ? w["priority"].as<int32_t>() : 0);
    // Upstream leaves creationTimestamp zero unless a case sets it: older than any set one.
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
    for (const auto& ch : w["checks"]) {
      b.CheckState(ch["name"].as<std::string>(), State(ch["state"].as<std::string>()));
    }
    const int32_t i = k.Add(b);
    model::Workload& wl = k.snapshot.kueue_workloads[static_cast<size_t>(i)];
    wl.meta.uid = w["uid"] ? w["uid"].as<std::string>() : "";
    size_t p = 0;
    for (const auto& ps : w["podSets"]) {
      for (const auto& l : ps["limits"]) {
        const std::string res = l.first.as<std::string>();
        wl.pod_sets[p].pod_template.containers[0].limits.Set(
            k.snapshot.resources.Intern(res), Amount(res, l.second.as<std::string>()));
      }
      ++p;
    }
    if (w["jobUid"]) wl.meta.labels["kueue.x-k8s.io/job-uid"] = w["jobUid"].as<std::string>();
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
    keys.push_back(ns + "/" + name);
    index_of[keys.back()] = i;
  }

  core::Diagnostics diags;
  AdmissionOptions options;
  options.now.unix_s = kNow;
  options.max_cycles = 1;
  const AdmissionResult r = RunAdmission(k.snapshot, options, nullptr, diags);

  // What the cache holds after the cycle, and where the pending workloads wait.
  std::map<std::string, std::string> got_assignments;
  KeyLists got_left, got_inadmissible;
  std::map<std::string, std::string> strategy;
  for (const YAML::Node& queues : {table["clusterQueues"], c["clusterQueues"]}) {
    for (const auto& q : queues) {
      strategy[q["name"].as<std::string>()] =
          q["queueingStrategy"] ? q["queueingStrategy"].as<std::string>() : "BestEffortFIFO";
    }
  }
  for (const WorkloadDecision& d : r.decisions) {
    const std::string& key = keys[static_cast<size_t>(d.workload)];
    const model::Workload& in = k.snapshot.kueue_workloads[static_cast<size_t>(d.workload)];
    switch (d.outcome) {
      case WorkloadOutcome::kAdmitted:
      case WorkloadOutcome::kQuotaReserved:
      case WorkloadOutcome::kAlreadyAdmitted:
        // A workload whose ClusterQueue does not exist is in no cache.
        if (d.admission && cq_names.count(d.admission->cluster_queue)) {
          got_assignments[key] = Render(d.admission->cluster_queue,
                                        d.admission->pod_set_assignments, k.snapshot.resources);
        }
        break;
      case WorkloadOutcome::kPreempted:
        // Evicted in this cycle: the cache keeps its admission until the eviction completes.
        if (in.admission) {
          got_assignments[key] = Render(in.admission->cluster_queue,
                                        in.admission->pod_set_assignments, k.snapshot.resources);
        }
        break;
      case WorkloadOutcome::kPending:
      case WorkloadOutcome::kInadmissible: {
        // Kueue's requeue rules (cluster_queue.go RequeueIfNotPresent): a workload not popped
        // in this cycle stays in the heap; a namespace mismatch is inadmissible; a popped head
        // that failed goes back to the heap in a StrictFIFO queue, or when it waits for
        // preemptions or failed after nomination; a BestEffortFIFO head with no fit is
        // inadmissible.
        std::string cq;
        for (const auto& lq : k.snapshot.local_queues) {
          if (lq.meta.name == in.queue_name && lq.meta.namespace_ == in.meta.namespace_) {
            cq = lq.cluster_queue;
          }
        }
        if (cq.empty() || !cq_names.count(cq)) break;
        if (d.outcome == WorkloadOutcome::kInadmissible) {
          if (d.message.find("namespace") != std::string::npos) {
            got_inadmissible[cq].insert(key);
          } else {
            got_left[cq].insert(key);
          }
          break;
        }
        const bool popped = d.cycle == 1;
        const bool failed_after_nomination =
            d.reason == "WaitingForPreemptedWorkloads" ||
            d.message.find("after processing another workload") != std::string::npos ||
            d.message.find("overlapping preemption targets") != std::string::npos;
        if (!popped || strategy[cq] == "StrictFIFO" || failed_after_nomination) {
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

  std::map<std::string, std::string> want_assignments;
  for (const auto& kv : c["want"]["assignments"]) {
    want_assignments[kv.first.as<std::string>()] = Render(
        kv.second["cq"].as<std::string>(), Assignments(kv.second["podSets"]), k.snapshot.resources);
  }
  for (const auto& [key, text] : want_assignments) {
    auto it = got_assignments.find(key);
    if (it == got_assignments.end()) {
      ADD_FAILURE() << key << " holds no quota; want " << text;
    } else {
      EXPECT_EQ(it->second, text) << key;
    }
  }
  for (const auto& [key, text] : got_assignments) {
    EXPECT_TRUE(want_assignments.count(key)) << key << " holds quota: " << text;
  }
  const KeyLists want_left = ReadKeyLists(c["want"]["left"]);
  const KeyLists want_inadmissible = ReadKeyLists(c["want"]["inadmissible"]);
  EXPECT_EQ(Show(got_left), Show(want_left)) << "left in the active heaps";
  EXPECT_EQ(Show(got_inadmissible), Show(want_inadmissible)) << "left inadmissible";

  // The conditions the cycle wrote, as ApplyDecisions writes them.
  model::Snapshot planned = k.snapshot;
  ApplyDecisions(r, options.now, &planned);
  for (const auto& kv : c["want"]["conditions"]) {
    const std::string key = kv.first.as<std::string>();
    auto idx = index_of.find(key);
    ASSERT_NE(idx, index_of.end()) << key;
    const model::Workload& wl = planned.kueue_workloads[static_cast<size_t>(idx->second)];
    for (const auto& want : kv.second) {
      const std::string type = want["type"].as<std::string>();
      // Admitted=False "NoReservation" on a workload that never held quota is written only
      // with Kueue's UnadmittedWorkloadsObservability gate; berth leaves Admitted unset
      // there, as Kueue does without the gate.
      if (type == "Admitted" && want["reason"] &&
          want["reason"].as<std::string>() == "NoReservation" &&
          wl.FindCondition(type) == nullptr) {
        continue;
      }
      const model::WorkloadCondition* got = wl.FindCondition(type);
      if (got == nullptr) {
        ADD_FAILURE() << key << " has no " << type << " condition";
        continue;
      }
      EXPECT_EQ(got->status, want["status"].as<std::string>()) << key << " " << type;
      if (want["reason"]) {
        EXPECT_EQ(got->reason, want["reason"].as<std::string>()) << key << " " << type;
      }
      if (want["message"] && !want["message"].IsNull()) {
        EXPECT_EQ(got->message, want["message"].as<std::string>()) << key << " " << type;
      }
    }
  }
}

constexpr const char* kClassical = "schedule.yaml";
constexpr const char* kFair = "schedule_fair.yaml";

// Each table is parsed once per test binary, not once per case.
const YAML::Node& Table(const char* file) {
  static const YAML::Node classical = YAML::LoadFile(TablePath(kClassical));
  static const YAML::Node fair = YAML::LoadFile(TablePath(kFair));
  return std::string_view(file) == kFair ? fair : classical;
}

void RunNamed(const char* file, const std::string& name) {
  const YAML::Node& table = Table(file);
  for (const auto& c : table["cases"]) {
    if (c["name"].as<std::string>() != name) continue;
    if (c["skip"]) GTEST_SKIP() << c["skip"].as<std::string>();
    if (c["unsupported"]) GTEST_SKIP() << "not extracted: " << c["unsupported"].as<std::string>();
    RunCase(table, c);
    return;
  }
  FAIL() << "no case " << name;
}

std::vector<std::string> CaseNames(const char* file) { return upstream::CaseNames(Table(file)); }


class UpstreamSchedule : public ::testing::TestWithParam<std::string> {};
TEST_P(UpstreamSchedule, MatchesKueue) { RunNamed(kClassical, GetParam()); }
INSTANTIATE_TEST_SUITE_P(Kueue, UpstreamSchedule, ::testing::ValuesIn(CaseNames(kClassical)),
                         TestName);

class UpstreamScheduleFair : public ::testing::TestWithParam<std::string> {};
TEST_P(UpstreamScheduleFair, MatchesKueue) { RunNamed(kFair, GetParam()); }
INSTANTIATE_TEST_SUITE_P(Kueue, UpstreamScheduleFair, ::testing::ValuesIn(CaseNames(kFair)),
                         TestName);

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
