// The index for pods with ResourceClaims (IndexedPath::FirstAccepting): nodes whose free
// devices cannot hold a pod's claims are skipped, the others asked best first. Every decision
// must equal the reference path's (node, unschedulable message, rejection counts, devices),
// under MostAllocated and LeastAllocated, with devices released by unbinds, shared and
// input-allocated claims, shareable devices, pools every node sees, per-device node selection,
// firstAvailable, admin access and claims no node can hold.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "devices/dra_builders.h"
#include "random_cluster.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using berth::testing::kGi;
using berth::testing::NodeBuilder;
using berth::testing::PodBuilder;
using berth::testing::SnapshotBuilder;
using testing::Rng;
namespace dra = devices::testing;

constexpr const char* kDriver = "gpu.example.com";

model::SchedulerConfig Config(bool pack) {
  model::SchedulerConfig config;
  if (pack) config.profiles[0].fit_strategy.type = model::ScoringStrategyType::kMostAllocated;
  return config;
}

// A claim in "default" asking for 1-4 GPUs (by product, on one root, two requests,
// firstAvailable, admin access, or 9: more than any node has).
dra::ClaimB RandomClaim(Rng& rng, const std::string& name) {
  dra::ClaimB claim(name, "default");
  const int64_t kind = rng.Below(100);
  if (kind < 8) {
    claim.Req(dra::RequestB("gpu", "gpu", 9));  // more than any node has
  } else if (kind < 16) {
    claim.Req(dra::RequestB("gpu", {dra::SubB("big", "gpu", 4), dra::SubB("small", "gpu", 1)}));
  } else if (kind < 22) {
    claim.Req(dra::RequestB("gpu", "gpu", 1));
    claim.Req(dra::RequestB("more", "gpu", 1 + rng.Below(3)));
  } else if (kind < 25) {
    claim.Req(dra::RequestB("gpu", "gpu", 1).Admin());
  } else {
    dra::RequestB request("gpu", "gpu", 1 + rng.Below(4));
    if (rng.Chance(30)) {
      request.Sel(std::string(R"(device.attributes["gpu.example.com"].productName == ")") +
                  (rng.Chance(50) ? "H100" : "A100") + "\"");
    }
    claim.Req(request);
    if (rng.Chance(30)) claim.Match("gpu.example.com/pcieRoot");
  }
  return claim;
}

// A random DRA fleet: 4-15 nodes with 0-8 node-local GPUs (two products, two PCIe roots),
// some held by input pods' allocated claims; sometimes a pool every node sees, devices
// selected per device, shareable devices or soft taints (which keep pods off the index);
// pending pods asking for 1-4 GPUs (by product, on one root, two requests, firstAvailable,
// admin access, or 9: more than any node has), some sharing a claim, some without one.
model::Snapshot RandomFleet(Rng& rng, bool* pack) {
  SnapshotBuilder s;
  const int64_t nodes = 4 + rng.Below(12);
  const bool soft_taints = rng.Chance(15);
  for (int64_t i = 0; i < nodes; ++i) {
    NodeBuilder n(berth::testing::Indexed("n", i));
    n.Cpu(4000 + 4000 * rng.Below(3))
        .Memory((16 + 16 * rng.Below(2)) * kGi)
        .Pods(4 + rng.Below(20));
    n.Label("zone", rng.Chance(50) ? "z1" : "z2");
    if (rng.Chance(10)) n.Taint("example.com/gpu", "", core::TaintEffect::kNoSchedule);
    if (soft_taints && rng.Chance(40)) {
      n.Taint("example.com/busy", "yes", core::TaintEffect::kPreferNoSchedule);
    }
    if (rng.Chance(5)) n.Unschedulable();
    s.Add(n);
  }
  const int64_t pods = 10 + rng.Below(30);
  for (int64_t p = 0; p < pods; ++p) {
    PodBuilder pod(berth::testing::Indexed("p", p));
    pod.Created(p).Container(
        {{"cpu", 250 + 250 * rng.Below(6)}, {"memory", kGi * (1 + rng.Below(3))}});
    if (rng.Chance(50)) pod.Toleration("example.com/gpu", core::TolerationOp::kExists);
    if (rng.Chance(10)) pod.NodeSelector("zone", "z2");
    s.Add(pod);
  }
  model::Snapshot snap = s.Build();
  *pack = rng.Chance(60);
  snap.device_classes.push_back(dra::Class("gpu", kDriver));
  const bool multi = rng.Chance(15);
  AddGpuSlices(snap, nodes, rng,
               GpuSliceShape{.driver = kDriver,
                             .h100_percent = 60,
                             .per_device_percent = 15,
                             .multi_allocatable = multi,
                             .held_percent = 40});
  if (rng.Chance(25)) {
    // A pool every node sees: its devices are never counted as taken.
    dra::SliceB shared("shared", "*", "shared", kDriver);
    for (int g = 0; g < 2; ++g) {
      shared.Dev(dra::DeviceB(berth::testing::Indexed("fabric-", g))
                     .Str("productName", "H100")
                     .Str("pcieRoot", "r9"));
    }
    snap.resource_slices.push_back(shared.s);
  }
  AddPendingClaims(snap, pods, rng, /*none_percent=*/15, /*share_percent=*/10,
                   [&](const std::string& name) { return RandomClaim(rng, name); });
  return snap;
}

// Every pod in queue order; after some binds a random pod bound so far is unbound (its
// claims released when no other pod reserves them) and scheduled again at the end. The
// scheduler with the index and the one without must agree at every step.
TEST(DraIndexTest, PrunedIndexDecidesLikeTheReferencePath) {
  Rng rng(20261201);
  int64_t claim_pods = 0;
  int64_t indexed_claim_pods = 0;
  int64_t unbinds = 0;
  int64_t unschedulable_claim_pods = 0;
  for (int round = 0; round < 500; ++round) {
    bool pack = false;
    model::Snapshot snap = RandomFleet(rng, &pack);
    const model::SchedulerConfig config = Config(pack);
    Scheduler with_index(snap, config, SchedulerOptions{true});
    Scheduler reference(snap, config, SchedulerOptions{false});
    std::vector<model::PodIndex> queue = reference.QueueOrder();
    std::vector<model::PodIndex> bound;
    for (size_t i = 0; i < queue.size(); ++i) {
      const model::PodIndex pod = queue[i];
      const int64_t before = with_index.stats().indexed;
      model::PodDecision a = with_index.ScheduleOne(pod);
      model::PodDecision b = reference.ScheduleOne(pod);
      const std::string where =
          "round " + std::to_string(round) + " pod " + snap.pod(pod).meta.name;
      ExpectSameDecision(a, b, where);
      if (!snap.pod(pod).resource_claims.empty()) {
        ++claim_pods;
        indexed_claim_pods += with_index.stats().indexed - before;
        if (!a.node.has_value()) ++unschedulable_claim_pods;
      }
      if (a.node.has_value()) bound.push_back(pod);
      if (!bound.empty() && rng.Chance(20)) {
        const size_t at = static_cast<size_t>(rng.Below(static_cast<int64_t>(bound.size())));
        const model::PodIndex gone = bound[at];
        bound.erase(bound.begin() + static_cast<std::ptrdiff_t>(at));
        with_index.Unbind(gone);
        reference.Unbind(gone);
        queue.push_back(gone);  // pending again: scheduled once more at the end
        ++unbinds;
      }
      if (::testing::Test::HasFatalFailure()) return;
    }
    ExpectSameClaims(with_index, reference, snap, "round " + std::to_string(round));
  }
  // The test must exercise what it is about.
  EXPECT_GT(indexed_claim_pods, claim_pods / 3);
  EXPECT_GT(unbinds, 1000);
  EXPECT_GT(unschedulable_claim_pods, 300);
}

// The benchmark's hard case in small: MostAllocated puts the fullest nodes first, and the
// ones whose GPUs are all taken are skipped; every pod takes the index (no node-by-node
// scan), and the pods that no longer fit get the reference path's message.
TEST(DraIndexTest, MostAllocatedFillSkipsFullNodes) {
  SnapshotBuilder s;
  for (int n = 0; n < 6; ++n) {
    s.Add(NodeBuilder(berth::testing::Indexed("n", n)).Cpu(32000).Memory(64 * kGi).Pods(110));
  }
  for (int p = 0; p < 26; ++p) {
    s.Add(PodBuilder(berth::testing::Indexed("p", p)).Created(p).Container({{"cpu", 1000}}));
  }
  model::Snapshot snap = s.Build();
  snap.device_classes.push_back(dra::Class("gpu", kDriver));
  for (int n = 0; n < 6; ++n) {
    const std::string node = berth::testing::Indexed("n", n);
    dra::SliceB slice(node, node, node, kDriver);
    for (int g = 0; g < 4; ++g) slice.Dev(dra::DeviceB(berth::testing::Indexed("gpu-", g)));
    snap.resource_slices.push_back(slice.s);
  }
  for (int p = 0; p < 26; ++p) {
    dra::ClaimB claim(berth::testing::Indexed("c", p), "default");
    claim.Req(dra::RequestB("gpu", "gpu", 1));
    snap.resource_claims.push_back(claim.c);
    UseClaim(snap, static_cast<size_t>(p), berth::testing::Indexed("c", p));
  }
  Scheduler with_index(snap, Config(true), SchedulerOptions{true});
  Scheduler reference(snap, Config(true), SchedulerOptions{false});
  std::vector<model::PodDecision> decisions;
  for (model::PodIndex pod : reference.QueueOrder()) {
    model::PodDecision a = with_index.ScheduleOne(pod);
    model::PodDecision b = reference.ScheduleOne(pod);
    ExpectSameDecision(a, b, snap.pod(pod).meta.name);
    decisions.push_back(a);
  }
  ASSERT_EQ(decisions.size(), 26u);
  // Packed: four pods per node, nodes in name order.
  for (size_t p = 0; p < 24; ++p) {
    ASSERT_TRUE(decisions[p].node.has_value()) << p;
    EXPECT_EQ(snap.node(*decisions[p].node).meta.name,
              berth::testing::Indexed("n", static_cast<int64_t>(p / 4)));
  }
  EXPECT_EQ(decisions[24].message, "0/6 nodes are available: 6 cannot allocate all claims.");
  EXPECT_EQ(decisions[25].message, decisions[24].message);
  // The 24 pods that bound took the index; the two that fit nowhere asked every node.
  EXPECT_EQ(with_index.stats().indexed, 24);
  EXPECT_EQ(with_index.stats().reference, 2);
  ExpectSameClaims(with_index, reference, snap, "fill");

  // A released device makes its node the best again (MostAllocated: the fullest with room).
  with_index.Unbind(model::PodIndex{9});  // on n2
  reference.Unbind(model::PodIndex{9});
  model::PodDecision again = with_index.ScheduleOne(model::PodIndex{9});
  ExpectSameDecision(again, reference.ScheduleOne(model::PodIndex{9}), "rebind");
  ASSERT_TRUE(again.node.has_value());
  EXPECT_EQ(snap.node(*again.node).meta.name, "n2");
  ExpectSameClaims(with_index, reference, snap, "rebind");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
