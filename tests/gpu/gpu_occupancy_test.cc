// GPU occupancy: which pod holds which device. Whole GPUs and MIG instances first-fit,
// time-slicing replicas by the device plugin's distributed policy, fractions through the
// ledger with KAI's reservation, and the requests no device can take.
#include "gpu/gpu_occupancy.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/model_builders.h"

namespace berth::gpu {
namespace BERTH_UNITY_ID {

using ::berth::testing::NodeBuilder;
using ::berth::testing::PodBuilder;
using ::berth::testing::SnapshotBuilder;

struct Fixture {
  model::Snapshot snapshot;
  NodeGpuInventory inventory;
  NodeOccupancy occupancy;
};

// Builds the node and pods, reads the node and assigns every pod in order.
Fixture Assign(SnapshotBuilder& s, const std::vector<core::Labels>& annotations = {}) {
  Fixture f;
  f.snapshot = s.Build();
  for (size_t i = 0; i < annotations.size() && i < f.snapshot.pods.size(); ++i) {
    f.snapshot.pods[i].meta.annotations = annotations[i];
  }
  f.inventory = ReadNodeGpus(f.snapshot.nodes[0], f.snapshot.resources);
  std::vector<PodGpuDemand> demands;
  for (size_t i = 0; i < f.snapshot.pods.size(); ++i) {
    model::PodIndex p{static_cast<int32_t>(i)};
    demands.push_back(GpuDemandOf(f.snapshot.pod(p), p, f.snapshot.resources));
  }
  f.occupancy = AssignGpus(f.inventory, demands);
  return f;
}

// "pod xN" per holder of device `d`, pods named by index.
std::vector<std::string> Holders(const Fixture& f, size_t d) {
  std::vector<std::string> out;
  for (const DeviceHolder& h : f.occupancy.devices[d].holders) {
    std::string name = h.pod.v < 0 ? "reserved" : f.snapshot.pod(h.pod).meta.name;
    out.push_back(name + " x" + std::to_string(h.replicas));
  }
  return out;
}

TEST(GpuOccupancyTest, DemandFollowsKubesEffectiveRequest) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n").Gpu(8));
  s.Add(PodBuilder("p")
            .Container({{"nvidia.com/gpu", 1}, {"cpu", 100}})
            .Container({{"nvidia.com/gpu", 1}})
            .InitContainer({{"nvidia.com/gpu", 3}})
            .Sidecar({{"nvidia.com/mig-1g.10gb", 1}}));
  model::Snapshot snap = s.Build();
  PodGpuDemand d = GpuDemandOf(snap.pods[0], model::PodIndex{0}, snap.resources);
  using Amounts = std::vector<std::pair<std::string, int64_t>>;
  // max(1 + 1, 3) GPUs; the sidecar's MIG instance; cpu is not a GPU resource.
  EXPECT_EQ(d.resources, (Amounts{{"nvidia.com/gpu", 3}, {"nvidia.com/mig-1g.10gb", 1}}));
  EXPECT_FALSE(d.fraction.has_value());
}

TEST(GpuOccupancyTest, WholeGpusFirstFitByIndex) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n").Gpu(4));
  s.Add(PodBuilder("a").Container({{"nvidia.com/gpu", 2}}));
  s.Add(PodBuilder("b").Container({{"nvidia.com/gpu", 1}}));
  s.Add(PodBuilder("cpu-only").Container({{"cpu", 100}}));
  Fixture f = Assign(s);
  EXPECT_EQ(Holders(f, 0), (std::vector<std::string>{"a x1"}));
  EXPECT_EQ(Holders(f, 1), (std::vector<std::string>{"a x1"}));
  EXPECT_EQ(Holders(f, 2), (std::vector<std::string>{"b x1"}));
  EXPECT_TRUE(Holders(f, 3).empty());
  EXPECT_EQ(f.occupancy.devices[3].used, 0);
  EXPECT_TRUE(f.occupancy.unassigned.empty());
}

TEST(GpuOccupancyTest, MigInstancesFirstFitByGpuThenStart) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n")
            .Label("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3")
            .Label("nvidia.com/gpu.count", "2")
            .Label("nvidia.com/mig.strategy", "mixed")
            .Allocatable("nvidia.com/mig-1g.10gb", 4)
            .Allocatable("nvidia.com/mig-2g.20gb", 2)
            .Allocatable("nvidia.com/mig-3g.40gb", 2));
  s.Add(PodBuilder("small").Container({{"nvidia.com/mig-1g.10gb", 3}}));
  s.Add(PodBuilder("large").Container({{"nvidia.com/mig-3g.40gb", 1}}));
  Fixture f = Assign(s);
  // Each GPU: 2g@0, 1g@2, 1g@3, 3g@4 (devices 0-3 on GPU 0, 4-7 on GPU 1).
  ASSERT_EQ(f.inventory.devices.size(), 8u);
  EXPECT_EQ(Holders(f, 1), (std::vector<std::string>{"small x1"}));
  EXPECT_EQ(Holders(f, 2), (std::vector<std::string>{"small x1"}));
  EXPECT_EQ(Holders(f, 5), (std::vector<std::string>{"small x1"}));
  EXPECT_TRUE(Holders(f, 6).empty());
  EXPECT_EQ(Holders(f, 3), (std::vector<std::string>{"large x1"}));
  EXPECT_TRUE(Holders(f, 7).empty());
}

TEST(GpuOccupancyTest, TimeSlicedReplicasAreDistributed) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n")
            .Label("nvidia.com/gpu.count", "2")
            .Label("nvidia.com/gpu.replicas", "4")
            .Label("nvidia.com/gpu.sharing-strategy", "time-slicing")
            .Gpu(8));
  s.Add(PodBuilder("a").Container({{"nvidia.com/gpu", 1}}));
  s.Add(PodBuilder("b").Container({{"nvidia.com/gpu", 1}}));
  s.Add(PodBuilder("c").Container({{"nvidia.com/gpu", 3}}));
  Fixture f = Assign(s);
  // a -> GPU 0; b -> GPU 1 (fewer replicas in use); c: 0, 1, then 0 again (2 vs 2 in use,
  // GPU 0 first).
  EXPECT_EQ(Holders(f, 0), (std::vector<std::string>{"a x1", "c x2"}));
  EXPECT_EQ(Holders(f, 1), (std::vector<std::string>{"b x1", "c x1"}));
  EXPECT_EQ(f.occupancy.devices[0].used, 3);
  EXPECT_EQ(f.occupancy.devices[1].used, 2);
}

TEST(GpuOccupancyTest, FailRequestsGreaterThanOneRefusesMultiReplicaPods) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n")
            .Label("nvidia.com/gpu.count", "1")
            .Label("nvidia.com/gpu.replicas", "4")
            .Label(std::string(kFailRequestsGreaterThanOneKey), "true")
            .Allocatable("nvidia.com/gpu.shared", 4));
  s.Add(PodBuilder("two").Container({{"nvidia.com/gpu.shared", 2}}));
  s.Add(PodBuilder("one").Container({{"nvidia.com/gpu.shared", 1}}));
  Fixture f = Assign(s);
  EXPECT_EQ(Holders(f, 0), (std::vector<std::string>{"one x1"}));
  ASSERT_EQ(f.occupancy.unassigned.size(), 1u);
  EXPECT_EQ(f.occupancy.unassigned[0].pod.v, 0);
  EXPECT_EQ(f.occupancy.unassigned[0].resource, "nvidia.com/gpu.shared");
  EXPECT_EQ(f.occupancy.unassigned[0].amount, 2);
  EXPECT_NE(f.occupancy.unassigned[0].reason.find("UnexpectedAdmissionError"), std::string::npos);
}

TEST(GpuOccupancyTest, MoreThanTheDevicesHoldIsUnassigned) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n").Gpu(2));
  s.Add(PodBuilder("a").Container({{"nvidia.com/gpu", 1}}));
  s.Add(PodBuilder("b").Container({{"nvidia.com/gpu", 2}}));
  s.Add(PodBuilder("c").Container({{"nvidia.com/mig-1g.10gb", 1}}));
  Fixture f = Assign(s);
  EXPECT_EQ(Holders(f, 0), (std::vector<std::string>{"a x1"}));
  EXPECT_TRUE(Holders(f, 1).empty());  // all or nothing
  ASSERT_EQ(f.occupancy.unassigned.size(), 2u);
  EXPECT_EQ(f.occupancy.unassigned[0].reason, "only 1 nvidia.com/gpu free on the node's devices");
  EXPECT_EQ(f.occupancy.unassigned[1].reason,
            "the node advertises no nvidia.com/mig-1g.10gb device");
}

TEST(GpuOccupancyTest, FractionsPackOnReservedGpusApartFromWholeGpuPods) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n").Label("nvidia.com/gpu.memory", "81920").Gpu(3));
  s.Add(PodBuilder("whole").Container({{"nvidia.com/gpu", 1}}));
  s.Add(PodBuilder("half-a"));
  s.Add(PodBuilder("quarter"));
  s.Add(PodBuilder("half-b"));
  s.Add(PodBuilder("mem"));
  s.Add(PodBuilder("too-much"));
  Fixture f = Assign(s, {{},
                         {{"gpu-fraction", "0.5"}},
                         {{"gpu-fraction", "0.25"}},
                         {{"gpu-fraction", "0.5"}},
                         {{"gpu-memory", "10240"}},
                         {{"gpu-fraction", "0.75"}}});
  // whole -> GPU 0; half-a reserves GPU 1; quarter packs there (0.75); half-b reserves
  // GPU 2; mem (0.125) goes to the fullest that fits: GPU 1 (0.875); too-much fits nowhere.
  EXPECT_EQ(Holders(f, 0), (std::vector<std::string>{"whole x1"}));
  EXPECT_EQ(Holders(f, 1), (std::vector<std::string>{"reserved x1"}));
  EXPECT_EQ(Holders(f, 2), (std::vector<std::string>{"reserved x1"}));
  const std::vector<SharedGpu>& shared = f.occupancy.fractions.shared();
  ASSERT_EQ(shared.size(), 2u);
  EXPECT_EQ(shared[0].gpu, 1);
  EXPECT_EQ(shared[0].milli_used, 875);
  EXPECT_EQ(shared[0].memory_used_mib, 40960 + 20480 + 10240);
  ASSERT_EQ(shared[0].holders.size(), 3u);
  EXPECT_EQ(shared[0].holders[2].pod.v, 4);
  EXPECT_EQ(shared[0].holders[2].portion.milli, 125);
  EXPECT_EQ(shared[1].gpu, 2);
  EXPECT_EQ(shared[1].milli_used, 500);
  ASSERT_EQ(f.occupancy.unassigned.size(), 1u);
  EXPECT_EQ(f.occupancy.unassigned[0].pod.v, 5);
  EXPECT_EQ(f.occupancy.unassigned[0].reason, "no GPU can hold 0.75 GPU");
}

TEST(GpuOccupancyTest, FractionsNeedWholeUnsharedGpus) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n")
            .Label("nvidia.com/gpu.count", "1")
            .Label("nvidia.com/gpu.replicas", "4")
            .Label("nvidia.com/gpu.sharing-strategy", "time-slicing")
            .Gpu(4));
  s.Add(PodBuilder("half"));
  Fixture f = Assign(s, {{{"gpu-fraction", "0.5"}}});
  EXPECT_TRUE(f.occupancy.fractions.shared().empty());
  ASSERT_EQ(f.occupancy.unassigned.size(), 1u);
  EXPECT_EQ(f.occupancy.unassigned[0].resource, "gpu-fraction");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::gpu
