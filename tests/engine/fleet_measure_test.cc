// MeasureClusters: each member cluster's free capacity after its own cycle, read from its
// scheduler: allocatable of schedulable nodes minus the requests of pods bound there
// (finished pods and pods the cycle unbound hold nothing), free GPUs per product from
// device-plugin counts and from NVIDIA DRA devices no claim holds, and the artifacts cached
// on its nodes.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "engine/cluster_part.h"
#include "engine/cycle_writes.h"
#include "engine/fleet_measure.h"
#include "support/model_builders.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

using berth::testing::kGi;
using berth::testing::NodeBuilder;
using berth::testing::PodBuilder;
using berth::testing::SnapshotBuilder;

// Each cluster's part and scheduler, as RunFleet has them after the member cycles; the
// pods in `unbound` (whole indices) were deleted by the cycle, which unbinds them.
class Members {
 public:
  Members(const model::Snapshot& s, const std::vector<int32_t>& unbound)
      : parts_(SplitByCluster(s)) {
    for (const ClusterPart& part : parts_) {
      // PartOptions: the part borrows its nodes from `s`, as RunFleet's schedulers do.
      schedulers_.push_back(std::make_unique<binding::Scheduler>(
          part.snapshot(), model::SchedulerConfig{}, PartOptions(part, nullptr)));
      for (int32_t p : unbound) {
        if (auto local = part.ToLocal(model::PodIndex{p})) schedulers_.back()->Unbind(*local);
      }
      members_.push_back({&part, schedulers_.back().get()});
    }
  }
  const std::vector<MemberBinding>& members() const { return members_; }

 private:
  std::vector<ClusterPart> parts_;
  std::vector<std::unique_ptr<binding::Scheduler>> schedulers_;
  std::vector<MemberBinding> members_;
};

std::map<std::string, ClusterMeasure, std::less<>> Measure(
    const model::Snapshot& s, const std::vector<int32_t>& unbound) {
  const Members members(s, unbound);
  return MeasureClusters(s, s, members.members());
}

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
  // Pod "gone" (index 2) was deleted by the cycle (unbound): it holds nothing.
  const auto measures = Measure(s, {2});
  const ClusterMeasure& a = measures.at("a");
  EXPECT_EQ(a.capacity.free_milli.at("cpu"), 14000);  // a3 is unschedulable
  EXPECT_EQ(a.capacity.free_gpus, 13);
  EXPECT_EQ(a.capacity.total_gpus, 16);
  EXPECT_EQ(a.capacity.free_gpus_by_product.at("A100"), 5);
  EXPECT_EQ(a.capacity.free_gpus_by_product.at("H100"), 8);
  EXPECT_EQ(measures.at("b").capacity.free_gpus, 0);
}

TEST(FleetMeasureTest, CachedArtifactsComeFromNodeLabels) {
  const model::Snapshot s = TwoClusters();
  const auto measures = Measure(s, {});
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
  slice.driver = gpu::kDraGpuDriver;
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
  claim.allocation->results.push_back({"gpu", std::string(gpu::kDraGpuDriver), "b1", "gpu-2", false, {}, "", {}});
  s.resource_claims.push_back(claim);
  const auto measures = Measure(s, {});
  const ClusterMeasure& b = measures.at("b");
  EXPECT_EQ(b.capacity.total_gpus, 4);  // the MIG partition is not another GPU
  EXPECT_EQ(b.capacity.free_gpus, 3);
  EXPECT_EQ(b.capacity.free_gpus_by_product.at("H200"), 3);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
