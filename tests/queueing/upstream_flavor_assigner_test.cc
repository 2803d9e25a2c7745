// Kueue's own flavor-assigner tables (pkg/scheduler/flavorassigner/flavorassigner_test.go:
// TestAssignFlavors, TestDeletedFlavors, TestReclaimBeforePriorityPreemption,
// TestHierarchical, TestIsPreferred), ported as data: tests/queueing/upstream/flavorassigner.yaml
// holds every case's flavors, ClusterQueues, Cohorts, usage, the workload's pod sets and the
// assignment upstream expects (and isPreferred's comparisons). Each case builds berth's
// AdmissionState from the table, adds the usage as upstream does (straight onto the ClusterQueue,
// no workloads), and runs FlavorAssigner with upstream's stub oracle (a table of answers per
// flavor/resource, Preempt otherwise), then compares the representative mode, each pod set's
// flavors with their modes and status reasons, the assignment's usage and its borrowing level.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/quantity.h"
#include "core/selector.h"
#include "core/taint.h"
#include "queueing/admission_state.h"
#include "queueing/flavor_assigner.h"
#include "queueing/kueue_builders.h"
#include "queueing/upstream_table_util.h"
#include "queueing/queue_setup.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using testing::CqBuilder;
using testing::KueueSnapshot;
using upstream::AddQuotas;
using upstream::Amount;
using upstream::BuildQueue;
using upstream::Requirement;
using upstream::TablePath;
using upstream::TestName;

constexpr const char* kTable = "flavorassigner.yaml";

core::TaintEffect Effect(const std::string& name) {
  auto e = core::ParseTaintEffect(name);
  EXPECT_TRUE(e.has_value()) << name;
  return e.has_value() ? *e : core::TaintEffect::kNoSchedule;
}

core::Toleration Toleration(const YAML::Node& n) {
  core::Toleration t;
  if (n["key"]) t.key = n["key"].as<std::string>();
  if (n["operator"]) {
    auto op = core::ParseTolerationOp(n["operator"].as<std::string>());
    EXPECT_TRUE(op.has_value());
    if (op.has_value()) t.op = *op;
  }
  if (n["value"]) t.value = n["value"].as<std::string>();
  if (n["effect"]) t.effect = Effect(n["effect"].as<std::string>());
  return t;
}

model::Workload BuildWorkload(const YAML::Node& pod_sets, model::ResourceCatalog& catalog) {
  model::Workload wl;
  wl.meta.name = "wl";
  wl.meta.namespace_ = "default";
  wl.meta.uid = "wl-uid";
  for (const auto& ps : pod_sets) {
    model::KueuePodSet k;
    k.name = ps["name"].as<std::string>();
    k.count = ps["count"].as<int32_t>();
    model::Container c;
    for (const auto& r : ps["requests"]) {
      const std::string resource = r.first.as<std::string>();
      c.requests.Set(catalog.Intern(resource), Amount(resource, r.second.as<std::string>()));
    }
    k.pod_template.containers.push_back(std::move(c));
    for (const auto& t : ps["tolerations"]) k.pod_template.tolerations.push_back(Toleration(t));
    for (const auto& s : ps["nodeSelector"]) {
      k.pod_template.node_selector[s.first.as<std::string>()] = s.second.as<std::string>();
    }
    if (ps["affinity"]) {
      core::NodeSelector required;
      for (const auto& term : ps["affinity"]) {
        core::NodeSelectorTerm t;
        for (const auto& e : term) t.match_expressions.push_back(Requirement(e, true));
        required.terms.push_back(std::move(t));
      }
      k.pod_template.node_affinity.required = std::move(required);
    }
    if (ps["group"]) k.topology_request.pod_set_group_name = ps["group"].as<std::string>();
    wl.pod_sets.push_back(std::move(k));
  }
  return wl;
}

// Upstream's testOracle: the table's answer for a flavor/resource, else Preempt at level 0.
class TableOracle : public PreemptionOracle {
 public:
  TableOracle(const AdmissionState& state, const YAML::Node& answers, bool fair)
      : state_(state), answers_(answers), fair_(fair) {}
  bool FairSharing() const override { return fair_; }
  OracleVerdict SimulatePreemption(const WorkloadInfo&, int32_t fr, int64_t, int32_t) override {
    const auto& [flavor, resource] = state_.setup().frs[static_cast<size_t>(fr)];
    const std::string key = flavor + "/" + state_.snapshot().resources.Name(resource);
    if (answers_ && answers_[key]) {
      const std::string mode = answers_[key][0].as<std::string>();
      const int32_t borrow = answers_[key][1].as<int32_t>();
      if (mode == "Reclaim") return {FitMode::kReclaim, borrow};
      if (mode == "NoCandidates") return {FitMode::kNoCandidates, borrow};
      EXPECT_EQ(mode, "Preempt");
      return {FitMode::kPreempt, borrow};
    }
    return {FitMode::kPreempt, 0};
  }

 private:
  const AdmissionState& state_;
  YAML::Node answers_;
  bool fair_;
};

model::ResourceId Rid(const model::ResourceCatalog& catalog, const std::string& name) {
  model::ResourceId id;
  EXPECT_TRUE(catalog.Find(name, &id)) << name;
  return id;
}

void AddUsage(AdmissionState& state, const std::string& cq, const YAML::Node& usage) {
  const int32_t q = state.setup().cq_by_name.at(cq);
  FrUsage frs;
  for (const auto& u : usage) {
    const std::string key = u.first.as<std::string>();
    const size_t slash = key.find('/');
    const model::ResourceId r = Rid(state.snapshot().resources, key.substr(slash + 1));
    const int32_t fr = state.setup().FrId(key.substr(0, slash), r);
    ASSERT_GE(fr, 0) << key;
    frs.emplace_back(fr, u.second.as<int64_t>());
  }
  std::sort(frs.begin(), frs.end());
  state.AddUsage(q, frs);
}

const char* ModeName(Assignment::Mode m) {
  switch (m) {
    case Assignment::Mode::kFit:
      return "Fit";
    case Assignment::Mode::kPreempt:
      return "Preempt";
    case Assignment::Mode::kNoFit:
      return "NoFit";
  }
  return "?";
}

void RunCase(const YAML::Node& table, const YAML::Node& c) {
  KueueSnapshot k;
  std::set<std::string> deleted;
  for (const auto& d : c["deletedFlavors"]) deleted.insert(d.as<std::string>());
  for (const auto& f : table["flavors"]) {
    const std::string name = f["name"].as<std::string>();
    if (deleted.count(name)) continue;
    core::Labels labels;
    for (const auto& l : f["labels"]) {
      labels[l.first.as<std::string>()] = l.second.as<std::string>();
    }
    std::vector<core::Taint> taints;
    for (const auto& t : f["taints"]) {
      taints.push_back(core::Taint{t["key"].as<std::string>(), t["value"].as<std::string>(),
                                   Effect(t["effect"].as<std::string>())});
    }
    model::ResourceFlavor& flavor = k.Flavor(name, labels, taints);
    for (const auto& t : f["tolerations"]) flavor.tolerations.push_back(Toleration(t));
    if (f["topology"]) flavor.topology_name = f["topology"].as<std::string>();
  }
  const YAML::Node cq = c["clusterQueue"];
  k.Add(BuildQueue(cq, /*cohortless_limits=*/true));
  for (const auto& o : c["otherQueues"]) k.Add(BuildQueue(o, /*cohortless_limits=*/true));
  for (const auto& co : c["cohorts"]) {
    CqBuilder quota("quota");
    if (co["groups"]) AddQuotas(co["groups"], quota);
    k.Cohort(co["name"].as<std::string>(), co["parent"] ? co["parent"].as<std::string>() : "",
             &quota);
  }
  k.snapshot.kueue_workloads.push_back(BuildWorkload(c["podSets"], k.snapshot.resources));

  core::Diagnostics diags;
  AdmissionState state(k.snapshot, BuildQueueSetup(k.snapshot, "default", diags));
  const std::string cq_name = cq["name"].as<std::string>();
  if (c["usage"]) AddUsage(state, cq_name, c["usage"]);
  for (const auto& o : c["otherQueues"]) {
    if (o["usage"]) AddUsage(state, o["name"].as<std::string>(), o["usage"]);
  }
  WorkloadInfo info = BuildWorkloadInfo(k.snapshot.kueue_workloads[0], 0);
  info.cq = state.setup().cq_by_name.at(cq_name);
  TableOracle oracle(state, c["simulation"], c["fairSharing"] && c["fairSharing"].as<bool>());
  FlavorAssigner assigner(state, oracle);
  std::vector<int32_t> counts;
  for (const PodSetRequest& ps : info.pod_sets) counts.push_back(ps.count);
  const Assignment a = assigner.Assign(info, counts, /*explain=*/false);

  EXPECT_EQ(ModeName(a.mode), c["wantMode"].as<std::string>()) << a.message;
  const YAML::Node want = c["want"];
  const bool flavors_only = c["flavorsOnly"] && c["flavorsOnly"].as<bool>();
  const auto& catalog = k.snapshot.resources;
  const std::set<int32_t> contested(a.contested.begin(), a.contested.end());
  size_t p = 0;
  for (const auto& wps : want["podSets"]) {
    ASSERT_LT(p, a.pod_sets.size()) << "pod set " << wps["name"].as<std::string>() << " missing";
    const PlannedPodSet& got = a.pod_sets[p++];
    const std::string name = wps["name"].as<std::string>();
    EXPECT_EQ(got.name, name);
    std::map<std::string, std::string> want_flavors, got_flavors;
    for (const auto& f : wps["flavors"]) {
      std::string v = f.second.as<std::string>();
      want_flavors[f.first.as<std::string>()] = v;
    }
    for (const auto& [resource, flavor] : got.flavors) {
      std::string v = flavor;
      if (!flavors_only) {
        const int32_t fr = state.setup().FrId(flavor, Rid(catalog, resource));
        v += contested.count(fr) ? "/Preempt" : "/Fit";
      }
      got_flavors[resource] = v;
    }
    EXPECT_EQ(got_flavors, want_flavors) << "pod set " << name;
    if (flavors_only) continue;
    if (wps["count"]) {
      EXPECT_EQ(got.count, wps["count"].as<int32_t>()) << name;
    }
    std::vector<std::string> want_reasons, got_reasons = got.reasons;
    for (const auto& r : wps["reasons"]) want_reasons.push_back(r.as<std::string>());
    std::sort(got_reasons.begin(), got_reasons.end());
    EXPECT_EQ(got_reasons, want_reasons) << "pod set " << name;
    // Upstream's Requests of the resources that got a flavor (berth's resourceUsage).
    for (const auto& [resource, amount] : got.resource_usage) {
      if (!wps["requests"] || !wps["requests"][resource]) continue;
      EXPECT_EQ(amount, Amount(resource, wps["requests"][resource].as<std::string>()))
          << name << " " << resource;
    }
  }
  if (flavors_only) return;
  EXPECT_EQ(p, a.pod_sets.size()) << "pod sets beyond upstream's";
  std::map<std::string, int64_t> want_usage, got_usage;
  for (const auto& u : want["usage"]) {
    if (u.second.as<int64_t>() != 0) want_usage[u.first.as<std::string>()] = u.second.as<int64_t>();
  }
  for (const auto& [fr, v] : a.usage) {
    const auto& [flavor, resource] = state.setup().frs[static_cast<size_t>(fr)];
    if (v != 0) got_usage[flavor + "/" + catalog.Name(resource)] = v;
  }
  EXPECT_EQ(got_usage, want_usage);
  EXPECT_EQ(a.borrow_level, want["borrowing"] ? want["borrowing"].as<int32_t>() : 0);
  if (want["noFitReason"] && a.mode == Assignment::Mode::kNoFit && !c["noFitReasonPending"]) {
    EXPECT_EQ(a.reason, want["noFitReason"].as<std::string>());
  }
}

const YAML::Node& Table() {
  static const YAML::Node table = YAML::LoadFile(TablePath(kTable));
  return table;
}

// "Table/case name" for every case.
std::vector<std::string> CaseNames() {
  std::vector<std::string> names;
  for (const auto& t : Table()["tables"]) {
    for (const auto& c : t["cases"]) {
      names.push_back(t["name"].as<std::string>() + "/" + c["name"].as<std::string>());
    }
  }
  return names;
}


class UpstreamFlavorAssigner : public ::testing::TestWithParam<std::string> {};

TEST_P(UpstreamFlavorAssigner, MatchesKueue) {
  const std::string& param = GetParam();
  const size_t slash = param.find('/');
  for (const auto& t : Table()["tables"]) {
    if (t["name"].as<std::string>() != param.substr(0, slash)) continue;
    for (const auto& c : t["cases"]) {
      if (c["name"].as<std::string>() != param.substr(slash + 1)) continue;
      if (c["skip"]) GTEST_SKIP() << c["skip"].as<std::string>();
      RunCase(t, c);
      return;
    }
  }
  FAIL() << "no case " << param;
}

INSTANTIATE_TEST_SUITE_P(Kueue, UpstreamFlavorAssigner, ::testing::ValuesIn(CaseNames()), TestName);

// TestIsPreferred: upstream's granular modes onto berth's FitMode.
FitMode GranularMode(const std::string& name) {
  static const std::map<std::string, FitMode> kModes = {
      {"noFit", FitMode::kNoFit},
      {"noPreemptionCandidates", FitMode::kNoCandidates},
      {"preempt", FitMode::kPreempt},
      {"reclaim", FitMode::kReclaim},
      {"fit", FitMode::kFit}};
  auto it = kModes.find(name);
  EXPECT_NE(it, kModes.end()) << name;
  return it == kModes.end() ? FitMode::kNoFit : it->second;
}

std::vector<std::string> PreferredNames() {
  std::vector<std::string> names;
  for (const auto& c : Table()["isPreferred"]) names.push_back(c["name"].as<std::string>());
  return names;
}

class UpstreamIsPreferred : public ::testing::TestWithParam<std::string> {};

TEST_P(UpstreamIsPreferred, MatchesKueue) {
  for (const auto& c : Table()["isPreferred"]) {
    if (c["name"].as<std::string>() != GetParam()) continue;
    const model::FungibilityPreference preference =
        c["preference"] && c["preference"].as<std::string>() == "PreemptionOverBorrowing"
            ? model::FungibilityPreference::kPreemptionOverBorrowing
            : model::FungibilityPreference::kBorrowingOverPreemption;
    EXPECT_EQ(IsPreferredFlavor(GranularMode(c["a"][0].as<std::string>()), c["a"][1].as<int32_t>(),
                                GranularMode(c["b"][0].as<std::string>()), c["b"][1].as<int32_t>(),
                                preference),
              c["want"].as<bool>());
    return;
  }
  FAIL() << "no case " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Kueue, UpstreamIsPreferred, ::testing::ValuesIn(PreferredNames()),
                         TestName);

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
