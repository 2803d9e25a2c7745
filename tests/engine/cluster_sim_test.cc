// engine::ClusterSim (and the GuestBinder under it): one cluster's Kueue and kube-scheduler
// kept across virtual time for berth simulate. Admission by quota through Submit / Schedule /
// Finish; Bind places every pod of an admitted workload or none; binder().Release frees; Fill and
// FillGpus take capacity out of service (a failed or cordoned node, failed GPUs) and the
// matching Unfill returns it; WorkloadsOn / NodesOf say who runs where.
#include "engine/cluster_sim.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "queueing/kueue_builders.h"
#include "support/model_builders.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

using testing::CqBuilder;
using testing::KueueSnapshot;
using testing::NodeBuilder;
using testing::WlBuilder;

constexpr const char* kGpu = "nvidia.com/gpu";

core::Timestamp At(int64_t unix_s) {
  core::Timestamp t;
  t.unix_s = unix_s;
  return t;
}

// One ClusterQueue "cq" (LocalQueue "lq") with `gpu_quota` GPUs and ample CPU, and `nodes`
// nodes n0, n1, ... of 8 GPUs and 32 CPUs each.
KueueSnapshot World(int nodes, int64_t gpu_quota = 64) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("cq").Quota("default", "cpu", 1'000'000).Quota("default", kGpu, gpu_quota));
  k.LocalQueue("lq", "cq");
  for (int n = 0; n < nodes; ++n) {
    k.snapshot.nodes.push_back(NodeBuilder(testing::Indexed("n", n))
                                   .Cpu(32'000)
                                   .Memory(64 * testing::kGi)
                                   .Gpu(8)
                                   .Build(k.snapshot.resources));
  }
  return k;
}

// A workload of `pods` pods, each asking for `gpus` GPUs and one CPU.
int32_t AddJob(KueueSnapshot& k, const std::string& name, int32_t pods, int64_t gpus,
               int64_t created = 1) {
  WlBuilder b(name);
  b.Created(created);
  if (gpus > 0) {
    b.Requests({{"cpu", 1000}, {kGpu, gpus}}, pods);
  } else {
    b.Requests({{"cpu", 1000}}, pods);
  }
  return k.Add(b);
}

// Submits the workloads and runs one Schedule; returns the admitted ones in order.
std::vector<int32_t> Admit(ClusterSim& sim, const std::vector<int32_t>& workloads,
                           int64_t now = 100) {
  for (int32_t w : workloads) sim.Submit(w);
  std::vector<int32_t> admitted;
  for (const SimChange& c : sim.Schedule(At(now), nullptr)) {
    if (c.admitted) admitted.push_back(c.workload);
  }
  return admitted;
}

std::vector<int32_t> Sorted(std::vector<int32_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(ClusterSimTest, KueueAdmitsByQuotaAndFinishFreesIt) {
  KueueSnapshot k = World(1, /*gpu_quota=*/8);
  const int32_t a = AddJob(k, "a", 1, 8, 1);
  const int32_t b = AddJob(k, "b", 1, 8, 2);
  core::Diagnostics diags;
  ClusterSim sim(k.snapshot, "default", std::nullopt, diags);
  EXPECT_TRUE(sim.has_nodes());
  sim.Submit(a);
  sim.Submit(b);
  int32_t cycles = 0;
  const std::vector<SimChange> changes = sim.Schedule(At(100), &cycles);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].workload, a);
  EXPECT_TRUE(changes[0].admitted);
  EXPECT_GE(cycles, 1);
  ASSERT_TRUE(sim.admission(a).has_value());
  EXPECT_EQ(sim.admission(a)->cluster_queue, "cq");
  EXPECT_FALSE(sim.admission(b).has_value());
  // Admission is by quota only: nothing is bound until Bind.
  EXPECT_TRUE(sim.binder().NodesOf(a).empty());
  EXPECT_TRUE(sim.binder().WorkloadsOn(0).empty());
  sim.Finish(a);
  const std::vector<SimChange> next = sim.Schedule(At(200), &cycles);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].workload, b);
  EXPECT_TRUE(next[0].admitted);
}

TEST(ClusterSimTest, BindPlacesEveryPodOfAGangOrNone) {
  KueueSnapshot k = World(2);
  const int32_t small = AddJob(k, "small", 1, 4);
  const int32_t gang = AddJob(k, "gang", 2, 8);
  const int32_t whole = AddJob(k, "whole", 1, 8);
  core::Diagnostics diags;
  ClusterSim sim(k.snapshot, "default", std::nullopt, diags);
  EXPECT_EQ(Sorted(Admit(sim, {small, gang, whole})), Sorted({small, gang, whole}));

  ASSERT_TRUE(sim.Bind(small));
  ASSERT_EQ(sim.binder().NodesOf(small).size(), 1u);
  const int32_t taken = sim.binder().NodesOf(small)[0];
  const int32_t free_node = 1 - taken;
  // Two whole nodes needed, one is free: nothing of the gang is bound.
  EXPECT_FALSE(sim.Bind(gang));
  EXPECT_TRUE(sim.binder().NodesOf(gang).empty());
  EXPECT_TRUE(sim.binder().WorkloadsOn(free_node).empty());
  // The free node is still whole: no pod of the gang was left on it.
  ASSERT_TRUE(sim.Bind(whole));
  EXPECT_EQ(sim.binder().NodesOf(whole), std::vector<int32_t>{free_node});
  EXPECT_EQ(sim.binder().WorkloadsOn(free_node), std::vector<int32_t>{whole});
  EXPECT_EQ(sim.binder().WorkloadsOn(taken), std::vector<int32_t>{small});

  // Unbind frees both nodes: the gang takes one pod on each.
  sim.binder().Release(small);
  sim.binder().Release(whole);
  EXPECT_TRUE(sim.binder().NodesOf(small).empty());
  EXPECT_TRUE(sim.binder().WorkloadsOn(taken).empty());
  ASSERT_TRUE(sim.Bind(gang));
  EXPECT_EQ(Sorted(sim.binder().NodesOf(gang)), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(sim.binder().WorkloadsOn(0), std::vector<int32_t>{gang});
  EXPECT_EQ(sim.binder().WorkloadsOn(1), std::vector<int32_t>{gang});
  // Unbinding twice is harmless.
  sim.binder().Release(gang);
  sim.binder().Release(gang);
  EXPECT_TRUE(sim.binder().WorkloadsOn(0).empty());
}

TEST(ClusterSimTest, BindNeedsAnAdmission) {
  KueueSnapshot k = World(1);
  const int32_t w = AddJob(k, "w", 1, 1);
  core::Diagnostics diags;
  ClusterSim sim(k.snapshot, "default", std::nullopt, diags);
  EXPECT_FALSE(sim.Bind(w));  // never submitted
  EXPECT_TRUE(sim.binder().WorkloadsOn(0).empty());
}

TEST(ClusterSimTest, WorkloadsOnIsAscendingAndNodesOfHasOneEntryPerPod) {
  KueueSnapshot k = World(1);
  const int32_t a = AddJob(k, "a", 1, 1);
  const int32_t b = AddJob(k, "b", 3, 1);
  const int32_t c = AddJob(k, "c", 1, 1);
  core::Diagnostics diags;
  ClusterSim sim(k.snapshot, "default", std::nullopt, diags);
  EXPECT_EQ(Admit(sim, {a, b, c}).size(), 3u);
  ASSERT_TRUE(sim.Bind(c));
  ASSERT_TRUE(sim.Bind(b));
  ASSERT_TRUE(sim.Bind(a));
  EXPECT_EQ(sim.binder().WorkloadsOn(0), (std::vector<int32_t>{a, b, c}));
  EXPECT_EQ(sim.binder().NodesOf(b), (std::vector<int32_t>{0, 0, 0}));
}

TEST(ClusterSimTest, FillBlocksANodeUntilUnfill) {
  KueueSnapshot k = World(2);
  const int32_t big = AddJob(k, "big", 1, 8);
  const int32_t one = AddJob(k, "one", 1, 1);
  const int32_t cpu_only = AddJob(k, "cpu-only", 1, 0);
  core::Diagnostics diags;
  ClusterSim sim(k.snapshot, "default", std::nullopt, diags);
  EXPECT_EQ(Admit(sim, {big, one, cpu_only}).size(), 3u);
  sim.binder().Fill(0);
  ASSERT_TRUE(sim.Bind(big));
  EXPECT_EQ(sim.binder().NodesOf(big), std::vector<int32_t>{1});  // node 0 is out of service
  // Node 1 has no GPU left and node 0 is blocked: a GPU pod does not land. A CPU-only pod
  // goes to node 1, never to the blocked node 0.
  EXPECT_FALSE(sim.Bind(one));
  ASSERT_TRUE(sim.Bind(cpu_only));
  EXPECT_EQ(sim.binder().NodesOf(cpu_only), std::vector<int32_t>{1});
  // The blocker is not a workload.
  EXPECT_TRUE(sim.binder().WorkloadsOn(0).empty());
  sim.binder().Unfill(0);
  ASSERT_TRUE(sim.Bind(one));
  EXPECT_EQ(sim.binder().NodesOf(one), std::vector<int32_t>{0});
}

TEST(ClusterSimTest, FillIsCounted) {
  KueueSnapshot k = World(1);
  const int32_t w = AddJob(k, "w", 1, 1);
  core::Diagnostics diags;
  ClusterSim sim(k.snapshot, "default", std::nullopt, diags);
  EXPECT_EQ(Admit(sim, {w}).size(), 1u);
  sim.binder().Fill(0);  // failed
  sim.binder().Fill(0);  // and cordoned
  EXPECT_FALSE(sim.Bind(w));
  sim.binder().Unfill(0);  // recovered, still cordoned
  EXPECT_FALSE(sim.Bind(w));
  sim.binder().Unfill(0);
  EXPECT_TRUE(sim.Bind(w));
  // An Unfill without a Fill changes nothing.
  sim.binder().Release(w);
  sim.binder().Unfill(0);
  EXPECT_TRUE(sim.Bind(w));
}

TEST(ClusterSimTest, FilledNodeStaysFullWhenItsWorkloadLeaves) {
  KueueSnapshot k = World(1);
  const int32_t running = AddJob(k, "running", 1, 4);
  const int32_t gpu = AddJob(k, "gpu", 1, 1);
  const int32_t cpu_only = AddJob(k, "cpu-only", 1, 0);
  core::Diagnostics diags;
  ClusterSim sim(k.snapshot, "default", std::nullopt, diags);
  EXPECT_EQ(Admit(sim, {running, gpu, cpu_only}).size(), 3u);
  ASSERT_TRUE(sim.Bind(running));
  sim.binder().Fill(0);  // cordon with a workload on it
  EXPECT_EQ(sim.binder().WorkloadsOn(0), std::vector<int32_t>{running});
  EXPECT_FALSE(sim.Bind(gpu));
  sim.binder().Release(running);
  // What the workload left is taken by the fill too.
  EXPECT_TRUE(sim.binder().WorkloadsOn(0).empty());
  EXPECT_FALSE(sim.Bind(gpu));
  EXPECT_FALSE(sim.Bind(cpu_only));
  sim.binder().Unfill(0);
  EXPECT_TRUE(sim.Bind(gpu));
  EXPECT_TRUE(sim.Bind(cpu_only));
}

TEST(ClusterSimTest, FillGpusTakesOnlyGpus) {
  KueueSnapshot k = World(1);
  const int32_t four = AddJob(k, "four", 1, 4);
  const int32_t two = AddJob(k, "two", 1, 2);
  const int32_t cpu_only = AddJob(k, "cpu-only", 1, 0);
  core::Diagnostics diags;
  ClusterSim sim(k.snapshot, "default", std::nullopt, diags);
  model::ResourceId gpu;
  ASSERT_TRUE(k.snapshot.resources.Find(kGpu, &gpu));
  EXPECT_EQ(Admit(sim, {four, two, cpu_only}).size(), 3u);
  ASSERT_TRUE(sim.binder().FillGpus(0, 6, gpu));  // 2 of 8 left
  EXPECT_FALSE(sim.Bind(four));
  ASSERT_TRUE(sim.Bind(two));
  EXPECT_TRUE(sim.Bind(cpu_only));  // CPU is still there
  // No GPU is free: more cannot be taken.
  EXPECT_FALSE(sim.binder().FillGpus(0, 1, gpu));
  sim.binder().Release(two);
  sim.binder().UnfillGpus(0, 6);
  EXPECT_TRUE(sim.Bind(four));
  EXPECT_TRUE(sim.Bind(two));
}

TEST(ClusterSimTest, ClusterWithoutNodesOnlyAdmits) {
  KueueSnapshot k = World(0, /*gpu_quota=*/8);
  // A node of another cluster does not count.
  k.snapshot.nodes.push_back(
      NodeBuilder("elsewhere").Cluster("other").Gpu(8).Cpu(8000).Build(k.snapshot.resources));
  const int32_t w = AddJob(k, "w", 2, 4);
  core::Diagnostics diags;
  ClusterSim sim(k.snapshot, "default", std::nullopt, diags);
  EXPECT_FALSE(sim.has_nodes());
  EXPECT_EQ(Admit(sim, {w}), std::vector<int32_t>{w});
  EXPECT_TRUE(sim.Bind(w));
  EXPECT_TRUE(sim.binder().NodesOf(w).empty());
  EXPECT_TRUE(sim.binder().WorkloadsOn(0).empty());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
