// Scheduler::Unbind: a removed pod's node resources, counts, GPU portions, claim
// reservations and device allocations come free; pods bound in the input can be unbound
// too; and after any mix of binds and unbinds the Scheduler decides every later pod as a
// fresh Scheduler on the equivalent snapshot does (randomized, with the index, extended
// GPUs, topology spread, inter-pod affinity and DRA claims).
#include <gtest/gtest.h>

#include <optional>
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

TEST(UnbindTest, FreesTheNodeForTheNextPod) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Cpu(1000).Memory(4 * kGi)).Add(NodeBuilder("b").Cpu(600).Memory(4 * kGi));
  s.Add(PodBuilder("big-1").Created(1).Container({{"cpu", 800}}));
  s.Add(PodBuilder("big-2").Created(2).Container({{"cpu", 800}}));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(0))), "a");
  EXPECT_FALSE(scheduler.ScheduleOne(P(1)).node.has_value());
  scheduler.Unbind(P(0));
  // big-1 is pending again, ahead of big-2.
  EXPECT_EQ(scheduler.QueueOrder(), (std::vector<model::PodIndex>{P(0), P(1)}));
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(1))), "a");
  EXPECT_FALSE(scheduler.ScheduleOne(P(0)).node.has_value());
}

TEST(UnbindTest, UnbindsPodsBoundInTheInput) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Cpu(1000).Memory(4 * kGi).Gpu(1));
  s.Add(PodBuilder("running").NodeName("a").Container({{"cpu", 800}, {"nvidia.com/gpu", 1}}));
  s.Add(PodBuilder("waiting").Created(1).Container({{"cpu", 500}, {"nvidia.com/gpu", 1}}));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  EXPECT_FALSE(scheduler.ScheduleOne(P(1)).node.has_value());
  scheduler.Unbind(P(0));
  // A victim is not pending: QueueOrder does not bring it back.
  EXPECT_EQ(scheduler.QueueOrder(), (std::vector<model::PodIndex>{P(1)}));
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(1))), "a");
  // Passed explicitly, it is scheduled as a pod without spec.nodeName.
  model::PodDecision again = scheduler.ScheduleOne(P(0));
  EXPECT_FALSE(again.skipped);
  EXPECT_FALSE(again.node.has_value());
  EXPECT_EQ(again.message,
            "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient nvidia.com/gpu.");
}

TEST(UnbindTest, RemovedAntiAffinityNoLongerRepelsAndTheIndexTakesThePodAgain) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Cpu(4000).Memory(8 * kGi));
  s.Add(PodBuilder("loner")
            .Label("app", "db")
            .NodeName("a")
            .Container({{"cpu", 100}})
            .PodAntiAffinity(
                berth::testing::AffinityTerm({{"app", "web"}}, "kubernetes.io/hostname")));
  s.Add(PodBuilder("web").Label("app", "web").Created(1).Container({{"cpu", 100}}));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  // Tried once: the index learns that a placed pod's term selects "web".
  EXPECT_FALSE(scheduler.ScheduleOne(P(1)).node.has_value());
  EXPECT_EQ(scheduler.stats().indexed, 0);
  scheduler.Unbind(P(0));
  const int64_t indexed = scheduler.stats().indexed;
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(1))), "a");
  EXPECT_EQ(scheduler.stats().indexed, indexed + 1);  // no placed term selects it any more
}

TEST(UnbindTest, TopologySpreadCountsDropWithTheUnboundPod) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Cpu(4000).Memory(8 * kGi).Label("zone", "z1"));
  // z2 counts as a domain but has no room for another pod.
  s.Add(NodeBuilder("b").Cpu(150).Memory(8 * kGi).Label("zone", "z2"));
  auto spread = [](const std::string& name, int created) {
    return PodBuilder(name)
        .Label("app", "web")
        .Created(created)
        .Container({{"cpu", 100}})
        .SpreadConstraint(berth::testing::Spread("zone", 1, {{"app", "web"}}));
  };
  s.Add(PodBuilder("other").Label("app", "web").NodeName("b").Container({{"cpu", 100}}));
  s.Add(spread("w1", 1));
  s.Add(spread("w2", 2));
  s.Add(spread("w3", 3));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(1))), "a");  // z1:1 z2:1
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(2))), "a");  // z1:2 z2:1
  EXPECT_FALSE(scheduler.ScheduleOne(P(3)).node.has_value());  // z1 would be 3 vs 1
  scheduler.Unbind(P(1));
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(3))), "a");
}

TEST(UnbindTest, FractionalGpusAreUnreservedWithTheirLastHolder) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("gpu").Cpu(32000).Memory(64 * kGi).Gpu(1).Label("nvidia.com/gpu.memory",
                                                                    "81920"));
  s.Add(PodBuilder("half-a").Created(1).Container({{"cpu", 100}}));
  s.Add(PodBuilder("half-b").Created(2).Container({{"cpu", 100}}));
  s.Add(PodBuilder("whole").Created(3).Container({{"cpu", 100}, {"nvidia.com/gpu", 1}}));
  model::Snapshot snap = s.Build();
  snap.pods[0].meta.annotations["gpu-fraction"] = "0.5";
  snap.pods[1].meta.annotations["gpu-fraction"] = "0.5";
  Scheduler scheduler(snap, model::SchedulerConfig{});
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(0))), "gpu");
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(1))), "gpu");
  EXPECT_FALSE(scheduler.Explain(P(2)).decision.node.has_value());
  scheduler.Unbind(P(0));
  // half-b still holds the shared GPU: a whole-GPU pod cannot have it, a half can.
  EXPECT_FALSE(scheduler.Explain(P(2)).decision.node.has_value());
  EXPECT_TRUE(scheduler.Explain(P(0)).decision.node.has_value());
  scheduler.Unbind(P(1));
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(2))), "gpu");
  EXPECT_EQ(scheduler.ScheduleOne(P(0)).message,
            "0/1 nodes are available: 1 node(s) didn't have a GPU with enough free fraction.");
}

// Two nodes with one device each; "shared" is used by two pods, "solo" by one more.
model::Snapshot ClaimCluster() {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n1").Cpu(8000).Memory(8 * kGi))
      .Add(NodeBuilder("n2").Cpu(8000).Memory(8 * kGi));
  s.Add(PodBuilder("p0").Created(0).Container({{"cpu", 100}}));
  s.Add(PodBuilder("p1").Created(1).Container({{"cpu", 100}}));
  s.Add(PodBuilder("p2").Created(2).Container({{"cpu", 100}}));
  model::Snapshot snap = s.Build();
  snap.device_classes.push_back(dra::Class("gpu", testing::kDraDriver));
  for (const std::string node : {"n1", "n2"}) {
    dra::SliceB slice(node, node, node, testing::kDraDriver);
    slice.Dev(dra::DeviceB("dev-0"));
    snap.resource_slices.push_back(slice.s);
  }
  for (const std::string name : {"shared", "solo-a", "solo-b"}) {
    dra::ClaimB claim(name, "default");
    claim.Req(dra::RequestB("gpu", "gpu", 1));
    snap.resource_claims.push_back(claim.c);
  }
  auto use = [&](size_t pod, const std::string& claim) {
    snap.pods[pod].resource_claims.push_back(model::PodResourceClaim{"gpu", claim, ""});
  };
  use(0, "shared");
  use(1, "shared");
  use(2, "solo-a");
  return snap;
}

TEST(UnbindTest, ClaimsAreReleasedWhenNoPodReservesThem) {
  model::Snapshot snap = ClaimCluster();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  const devices::ClaimIndex shared{0};
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(0))), "n1");
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(1))), "n1");  // pinned by the allocation
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(2))), "n2");
  ASSERT_EQ(scheduler.ClaimBindings().size(), 3u);
  EXPECT_TRUE(scheduler.ClaimBindings()[0].allocated);
  EXPECT_FALSE(scheduler.ClaimBindings()[1].allocated);

  scheduler.Unbind(P(0));
  // Still reserved for p1: allocated, and p1's binding now carries the allocation.
  ASSERT_EQ(scheduler.ClaimBindings().size(), 2u);
  EXPECT_EQ(scheduler.ClaimBindings()[0].pod, P(1));
  EXPECT_TRUE(scheduler.ClaimBindings()[0].allocated);
  model::ResourceClaim status = scheduler.ClaimStatus(shared);
  ASSERT_TRUE(status.allocation.has_value());
  EXPECT_EQ(status.reserved_for, (std::vector<std::string>{"p1"}));

  scheduler.Unbind(P(1));
  status = scheduler.ClaimStatus(shared);
  EXPECT_FALSE(status.allocation.has_value());
  EXPECT_TRUE(status.reserved_for.empty());
  ASSERT_EQ(scheduler.ClaimBindings().size(), 1u);
  EXPECT_EQ(scheduler.ClaimBindings()[0].pod, P(2));
  // n1's device is free again; the claim is allocated anew when p1 comes back.
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(1))), "n1");
  EXPECT_TRUE(scheduler.ClaimBindings().back().allocated);
}

TEST(UnbindTest, ClaimsAllocatedInTheInputAreReleasedWithTheirPod) {
  model::Snapshot snap = ClaimCluster();
  // p0 runs on n1 with "shared" allocated to n1's device; p2 waits for "solo-a"; the
  // device of n2 is taken by "solo-b", allocated in the input and reserved for no one.
  snap.pods[0].node_name = "n1";
  snap.pods[1].resource_claims.clear();
  snap.resource_claims[0].allocation.emplace();
  model::DeviceRequestAllocationResult r;
  r.request = "gpu";
  r.driver = testing::kDraDriver;
  r.pool = "n1";
  r.device = "dev-0";
  snap.resource_claims[0].allocation->results.push_back(r);
  snap.resource_claims[0].reserved_for = {"p0"};
  r.pool = "n2";
  snap.resource_claims[2].allocation.emplace();
  snap.resource_claims[2].allocation->results.push_back(r);
  Scheduler scheduler(snap, model::SchedulerConfig{});
  EXPECT_FALSE(scheduler.Explain(P(2)).decision.node.has_value());
  scheduler.Unbind(P(0));
  model::ResourceClaim status = scheduler.ClaimStatus(devices::ClaimIndex{0});
  EXPECT_FALSE(status.allocation.has_value());
  EXPECT_TRUE(status.reserved_for.empty());
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(2))), "n1");
  // A claim reserved for no one was not touched.
  EXPECT_TRUE(scheduler.ClaimStatus(devices::ClaimIndex{2}).allocation.has_value());
}

// Binds, unbinds (pods bound here and in the input) and binds again, in seeded random
// rounds; then every pending pod must be decided as by a fresh Scheduler (with or without
// the index) on the snapshot equivalent to the state, claims' allocations included.
TEST(UnbindTest, UnbindAndRescheduleMatchesAFreshScheduler) {
  int64_t indexed = 0;
  int64_t unbinds = 0;
  int64_t claim_pods = 0;
  for (uint64_t seed = 1; seed <= 240; ++seed) {
    testing::ClusterFeatures features;
    features.dra = seed % 3 == 0;
    const model::Snapshot snap = testing::RandomCluster(seed, features);
    model::SchedulerConfig config;
    if (seed % 4 == 1) {
      config.profiles[0].fit_strategy.type = model::ScoringStrategyType::kMostAllocated;
    }
    core::Diagnostics diags;
    SchedulerOptions options;
    options.diagnostics = &diags;
    Scheduler scheduler(snap, config, options);
    std::vector<std::optional<model::NodeIndex>> node_of = testing::InputPlacement(snap);
    testing::Rng rng(seed * 7919);
    for (int round = 0; round < 3; ++round) {
      std::vector<model::PodIndex> queue = scheduler.QueueOrder();
      const auto take = static_cast<size_t>(rng.Below(static_cast<int64_t>(queue.size()) + 1));
      for (size_t i = 0; i < take; ++i) {
        model::PodDecision d = scheduler.ScheduleOne(queue[i]);
        if (d.node.has_value()) node_of[static_cast<size_t>(queue[i].v)] = d.node;
      }
      for (int u = 0; u < 3; ++u) {
        const auto p = static_cast<size_t>(rng.Below(static_cast<int64_t>(snap.pods.size())));
        if (!node_of[p].has_value()) continue;
        scheduler.Unbind(model::PodIndex{static_cast<int32_t>(p)});
        node_of[p].reset();
        ++unbinds;
      }
    }
    const model::Snapshot equivalent = testing::EquivalentSnapshot(snap, scheduler, node_of);
    core::Diagnostics fresh_diags;
    SchedulerOptions fresh_options(seed % 2 == 0);
    fresh_options.diagnostics = &fresh_diags;
    Scheduler fresh(equivalent, config, fresh_options);
    const size_t bindings_before = scheduler.ClaimBindings().size();
    const int64_t indexed_before = scheduler.stats().indexed;
    for (model::PodIndex pod : fresh.QueueOrder()) {
      model::PodDecision a = scheduler.ScheduleOne(pod);
      model::PodDecision b = fresh.ScheduleOne(pod);
      const std::string where = "seed " + std::to_string(seed) + " pod " + snap.pod(pod).meta.name;
      ASSERT_EQ(a.node, b.node) << where;
      EXPECT_EQ(a.message, b.message) << where;
      EXPECT_EQ(a.rejections, b.rejections) << where;
      if (!snap.pod(pod).resource_claims.empty()) ++claim_pods;
    }
    indexed += scheduler.stats().indexed - indexed_before;
    const auto& x = scheduler.ClaimBindings();
    const auto& y = fresh.ClaimBindings();
    ASSERT_EQ(x.size() - bindings_before, y.size()) << "seed " << seed;
    for (size_t i = 0; i < y.size(); ++i) {
      const ClaimBinding& a = x[bindings_before + i];
      EXPECT_EQ(a.pod, y[i].pod) << "seed " << seed;
      EXPECT_EQ(a.claim, y[i].claim) << "seed " << seed;
      EXPECT_EQ(a.allocated, y[i].allocated) << "seed " << seed;
      EXPECT_EQ(dra::Tuples(a.allocation), dra::Tuples(y[i].allocation)) << "seed " << seed;
    }
    EXPECT_FALSE(diags.has_errors()) << "seed " << seed;
  }
  // The test must exercise what it claims to.
  EXPECT_GT(unbinds, 300);
  EXPECT_GT(indexed, 500);
  EXPECT_GT(claim_pods, 100);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
