// ScheduleFetches (docs/data.md, "Fetch schedule"): pull limits, sharing in a cluster, warm
// nodes, residency and bad input. A 12 GB artifact throughout: one origin pull takes
// 12 / min(0.3 stream, 1.25 NIC) = 40 s, a peer copy 12 / 1.25 = 9.6 s, a node-cache read
// 12 / 3 = 4 s, the GPU copy 12 / 25 = 0.48 s.
#include "data/fetch_schedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "data_builders.h"

namespace berth::data {
namespace BERTH_UNITY_ID {

using testing::AddCluster;
using testing::kGB;
using testing::Model;
using testing::OnePerNode;
using testing::View;

constexpr int64_t kSize = 12'000'000'000;

Topology Clusters(int clusters, int nodes_each) {
  Topology t;
  for (int c = 0; c < clusters; ++c) {
    std::string name = "c";
    name += std::to_string(c);  // not "c" + ...: GCC 12 warns falsely (-Wstringop-overflow)
    AddCluster(t, name, "eu", nodes_each);
  }
  return t;
}

FetchSchedule Schedule(const Topology& t, const FetchLimits& limits, const Copies& c = {}) {
  auto r = ScheduleFetches(Model(12), OnePerNode(t), limits, View(t, c));
  EXPECT_TRUE(r.has_value()) << r.error().ToString();
  return std::move(r).value();
}

bool IsOrigin(LoadSource s) {
  return s == LoadSource::kOriginSameRegion || s == LoadSource::kOriginCrossRegion;
}

// The most origin pulls in flight at once, from the schedule's own intervals (a pull that
// ends at t no longer counts against one that starts at t).
int32_t MaxOverlap(const FetchSchedule& s) {
  std::vector<std::pair<double, int>> edges;
  for (const ReplicaFetch& f : s.replicas) {
    if (!IsOrigin(f.source)) continue;
    edges.emplace_back(f.start_s, +1);
    edges.emplace_back(f.fetched_s, -1);
  }
  std::sort(edges.begin(), edges.end());  // at equal times, -1 sorts first
  int32_t now = 0, peak = 0;
  for (auto [t, d] : edges) peak = std::max(peak, now += d);
  return peak;
}

TEST(FetchScheduleTest, OriginLimitCapsConcurrentPulls) {
  Topology t = Clusters(4, 16);  // 64 replicas, one per node
  FetchSchedule s = Schedule(t, {/*max_origin_pulls=*/4, 0, /*share=*/false});
  EXPECT_EQ(s.peak_origin_pulls, 4);
  EXPECT_EQ(MaxOverlap(s), 4);
  EXPECT_EQ(s.origin_bytes, 64 * kSize);  // no sharing: the storm's bytes, paced
  // 4 pulls at 0.3 GB/s each (1.2 of 10 GB/s egress): 16 waves of 40 s = 640 s + 0.48 s.
  EXPECT_DOUBLE_EQ(s.all_ready_s, 640.48);
  for (const ReplicaFetch& f : s.replicas) {
    EXPECT_EQ(f.source, LoadSource::kOriginSameRegion);
    EXPECT_GT(f.end_s, 0);
  }
  // The first four by name start at 0; p004 waits for the first wave.
  EXPECT_DOUBLE_EQ(s.replicas[3].start_s, 0);
  EXPECT_DOUBLE_EQ(s.replicas[4].start_s, 40);
}

TEST(FetchScheduleTest, SharingPullsOncePerClusterAndFansOut) {
  Topology t = Clusters(4, 16);
  FetchSchedule s = Schedule(t, {4, 0, /*share=*/true});
  EXPECT_EQ(s.origin_bytes, 4 * kSize);  // one seed per cluster, not 64 pulls
  EXPECT_EQ(s.peak_origin_pulls, 4);
  // Seeds at 40 s; then copies double the holders every 9.6 s: 1+2+4+8 = 15 copies in 4
  // rounds → 40 + 4 × 9.6 = 78.4 s, + 0.48 s GPU.
  EXPECT_DOUBLE_EQ(s.all_ready_s, 78.88);
  int peers = 0;
  for (const ReplicaFetch& f : s.replicas) peers += f.source == LoadSource::kPeer ? 1 : 0;
  EXPECT_EQ(peers, 60);
}

TEST(FetchScheduleTest, NoLimitIsTheStormSharingTheEgress) {
  Topology t = Clusters(4, 16);
  auto table = DefaultBandwidthTable();
  table.origin_egress_bytes_per_s = 4.8 * kGB;
  auto r = ScheduleFetches(Model(12), OnePerNode(t), {}, View(t, {}, table));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->peak_origin_pulls, 64);
  EXPECT_EQ(r->origin_bytes, 64 * kSize);
  // 64 pulls share 4.8 GB/s: 0.075 GB/s each → 12 / 0.075 = 160 s, + 0.48 s.
  EXPECT_DOUBLE_EQ(r->all_ready_s, 160.48);
}

TEST(FetchScheduleTest, AllWarmNodesReadTheirCacheAtOnce) {
  Topology t = Clusters(2, 4);
  Copies c;
  for (const DataNode& n : t.nodes) c.nodes.push_back({"llama", n.name, true});
  FetchSchedule s = Schedule(t, {4, 0, true}, c);
  EXPECT_EQ(s.origin_bytes, 0);
  EXPECT_EQ(s.peak_origin_pulls, 0);
  for (const ReplicaFetch& f : s.replicas) {
    EXPECT_EQ(f.source, LoadSource::kNodeCache);
    EXPECT_DOUBLE_EQ(f.start_s, 0);
    EXPECT_DOUBLE_EQ(f.end_s, 4.48);  // 12 / 3 + 12 / 25
  }
}

TEST(FetchScheduleTest, OneClusterVersusTwo) {
  // 8 nodes in one cluster: one seed (40 s), then 1+2+4 copies in 3 rounds = 68.8 s.
  FetchSchedule one = Schedule(Clusters(1, 8), {4, 0, true});
  EXPECT_EQ(one.origin_bytes, kSize);
  EXPECT_DOUBLE_EQ(one.all_ready_s, 69.28);
  // 2 × 4 nodes: two seeds in parallel (40 s), then 1+2 copies each in 2 rounds = 59.2 s.
  FetchSchedule two = Schedule(Clusters(2, 4), {4, 0, true});
  EXPECT_EQ(two.origin_bytes, 2 * kSize);
  EXPECT_DOUBLE_EQ(two.all_ready_s, 59.68);
  EXPECT_EQ(two.peak_origin_pulls, 2);
}

TEST(FetchScheduleTest, PerClusterLimitPacesEachCluster) {
  // 2 clusters × 4 nodes, 1 pull per cluster, 4 overall: 2 at a time → 4 waves of 40 s.
  FetchSchedule s = Schedule(Clusters(2, 4), {4, /*per_cluster=*/1, false});
  EXPECT_EQ(s.peak_origin_pulls, 2);
  EXPECT_DOUBLE_EQ(s.all_ready_s, 160.48);
}

TEST(FetchScheduleTest, SecondReplicaOnANodeReadsTheNodeCache) {
  Topology t = Clusters(1, 1);
  std::vector<Replica> r = {{"b", "c0-n0", ""}, {"a", "c0-n0", "c0"}};
  auto s = ScheduleFetches(Model(12), r, {}, View(t));
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->replicas[1].source, LoadSource::kOriginSameRegion);  // "a" pulls
  EXPECT_DOUBLE_EQ(s->replicas[1].end_s, 40.48);
  EXPECT_EQ(s->replicas[0].source, LoadSource::kNodeCache);  // "b" waits, then reads 4 s
  EXPECT_DOUBLE_EQ(s->replicas[0].start_s, 40);
  EXPECT_DOUBLE_EQ(s->replicas[0].end_s, 44.48);
  EXPECT_EQ(s->origin_bytes, kSize);
}

TEST(FetchScheduleTest, FullClusterCacheNeedsNoOrigin) {
  Topology t = Clusters(1, 3);
  Copies c;
  c.clusters.push_back({"llama", "c0", 1.0});
  FetchSchedule s = Schedule(t, {1, 0, false}, c);
  EXPECT_EQ(s.origin_bytes, 0);
  EXPECT_DOUBLE_EQ(s.all_ready_s, 10.08);  // 12 / 1.25 = 9.6 s at once, + 0.48 s
}

TEST(FetchScheduleTest, HalfFilledClusterCacheThenOrigin) {
  Topology t = Clusters(1, 1);
  Copies c;
  c.clusters.push_back({"llama", "c0", 0.5});
  FetchSchedule s = Schedule(t, {1, 0, false}, c);
  EXPECT_EQ(s.replicas[0].source, LoadSource::kClusterCache);
  EXPECT_EQ(s.origin_bytes, kSize / 2);
  // 6 GB / 0.3 GB/s = 20 s from the origin, then 6 GB / 1.25 GB/s = 4.8 s from the cache.
  EXPECT_DOUBLE_EQ(s.replicas[0].fetched_s, 24.8);
  EXPECT_DOUBLE_EQ(s.all_ready_s, 25.28);
  EXPECT_EQ(s.peak_origin_pulls, 1);
}

TEST(FetchScheduleTest, PeerSeedServesOneCopyAtATimeWithoutSharing) {
  // c0-n0 holds the artifact and serves peers but runs no replica; replicas on n1 and n2.
  Topology t = Clusters(1, 3);
  Copies c;
  c.nodes.push_back({"llama", "c0-n0", true, 0, 0, /*serves_peers=*/true});
  std::vector<Replica> r = {{"a", "c0-n1", ""}, {"b", "c0-n2", ""}};
  auto s = ScheduleFetches(Model(12), r, {1, 0, false}, View(t, c));
  ASSERT_TRUE(s.has_value());
  // "a" takes the free seed: 9.6 s; "b" finds it busy and pulls from the origin: 40 s.
  EXPECT_EQ(s->replicas[0].source, LoadSource::kPeer);
  EXPECT_EQ(s->replicas[0].peer_node, "c0-n0");
  EXPECT_DOUBLE_EQ(s->replicas[0].end_s, 10.08);
  EXPECT_EQ(s->replicas[1].source, LoadSource::kOriginSameRegion);
  EXPECT_DOUBLE_EQ(s->replicas[1].end_s, 40.48);
  EXPECT_EQ(s->origin_bytes, kSize);
}

// One replica alone meets no contention: its end time is EstimateLoad's total.
TEST(FetchScheduleTest, OneReplicaAgreesWithTheTransferModel) {
  Topology t;
  AddCluster(t, "eu1", "eu", 4);
  AddCluster(t, "us1", "us", 1);
  AddCluster(t, "eu2", "eu", 1);
  Copies c;
  c.nodes.push_back({"llama", "eu1-n0", true});
  c.nodes.push_back({"llama", "eu1-n1", false, 0, 0.25});
  c.nodes.push_back({"llama", "eu1-n2", true, 0, 0, true});
  c.clusters.push_back({"llama", "eu2", 0.5});
  DataView v = View(t, c);
  for (const char* node : {"eu1-n0", "eu1-n1", "eu1-n3", "us1-n0", "eu2-n0"}) {
    auto est = EstimateLoad(Model(12), node, v);
    auto s = ScheduleFetches(Model(12), {{"p", node, ""}}, {}, v);
    ASSERT_TRUE(est.has_value() && s.has_value());
    EXPECT_EQ(s->replicas[0].source, est->path->source) << node;
    EXPECT_DOUBLE_EQ(s->replicas[0].end_s, est->path->total_s) << node;
    EXPECT_EQ(s->origin_bytes, est->path->origin_bytes) << node;
  }
}

TEST(FetchScheduleTest, ResidencyForbidsReplicasWithoutNumbers) {
  Topology t;
  AddCluster(t, "eu1", "eu", 1);
  AddCluster(t, "us1", "us", 1);
  Artifact a = Model(12);
  a.allowed_regions = {"eu"};
  auto s = ScheduleFetches(a, OnePerNode(t), {}, View(t));
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->forbidden, 1);
  EXPECT_TRUE(s->replicas[0].forbidden_reason.empty());
  EXPECT_NE(s->replicas[1].forbidden_reason.find("region 'us'"), std::string::npos);
  EXPECT_DOUBLE_EQ(s->replicas[1].end_s, 0);
  EXPECT_DOUBLE_EQ(s->all_ready_s, 40.48);
  EXPECT_EQ(s->origin_bytes, kSize);
}

TEST(FetchScheduleTest, DeterministicAcrossRuns) {
  Topology t = Clusters(3, 7);
  FetchSchedule a = Schedule(t, {2, 1, true});
  FetchSchedule b = Schedule(t, {2, 1, true});
  ASSERT_EQ(a.replicas.size(), b.replicas.size());
  for (size_t i = 0; i < a.replicas.size(); ++i) {
    EXPECT_EQ(a.replicas[i].source, b.replicas[i].source);
    EXPECT_EQ(a.replicas[i].peer_node, b.replicas[i].peer_node);
    EXPECT_EQ(a.replicas[i].end_s, b.replicas[i].end_s);
  }
}

TEST(FetchScheduleTest, BadInputIsAnErrorNamingObjectAndField) {
  Topology t = Clusters(1, 1);
  DataView v = View(t);
  auto zero = ScheduleFetches(Model(0), OnePerNode(t), {}, v);
  ASSERT_FALSE(zero.has_value());
  EXPECT_EQ(zero.error().location().object, "Artifact/llama");
  EXPECT_EQ(zero.error().location().field, "size_bytes");

  auto node = ScheduleFetches(Model(1), {{"p", "nowhere", ""}}, {}, v);
  ASSERT_FALSE(node.has_value());
  EXPECT_EQ(node.error().code(), core::ErrorCode::kNotFound);
  EXPECT_EQ(node.error().location().object, "Replica/p");
  EXPECT_EQ(node.error().location().field, "node");

  auto cluster = ScheduleFetches(Model(1), {{"p", "c0-n0", "ghost"}}, {}, v);
  ASSERT_FALSE(cluster.has_value());
  EXPECT_EQ(cluster.error().code(), core::ErrorCode::kNotFound);
  EXPECT_EQ(cluster.error().location().field, "cluster");

  auto dup = ScheduleFetches(Model(1), {{"p", "c0-n0", ""}, {"p", "c0-n0", ""}}, {}, v);
  ASSERT_FALSE(dup.has_value());
  EXPECT_EQ(dup.error().location().field, "pod");

  auto limits = ScheduleFetches(Model(1), OnePerNode(t), {-1, 0, false}, v);
  ASSERT_FALSE(limits.has_value());
  EXPECT_EQ(limits.error().location().field, "max_origin_pulls");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::data
