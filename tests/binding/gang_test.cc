// Scheduler::ScheduleGang: all or nothing (or at least min_bound), with the decisions of
// undone and untried pods carrying Coscheduling's rejection, and a failed attempt leaving
// no trace: randomized against a Scheduler that never tried the gang (extended GPUs,
// fractional GPUs, DRA claims, topology spread, inter-pod affinity).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "random_cluster.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using berth::testing::kGi;
using berth::testing::NodeBuilder;
using berth::testing::PodBuilder;
using berth::testing::SnapshotBuilder;
namespace dra = devices::testing;

model::PodIndex P(int32_t i) { return model::PodIndex{i}; }

// Nodes n1..n<nodes> with 1000m cpu each; pods p0.. asking for 600m (one per node), and a
// last pod "huge" that fits nowhere.
model::Snapshot OnePodPerNode(int nodes, int pods) {
  SnapshotBuilder s;
  for (int n = 1; n <= nodes; ++n) {
    s.Add(NodeBuilder(berth::testing::Indexed("n", n)).Cpu(1000).Memory(4 * kGi));
  }
  for (int p = 0; p < pods; ++p) {
    s.Add(PodBuilder(berth::testing::Indexed("p", p)).Created(p).Container({{"cpu", 600}}));
  }
  s.Add(PodBuilder("huge").Created(100).Container({{"cpu", 5000}}));
  return s.Build();
}

TEST(GangTest, PlacesTheWholeGangWhenItFits) {
  model::Snapshot snap = OnePodPerNode(3, 3);
  Scheduler scheduler(snap, model::SchedulerConfig{});
  GangOutcome out = scheduler.ScheduleGang({P(0), P(1), P(2)});
  EXPECT_TRUE(out.placed);
  EXPECT_EQ(out.bound, 3);
  ASSERT_EQ(out.decisions.size(), 3u);
  EXPECT_EQ(BoundTo(snap, out.decisions[0]), "n1");
  EXPECT_EQ(BoundTo(snap, out.decisions[1]), "n2");
  EXPECT_EQ(BoundTo(snap, out.decisions[2]), "n3");
  EXPECT_TRUE(scheduler.QueueOrder() == std::vector<model::PodIndex>{P(3)});
}

TEST(GangTest, FailedGangUnbindsEveryPodItBound) {
  model::Snapshot snap = OnePodPerNode(2, 3);
  Scheduler scheduler(snap, model::SchedulerConfig{});
  GangOutcome out = scheduler.ScheduleGang({P(0), P(1), P(2)});
  EXPECT_FALSE(out.placed);
  EXPECT_EQ(out.bound, 0);
  ASSERT_EQ(out.decisions.size(), 3u);
  for (int i : {0, 1}) {
    const model::PodDecision& d = out.decisions[static_cast<size_t>(i)];
    EXPECT_FALSE(d.node.has_value());
    ASSERT_EQ(d.rejections.size(), 1u);
    EXPECT_EQ(d.rejections[0].plugin, kCoscheduling);
    EXPECT_EQ(d.rejections[0].reason, kReasonGangRejected);
    EXPECT_EQ(d.message,
              "optimistic rejection in PostFilter: pod group needs 3 bound pods; pod "
              "\"default/p2\" is unschedulable");
  }
  // The pod that did not fit keeps kube-scheduler's own message.
  EXPECT_EQ(out.decisions[2].message, "0/2 nodes are available: 2 Insufficient cpu.");
  // Nothing stays bound: all three are pending and n1 takes the next pod.
  EXPECT_EQ(scheduler.QueueOrder(), (std::vector<model::PodIndex>{P(0), P(1), P(2), P(3)}));
  EXPECT_TRUE(scheduler.ClaimBindings().empty());
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(2))), "n1");
}

TEST(GangTest, MinBoundKeepsThePodsThatFit) {
  model::Snapshot snap = OnePodPerNode(2, 3);
  Scheduler scheduler(snap, model::SchedulerConfig{});
  GangOutcome out = scheduler.ScheduleGang({P(0), P(1), P(2)}, /*min_bound=*/2);
  EXPECT_TRUE(out.placed);
  EXPECT_EQ(out.bound, 2);
  EXPECT_EQ(BoundTo(snap, out.decisions[0]), "n1");
  EXPECT_EQ(BoundTo(snap, out.decisions[1]), "n2");
  EXPECT_EQ(out.decisions[2].message, "0/2 nodes are available: 2 Insufficient cpu.");
  EXPECT_EQ(scheduler.QueueOrder(), (std::vector<model::PodIndex>{P(2), P(3)}));
}

TEST(GangTest, StopsOnceMinBoundIsOutOfReach) {
  model::Snapshot snap = OnePodPerNode(3, 3);
  Scheduler scheduler(snap, model::SchedulerConfig{});
  GangOutcome out = scheduler.ScheduleGang({P(0), P(3), P(1), P(2)}, /*min_bound=*/4);
  EXPECT_FALSE(out.placed);
  ASSERT_EQ(out.decisions.size(), 4u);
  EXPECT_EQ(out.decisions[1].message, "0/3 nodes are available: 3 Insufficient cpu.");
  for (size_t i : {size_t{0}, size_t{2}, size_t{3}}) {
    EXPECT_EQ(out.decisions[i].message,
              "optimistic rejection in PostFilter: pod group needs 4 bound pods; pod "
              "\"default/huge\" is unschedulable")
        << i;
    EXPECT_EQ(out.decisions[i].pod, (std::vector<model::PodIndex>{P(0), P(3), P(1), P(2)})[i]);
  }
  // p1 and p2 were never tried: two decisions, p0's and huge's.
  SchedulerStats stats = scheduler.stats();
  EXPECT_EQ(stats.indexed + stats.reference, 2);
  // With min_bound 3 the same failure leaves enough pods to try.
  out = scheduler.ScheduleGang({P(0), P(3), P(1), P(2)}, /*min_bound=*/3);
  EXPECT_TRUE(out.placed);
  EXPECT_EQ(out.bound, 3);
}

TEST(GangTest, PodsBoundBeforeTheCallCountAndStayBound) {
  model::Snapshot snap = OnePodPerNode(2, 2);
  Scheduler scheduler(snap, model::SchedulerConfig{});
  ASSERT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(0))), "n1");
  GangOutcome out = scheduler.ScheduleGang({P(0), P(1), P(2)});
  EXPECT_FALSE(out.placed);
  EXPECT_EQ(out.bound, 1);  // p0, bound before the call
  EXPECT_EQ(BoundTo(snap, out.decisions[0]), "n1");
  EXPECT_FALSE(out.decisions[1].node.has_value());
  EXPECT_EQ(out.decisions[1].rejections.at(0).plugin, kCoscheduling);
  EXPECT_EQ(scheduler.QueueOrder(), (std::vector<model::PodIndex>{P(1), P(2)}));
  // A gang of pods all bound already is placed without binding anything.
  out = scheduler.ScheduleGang({P(0)});
  EXPECT_TRUE(out.placed);
  EXPECT_EQ(out.bound, 1);
}

TEST(GangTest, MinBoundAboveTheGangSizeNeverPlaces) {
  model::Snapshot snap = OnePodPerNode(3, 2);
  Scheduler scheduler(snap, model::SchedulerConfig{});
  GangOutcome out = scheduler.ScheduleGang({P(0), P(1)}, /*min_bound=*/3);
  EXPECT_FALSE(out.placed);
  EXPECT_EQ(out.bound, 0);
  ASSERT_EQ(out.decisions.size(), 2u);
  EXPECT_EQ(out.decisions[0].message,
            "optimistic rejection in PostFilter: pod group needs 3 bound pods; it has 2");
  EXPECT_EQ(scheduler.QueueOrder().size(), 3u);
}

TEST(GangTest, RolledBackClaimsAreFreeAndOutOfClaimBindings) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n1").Cpu(8000).Memory(8 * kGi));
  s.Add(PodBuilder("a").Created(0).Container({{"cpu", 100}}));
  s.Add(PodBuilder("b").Created(1).Container({{"cpu", 100}}));
  s.Add(PodBuilder("huge").Created(2).Container({{"cpu", 100000}}));
  model::Snapshot snap = s.Build();
  snap.device_classes.push_back(dra::Class("gpu", testing::kDraDriver));
  dra::SliceB slice("n1", "n1", "n1", testing::kDraDriver);
  slice.Dev(dra::DeviceB("dev-0")).Dev(dra::DeviceB("dev-1"));
  snap.resource_slices.push_back(slice.s);
  for (const std::string name : {"ca", "cb"}) {
    dra::ClaimB claim(name, "default");
    claim.Req(dra::RequestB("gpu", "gpu", 1));
    snap.resource_claims.push_back(claim.c);
  }
  snap.pods[0].resource_claims.push_back(model::PodResourceClaim{"gpu", "ca", ""});
  snap.pods[1].resource_claims.push_back(model::PodResourceClaim{"gpu", "cb", ""});
  Scheduler scheduler(snap, model::SchedulerConfig{});
  GangOutcome out = scheduler.ScheduleGang({P(0), P(1), P(2)});
  EXPECT_FALSE(out.placed);
  EXPECT_TRUE(scheduler.ClaimBindings().empty());
  for (int32_t c : {0, 1}) {
    model::ResourceClaim status = scheduler.ClaimStatus(devices::ClaimIndex{c});
    EXPECT_FALSE(status.allocation.has_value());
    EXPECT_TRUE(status.reserved_for.empty());
  }
  // b now gets dev-0, as it would have without the attempt.
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(1))), "n1");
  ASSERT_EQ(scheduler.ClaimBindings().size(), 1u);
  EXPECT_EQ(scheduler.ClaimBindings()[0].allocation.results.at(0).device, "dev-0");
}

// A failed gang leaves no trace: after it, a Scheduler that tried it and one that never
// did decide every pod identically (node, message, rejections, claim allocations).
TEST(GangTest, FailedGangLeavesTheStateAsIfNeverTried) {
  int64_t rolled_back = 0;
  for (uint64_t seed = 1; seed <= 240; ++seed) {
    testing::ClusterFeatures features;
    features.dra = seed % 2 == 0;
    features.fractions = seed % 3 == 0;
    model::Snapshot snap = testing::RandomCluster(seed, features);
    snap.pods.push_back(
        PodBuilder("impossible").Created(1000).Container({{"cpu", 1000000}}).Build(snap.resources));
    const model::PodIndex impossible{static_cast<int32_t>(snap.pods.size()) - 1};
    const model::SchedulerConfig config;
    core::Diagnostics diags_a;
    core::Diagnostics diags_b;
    SchedulerOptions with_index(true);
    with_index.diagnostics = &diags_a;
    SchedulerOptions options_b(seed % 4 != 0);
    options_b.diagnostics = &diags_b;
    Scheduler tried(snap, config, with_index);
    Scheduler untried(snap, config, options_b);
    testing::Rng rng(seed * 104729);
    std::vector<model::PodIndex> queue = tried.QueueOrder();
    std::erase(queue, impossible);
    const auto prefix = static_cast<size_t>(rng.Below(static_cast<int64_t>(queue.size()) / 2 + 1));
    const std::string where = "seed " + std::to_string(seed);
    for (size_t i = 0; i < prefix; ++i) {
      ASSERT_EQ(tried.ScheduleOne(queue[i]).node, untried.ScheduleOne(queue[i]).node) << where;
    }
    // The gang: the next pods, and the impossible one last or (sometimes) inside.
    std::vector<model::PodIndex> gang(
        queue.begin() + static_cast<std::ptrdiff_t>(prefix),
        queue.begin() + static_cast<std::ptrdiff_t>(std::min(
                            queue.size(), prefix + 1 + static_cast<size_t>(rng.Below(6)))));
    gang.insert(rng.Chance(80) ? gang.end()
                               : gang.begin() + rng.Below(static_cast<int64_t>(gang.size()) + 1),
                impossible);
    GangOutcome out = tried.ScheduleGang(gang);
    ASSERT_FALSE(out.placed) << where;
    EXPECT_EQ(out.bound, 0) << where;
    ASSERT_EQ(out.decisions.size(), gang.size()) << where;
    for (const model::PodDecision& d : out.decisions) {
      EXPECT_FALSE(d.node.has_value()) << where;
      if (!d.rejections.empty() && d.rejections[0].plugin == kCoscheduling) ++rolled_back;
    }
    for (size_t i = prefix; i < queue.size(); ++i) {
      model::PodDecision a = tried.ScheduleOne(queue[i]);
      model::PodDecision b = untried.ScheduleOne(queue[i]);
      const std::string pod = where + " pod " + snap.pod(queue[i]).meta.name;
      ASSERT_EQ(a.node, b.node) << pod;
      EXPECT_EQ(a.message, b.message) << pod;
      EXPECT_EQ(a.rejections, b.rejections) << pod;
    }
    const auto& x = tried.ClaimBindings();
    const auto& y = untried.ClaimBindings();
    ASSERT_EQ(x.size(), y.size()) << where;
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_EQ(x[i].pod, y[i].pod) << where;
      EXPECT_EQ(x[i].allocated, y[i].allocated) << where;
      EXPECT_EQ(dra::Tuples(x[i].allocation), dra::Tuples(y[i].allocation)) << where;
    }
  }
  EXPECT_GT(rolled_back, 300);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
