// Topology-aware scheduling through RunAdmission: TAS flavor matching, placement after the
// quota fit, usage of workloads admitted in the input, preemption for placement, and the
// ClusterQueue without its Topology (Kueue's scheduler_tas_test.go and clusterqueue_test.go
// semantics). Cluster: one block, racks r1 (h1, h2) and r2 (h3, h4), 4 cpu per host.
#include <gtest/gtest.h>

#include <string>

#include "queueing/admission_test_util.h"
#include "queueing/topology_fixtures.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using tas_testing::kRack;
using testing::CqBuilder;
using testing::DecisionOf;
using testing::RunAll;
using testing::WlBuilder;

class TasAdmission {
 public:
  TasAdmission() {
    testing::SnapshotBuilder b;
    b.Add(tas_testing::TasNode("h1", "b1", "r1", "h1", 4000));
    b.Add(tas_testing::TasNode("h2", "b1", "r1", "h2", 4000));
    b.Add(tas_testing::TasNode("h3", "b1", "r2", "h3", 4000));
    b.Add(tas_testing::TasNode("h4", "b1", "r2", "h4", 4000));
    k.snapshot = b.Build();
    model::Topology t;
    t.meta.name = "default";
    t.levels = tas_testing::ThreeLevels();
    k.snapshot.topologies.push_back(t);
    k.Flavor("tas").topology_name = "default";
    k.LocalQueue("lq", "cq");
  }
  // A workload of `count` pods of `cpu_milli` with `request` on its pod set.
  int32_t Wl(const std::string& name, int32_t count, int64_t cpu_milli,
             model::TopologyRequest request, int32_t priority = 0) {
    int32_t i = k.Add(WlBuilder(name).PodSet("main", count, {{"cpu", cpu_milli}}).Priority(priority));
    k.snapshot.kueue_workloads[static_cast<size_t>(i)].pod_sets[0].topology_request = request;
    return i;
  }
  // Marks workload `i` admitted in the input on flavor tas with pods on `hosts` (one each).
  void AdmittedOn(int32_t i, const std::vector<std::string>& hosts, int64_t reserved_at) {
    model::Workload& w = k.snapshot.kueue_workloads[static_cast<size_t>(i)];
    int64_t cpu = 0;
    for (const auto& c : w.pod_sets[0].pod_template.containers) {
      cpu += c.requests.Get(k.snapshot.resources.Intern("cpu"));
    }
    model::Admission a;
    a.cluster_queue = "cq";
    model::PodSetAssignment psa;
    psa.name = "main";
    psa.count = w.pod_sets[0].count;
    psa.flavors["cpu"] = "tas";
    psa.resource_usage["cpu"] = cpu * psa.count;
    model::TopologyAssignment ta;
    ta.levels = {tas_testing::kHost};
    for (const auto& h : hosts) ta.domains.push_back({{h}, 1});
    psa.topology_assignment = ta;
    a.pod_set_assignments.push_back(psa);
    w.admission = a;
    w.conditions.push_back({"QuotaReserved", "True", "QuotaReserved", "", {reserved_at}});
    w.conditions.push_back({"Admitted", "True", "Admitted", "", {reserved_at}});
  }

  testing::KueueSnapshot k;
};

std::string Hosts(const WorkloadDecision& d) {
  if (!d.admission || d.admission->pod_set_assignments.empty() ||
      !d.admission->pod_set_assignments[0].topology_assignment) {
    return "none";
  }
  return tas_testing::Render(*d.admission->pod_set_assignments[0].topology_assignment);
}

TEST(TasAdmissionTest, RequiredRackFitsInOneRack) {
  TasAdmission t;
  t.k.Add(CqBuilder("cq").Quota("tas", "cpu", 100000));
  const int32_t a = t.Wl("a", 4, 2000, tas_testing::Required(kRack));
  const AdmissionResult r = RunAll(t.k);
  const WorkloadDecision& d = DecisionOf(r, a);
  EXPECT_EQ(d.outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(Hosts(d), "h1:2,h2:2");
  EXPECT_EQ(d.admission->pod_set_assignments[0].topology_assignment->levels,
            std::vector<std::string>{tas_testing::kHost});
}

TEST(TasAdmissionTest, RequiredRackThatFitsNowhereIsTopologyPlacementFailed) {
  TasAdmission t;
  t.k.Add(CqBuilder("cq").Quota("tas", "cpu", 100000));
  const int32_t a = t.Wl("a", 6, 2000, tas_testing::Required(kRack));
  const AdmissionResult r = RunAll(t.k);
  const WorkloadDecision& d = DecisionOf(r, a);
  EXPECT_EQ(d.outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(d.reason, "TopologyPlacementFailed");
  EXPECT_EQ(d.message,
            "couldn't assign flavors to pod set main: topology \"default\" allows to fit only 4 "
            "out of 6 pod(s)");
}

TEST(TasAdmissionTest, PreferredRackClimbsToTheBlock) {
  TasAdmission t;
  t.k.Add(CqBuilder("cq").Quota("tas", "cpu", 100000));
  const int32_t a = t.Wl("a", 6, 2000, tas_testing::Preferred(kRack));
  const AdmissionResult r = RunAll(t.k);
  const WorkloadDecision& d = DecisionOf(r, a);
  EXPECT_EQ(d.outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(Hosts(d), "h1:2,h2:2,h3:2");
}

TEST(TasAdmissionTest, NoAnnotationOnTasOnlyQueueIsUnconstrained) {
  TasAdmission t;
  t.k.Add(CqBuilder("cq").Quota("tas", "cpu", 100000));
  const int32_t a = t.Wl("a", 3, 1000, {});
  const AdmissionResult r = RunAll(t.k);
  const WorkloadDecision& d = DecisionOf(r, a);
  EXPECT_EQ(d.outcome, WorkloadOutcome::kAdmitted);
  // LeastFreeCapacity on an empty cluster: the first host takes all three.
  EXPECT_EQ(Hosts(d), "h1:3");
}

TEST(TasAdmissionTest, NoAnnotationSkipsTasFlavorWhenQueueHasOthers) {
  TasAdmission t;
  t.k.Flavor("plain");
  t.k.Add(CqBuilder("cq").Quota("tas", "cpu", 100000).Quota("plain", "cpu", 100000));
  const int32_t a = t.Wl("a", 1, 1000, {});
  const int32_t b = t.Wl("b", 1, 1000, tas_testing::Required(kRack));
  const AdmissionResult r = RunAll(t.k);
  EXPECT_EQ(DecisionOf(r, a).admission->pod_set_assignments[0].flavors.at("cpu"), "plain");
  EXPECT_EQ(Hosts(DecisionOf(r, a)), "none");
  EXPECT_EQ(DecisionOf(r, b).admission->pod_set_assignments[0].flavors.at("cpu"), "tas");
  EXPECT_EQ(Hosts(DecisionOf(r, b)), "h1:1");
}

TEST(TasAdmissionTest, UnknownLevelSkipsTheFlavor) {
  TasAdmission t;
  t.k.Add(CqBuilder("cq").Quota("tas", "cpu", 100000));
  const int32_t a = t.Wl("a", 1, 1000, tas_testing::Required("cloud.com/unknown"));
  const AdmissionResult r = RunAll(t.k);
  const WorkloadDecision& d = DecisionOf(r, a);
  EXPECT_EQ(d.outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(d.reason, "NoMatchingFlavor");
  EXPECT_EQ(d.message,
            "couldn't assign flavors to pod set main: Flavor \"tas\" does not contain the "
            "requested level");
}

TEST(TasAdmissionTest, MissingTopologyMakesTheQueueInactive) {
  TasAdmission t;
  t.k.snapshot.topologies.clear();
  t.k.Add(CqBuilder("cq").Quota("tas", "cpu", 100000));
  const int32_t a = t.Wl("a", 1, 1000, tas_testing::Required(kRack));
  const AdmissionResult r = RunAll(t.k);
  ASSERT_EQ(r.cluster_queues.size(), 1u);
  EXPECT_FALSE(r.cluster_queues[0].active);
  EXPECT_EQ(r.cluster_queues[0].reason, "TopologyNotFound");
  EXPECT_EQ(r.cluster_queues[0].message,
            "Can't admit new workloads: there is no Topology \"default\" for TAS flavor "
            "\"tas\".");
  EXPECT_EQ(DecisionOf(r, a).outcome, WorkloadOutcome::kInadmissible);
}

TEST(TasAdmissionTest, SlicesStayWithinTheirHost) {
  TasAdmission t;
  t.k.Add(CqBuilder("cq").Quota("tas", "cpu", 100000));
  // 4 pods in slices of 2 per host, the whole set in one block.
  const int32_t a = t.Wl("a", 4, 1000,
                         tas_testing::WithSlices(tas_testing::Required(tas_testing::kBlock),
                                                 tas_testing::kHost, 2));
  const AdmissionResult r = RunAll(t.k);
  const WorkloadDecision& d = DecisionOf(r, a);
  EXPECT_EQ(d.outcome, WorkloadOutcome::kAdmitted);
  const std::string hosts = Hosts(d);
  EXPECT_TRUE(hosts == "h1:4" || hosts == "h1:2,h2:2") << hosts;
}

TEST(TasAdmissionTest, WorkloadsAdmittedInTheInputHoldTheirDomains) {
  TasAdmission t;
  t.k.Add(CqBuilder("cq").Quota("tas", "cpu", 100000));
  const int32_t old = t.Wl("old", 2, 4000, tas_testing::Required(kRack));
  t.AdmittedOn(old, {"h1", "h2"}, 10);
  const int32_t a = t.Wl("a", 4, 2000, tas_testing::Required(kRack));
  const AdmissionResult r = RunAll(t.k);
  EXPECT_EQ(DecisionOf(r, old).outcome, WorkloadOutcome::kAlreadyAdmitted);
  EXPECT_EQ(Hosts(DecisionOf(r, a)), "h3:2,h4:2");
}

TEST(TasAdmissionTest, TwoWorkloadsOfOneRunDoNotShareARack) {
  TasAdmission t;
  t.k.Add(CqBuilder("cq").Quota("tas", "cpu", 100000));
  const int32_t a = t.Wl("a", 4, 2000, tas_testing::Required(kRack));
  const int32_t b = t.Wl("b", 4, 2000, tas_testing::Required(kRack));
  const int32_t c = t.Wl("c", 1, 1000, tas_testing::Required(kRack));
  const AdmissionResult r = RunAll(t.k);
  const std::string ha = Hosts(DecisionOf(r, a)), hb = Hosts(DecisionOf(r, b));
  EXPECT_NE(ha, hb);
  EXPECT_TRUE((ha == "h1:2,h2:2" && hb == "h3:2,h4:2") || (ha == "h3:2,h4:2" && hb == "h1:2,h2:2"))
      << ha << " " << hb;
  EXPECT_EQ(DecisionOf(r, c).reason, "TopologyPlacementFailed");
}

TEST(TasAdmissionTest, PreemptionFreesARackForThePlacement) {
  TasAdmission t;
  t.k.Add(CqBuilder("cq").Quota("tas", "cpu", 100000).WithinClusterQueue(
      model::PreemptionPolicy::kLowerPriority));
  // Quota is plentiful; each rack holds one low-priority pod, so no rack has 8 cpu free.
  const int32_t low1 = t.Wl("low1", 1, 4000, tas_testing::Required(kRack));
  t.AdmittedOn(low1, {"h1"}, 10);
  const int32_t low2 = t.Wl("low2", 1, 4000, tas_testing::Required(kRack));
  t.AdmittedOn(low2, {"h3"}, 20);
  const int32_t high = t.Wl("high", 4, 2000, tas_testing::Required(kRack), 100);
  const AdmissionResult r = RunAll(t.k);
  const WorkloadDecision& d = DecisionOf(r, high);
  EXPECT_EQ(d.outcome, WorkloadOutcome::kAdmitted);
  // The most recently reserved candidate goes first, and it alone frees rack r2.
  EXPECT_EQ(d.victims, std::vector<int32_t>{low2});
  EXPECT_EQ(DecisionOf(r, low2).eviction.ValueOrEmpty().preemption_reason, "InClusterQueue");
  EXPECT_EQ(DecisionOf(r, low1).outcome, WorkloadOutcome::kAlreadyAdmitted);
  EXPECT_EQ(Hosts(d), "h3:2,h4:2");
  // Requeued, the victim fits again next to low1 (the host r1 still has free).
  EXPECT_EQ(DecisionOf(r, low2).outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(Hosts(DecisionOf(r, low2)), "h2:1");
}

TEST(TasAdmissionTest, NoPreemptionPolicyMeansThePlacementFails) {
  TasAdmission t;
  t.k.Add(CqBuilder("cq").Quota("tas", "cpu", 100000));
  const int32_t low1 = t.Wl("low1", 1, 4000, tas_testing::Required(kRack));
  t.AdmittedOn(low1, {"h1"}, 10);
  const int32_t high = t.Wl("high", 4, 2000, tas_testing::Required(kRack), 100);
  const int32_t low2 = t.Wl("low2", 1, 4000, tas_testing::Required(kRack));
  t.AdmittedOn(low2, {"h3"}, 20);
  const AdmissionResult r = RunAll(t.k);
  // withinClusterQueue=Never: no candidate can free a rack, so the placement fails for good.
  EXPECT_EQ(DecisionOf(r, high).outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(DecisionOf(r, high).reason, "TopologyPlacementFailed");
  EXPECT_EQ(DecisionOf(r, high).message,
            "couldn't assign flavors to pod set main: topology \"default\" allows to fit only 2 "
            "out of 4 pod(s). Total nodes: 4; excluded: resource \"cpu\": 2");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
