// spreadPolicy (docs/placement.md, "Spread"): one pick at a time after the prioritizers,
// DoNotSchedule maxSkew, ScheduleAnyway spread scores, missing keys, constraint order, and
// the explain records. The hierarchical example is enhancement 70's use case 4.
#include "placement/spread_selector.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "placement/fleet_builder.h"
#include "placement/placement_scheduler.h"

namespace berth::placement {
namespace BERTH_UNITY_ID {

using testing::BuiltIn;
using testing::Cluster;
using testing::GlobalHub;
using testing::MakePlacement;
using testing::SetResource;
using testing::T;

model::SpreadConstraint Spread(std::string key, model::WhenUnsatisfiable when, int32_t max_skew = 1,
                               model::TopologyKeyType type = model::TopologyKeyType::kLabel) {
  return {std::move(key), type, max_skew, when};
}

constexpr auto kHard = model::WhenUnsatisfiable::kDoNotSchedule;
constexpr auto kSoft = model::WhenUnsatisfiable::kScheduleAnyway;

// `per_region` clusters in each region, named <region>-<i>.
std::vector<model::ManagedCluster> Regions(const std::map<std::string, int>& per_region) {
  std::vector<model::ManagedCluster> out;
  for (const auto& [region, n] : per_region) {
    for (int i = 0; i < n; ++i) {
      out.push_back(Cluster(region + testing::Numbered("-", i), {{"region", region}}));
    }
  }
  return out;
}

std::map<std::string, int> CountByRegion(const model::Snapshot& snap,
                                         const std::vector<std::string>& selected) {
  std::map<std::string, int> out;
  for (const std::string& name : selected) {
    for (const model::ManagedCluster& c : snap.managed_clusters) {
      if (c.meta.name == name) ++out[c.meta.labels.at("region")];
    }
  }
  return out;
}

const ClusterVerdict& VerdictOf(const PlacementOutcome& out, const std::string& name) {
  for (const ClusterVerdict& v : out.clusters) {
    if (v.cluster_name == name) return v;
  }
  static const ClusterVerdict kNone;
  ADD_FAILURE() << "no verdict for " << name;
  return kNone;
}

TEST(SpreadTest, ThreeRegionsThreeClustersOnePerRegion) {
  model::Snapshot snap = GlobalHub(Regions({{"eu", 4}, {"us", 3}, {"asia", 2}}));
  model::Placement p = MakePlacement("p");
  p.number_of_clusters = 3;
  p.spread_constraints = {Spread("region", kSoft)};
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(CountByRegion(snap, out.selected),
            (std::map<std::string, int>{{"asia", 1}, {"eu", 1}, {"us", 1}}));
  // Equal totals: the first pick goes by name, then the spread score picks the others.
  EXPECT_EQ(out.selected, (std::vector<std::string>{"asia-0", "eu-0", "us-0"}));
  EXPECT_EQ(out.satisfied.reason, "AllDecisionsScheduled");
  // Without spreading, names alone would pick asia-0, asia-1, eu-0.
  p.spread_constraints.clear();
  EXPECT_EQ(SchedulePlacement(snap, p, T(0)).selected,
            (std::vector<std::string>{"asia-0", "asia-1", "eu-0"}));
}

TEST(SpreadTest, DoNotScheduleOneRegionShortSelectsFewer) {
  model::Snapshot snap = GlobalHub(Regions({{"eu", 5}, {"us", 5}, {"asia", 1}}));
  model::Placement p = MakePlacement("p");
  p.number_of_clusters = 9;
  p.spread_constraints = {Spread("region", kHard, 1)};
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  // asia has one cluster, so eu and us can have at most 2 each.
  EXPECT_EQ(CountByRegion(snap, out.selected),
            (std::map<std::string, int>{{"asia", 1}, {"eu", 2}, {"us", 2}}));
  EXPECT_EQ(out.number_of_selected_clusters, 5);
  EXPECT_EQ(out.unscheduled, 4);
  EXPECT_EQ(out.satisfied.status, model::ConditionStatus::kFalse);
  EXPECT_EQ(out.satisfied.reason, "NotAllDecisionsScheduled");
  EXPECT_EQ(out.satisfied.message, "4 cluster decisions unscheduled");
  const ClusterVerdict& left = VerdictOf(out, "eu-4");
  EXPECT_TRUE(left.feasible);
  EXPECT_FALSE(left.selected);
  ASSERT_NE(out.SpreadSkipOf(left), nullptr);
  EXPECT_EQ(out.SpreadSkipOf(left)->plugin, "SpreadPolicy");
  EXPECT_EQ(out.SpreadSkipOf(left)->reason, "MaxSkewExceeded");
  EXPECT_EQ(out.SpreadSkipOf(left)->message,
            "spreadConstraints[0]: selecting it would make the skew of region=eu 2, over "
            "maxSkew 1");
  EXPECT_EQ(out.SpreadSkipOf(left)->count, 3);  // eu-2, eu-3 and eu-4 share it
  EXPECT_EQ(out.SpreadSkipOf(VerdictOf(out, "eu-0")), nullptr);
}

TEST(SpreadTest, MaxSkewTwoAllowsMore) {
  model::Snapshot snap = GlobalHub(Regions({{"eu", 5}, {"us", 5}, {"asia", 1}}));
  model::Placement p = MakePlacement("p");
  p.number_of_clusters = 9;
  p.spread_constraints = {Spread("region", kHard, 2)};
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(CountByRegion(snap, out.selected),
            (std::map<std::string, int>{{"asia", 1}, {"eu", 3}, {"us", 3}}));
}

TEST(SpreadTest, MissingKeysDoNotScheduleExcludesScheduleAnywayIsNeutral) {
  std::vector<model::ManagedCluster> clusters = Regions({{"eu", 1}, {"us", 1}});
  clusters.push_back(Cluster("bare"));
  model::Snapshot snap = GlobalHub(clusters);
  model::Placement p = MakePlacement("p");
  p.spread_constraints = {Spread("region", kHard)};
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));  // all feasible wanted
  EXPECT_EQ(out.selected, (std::vector<std::string>{"eu-0", "us-0"}));
  const ClusterVerdict& bare = VerdictOf(out, "bare");
  ASSERT_NE(out.SpreadSkipOf(bare), nullptr);
  EXPECT_EQ(out.SpreadSkipOf(bare)->reason, "TopologyKeyMissing");
  EXPECT_EQ(out.SpreadSkipOf(bare)->message,
            "spreadConstraints[0]: no label region (DoNotSchedule)");
  // No numberOfClusters: nothing counts as unscheduled.
  EXPECT_EQ(out.satisfied.reason, "AllDecisionsScheduled");

  p.spread_constraints = {Spread("region", kSoft)};
  out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(out.selected.size(), 3u);
  EXPECT_EQ(out.SpreadSkipOf(VerdictOf(out, "bare")), nullptr);
}

TEST(SpreadTest, ClaimTopologyKeys) {
  std::vector<model::ManagedCluster> clusters;
  for (const char* name : {"a1", "a2", "b1"}) {
    model::ManagedCluster c = Cluster(name);
    c.cluster_claims.push_back({"zone.berth.dev", std::string(1, name[0])});
    clusters.push_back(c);
  }
  model::Snapshot snap = GlobalHub(clusters);
  model::Placement p = MakePlacement("p");
  p.number_of_clusters = 2;
  p.spread_constraints = {Spread("zone.berth.dev", kHard, 1, model::TopologyKeyType::kClaim)};
  EXPECT_EQ(SchedulePlacement(snap, p, T(0)).selected, (std::vector<std::string>{"a1", "b1"}));
  // A label of that name does not count for a Claim key.
  p.spread_constraints[0].topology_key_type = model::TopologyKeyType::kLabel;
  EXPECT_TRUE(SchedulePlacement(snap, p, T(0)).selected.empty());
}

TEST(SpreadTest, ConstraintsApplyInListOrderRegionThenZone) {
  // Enhancement 70, use case 4: spread over regions first, then zones within them.
  std::vector<model::ManagedCluster> clusters;
  auto add = [&clusters](std::string name, std::string region, std::string zone) {
    clusters.push_back(
        Cluster(std::move(name), {{"region", std::move(region)}, {"zone", std::move(zone)}}));
  };
  add("c1", "us-east", "us-east-1a");
  add("c2", "us-east", "us-east-1a");
  add("c3", "us-east", "us-east-1b");
  add("c4", "us-west", "us-west-1a");
  add("c5", "us-west", "us-west-1a");
  model::Snapshot snap = GlobalHub(clusters);
  model::Placement p = MakePlacement("p");
  p.number_of_clusters = 4;
  p.spread_constraints = {Spread("region", kSoft), Spread("zone", kSoft)};
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  // c1 by name; then us-west (region); then us-east-1b (zone, regions even); then us-west.
  EXPECT_EQ(out.selected, (std::vector<std::string>{"c1", "c4", "c3", "c5"}));
}

TEST(SpreadTest, ScheduleAnywayIsSoftAgainstStrongPrioritizers) {
  model::Snapshot snap = GlobalHub(Regions({{"eu", 3}, {"us", 3}}));
  for (model::ManagedCluster& c : snap.managed_clusters) {
    bool eu = c.meta.labels.at("region") == "eu";
    SetResource(&c, "cpu", eu ? "100" : "10", "100");
  }
  model::Placement p = MakePlacement("p");
  p.number_of_clusters = 2;
  p.prioritizer_policy.mode = model::PrioritizerMode::kExact;
  p.prioritizer_policy.configurations = {BuiltIn("ResourceAllocatableCPU", 3)};
  p.spread_constraints = {Spread("region", kSoft)};
  // eu scores 300, us −300: a gap of 600 beats the spread bonus (2 × 200 at most).
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(out.selected, (std::vector<std::string>{"eu-0", "eu-1"}));
  // With weight 1 (gap 200) the bonus wins: us-0 goes second.
  p.prioritizer_policy.configurations = {BuiltIn("ResourceAllocatableCPU", 1)};
  out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(out.selected, (std::vector<std::string>{"eu-0", "us-0"}));
  // eu-1 and eu-2 ranked above us-0 and lost to the spread score: explain says so.
  const model::Rejection* why = out.SpreadSkipOf(VerdictOf(out, "eu-1"));
  ASSERT_NE(why, nullptr);
  EXPECT_EQ(why->reason, "SpreadScore");
  EXPECT_EQ(why->message,
            "spreadConstraints: us-0 in a less used topology was picked first (spread score "
            "-100 against 100, weight 2)");
  EXPECT_EQ(out.SpreadSkipOf(VerdictOf(out, "us-1")), nullptr);  // ranked below us-0 anyway
}

TEST(SelectWithSpreadTest, PicksInOrderAndStopsWhenAllBlocked) {
  std::vector<model::ManagedCluster> clusters = Regions({{"a", 3}, {"b", 1}});
  std::vector<const model::ManagedCluster*> ptrs;
  for (const model::ManagedCluster& c : clusters) ptrs.push_back(&c);
  // Given order (best first): a-0, a-1, a-2, b-0 with totals 40, 30, 20, 10.
  std::vector<int64_t> totals = {40, 30, 20, 10};
  SpreadResult r = SelectWithSpread({Spread("region", kHard, 1)}, ptrs, totals, 4);
  EXPECT_EQ(r.selected, (std::vector<size_t>{0, 3, 1}));  // a-0, b-0, a-1; a-2 would make 3−1
  ASSERT_TRUE(r.skipped[2].has_value());
  EXPECT_EQ(r.skipped[2]->reason, "MaxSkewExceeded");
  EXPECT_FALSE(r.skipped[0].has_value());
  // want 0 picks nothing; no clusters pick nothing.
  EXPECT_TRUE(SelectWithSpread({Spread("region", kHard, 1)}, ptrs, totals, 0).selected.empty());
  EXPECT_TRUE(SelectWithSpread({Spread("region", kHard, 1)}, {}, {}, 3).selected.empty());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::placement
