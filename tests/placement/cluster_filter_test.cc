// The Predicate and TaintToleration filters: the cases of ocm pkg/placement/plugins/
// {predicate,tainttoleration}/*_test.go and helpers/cel_test.go, by semantics.
#include "placement/cluster_filter.h"

#include <gtest/gtest.h>

#include <string>

#include "placement/fleet_builder.h"

namespace berth::placement {
namespace BERTH_UNITY_ID {

using testing::Cluster;
using testing::MakePlacement;
using testing::T;

model::ClusterSelector LabelPredicate(core::Labels labels) {
  model::ClusterSelector s;
  s.label_selector = core::LabelSelector{std::move(labels), {}};
  return s;
}

model::ClusterSelector ClaimPredicate(std::string key, core::SelectorOp op,
                                      std::vector<std::string> values) {
  model::ClusterSelector s;
  s.claim_selector = model::ClaimSelector{{{std::move(key), op, std::move(values)}}};
  return s;
}

FilterVerdict CheckOne(const model::Placement& p, const model::ManagedCluster& c,
                       bool selected_before = false, core::Timestamp now = T(1000)) {
  ClusterFilter filter = ClusterFilter::Compile(p);
  EXPECT_FALSE(filter.predicate_misconfiguration().has_value());
  EXPECT_FALSE(filter.toleration_misconfiguration().has_value());
  return filter.Check(c, selected_before, now);
}

model::ManagedCluster Tainted(model::ClusterTaintEffect effect, std::string value = "",
                              std::optional<core::Timestamp> added = std::nullopt) {
  model::ManagedCluster c = Cluster("c1");
  c.taints.push_back({"gpu", std::move(value), effect, added});
  return c;
}

TEST(ClusterFilterTest, NoPredicatesPassEveryCluster) {
  EXPECT_TRUE(CheckOne(MakePlacement("p"), Cluster("c1")).feasible);
}

TEST(ClusterFilterTest, PredicatesAreOredAndTheirPartsAnded) {
  model::Placement p = MakePlacement("p");
  model::ClusterSelector both = LabelPredicate({{"cloud", "aws"}});
  both.claim_selector = model::ClaimSelector{{{"region", core::SelectorOp::kIn, {"us-east-1"}}}};
  p.predicates.push_back(both);
  p.predicates.push_back(LabelPredicate({{"vendor", "ocp"}}));

  model::ManagedCluster aws = Cluster("aws", {{"cloud", "aws"}});
  aws.cluster_claims.push_back({"region", "us-east-1"});
  EXPECT_TRUE(CheckOne(p, aws).feasible);

  model::ManagedCluster aws_eu = Cluster("aws-eu", {{"cloud", "aws"}});
  aws_eu.cluster_claims.push_back({"region", "eu-west-1"});
  FilterVerdict v = CheckOne(p, aws_eu);
  EXPECT_FALSE(v.feasible);
  ASSERT_TRUE(v.rejection.has_value());
  EXPECT_EQ(v.rejection->plugin, "Predicate");
  EXPECT_EQ(v.rejection->message,
            "predicates[0]: claimSelector does not match; predicates[1]: labelSelector does not "
            "match");

  EXPECT_TRUE(CheckOne(p, Cluster("ocp", {{"vendor", "ocp"}})).feasible);
}

TEST(ClusterFilterTest, ClaimSelectorOperators) {
  model::ManagedCluster c = Cluster("c1");
  c.cluster_claims.push_back({"platform.open-cluster-management.io", "AWS"});
  auto check = [&c](core::SelectorOp op, std::vector<std::string> values) {
    model::Placement p = MakePlacement("p");
    p.predicates.push_back(ClaimPredicate("platform.open-cluster-management.io", op, values));
    return CheckOne(p, c).feasible;
  };
  EXPECT_TRUE(check(core::SelectorOp::kIn, {"AWS", "GCP"}));
  EXPECT_FALSE(check(core::SelectorOp::kNotIn, {"AWS"}));
  EXPECT_TRUE(check(core::SelectorOp::kExists, {}));
  EXPECT_FALSE(check(core::SelectorOp::kDoesNotExist, {}));
}

TEST(ClusterFilterTest, CelPredicatesSeeTheManagedCluster) {
  model::Placement p = MakePlacement("p");
  model::ClusterSelector s;
  s.cel_expressions = {
      "managedCluster.status.clusterClaims.exists(c, c.name == \"cloud\" && c.value == "
      "\"Amazon\")",
      "managedCluster.metadata.labels[\"tier\"] == \"gold\""};
  p.predicates.push_back(s);
  model::ManagedCluster c = Cluster("c1", {{"tier", "gold"}});
  c.cluster_claims.push_back({"cloud", "Amazon"});
  EXPECT_TRUE(CheckOne(p, c).feasible);
  c.meta.labels["tier"] = "silver";
  FilterVerdict v = CheckOne(p, c);
  EXPECT_FALSE(v.feasible);
  EXPECT_EQ(v.rejection->message, "predicates[0]: celExpressions[1] is false");
}

TEST(ClusterFilterTest, CelCompileErrorIsMisconfigured) {
  model::Placement p = MakePlacement("p");
  model::ClusterSelector s;
  s.cel_expressions = {"managedCluster.metadata.name =="};
  p.predicates.push_back(s);
  ClusterFilter filter = ClusterFilter::Compile(p);
  ASSERT_TRUE(filter.predicate_misconfiguration().has_value());
  EXPECT_EQ(filter.predicate_misconfiguration()->plugin, "Predicate");
}

TEST(ClusterFilterTest, TaintEffects) {
  model::Placement p = MakePlacement("p");
  EXPECT_FALSE(CheckOne(p, Tainted(model::ClusterTaintEffect::kNoSelect)).feasible);
  EXPECT_TRUE(CheckOne(p, Tainted(model::ClusterTaintEffect::kPreferNoSelect)).feasible);
  EXPECT_FALSE(CheckOne(p, Tainted(model::ClusterTaintEffect::kNoSelectIfNew)).feasible);
  EXPECT_TRUE(CheckOne(p, Tainted(model::ClusterTaintEffect::kNoSelectIfNew), true).feasible);
  // NoSelect drops even a cluster already selected.
  FilterVerdict v = CheckOne(p, Tainted(model::ClusterTaintEffect::kNoSelect, "true"), true);
  EXPECT_FALSE(v.feasible);
  EXPECT_EQ(v.rejection->plugin, "TaintToleration");
  EXPECT_EQ(v.rejection->message, "taint gpu=true:NoSelect is not tolerated");
}

TEST(ClusterFilterTest, TolerationMatching) {
  model::ManagedCluster c = Tainted(model::ClusterTaintEffect::kNoSelect, "a");
  auto tolerated = [&c](model::PlacementToleration t) {
    model::Placement p = MakePlacement("p");
    p.tolerations.push_back(std::move(t));
    return CheckOne(p, c).feasible;
  };
  using Op = model::PlacementTolerationOp;
  EXPECT_TRUE(tolerated({"gpu", Op::kEqual, "a", std::nullopt, std::nullopt}));
  EXPECT_FALSE(tolerated({"gpu", Op::kEqual, "b", std::nullopt, std::nullopt}));
  EXPECT_TRUE(tolerated({"gpu", Op::kExists, "", std::nullopt, std::nullopt}));
  EXPECT_TRUE(tolerated({"", Op::kExists, "", std::nullopt, std::nullopt}));
  EXPECT_TRUE(
      tolerated({"gpu", Op::kEqual, "a", model::ClusterTaintEffect::kNoSelect, std::nullopt}));
  EXPECT_FALSE(
      tolerated({"gpu", Op::kEqual, "a", model::ClusterTaintEffect::kNoSelectIfNew, std::nullopt}));
  EXPECT_FALSE(tolerated({"other", Op::kExists, "", std::nullopt, std::nullopt}));
}

TEST(ClusterFilterTest, AnExpiredTolerationLetsTheNextOneDecide) {
  model::Placement p = MakePlacement("p");
  p.tolerations.push_back(
      {"gpu", model::PlacementTolerationOp::kExists, "", std::nullopt, int64_t{10}});
  p.tolerations.push_back(
      {"gpu", model::PlacementTolerationOp::kExists, "", std::nullopt, int64_t{500}});
  model::ManagedCluster c = Tainted(model::ClusterTaintEffect::kNoSelect, "", T(1000));
  FilterVerdict v = CheckOne(p, c, false, T(1100));
  EXPECT_TRUE(v.feasible);
  EXPECT_EQ(v.toleration_expires, T(1500));
}

TEST(ClusterFilterTest, TolerationSecondsExpireExclusively) {
  model::Placement p = MakePlacement("p");
  p.tolerations.push_back(
      {"gpu", model::PlacementTolerationOp::kExists, "", std::nullopt, int64_t{100}});
  model::ManagedCluster c = Tainted(model::ClusterTaintEffect::kNoSelect, "", T(1000));
  FilterVerdict before = CheckOne(p, c, false, T(1099));
  EXPECT_TRUE(before.feasible);
  EXPECT_EQ(before.toleration_expires, T(1100));
  FilterVerdict at = CheckOne(p, c, false, T(1100));
  EXPECT_FALSE(at.feasible);
  EXPECT_EQ(at.rejection->message,
            "toleration of taint gpu:NoSelect expired at 1970-01-01T00:18:20Z");
}

TEST(ClusterFilterTest, InvalidTolerationsAreMisconfigured) {
  using Op = model::PlacementTolerationOp;
  struct Case {
    model::PlacementToleration toleration;
    const char* message;
  };
  const Case cases[] = {
      {{"", Op::kEqual, "", std::nullopt, std::nullopt},
       "If the key is empty, operator must be Exists."},
      {{"k", Op::kExists, "v", std::nullopt, std::nullopt},
       "If the operator is Exists, the value should be empty."},
  };
  for (const Case& c : cases) {
    model::Placement p = MakePlacement("p");
    p.tolerations.push_back(c.toleration);
    ClusterFilter filter = ClusterFilter::Compile(p);
    const auto& misconfigured = filter.toleration_misconfiguration();
    ASSERT_TRUE(misconfigured.has_value());
    EXPECT_EQ(misconfigured->plugin, "TaintToleration");
    EXPECT_EQ(misconfigured->message, c.message);
  }
}

TEST(ClusterFilterTest, BuiltInTaintsFollowTheAvailableCondition) {
  model::ManagedCluster unknown = Cluster("c1");
  unknown.conditions.clear();
  auto taints = EffectiveTaints(unknown);
  ASSERT_EQ(taints.size(), 1u);
  EXPECT_EQ(taints[0].key, model::kTaintClusterUnreachable);
  EXPECT_EQ(taints[0].effect, model::ClusterTaintEffect::kNoSelect);

  model::ManagedCluster down = Cluster("c2");
  down.conditions[0].status = model::ConditionStatus::kFalse;
  down.conditions[0].last_transition_time = T(500);
  // A stale unreachable taint is replaced by unavailable.
  down.taints.push_back(
      {model::kTaintClusterUnreachable, "", model::ClusterTaintEffect::kNoSelect, T(100)});
  taints = EffectiveTaints(down);
  ASSERT_EQ(taints.size(), 1u);
  EXPECT_EQ(taints[0].key, model::kTaintClusterUnavailable);
  EXPECT_EQ(taints[0].time_added, T(500));

  model::ManagedCluster up = Cluster("c3");
  up.taints.push_back(
      {model::kTaintClusterUnavailable, "", model::ClusterTaintEffect::kNoSelect, std::nullopt});
  EXPECT_TRUE(EffectiveTaints(up).empty());

  // The usual pattern: keep a cluster through a short outage.
  model::Placement p = MakePlacement("p");
  p.tolerations.push_back({model::kTaintClusterUnreachable, model::PlacementTolerationOp::kExists,
                           "", std::nullopt, int64_t{300}});
  model::ManagedCluster lost = Cluster("c4");
  lost.conditions[0].status = model::ConditionStatus::kUnknown;
  lost.conditions[0].last_transition_time = T(1000);
  EXPECT_TRUE(CheckOne(p, lost, true, T(1200)).feasible);
  EXPECT_FALSE(CheckOne(p, lost, true, T(1300)).feasible);
  EXPECT_FALSE(CheckOne(MakePlacement("q"), lost).feasible);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::placement

namespace berth::placement {
namespace BERTH_UNITY_ID {

TEST(ClusterFilterTest, ClaimAnswersStayRightAcrossManyValues) {
  // More distinct values than a requirement remembers, repeated, with claims listed twice
  // (the last one counts) and missing.
  model::Placement p = MakePlacement("p");
  p.predicates.push_back(ClaimPredicate("n", core::SelectorOp::kNotIn, {"3", "7", "11"}));
  ClusterFilter filter = ClusterFilter::Compile(p);
  PredicateScratch scratch = filter.NewScratch();
  std::string why;
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 15; ++i) {
      model::ManagedCluster c = Cluster("c");
      c.cluster_claims.push_back({"n", "0"});
      c.cluster_claims.push_back({"n", std::to_string(i)});
      bool want = i != 3 && i != 7 && i != 11;
      EXPECT_EQ(filter.MatchPredicates(c, scratch, &why), want) << i;
      EXPECT_EQ(filter.CheckPredicates(c).has_value(), !want) << i;
    }
  }
  EXPECT_TRUE(filter.MatchPredicates(Cluster("none"), scratch, &why));  // NotIn: absent passes
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::placement
