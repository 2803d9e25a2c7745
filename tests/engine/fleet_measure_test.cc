// MeasureClusters: each member cluster's free capacity after its own cycle: allocatable of
// schedulable nodes minus the requests of pods bound there (finished and deleted pods hold
// nothing), free GPUs per product from device-plugin counts and from NVIDIA DRA devices no
// claim holds, and the artifacts cached on its nodes.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "engine/fleet_measure.h"
#include "support/model_builders.h"

namespace berth::engine {
namespace {

using berth::testing::kGi;
using berth::testing::NodeBuilder;
using berth::testing::PodBuilder;
using berth::testing::SnapshotBuilder;

model::Snapshot TwoClusters() {
  SnapshotBuilder b;
  b.Add(NodeBuilder("a1").Cpu(8000).Memory(64 * kGi).Gpu(8)
            .Label("nvidia.com/gpu.product", "A100").Label("models.cache.berth.dev/llama", "true")
            .Cluster("a"));
  b.Add(NodeBuilder("a2").Cpu(8000).Memory(64 * kGi).Gpu(8)
            .Label("nvidia.com/gpu.product", "H100").Label("fluid.io/s-team-x-corpus", "true")
            .Cluster("a"));
  b.Add(NodeBuilder("a3").Cpu(8000).Memory(64 * kGi).Gpu(8)
            .Unschedulable().Cluster("a"));
  b.Add(NodeBuilder("b1").Cpu(4000).Memory(32 * kGi).Cluster("b"));
  b.Add(PodBuilder("run").NodeName("a1").Container({{"cpu", 2000}, {"nvidia.com/gpu", 3}}).Cluster("a"));
  b.Add(PodBuilder("done").NodeName("a2").Phase(model::PodPhase::kSucceeded)
            .Container({{"nvidia.com/gpu", 8}}).Cluster("a"));
  b.Add(PodBuilder("gone").NodeName("a2").Container({{"nvidia.com/gpu", 2}}).Cluster("a"));
  return b.Build();
}

TEST(FleetMeasureTest, FreeCapacityIsAllocatableLessBoundPodsOnSchedulableNodes) {
  const model::Snapshot s = TwoClusters();
  // Pod "gone" (index 2) was deleted by the cycle: it holds nothing.
  const auto measures = MeasureClusters(s, {2});
  const ClusterMeasure& a = measures.at("a");
  EXPECT_EQ(a.capacity.free_milli.at("cpu"), 14000);  // a3 is unschedulable
  EXPECT_EQ(a.capacity.free_gpus, 13);
  EXPECT_EQ(a.capacity.total_gpus, 16);
  EXPECT_EQ(a.capacity.free_gpus_by_product.at("A100"), 5);
  EXPECT_EQ(a.capacity.free_gpus_by_product.at("H100"), 8);
  EXPECT_EQ(measures.at("b").capacity.free_gpus, 0);
}

TEST(FleetMeasureTest, CachedArtifactsComeFromNodeLabels) {
  const auto measures = MeasureClusters(TwoClusters(), {});
  const auto& cached = measures.at("a").capacity.cached_artifacts;
  EXPECT_EQ(cached.count("model/llama"), 1u);
  // Fluid's label does not separate namespace from name: every split is recorded.
  EXPECT_EQ(cached.count("dataset/team-x/corpus"), 1u);
  EXPECT_EQ(cached.count("dataset/team/x-corpus"), 1u);
  EXPECT_TRUE(measures.at("b").capacity.cached_artifacts.empty());
}

TEST(FleetMeasureTest, DraGpusCountUnlessAClaimHoldsThem) {
  model::Snapshot s = TwoClusters();
  model::ResourceSlice slice;
  slice.meta.name = "b1-gpus";
  slice.driver = kDraGpuDriver;
  slice.pool_name = "b1";
  slice.node_name = "b1";
  slice.cluster = "b";
  for (int i = 0; i < 4; ++i) {
    model::Device d;
    d.name = "gpu-" + std::to_string(i);
    d.attributes["productName"].string_value = "H200";
    d.attributes["type"].string_value = "gpu";
    slice.devices.push_back(d);
  }
  model::Device mig;
  mig.name = "gpu-0-mig-1g";
  mig.attributes["type"].string_value = "mig";
  slice.devices.push_back(mig);
  s.resource_slices.push_back(slice);
  model::ResourceClaim claim;
  claim.meta.name = "c";
  claim.cluster = "b";
  claim.allocation.emplace();
  claim.allocation->results.push_back({"gpu", kDraGpuDriver, "b1", "gpu-2", false, {}, "", {}});
  s.resource_claims.push_back(claim);
  const auto measures = MeasureClusters(s, {});
  const ClusterMeasure& b = measures.at("b");
  EXPECT_EQ(b.capacity.total_gpus, 4);  // the MIG partition is not another GPU
  EXPECT_EQ(b.capacity.free_gpus, 3);
  EXPECT_EQ(b.capacity.free_gpus_by_product.at("H200"), 3);
}

}  // namespace
}  // namespace berth::engine
