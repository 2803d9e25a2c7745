// GPU inventory from GPU Feature Discovery labels and device plugin resources: MIG
// strategies none / single / mixed, time-slicing, MPS, renameByDefault and the
// disagreements that become notes.
#include "gpu/gpu_inventory.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/model_builders.h"

namespace berth::gpu {
namespace BERTH_UNITY_ID {

using ::berth::testing::NodeBuilder;

NodeGpuInventory Read(const NodeBuilder& b, core::Labels annotations = {}) {
  model::ResourceCatalog catalog;
  model::Node node = b.Build(catalog);
  node.meta.annotations = std::move(annotations);
  return ReadNodeGpus(node, catalog);
}

// "profile@start" per instance of GPU `g`.
std::vector<std::string> Layout(const NodeGpuInventory& inv, size_t g) {
  std::vector<std::string> out;
  for (const GpuMigInstance& m : inv.gpus[g].mig)
    out.push_back(m.profile + "@" + std::to_string(m.start));
  return out;
}

NodeBuilder H100Labels(const std::string& name) {
  return NodeBuilder(name)
      .Label("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3")
      .Label("nvidia.com/gpu.count", "8")
      .Label("nvidia.com/gpu.memory", "81559")
      .Label("nvidia.com/gpu.family", "hopper")
      .Label("nvidia.com/gpu.compute.major", "9")
      .Label("nvidia.com/gpu.compute.minor", "0");
}

TEST(GpuInventoryTest, NodeWithoutGpusIsEmpty) {
  NodeGpuInventory inv = Read(NodeBuilder("cpu-1").Cpu(32000));
  EXPECT_TRUE(inv.empty());
  EXPECT_TRUE(inv.devices.empty());
  EXPECT_TRUE(inv.notes.empty());
}

TEST(GpuInventoryTest, WholeGpusFromGfdLabels) {
  NodeGpuInventory inv = Read(H100Labels("gpu-1")
                                  .Label("nvidia.com/gpu.clique", "7b3f.1")
                                  .Label("nvidia.com/mig.strategy", "none")
                                  .Gpu(8));
  EXPECT_EQ(inv.node, "gpu-1");
  EXPECT_EQ(inv.product, "NVIDIA-H100-80GB-HBM3");
  EXPECT_EQ(inv.mig_strategy, MigStrategy::kNone);
  ASSERT_NE(inv.geometry, nullptr);
  EXPECT_EQ(inv.geometry->name, "H100-80GB");
  ASSERT_EQ(inv.gpus.size(), 8u);
  const PhysicalGpu& g = inv.gpus[3];
  EXPECT_EQ(g.index, 3);
  EXPECT_EQ(g.memory_mib, 81559);
  EXPECT_EQ(g.family, "hopper");
  EXPECT_EQ(g.compute_capability, "9.0");
  EXPECT_EQ(g.clique, "7b3f.1");
  EXPECT_FALSE(g.mig_enabled);
  ASSERT_EQ(inv.devices.size(), 8u);
  EXPECT_EQ(inv.devices[3].gpu, 3);
  EXPECT_EQ(inv.devices[3].mig_instance, -1);
  EXPECT_EQ(inv.devices[3].resource, "nvidia.com/gpu");
  EXPECT_EQ(inv.devices[3].replicas, 1);
  EXPECT_EQ(inv.sharing.mode, SharingMode::kNone);
  EXPECT_TRUE(inv.FractionShareable());
  EXPECT_EQ(inv.GpuMemoryMib(), 81559);
  EXPECT_TRUE(inv.notes.empty());
}

TEST(GpuInventoryTest, AllocatableAloneGivesAnonymousGpus) {
  NodeGpuInventory inv = Read(NodeBuilder("gpu-1").Gpu(4));
  ASSERT_EQ(inv.gpus.size(), 4u);
  EXPECT_EQ(inv.product, "");
  EXPECT_EQ(inv.gpus[0].memory_mib, 0);
  EXPECT_EQ(inv.geometry, nullptr);
}

TEST(GpuInventoryTest, AllocatableWinsOverGpuCount) {
  // The device plugin drops unhealthy GPUs from allocatable; GFD still counts them.
  NodeGpuInventory inv = Read(H100Labels("gpu-1").Gpu(7));
  EXPECT_EQ(inv.gpus.size(), 7u);
  ASSERT_EQ(inv.notes.size(), 1u);
  EXPECT_EQ(inv.notes[0],
            "nvidia.com/gpu.count is 8 but allocatable has 7 GPUs; using allocatable");
  // Labels alone (no allocatable) still describe the GPUs.
  EXPECT_EQ(Read(H100Labels("gpu-2")).gpus.size(), 8u);
}

TEST(GpuInventoryTest, SingleStrategyAdvertisesMigDevicesAsGpus) {
  NodeGpuInventory inv =
      Read(NodeBuilder("a100-mig")
               .Label("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb")
               .Label("nvidia.com/gpu.count", "14")
               .Label("nvidia.com/gpu.memory", "4864")
               .Label("nvidia.com/mig.strategy", "single")
               .Label("nvidia.com/mig.config", "all-1g.5gb")
               .Gpu(14));
  EXPECT_EQ(inv.mig_strategy, MigStrategy::kSingle);
  EXPECT_EQ(inv.product, "NVIDIA-A100-SXM4-40GB");
  ASSERT_EQ(inv.gpus.size(), 2u);
  EXPECT_TRUE(inv.gpus[1].mig_enabled);
  EXPECT_EQ(inv.gpus[1].memory_mib, 40 * 1024);  // the whole GPU, from the geometry
  EXPECT_EQ(Layout(inv, 1),
            (std::vector<std::string>{"1g.5gb@0", "1g.5gb@1", "1g.5gb@2", "1g.5gb@3", "1g.5gb@4",
                                      "1g.5gb@5", "1g.5gb@6"}));
  ASSERT_EQ(inv.devices.size(), 14u);
  EXPECT_EQ(inv.devices[8].gpu, 1);
  EXPECT_EQ(inv.devices[8].mig_instance, 1);
  EXPECT_EQ(inv.devices[8].resource, "nvidia.com/gpu");
  EXPECT_FALSE(inv.FractionShareable());
  EXPECT_TRUE(inv.notes.empty());
}

TEST(GpuInventoryTest, SingleStrategyWithMigDisabledHasWholeGpus) {
  NodeGpuInventory inv = Read(H100Labels("gpu-1")
                                  .Label("nvidia.com/mig.strategy", "single")
                                  .Label("nvidia.com/mig.config", "all-disabled")
                                  .Gpu(8));
  EXPECT_EQ(inv.mig_strategy, MigStrategy::kSingle);
  ASSERT_EQ(inv.gpus.size(), 8u);
  EXPECT_FALSE(inv.gpus[0].mig_enabled);
  EXPECT_EQ(inv.devices[0].resource, "nvidia.com/gpu");
  EXPECT_TRUE(inv.FractionShareable());
  EXPECT_TRUE(inv.notes.empty());
}

TEST(GpuInventoryTest, MixedStrategyBalancedLayoutOnEveryGpu) {
  NodeGpuInventory inv = Read(H100Labels("gpu-mig")
                                  .Label("nvidia.com/mig.strategy", "mixed")
                                  .Label("nvidia.com/mig.config", "all-balanced")
                                  .Label("nvidia.com/mig-1g.10gb.count", "16")
                                  .Label("nvidia.com/mig-2g.20gb.count", "8")
                                  .Label("nvidia.com/mig-3g.40gb.count", "8")
                                  .Allocatable("nvidia.com/mig-1g.10gb", 16)
                                  .Allocatable("nvidia.com/mig-2g.20gb", 8)
                                  .Allocatable("nvidia.com/mig-3g.40gb", 8));
  EXPECT_EQ(inv.mig_strategy, MigStrategy::kMixed);
  EXPECT_EQ(inv.mig_config, "all-balanced");
  ASSERT_EQ(inv.gpus.size(), 8u);
  for (size_t g = 0; g < 8; ++g) {
    EXPECT_TRUE(inv.gpus[g].mig_enabled);
    EXPECT_EQ(Layout(inv, g),
              (std::vector<std::string>{"2g.20gb@0", "1g.10gb@2", "1g.10gb@3", "3g.40gb@4"}));
  }
  ASSERT_EQ(inv.devices.size(), 32u);
  EXPECT_EQ(inv.devices[3].resource, "nvidia.com/mig-3g.40gb");
  EXPECT_EQ(inv.devices[3].mig_instance, 3);
  EXPECT_EQ(inv.devices[4].gpu, 1);
  EXPECT_FALSE(inv.FractionShareable());
  EXPECT_TRUE(inv.notes.empty());
  EXPECT_EQ(inv.gpus[0].mig[3].compute_slices, 3);
  EXPECT_EQ(inv.gpus[0].mig[3].memory_gb, 40);
}

TEST(GpuInventoryTest, MixedStrategyWithWholeGpusBesideMigOnes) {
  NodeGpuInventory inv = Read(NodeBuilder("gpu-mixed")
                                  .Label("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB")
                                  .Label("nvidia.com/gpu.count", "4")
                                  .Label("nvidia.com/gpu.memory", "81920")
                                  .Label("nvidia.com/mig.strategy", "mixed")
                                  .Gpu(2)
                                  .Allocatable("nvidia.com/mig-3g.40gb", 4));
  ASSERT_EQ(inv.gpus.size(), 4u);
  // MIG-enabled GPUs take the lowest indices (the kubelet's view does not say which).
  EXPECT_TRUE(inv.gpus[0].mig_enabled);
  EXPECT_TRUE(inv.gpus[1].mig_enabled);
  EXPECT_FALSE(inv.gpus[2].mig_enabled);
  EXPECT_EQ(Layout(inv, 0), (std::vector<std::string>{"3g.40gb@0", "3g.40gb@4"}));
  ASSERT_EQ(inv.devices.size(), 6u);
  EXPECT_EQ(inv.devices[4].gpu, 2);
  EXPECT_EQ(inv.devices[4].resource, "nvidia.com/gpu");
  EXPECT_TRUE(inv.FractionShareable());
  EXPECT_TRUE(inv.notes.empty());
}

TEST(GpuInventoryTest, MixedStrategyUnevenCountsArePackedFirstFit) {
  NodeGpuInventory inv = Read(NodeBuilder("gpu-uneven")
                                  .Label("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB")
                                  .Label("nvidia.com/gpu.count", "2")
                                  .Label("nvidia.com/mig.strategy", "mixed")
                                  .Allocatable("nvidia.com/mig-3g.40gb", 1)
                                  .Allocatable("nvidia.com/mig-1g.10gb", 5));
  ASSERT_EQ(inv.gpus.size(), 2u);
  // 3g + 4 x 1g fill GPU 0 (the 3g at slices 4-7); the fifth 1g goes to GPU 1.
  EXPECT_EQ(Layout(inv, 0), (std::vector<std::string>{"1g.10gb@0", "1g.10gb@1", "1g.10gb@2",
                                                      "1g.10gb@3", "3g.40gb@4"}));
  EXPECT_EQ(Layout(inv, 1), (std::vector<std::string>{"1g.10gb@0"}));
}

TEST(GpuInventoryTest, MixedStrategyFromLabelsWhenNothingIsAllocatable) {
  NodeGpuInventory inv = Read(NodeBuilder("gpu-labels")
                                  .Label("nvidia.com/gpu.product", "NVIDIA-H200")
                                  .Label("nvidia.com/gpu.count", "1")
                                  .Label("nvidia.com/mig-1g.18gb.count", "7"));
  EXPECT_EQ(inv.mig_strategy, MigStrategy::kMixed);  // no mig.strategy label: inferred
  ASSERT_EQ(inv.gpus.size(), 1u);
  EXPECT_EQ(inv.gpus[0].mig.size(), 7u);
  EXPECT_EQ(inv.gpus[0].memory_mib, 141 * 1024);
  EXPECT_EQ(inv.devices[6].resource, "nvidia.com/mig-1g.18gb");
}

TEST(GpuInventoryTest, MigCountsThatDoNotFitAreNoted) {
  NodeGpuInventory inv = Read(NodeBuilder("gpu-over")
                                  .Label("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3")
                                  .Label("nvidia.com/gpu.count", "1")
                                  .Label("nvidia.com/mig.strategy", "mixed")
                                  .Allocatable("nvidia.com/mig-3g.40gb", 3));
  ASSERT_EQ(inv.gpus.size(), 1u);
  EXPECT_EQ(inv.gpus[0].mig.size(), 2u);
  ASSERT_EQ(inv.notes.size(), 1u);
  EXPECT_EQ(inv.notes[0], "1 MIG instances do not fit on 1 MIG-enabled GPUs; left out");
}

TEST(GpuInventoryTest, UnknownGeometryListsInstancesUnplaced) {
  NodeGpuInventory inv = Read(NodeBuilder("gh200")
                                  .Label("nvidia.com/gpu.product", "NVIDIA-GH200-480GB")
                                  .Label("nvidia.com/gpu.count", "1")
                                  .Label("nvidia.com/mig.strategy", "mixed")
                                  .Allocatable("nvidia.com/mig-3g.48gb", 2));
  EXPECT_EQ(inv.geometry, nullptr);
  ASSERT_EQ(inv.gpus.size(), 1u);
  ASSERT_EQ(inv.gpus[0].mig.size(), 2u);
  EXPECT_EQ(inv.gpus[0].mig[0].start, -1);
  EXPECT_EQ(inv.gpus[0].mig[0].compute_slices, 3);
  EXPECT_EQ(inv.gpus[0].mig[0].memory_gb, 48);
}

TEST(GpuInventoryTest, TimeSlicingReplicatesEveryGpu) {
  NodeGpuInventory inv = Read(NodeBuilder("t4")
                                  .Label("nvidia.com/gpu.product", "Tesla-T4-SHARED")
                                  .Label("nvidia.com/gpu.count", "2")
                                  .Label("nvidia.com/gpu.memory", "15360")
                                  .Label("nvidia.com/gpu.replicas", "4")
                                  .Label("nvidia.com/gpu.sharing-strategy", "time-slicing")
                                  .Gpu(8));
  EXPECT_EQ(inv.product, "Tesla-T4");
  EXPECT_EQ(inv.sharing.mode, SharingMode::kTimeSlicing);
  EXPECT_EQ(inv.sharing.replicas, 4);
  EXPECT_FALSE(inv.sharing.renamed);
  EXPECT_FALSE(inv.sharing.fail_requests_greater_than_one);
  ASSERT_EQ(inv.gpus.size(), 2u);
  ASSERT_EQ(inv.devices.size(), 2u);
  EXPECT_EQ(inv.devices[1].replicas, 4);
  EXPECT_EQ(inv.devices[1].resource, "nvidia.com/gpu");
  EXPECT_FALSE(inv.FractionShareable());
  EXPECT_TRUE(inv.notes.empty());
}

TEST(GpuInventoryTest, RenameByDefaultAdvertisesSharedResources) {
  NodeGpuInventory inv = Read(NodeBuilder("t4")
                                  .Label("nvidia.com/gpu.product", "Tesla-T4-SHARED")
                                  .Label("nvidia.com/gpu.count", "2")
                                  .Label("nvidia.com/gpu.replicas", "10")
                                  .Allocatable("nvidia.com/gpu.shared", 20),
                              {{std::string(kFailRequestsGreaterThanOneKey), "true"}});
  // No sharing-strategy label (older plugins): replicas or -SHARED mean time-slicing.
  EXPECT_EQ(inv.sharing.mode, SharingMode::kTimeSlicing);
  EXPECT_TRUE(inv.sharing.renamed);
  EXPECT_TRUE(inv.sharing.fail_requests_greater_than_one);
  ASSERT_EQ(inv.gpus.size(), 2u);
  EXPECT_EQ(inv.devices[0].resource, "nvidia.com/gpu.shared");
  EXPECT_EQ(inv.devices[0].replicas, 10);
}

TEST(GpuInventoryTest, ReplicasWithoutTheLabelComeFromTheCounts) {
  NodeGpuInventory inv = Read(NodeBuilder("t4")
                                  .Label("nvidia.com/gpu.product", "Tesla-T4-SHARED")
                                  .Label("nvidia.com/gpu.count", "2")
                                  .Gpu(6));
  EXPECT_EQ(inv.sharing.replicas, 3);
  EXPECT_EQ(inv.gpus.size(), 2u);
}

TEST(GpuInventoryTest, MpsSharing) {
  NodeGpuInventory inv = Read(NodeBuilder("a10")
                                  .Label("nvidia.com/gpu.product", "NVIDIA-A10-SHARED")
                                  .Label("nvidia.com/gpu.count", "1")
                                  .Label("nvidia.com/gpu.replicas", "2")
                                  .Label("nvidia.com/gpu.sharing-strategy", "mps")
                                  .Label(std::string(kFailRequestsGreaterThanOneKey), "true")
                                  .Gpu(2));
  EXPECT_EQ(inv.sharing.mode, SharingMode::kMps);
  EXPECT_EQ(inv.sharing.replicas, 2);
  EXPECT_TRUE(inv.sharing.fail_requests_greater_than_one);
  ASSERT_EQ(inv.devices.size(), 1u);
  EXPECT_EQ(inv.devices[0].replicas, 2);
}

TEST(GpuInventoryTest, TimeSlicedMigInstances) {
  NodeGpuInventory inv = Read(NodeBuilder("mig-ts")
                                  .Label("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB")
                                  .Label("nvidia.com/gpu.count", "1")
                                  .Label("nvidia.com/mig.strategy", "mixed")
                                  .Label("nvidia.com/gpu.sharing-strategy", "time-slicing")
                                  .Label("nvidia.com/gpu.replicas", "2")
                                  .Allocatable("nvidia.com/mig-1g.5gb", 14));
  ASSERT_EQ(inv.gpus.size(), 1u);
  EXPECT_EQ(inv.gpus[0].mig.size(), 7u);
  ASSERT_EQ(inv.devices.size(), 7u);
  EXPECT_EQ(inv.devices[0].resource, "nvidia.com/mig-1g.5gb");
  EXPECT_EQ(inv.devices[0].replicas, 2);
}

TEST(GpuInventoryTest, UnknownLabelValuesAreNoted) {
  NodeGpuInventory inv = Read(NodeBuilder("odd")
                                  .Label("nvidia.com/mig.strategy", "sometimes")
                                  .Label("nvidia.com/gpu.sharing-strategy", "vgpu")
                                  .Gpu(1));
  EXPECT_EQ(inv.mig_strategy, MigStrategy::kNone);
  EXPECT_EQ(inv.sharing.mode, SharingMode::kNone);
  EXPECT_EQ(inv.notes.size(), 2u);
}

TEST(GpuInventoryTest, ResourceNames) {
  EXPECT_TRUE(IsNvidiaGpuResource("nvidia.com/gpu"));
  EXPECT_TRUE(IsNvidiaGpuResource("nvidia.com/gpu.shared"));
  EXPECT_TRUE(IsNvidiaGpuResource("nvidia.com/mig-1g.10gb"));
  EXPECT_TRUE(IsNvidiaGpuResource("nvidia.com/mig-1g.10gb.shared"));
  EXPECT_FALSE(IsNvidiaGpuResource("nvidia.com/mig-"));
  EXPECT_FALSE(IsNvidiaGpuResource("nvidia.com/gpu.product"));
  EXPECT_FALSE(IsNvidiaGpuResource("amd.com/gpu"));
  EXPECT_EQ(MigStrategyName(MigStrategy::kMixed), "mixed");
  EXPECT_EQ(SharingModeName(SharingMode::kTimeSlicing), "time-slicing");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::gpu
