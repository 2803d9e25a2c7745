// Kueue's own preemption tables (pkg/scheduler/preemption/preemption_test.go, TestPreemption;
// preemption_fair_test.go, TestFairPreemptions), ported as data:
// tests/queueing/upstream/{preemption,fair_preemption}.yaml hold every case's ClusterQueues,
// Cohorts, admitted workloads, incoming workload and the workloads upstream expects to be
// preempted, with the reason and (TestPreemption) the exact message. Each case runs one admission cycle
// (`--cycles 1`): upstream calls GetTargets and IssuePreemptions once, which is what one
// cycle does for the incoming workload. berth chooses the flavors itself where upstream's
// test hands the preemptor an assignment; the table's `assignment` is kept for reference.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cstdlib>
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
using upstream::BuildQueue;
using upstream::TablePath;
using upstream::TestName;

constexpr int64_t kNow = 1000;

std::vector<std::pair<std::string, int64_t>> Requests(const YAML::Node& n) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const auto& r : n) {
    const std::string resource = r.first.as<std::string>();
    out.emplace_back(resource, Amount(resource, r.second.as<std::string>()));
  }
  return out;
}

struct Expected {
  std::string reason;
  std::string message;
};

// fairSharing.weight in thousandths.
int64_t Weight(const YAML::Node& n) {
  return n["fairWeight"] ? Amount("cpu", n["fairWeight"].as<std::string>()) : 1000;
}

model::FairSharingStrategy Strategy(const std::string& name) {
  EXPECT_TRUE(name == "LessThanOrEqualToFinalShare" || name == "LessThanInitialShare") << name;
  return name == "LessThanInitialShare" ? model::FairSharingStrategy::kLessThanInitialShare
                                        : model::FairSharingStrategy::kLessThanOrEqualToFinalShare;
}

void RunCase(const YAML::Node& shared_queues, const YAML::Node& c, bool fair) {
  KueueSnapshot k;
  if (c["flavors"]) {
    for (const auto& f : c["flavors"]) k.Flavor(f.as<std::string>());
  } else {
    for (const char* f : {"default", "alpha", "beta"}) k.Flavor(f);
  }
  const YAML::Node queues = c["clusterQueues"] ? c["clusterQueues"] : shared_queues;
  for (const auto& q : queues) {
    k.Add(BuildQueue(q, /*cohortless_limits=*/true));
    k.snapshot.cluster_queues.back().fair_sharing_weight_milli = Weight(q);
    const std::string name = q["name"].as<std::string>();
    k.LocalQueue("lq-" + name, name);
  }
  for (const auto& co : c["cohorts"]) {
    CqBuilder quota("quota");
    if (co["groups"]) AddQuotas(co["groups"], quota);
    k.Cohort(co["name"].as<std::string>(), co["parent"] ? co["parent"].as<std::string>() : "",
             &quota);
    k.snapshot.cohorts.back().fair_sharing_weight_milli = Weight(co);
  }
  if (fair) {
    model::KueueConfig config;
    config.fair_sharing = model::FairSharingConfig{};
    if (c["strategies"]) {
      config.fair_sharing->preemption_strategies.clear();
      for (const auto& s : c["strategies"]) {
        config.fair_sharing->preemption_strategies.push_back(Strategy(s.as<std::string>()));
      }
    }  // else Kueue's default: LessThanOrEqualToFinalShare, then LessThanInitialShare
    k.snapshot.kueue_config = config;
  }
  std::vector<std::string> names;
  for (const auto& w : c["admitted"]) {
    const std::string cq = w["cq"].as<std::string>();
    WlBuilder b(w["name"].as<std::string>());
    b.Queue("lq-" + cq).Priority(w["priority"] ? w["priority"].as<int32_t>() : 0).Created(kNow);
    const auto requests = Requests(w["requests"]);
    b.Requests(requests);
    std::vector<std::tuple<std::string, std::string, int64_t>> usage;
    for (const auto& [resource, amount] : requests) {
      usage.emplace_back(resource, w["flavors"][resource].as<std::string>(), amount);
    }
    b.Admitted(cq, usage, kNow + w["reservedAt"].as<int64_t>());
    k.Add(b);
    names.push_back(w["name"].as<std::string>());
  }
  const YAML::Node in = c["incoming"];
  const std::string target = c["targetCQ"].as<std::string>();
  WlBuilder incoming("in");
  incoming.Queue("lq-" + target)
      .Priority(in["priority"] ? in["priority"].as<int32_t>() : 0)
      .Created(kNow + (in["created"] ? in["created"].as<int64_t>() : 0));
  if (in["podSets"]) {
    for (const auto& ps : in["podSets"]) {
      incoming.PodSet(ps["name"].as<std::string>(), ps["count"].as<int32_t>(),
                      Requests(ps["requests"]));
    }
  } else {
    incoming.Requests(Requests(in["requests"]));
  }
  const int32_t in_index = k.Add(incoming);
  model::Workload& in_wl = k.snapshot.kueue_workloads[static_cast<size_t>(in_index)];
  in_wl.meta.uid = "wl-in";
  in_wl.meta.labels["kueue.x-k8s.io/job-uid"] = "job-in";
  names.push_back("in");

  std::map<std::string, Expected> want;
  for (const auto& w : c["want"]) {
    want[w["name"].as<std::string>()] = {
        w["reason"].as<std::string>(), w["message"] ? w["message"].as<std::string>() : ""};
  }

  core::Diagnostics diags;
  AdmissionOptions options;
  options.now.unix_s = kNow;
  options.max_cycles = 1;
  const AdmissionResult r = RunAdmission(k.snapshot, options, nullptr, diags);
  std::map<std::string, Expected> got;
  size_t preemptor_victims = 0;
  for (const WorkloadDecision& d : r.decisions) {
    const std::string& name = names[static_cast<size_t>(d.workload)];
    if (d.outcome == WorkloadOutcome::kPreempted) got[name] = {d.eviction.ValueOrEmpty().preemption_reason, d.message};
    if (d.workload == in_index) preemptor_victims = d.victims.size();
  }
  const size_t want_count =
      c["wantPreempted"] ? c["wantPreempted"].as<size_t>() : c["want"].size();
  EXPECT_EQ(preemptor_victims, want_count);
  for (const auto& [name, e] : want) {
    auto it = got.find(name);
    if (it == got.end()) {
      ADD_FAILURE() << name << " was not preempted";
      continue;
    }
    EXPECT_EQ(it->second.reason, e.reason) << name;
    if (!e.message.empty()) {
      EXPECT_EQ(it->second.message, e.message) << name;
    }
  }
  for (const auto& [name, e] : got) {
    EXPECT_TRUE(want.count(name)) << name << " was preempted (" << e.reason << ")";
  }
}

constexpr const char* kClassical = "preemption.yaml";
constexpr const char* kFair = "fair_preemption.yaml";

// Each table is parsed once per test binary, not once per case.
const YAML::Node& Table(const char* file) {
  static const YAML::Node classical = YAML::LoadFile(TablePath(kClassical));
  static const YAML::Node fair = YAML::LoadFile(TablePath(kFair));
  return std::string_view(file) == kFair ? fair : classical;
}

void RunNamed(const char* file, bool fair, const std::string& name) {
  const YAML::Node& table = Table(file);
  for (const auto& c : table["cases"]) {
    if (c["name"].as<std::string>() != name) continue;
    if (c["skip"]) GTEST_SKIP() << c["skip"].as<std::string>();
    RunCase(table["clusterQueues"], c, fair);
    return;
  }
  FAIL() << "no case " << name;
}

std::vector<std::string> CaseNames(const char* file) { return upstream::CaseNames(Table(file)); }

class UpstreamPreemption : public ::testing::TestWithParam<std::string> {};
TEST_P(UpstreamPreemption, MatchesKueue) { RunNamed(kClassical, false, GetParam()); }
INSTANTIATE_TEST_SUITE_P(Kueue, UpstreamPreemption, ::testing::ValuesIn(CaseNames(kClassical)),
                         TestName);

class UpstreamFairPreemption : public ::testing::TestWithParam<std::string> {};
TEST_P(UpstreamFairPreemption, MatchesKueue) { RunNamed(kFair, true, GetParam()); }
INSTANTIATE_TEST_SUITE_P(Kueue, UpstreamFairPreemption, ::testing::ValuesIn(CaseNames(kFair)),
                         TestName);

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
