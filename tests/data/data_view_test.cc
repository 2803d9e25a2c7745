// DataView::Build: bad topologies and copies are errors naming the object and the field.
#include "data/data_view.h"

#include <gtest/gtest.h>

#include "data_builders.h"

namespace berth::data {
namespace BERTH_UNITY_ID {

using testing::AddCluster;

void ExpectError(const Topology& t, const Copies& c, core::ErrorCode code,
                 const std::string& object, const std::string& field) {
  auto v = DataView::Build(t, c);
  ASSERT_FALSE(v.has_value());
  EXPECT_EQ(v.error().code(), code) << v.error().ToString();
  EXPECT_EQ(v.error().location().object, object);
  EXPECT_EQ(v.error().location().field, field);
}

TEST(DataViewTest, NodeOfUnknownClusterIsNotFound) {
  Topology t;
  AddCluster(t, "a", "eu", 1);
  t.nodes.push_back({"stray", "ghost", 0, 0, 0});
  ExpectError(t, {}, core::ErrorCode::kNotFound, "Node/stray", "cluster");
}

TEST(DataViewTest, DuplicatesAndNegativesAreErrors) {
  Topology t;
  AddCluster(t, "a", "eu", 1);
  AddCluster(t, "a", "us", 0);
  ExpectError(t, {}, core::ErrorCode::kAlreadyExists, "Cluster/a", "name");

  Topology slow;
  AddCluster(slow, "a", "eu", 1);
  slow.nodes[0].nic_bytes_per_s = -1;
  ExpectError(slow, {}, core::ErrorCode::kInvalidArgument, "Node/a-n0", "nic_bytes_per_s");
}

TEST(DataViewTest, BadCopiesAreErrors) {
  Topology t;
  AddCluster(t, "a", "eu", 1);
  Copies unknown;
  unknown.nodes.push_back({"m", "b-n0", true});
  ExpectError(t, unknown, core::ErrorCode::kNotFound, "NodeCopy/m@b-n0", "node");
  Copies fraction;
  fraction.nodes.push_back({"m", "a-n0", false, 0, 1.5});
  ExpectError(t, fraction, core::ErrorCode::kInvalidArgument, "NodeCopy/m@a-n0", "cached_fraction");
  Copies cache;
  cache.clusters.push_back({"m", "zz", 0.5});
  ExpectError(t, cache, core::ErrorCode::kNotFound, "ClusterCache/m@zz", "cluster");
}

TEST(DataViewTest, ZeroMeansDefault) {
  Topology t;
  AddCluster(t, "a", "eu", 2);
  t.nodes[1].nic_bytes_per_s = 5e9;
  auto v = DataView::Build(t, {});
  ASSERT_TRUE(v.has_value());
  EXPECT_DOUBLE_EQ(v->NicBytesPerS(0), 1.25e9);
  EXPECT_DOUBLE_EQ(v->NicBytesPerS(1), 5e9);
  EXPECT_DOUBLE_EQ(v->OriginEgressBytesPerS("unknown-bucket"), 10e9);
  EXPECT_FALSE(v->RegionLinkBytesPerS("eu", "eu").has_value());
  EXPECT_DOUBLE_EQ(*v->RegionLinkBytesPerS("eu", "us"), 0.06e9);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::data
