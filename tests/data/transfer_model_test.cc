// EstimateLoad (docs/data.md, "Transfer model"): every expectation is computed by hand from
// the default table (origin stream 0.3 GB/s, egress 10 GB/s, cross-region 0.06 GB/s, NIC
// 1.25 GB/s, NVMe 3 GB/s, PCIe 25 GB/s, cluster cache and peers 1.25 GB/s), with the
// arithmetic next to each case. The artifact is 120 GB: GPU copy 120/25 = 4.8 s throughout.
#include "data/transfer_model.h"

#include <gtest/gtest.h>

#include "data_builders.h"

namespace berth::data {
namespace BERTH_UNITY_ID {

using testing::AddCluster;
using testing::kGB;
using testing::Model;
using testing::View;

Topology EuAndUs() {
  Topology t;
  AddCluster(t, "eu1", "eu", 2);
  AddCluster(t, "us1", "us", 1);
  return t;
}

LoadPath Path(const Artifact& a, const std::string& node, const DataView& v) {
  auto r = EstimateLoad(a, node, v);
  EXPECT_TRUE(r.has_value());
  EXPECT_FALSE(r->forbidden()) << r->forbidden_reason;
  return *r->path;
}

TEST(TransferModelTest, WarmNodeReadsItsDisk) {
  Copies c;
  c.nodes.push_back({"llama", "eu1-n0", /*complete=*/true});
  LoadPath p = Path(Model(120), "eu1-n0", View(EuAndUs(), c));
  EXPECT_EQ(p.source, LoadSource::kNodeCache);
  EXPECT_DOUBLE_EQ(p.transfer_s, 40.0);  // 120 GB / 3 GB/s
  EXPECT_DOUBLE_EQ(p.gpu_copy_s, 4.8);   // 120 GB / 25 GB/s
  EXPECT_DOUBLE_EQ(p.total_s, 44.8);
  EXPECT_EQ(p.origin_bytes, 0);
  EXPECT_EQ(p.local_bytes, 120'000'000'000);
}

TEST(TransferModelTest, PartlyCachedNodeReadsTheRestFromTheOrigin) {
  Copies c;
  c.nodes.push_back({"llama", "eu1-n0", false, 0, /*cached_fraction=*/0.25});
  LoadPath p = Path(Model(120), "eu1-n0", View(EuAndUs(), c));
  EXPECT_EQ(p.source, LoadSource::kOriginSameRegion);
  EXPECT_EQ(p.local_bytes, 30'000'000'000);   // 0.25 × 120 GB
  EXPECT_EQ(p.origin_bytes, 90'000'000'000);  // 120 − 30
  // 30 GB / 3 GB/s = 10 s local + 90 GB / min(0.3, 10, 1.25) GB/s = 300 s.
  EXPECT_DOUBLE_EQ(p.transfer_s, 310.0);
  EXPECT_DOUBLE_EQ(p.total_s, 314.8);
}

TEST(TransferModelTest, PartlyFilledClusterCacheServesItsFraction) {
  Copies c;
  c.clusters.push_back({"llama", "eu1", 0.5});
  LoadPath p = Path(Model(120), "eu1-n0", View(EuAndUs(), c));
  EXPECT_EQ(p.source, LoadSource::kClusterCache);
  EXPECT_EQ(p.cluster_cache_bytes, 60'000'000'000);
  EXPECT_EQ(p.origin_bytes, 60'000'000'000);
  // 60 GB / min(1.25, 1.25) GB/s = 48 s + 60 GB / 0.3 GB/s = 200 s = 248 s (< 400 s cold).
  EXPECT_DOUBLE_EQ(p.transfer_s, 248.0);
}

TEST(TransferModelTest, ColdNodeSameRegionPullsOneStream) {
  LoadPath p = Path(Model(120), "eu1-n1", View(EuAndUs()));
  EXPECT_EQ(p.source, LoadSource::kOriginSameRegion);
  EXPECT_DOUBLE_EQ(p.transfer_s, 400.0);  // 120 GB / min(0.3 stream, 10 egress, 1.25 NIC)
  EXPECT_DOUBLE_EQ(p.total_s, 404.8);
  EXPECT_EQ(p.origin_bytes, 120'000'000'000);
}

TEST(TransferModelTest, ColdNodeCrossRegionIsBoundByTheLink) {
  LoadPath p = Path(Model(120), "us1-n0", View(EuAndUs()));
  EXPECT_EQ(p.source, LoadSource::kOriginCrossRegion);
  EXPECT_DOUBLE_EQ(p.transfer_s, 2000.0);  // 120 GB / min(0.3, 1.25, 0.06 link) GB/s
  EXPECT_DOUBLE_EQ(p.total_s, 2004.8);
}

TEST(TransferModelTest, PeerInTheClusterBeatsTheOrigin) {
  Copies c;
  c.nodes.push_back({"llama", "eu1-n0", true, 0, 0, /*serves_peers=*/true});
  LoadPath p = Path(Model(120), "eu1-n1", View(EuAndUs(), c));
  EXPECT_EQ(p.source, LoadSource::kPeer);
  EXPECT_EQ(p.peer_node, "eu1-n0");
  EXPECT_DOUBLE_EQ(p.transfer_s, 96.0);  // 120 GB / min(1.25 peer, 1.25, 1.25 NICs)
  EXPECT_EQ(p.origin_bytes, 0);
  // The seed is in eu1; us1 has no peer and pulls across regions.
  EXPECT_EQ(Path(Model(120), "us1-n0", View(EuAndUs(), c)).source, LoadSource::kOriginCrossRegion);
}

TEST(TransferModelTest, ResidencyForbidsWithAReasonAndNoNumbers) {
  Artifact a = Model(120);
  a.allowed_regions = {"eu"};
  auto r = EstimateLoad(a, "us1-n0", View(EuAndUs()));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->forbidden());
  EXPECT_FALSE(r->path.has_value());
  EXPECT_EQ(r->forbidden_reason,
            "residency: artifact llama may only be in regions [eu]; node us1-n0 is in region "
            "'us'");
  EXPECT_FALSE(EstimateLoad(a, "eu1-n0", View(EuAndUs()))->forbidden());
}

TEST(TransferModelTest, InputsOverrideTheDefaultTable) {
  Topology t = EuAndUs();
  t.nodes[0].nic_bytes_per_s = 0.1 * kGB;  // a slow NIC below the 0.3 GB/s stream
  t.nodes[1].disk_read_bytes_per_s = 6 * kGB;
  t.nodes[1].host_to_gpu_bytes_per_s = 12 * kGB;
  t.origins.push_back({"models", 0, /*egress=*/0.2 * kGB});
  t.region_links.push_back({"eu", "us", 0.24 * kGB});
  Copies c;
  c.nodes.push_back({"llama", "eu1-n1", true});
  DataView v = View(t, c);
  // 120 GB / min(0.3 stream, 0.2 egress, 0.1 NIC) = 1200 s.
  EXPECT_DOUBLE_EQ(Path(Model(120), "eu1-n0", v).transfer_s, 1200.0);
  // 120 GB / 6 GB/s = 20 s disk; 120 GB / 12 GB/s = 10 s GPU.
  LoadPath warm = Path(Model(120), "eu1-n1", v);
  EXPECT_DOUBLE_EQ(warm.transfer_s, 20.0);
  EXPECT_DOUBLE_EQ(warm.gpu_copy_s, 10.0);
  // 120 GB / min(0.3 stream, 0.2 egress, 0.24 link, 1.25 NIC) = 600 s.
  EXPECT_DOUBLE_EQ(Path(Model(120), "us1-n0", v).transfer_s, 600.0);

  // A whole table of the caller's: stream 1 GB/s, NIC 2 GB/s → 120 GB / 1 GB/s = 120 s.
  BandwidthTable table = DefaultBandwidthTable();
  table.origin_stream_bytes_per_s = 1 * kGB;
  table.nic_bytes_per_s = 2 * kGB;
  EXPECT_DOUBLE_EQ(Path(Model(120), "eu1-n1", View(EuAndUs(), {}, table)).transfer_s, 120.0);
}

TEST(TransferModelTest, UnknownOriginRegionIsRemote) {
  LoadPath p = Path(Model(120, /*origin_region=*/""), "eu1-n0", View(EuAndUs()));
  EXPECT_EQ(p.source, LoadSource::kOriginCrossRegion);
  EXPECT_DOUBLE_EQ(p.transfer_s, 2000.0);  // 120 GB / 0.06 GB/s
}

TEST(TransferModelTest, BadArtifactAndUnknownNodeAreErrors) {
  DataView v = View(EuAndUs());
  for (double gb : {0.0, -1.0}) {
    auto r = EstimateLoad(Model(gb), "eu1-n0", v);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code(), core::ErrorCode::kInvalidArgument);
    EXPECT_EQ(r.error().location().object, "Artifact/llama");
    EXPECT_EQ(r.error().location().field, "size_bytes");
  }
  auto r = EstimateLoad(Model(1), "nowhere", v);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), core::ErrorCode::kNotFound);
  EXPECT_EQ(r.error().location().object, "Node/nowhere");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::data
