// DynamicResources with the real allocator and CEL: claims are allocated on a node whose
// devices fit, a shared claim is allocated once and pins its second consumer to the same
// node, pods whose claims fit nowhere get kube-scheduler's message, missing claims and
// classes reject every node, and the results are deterministic.
#include "binding/plugins/dynamic_resources.h"

#include <gmock/gmock.h>
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
using ::testing::HasSubstr;
using testing::Rng;
namespace dra = devices::testing;

constexpr const char* kDriver = "gpu.example.com";

// Nodes n1..n3; `gpus_on[i]` GPUs published for node n<i+1>, each with a productName.
model::Snapshot Cluster(const std::vector<int>& gpus_on, int pods) {
  SnapshotBuilder s;
  for (size_t i = 0; i < gpus_on.size(); ++i) {
    s.Add(NodeBuilder(berth::testing::Indexed("n", static_cast<int64_t>(i) + 1))
              .Cpu(16000)
              .Memory(64 * kGi)
              .Pods(110));
  }
  for (int p = 0; p < pods; ++p) {
    s.Add(PodBuilder(berth::testing::Indexed("p", p)).Created(p).Container({{"cpu", 100}}));
  }
  model::Snapshot snap = s.Build();
  snap.device_classes.push_back(dra::Class("gpu", kDriver));
  for (size_t i = 0; i < gpus_on.size(); ++i) {
    const std::string node = berth::testing::Indexed("n", static_cast<int64_t>(i) + 1);
    dra::SliceB slice(node + "-gpus", node, node, kDriver);
    for (int g = 0; g < gpus_on[i]; ++g) {
      slice.Dev(dra::DeviceB(berth::testing::Indexed("gpu-", g)).Str("productName", "H100"));
    }
    snap.resource_slices.push_back(slice.s);
  }
  return snap;
}

// A claim in "default" asking for `count` GPUs of class "gpu".
model::ResourceClaim Claim(const std::string& name, int64_t count) {
  dra::ClaimB c(name, "default");
  c.Req(dra::RequestB("gpu", "gpu", count)
            .Sel(R"(device.attributes["gpu.example.com"].productName == "H100")"));
  return c.c;
}

model::SchedulerConfig Defaults() { return model::SchedulerConfig{}; }

TEST(DynamicResourcesTest, AllocatesOnTheNodeWhoseDevicesFit) {
  model::Snapshot snap = Cluster({0, 2, 0}, 1);
  snap.resource_claims.push_back(Claim("c0", 2));
  UseClaim(snap, 0, "c0");
  core::Diagnostics diags;
  SchedulerOptions options;
  options.diagnostics = &diags;
  Scheduler scheduler(snap, Defaults(), options);

  PodExplanation e = scheduler.Explain(model::PodIndex{0});
  EXPECT_EQ(FilterReason(e, snap, "n1", kDynamicResources), "cannot allocate all claims");
  EXPECT_EQ(FilterReason(e, snap, "n2", kDynamicResources), "");
  const FilterVerdict* ok = FindFilter(*FindVerdict(e, snap, "n2"), kDynamicResources);
  ASSERT_NE(ok, nullptr);
  EXPECT_EQ(ok->detail, "default/c0: gpu=gpu.example.com/n2/gpu-0, gpu=gpu.example.com/n2/gpu-1");

  std::vector<model::PodDecision> decisions = scheduler.ScheduleAll();
  EXPECT_FALSE(diags.has_errors());
  ASSERT_EQ(decisions.size(), 1u);
  ASSERT_TRUE(decisions[0].node.has_value());
  EXPECT_EQ(snap.node(*decisions[0].node).meta.name, "n2");
  ASSERT_EQ(scheduler.ClaimBindings().size(), 1u);
  const ClaimBinding& b = scheduler.ClaimBindings()[0];
  EXPECT_EQ(b.pod.v, 0);
  EXPECT_EQ(b.claim.v, 0);
  EXPECT_TRUE(b.allocated);
  ASSERT_EQ(b.allocation.results.size(), 2u);
  EXPECT_EQ(b.allocation.results[0].request, "gpu");
  EXPECT_EQ(b.allocation.results[0].pool, "n2");
  EXPECT_EQ(b.allocation.results[0].device, "gpu-0");
  EXPECT_EQ(b.allocation.results[1].device, "gpu-1");
  ASSERT_TRUE(b.allocation.node_selector.has_value());
  EXPECT_EQ(b.allocation.node_selector->terms[0].match_fields[0].values,
            std::vector<std::string>{"n2"});
}

TEST(DynamicResourcesTest, SharedClaimIsAllocatedOnceAndPinsItsSecondConsumer) {
  model::Snapshot snap = Cluster({1, 1, 1}, 2);
  snap.resource_claims.push_back(Claim("shared", 1));
  UseClaim(snap, 0, "shared");
  UseClaim(snap, 1, "shared");
  Scheduler scheduler(snap, Defaults());
  model::PodDecision first = scheduler.ScheduleOne(model::PodIndex{0});
  ASSERT_TRUE(first.node.has_value());
  const std::string node = snap.node(*first.node).meta.name;

  PodExplanation e = scheduler.Explain(model::PodIndex{1});
  for (const char* other : {"n1", "n2", "n3"}) {
    if (node == other) continue;
    EXPECT_EQ(FilterReason(e, snap, other, kDynamicResources),
              "resourceclaim not available on the node");
  }
  model::PodDecision second = scheduler.ScheduleOne(model::PodIndex{1});
  ASSERT_TRUE(second.node.has_value());
  EXPECT_EQ(*second.node, *first.node);
  const std::vector<ClaimBinding>& bindings = scheduler.ClaimBindings();
  ASSERT_EQ(bindings.size(), 2u);
  EXPECT_TRUE(bindings[0].allocated);
  EXPECT_FALSE(bindings[1].allocated);
  EXPECT_EQ(bindings[1].pod.v, 1);
  EXPECT_EQ(bindings[0].allocation.results[0].device, bindings[1].allocation.results[0].device);
}

TEST(DynamicResourcesTest, PodsWhoseClaimsFitNowhereAreUnschedulable) {
  model::Snapshot snap = Cluster({2, 2, 0}, 1);
  snap.resource_claims.push_back(Claim("big", 3));
  UseClaim(snap, 0, "big");
  Scheduler scheduler(snap, Defaults());
  model::PodDecision d = scheduler.ScheduleOne(model::PodIndex{0});
  EXPECT_FALSE(d.node.has_value());
  EXPECT_EQ(d.message, "0/3 nodes are available: 3 cannot allocate all claims.");
  ASSERT_EQ(d.rejections.size(), 1u);
  EXPECT_EQ(d.rejections[0].plugin, "DynamicResources");
  EXPECT_TRUE(scheduler.ClaimBindings().empty());
}

TEST(DynamicResourcesTest, DevicesRunOutAcrossPods) {
  model::Snapshot snap = Cluster({2, 0, 0}, 3);
  for (int p = 0; p < 3; ++p) {
    snap.resource_claims.push_back(Claim(berth::testing::Indexed("c", p), 1));
    UseClaim(snap, static_cast<size_t>(p), berth::testing::Indexed("c", p));
  }
  Scheduler scheduler(snap, Defaults());
  std::vector<model::PodDecision> decisions = scheduler.ScheduleAll();
  ASSERT_EQ(decisions.size(), 3u);
  ASSERT_TRUE(decisions[0].node.has_value());
  ASSERT_TRUE(decisions[1].node.has_value());
  EXPECT_EQ(snap.node(*decisions[0].node).meta.name, "n1");
  EXPECT_EQ(snap.node(*decisions[1].node).meta.name, "n1");
  EXPECT_FALSE(decisions[2].node.has_value());
  EXPECT_EQ(decisions[2].message, "0/3 nodes are available: 3 cannot allocate all claims.");
  ASSERT_EQ(scheduler.ClaimBindings().size(), 2u);
  EXPECT_NE(scheduler.ClaimBindings()[0].allocation.results[0].device,
            scheduler.ClaimBindings()[1].allocation.results[0].device);
}

TEST(DynamicResourcesTest, ClaimAllocatedBeforeHoldsItsDevicesAndNode) {
  model::Snapshot snap = Cluster({1, 1, 0}, 2);
  // c0 holds n1's only GPU; p0 uses it, p1 wants a GPU of its own.
  model::ResourceClaim held = Claim("held", 1);
  held.allocation.emplace();
  held.allocation->results.push_back({"gpu", kDriver, "n1", "gpu-0", false, {}, "", {}});
  held.allocation->node_selector = dra::LocalSelector("n1");
  snap.resource_claims.push_back(held);
  snap.resource_claims.push_back(Claim("own", 1));
  UseClaim(snap, 0, "held");
  UseClaim(snap, 1, "own");
  Scheduler scheduler(snap, Defaults());
  std::vector<model::PodDecision> decisions = scheduler.ScheduleAll();
  ASSERT_EQ(decisions.size(), 2u);
  EXPECT_EQ(snap.node(*decisions[0].node).meta.name, "n1");
  EXPECT_EQ(snap.node(*decisions[1].node).meta.name, "n2");
  ASSERT_EQ(scheduler.ClaimBindings().size(), 2u);
  EXPECT_FALSE(scheduler.ClaimBindings()[0].allocated);
  EXPECT_TRUE(scheduler.ClaimBindings()[1].allocated);
}

TEST(DynamicResourcesTest, MissingClaimsRejectEveryNodeWithUpstreamMessages) {
  model::Snapshot snap = Cluster({1, 1}, 2);
  snap.pods[0].resource_claims.push_back(model::PodResourceClaim{"gpu", "nope", ""});
  snap.pods[1].resource_claims.push_back(model::PodResourceClaim{"gpu", "p1-gpu", "tmpl"});
  Scheduler scheduler(snap, Defaults());
  std::vector<model::PodDecision> decisions = scheduler.ScheduleAll();
  ASSERT_EQ(decisions.size(), 2u);
  EXPECT_EQ(decisions[0].message,
            R"(0/2 nodes are available: could not find ResourceClaim "default/nope".)");
  EXPECT_EQ(decisions[1].message,
            R"(0/2 nodes are available: pod "default/p1": ResourceClaim not created yet.)");
  EXPECT_EQ(decisions[1].rejections[0].plugin, "DynamicResources");
  EXPECT_EQ(decisions[1].rejections[0].count, 2);
}

TEST(DynamicResourcesTest, UnknownDeviceClassRejectsThePodAndIsReported) {
  model::Snapshot snap = Cluster({1}, 1);
  dra::ClaimB c("c0", "default");
  c.Req(dra::RequestB("gpu", "no-such-class", 1));
  snap.resource_claims.push_back(c.c);
  UseClaim(snap, 0, "c0");
  core::Diagnostics diags;
  SchedulerOptions options;
  options.diagnostics = &diags;
  Scheduler scheduler(snap, Defaults(), options);
  model::PodDecision d = scheduler.ScheduleOne(model::PodIndex{0});
  EXPECT_FALSE(d.node.has_value());
  EXPECT_EQ(d.message,
            "0/1 nodes are available: request gpu: device class no-such-class does not exist.");
  EXPECT_TRUE(diags.has_errors());
}

TEST(DynamicResourcesTest, PodsWithoutClaimsDoNotSeeThePlugin) {
  model::Snapshot snap = Cluster({1}, 1);
  Scheduler scheduler(snap, Defaults());
  PodExplanation e = scheduler.Explain(model::PodIndex{0});
  EXPECT_EQ(FilterReason(e, snap, "n1", kDynamicResources), "<no filter>");
  EXPECT_EQ(scheduler.stats().reference, 0);
  (void)scheduler.ScheduleAll();
  EXPECT_EQ(scheduler.stats().indexed, 1);
}

TEST(DynamicResourcesTest, SameInputSameAllocations) {
  auto run = [] {
    model::Snapshot snap = Cluster({4, 4, 4}, 6);
    for (int p = 0; p < 6; ++p) {
      snap.resource_claims.push_back(Claim(berth::testing::Indexed("c", p), 1 + p % 3));
      UseClaim(snap, static_cast<size_t>(p), berth::testing::Indexed("c", p));
    }
    Scheduler scheduler(snap, Defaults());
    std::vector<std::string> out;
    for (const model::PodDecision& d : scheduler.ScheduleAll()) {
      out.push_back(d.node.has_value() ? snap.node(*d.node).meta.name : d.message);
    }
    for (const ClaimBinding& b : scheduler.ClaimBindings()) {
      for (const auto& r : b.allocation.results) out.push_back(r.pool + "/" + r.device);
    }
    return out;
  };
  std::vector<std::string> first = run();
  EXPECT_EQ(first, run());
  EXPECT_GE(first.size(), 6u);
}

// A random DRA cluster: nodes with 0-8 GPUs of two products under two PCIe roots, some
// tainted; pods asking for 1-4 GPUs (some by product, some on one PCIe root, some sharing
// a claim), some without claims, some with preferred node affinity.
model::Snapshot RandomDraCluster(Rng& rng) {
  SnapshotBuilder s;
  const int64_t nodes = 3 + rng.Below(8);
  const bool soft_taints = rng.Chance(40);
  for (int64_t i = 0; i < nodes; ++i) {
    NodeBuilder n(berth::testing::Indexed("n", i));
    n.Cpu(2000 + 2000 * rng.Below(4)).Memory((8 + 8 * rng.Below(4)) * kGi).Pods(110);
    n.Label("zone", rng.Chance(50) ? "z1" : "z2");
    n.Label("rack", rng.Chance(50) ? "r1" : "r2");
    // Up to three soft taints, so TaintToleration's raw counts take four values and its
    // normalization depends on which nodes are feasible.
    if (soft_taints && rng.Chance(40)) {
      n.Taint("example.com/busy", "yes", core::TaintEffect::kPreferNoSchedule);
    }
    if (soft_taints && rng.Chance(40)) {
      n.Taint("example.com/old", "yes", core::TaintEffect::kPreferNoSchedule);
    }
    if (soft_taints && rng.Chance(40)) {
      n.Taint("example.com/slow", "yes", core::TaintEffect::kPreferNoSchedule);
    }
    if (rng.Chance(10)) n.Taint("example.com/gpu", "", core::TaintEffect::kNoSchedule);
    s.Add(n);
    // A bound pod loading the node, so resource scores differ widely between nodes.
    if (rng.Chance(50)) {
      s.Add(PodBuilder(berth::testing::Indexed("bound-", i))
                .NodeName(berth::testing::Indexed("n", i))
                .Container({{"cpu", 500 * rng.Below(4)}, {"memory", kGi * rng.Below(8)}}));
    }
  }
  const int64_t pods = 8 + rng.Below(20);
  for (int64_t p = 0; p < pods; ++p) {
    PodBuilder pod(berth::testing::Indexed("p", p));
    pod.Created(p).Container({{"cpu", 100 + 500 * rng.Below(4)}, {"memory", kGi}});
    if (rng.Chance(50)) pod.Toleration("example.com/gpu", core::TolerationOp::kExists);
    if (rng.Chance(20)) {
      pod.PreferredNodeAffinity(
          10,
          berth::testing::ExprTerm({berth::testing::Req("zone", core::SelectorOp::kIn, {"z1"})}));
      pod.PreferredNodeAffinity(
          5,
          berth::testing::ExprTerm({berth::testing::Req("rack", core::SelectorOp::kIn, {"r1"})}));
      pod.PreferredNodeAffinity(
          3,
          berth::testing::ExprTerm({berth::testing::Req("rack", core::SelectorOp::kIn, {"r2"})}));
    }
    s.Add(pod);
  }
  model::Snapshot snap = s.Build();
  // Random weights in some rounds: normalization then shifts totals by other amounts.
  if (rng.Chance(40)) {
    auto& weights = snap.scheduler_config.emplace().profiles.front().score_weights;
    weights["TaintToleration"] = static_cast<int32_t>(1 + rng.Below(3));
    weights["NodeAffinity"] = static_cast<int32_t>(1 + rng.Below(3));
  }
  snap.device_classes.push_back(dra::Class("gpu", kDriver));
  AddGpuSlices(snap, nodes, rng, GpuSliceShape{.driver = kDriver, .h100_percent = 50});
  AddPendingClaims(
      snap, pods, rng, /*none_percent=*/20, /*share_percent=*/15, [&](const std::string& name) {
        dra::RequestB request("gpu", "gpu", 1 + rng.Below(4));
        if (rng.Chance(40)) {
          request.Sel(std::string(R"(device.attributes["gpu.example.com"].productName == ")") +
                      (rng.Chance(50) ? "H100" : "A100") + "\"");
        }
        dra::ClaimB claim(name, "default");
        claim.Req(request);
        if (rng.Chance(30)) claim.Match("gpu.example.com/pcieRoot");
        return claim;
      });
  return snap;
}

// The index decides pods with claims only when that provably gives the reference path's
// answer (Scheduler::Impl::TryDecideWithClaims); every decision and claim binding of a
// scheduler with the index must equal those of one without.
TEST(DynamicResourcesTest, IndexDecidesClaimPodsLikeTheReferencePath) {
  Rng rng(20260201);
  int64_t indexed_with_claims = 0;
  for (int round = 0; round < 400; ++round) {
    model::Snapshot snap = RandomDraCluster(rng);
    const model::SchedulerConfig config = snap.scheduler_config.value_or(Defaults());
    Scheduler with_index(snap, config, SchedulerOptions{true});
    Scheduler reference(snap, config, SchedulerOptions{false});
    for (model::PodIndex pod : reference.QueueOrder()) {
      const int64_t before = with_index.stats().indexed;
      model::PodDecision a = with_index.ScheduleOne(pod);
      model::PodDecision b = reference.ScheduleOne(pod);
      if (!snap.pod(pod).resource_claims.empty()) {
        indexed_with_claims += with_index.stats().indexed - before;
      }
      ExpectSameDecision(a, b,
                         "round " + std::to_string(round) + " pod " + snap.pod(pod).meta.name);
      if (::testing::Test::HasFatalFailure()) return;
    }
    ExpectSameClaims(with_index, reference, snap, "round " + std::to_string(round));
  }
  // The fast path must actually be taken for a good share of claim pods.
  EXPECT_GT(indexed_with_claims, 100);
}

// test/integration/dra testInvalidResourceSlices: n1's pool lists gpu-0 in two slices
// (invalid), so "invalid-one-node-and-valid-other" places a one-GPU claim on n2, and a claim
// nothing valid can hold gets upstream's per-node reasons, invalid pools counted apart
// ("only-invalid-for-one-node").
model::Snapshot WithInvalidPoolOnN1(model::Snapshot snap) {
  for (model::ResourceSlice& slice : snap.resource_slices) {
    if (slice.node_name == "n1") slice.resource_slice_count = 2;
  }
  model::ResourceSlice copy = snap.resource_slices[0];
  copy.meta.name += "-2";
  snap.resource_slices.push_back(copy);
  return snap;
}

TEST(DynamicResourcesTest, InvalidPoolIsSkippedAndOtherNodesServe) {
  model::Snapshot snap = WithInvalidPoolOnN1(Cluster({2, 2, 0}, 2));
  snap.resource_claims.push_back(Claim("one", 1));
  snap.resource_claims.push_back(Claim("big", 3));
  UseClaim(snap, 0, "one");
  UseClaim(snap, 1, "big");
  core::Diagnostics diags;
  SchedulerOptions options;
  options.diagnostics = &diags;
  Scheduler scheduler(snap, Defaults(), options);
  model::PodDecision one = scheduler.ScheduleOne(model::PodIndex{0});
  ASSERT_TRUE(one.node.has_value());
  EXPECT_EQ(snap.node(*one.node).meta.name, "n2");
  model::PodDecision big = scheduler.ScheduleOne(model::PodIndex{1});
  EXPECT_FALSE(big.node.has_value());
  EXPECT_EQ(big.message,
            "0/3 nodes are available: 1 invalid resource pools were encountered, 2 cannot "
            "allocate all claims.");
  EXPECT_FALSE(diags.has_errors());
  EXPECT_EQ(diags.entries().size(), 1u);
}

// A DeviceTaintRule (NoSchedule on every device of n1's pool) steers an untolerating claim
// to n2, as a taint in the slice would.
TEST(DynamicResourcesTest, DeviceTaintRuleSteersUntoleratingClaims) {
  model::Snapshot snap = Cluster({2, 2, 0}, 1);
  model::DeviceTaintRule rule;
  rule.meta.name = "n1-maintenance";
  rule.selector.emplace().pool = "n1";
  rule.taint = {"maintenance", "", model::DeviceTaintEffect::kNoSchedule};
  snap.device_taint_rules.push_back(rule);
  snap.resource_claims.push_back(Claim("one", 1));
  UseClaim(snap, 0, "one");
  Scheduler scheduler(snap, Defaults());
  model::PodDecision d = scheduler.ScheduleOne(model::PodIndex{0});
  ASSERT_TRUE(d.node.has_value());
  EXPECT_EQ(snap.node(*d.node).meta.name, "n2");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
