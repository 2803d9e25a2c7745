// SchedulePlacement end to end: the cases of ocm pkg/placement/controllers/scheduling/
// {schedule_test.go,scheduling_controller_test.go}, by semantics: candidates from bound
// sets, filters, weights and modes, ties, numberOfClusters, PlacementDecision splitting and
// the Placement's conditions.
#include "placement/placement_scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "placement/builtin_scorers.h"
#include "placement/fleet_builder.h"

namespace berth::placement {
namespace BERTH_UNITY_ID {

using testing::AddOn;
using testing::Binding;
using testing::BuiltIn;
using testing::Cluster;
using testing::Decision;
using testing::ExclusiveSet;
using testing::GlobalHub;
using testing::LabelSet;
using testing::MakePlacement;
using testing::SetResource;
using testing::T;

std::vector<model::ManagedCluster> Clusters(std::vector<std::string> names) {
  std::vector<model::ManagedCluster> out;
  for (std::string& n : names) out.push_back(Cluster(std::move(n)));
  return out;
}

std::vector<std::string> DecisionNames(const model::PlacementDecision& pd) {
  std::vector<std::string> out;
  for (const model::ClusterDecision& d : pd.decisions) out.push_back(d.cluster_name);
  return out;
}

const ClusterVerdict* Verdict(const PlacementOutcome& out, const std::string& name) {
  for (const ClusterVerdict& v : out.clusters) {
    if (v.cluster_name == name) return &v;
  }
  return nullptr;
}

TEST(SchedulePlacementTest, FreshAdditivePlacementSelectsEveryClusterByName) {
  model::Snapshot snap = GlobalHub(Clusters({"c3", "c1", "c2"}));
  PlacementOutcome out = SchedulePlacement(snap, MakePlacement("p"), T(0));
  EXPECT_EQ(out.selected, (std::vector<std::string>{"c1", "c2", "c3"}));
  for (const ClusterVerdict& v : out.clusters) {
    EXPECT_EQ(v.total, 100);  // Balance 100 × 1 + Steady 0 × 1
    ASSERT_EQ(out.ScoresOf(v).size(), 2u);
    EXPECT_EQ(out.prioritizers[out.ScoresOf(v)[0].prioritizer].name, "Balance");
    EXPECT_EQ(out.prioritizers[out.ScoresOf(v)[1].prioritizer].name, "Steady");
  }
  ASSERT_EQ(out.decisions.size(), 1u);
  const model::PlacementDecision& pd = out.decisions[0];
  EXPECT_EQ(pd.meta.name, "p-decision-1");
  EXPECT_EQ(pd.meta.namespace_, "ns");
  EXPECT_EQ(pd.meta.labels.at(model::kPlacementLabel), "p");
  EXPECT_EQ(pd.meta.labels.at(model::kDecisionGroupNameLabel), "");
  EXPECT_EQ(pd.meta.labels.at(model::kDecisionGroupIndexLabel), "0");
  EXPECT_EQ(DecisionNames(pd), (std::vector<std::string>{"c1", "c2", "c3"}));
  EXPECT_EQ(out.number_of_selected_clusters, 3);
  EXPECT_EQ(out.satisfied.reason, "AllDecisionsScheduled");
  EXPECT_EQ(out.satisfied.status, model::ConditionStatus::kTrue);
  EXPECT_EQ(out.misconfigured.reason, "Succeedconfigured");
  EXPECT_EQ(out.misconfigured.status, model::ConditionStatus::kFalse);
  ASSERT_EQ(out.groups.size(), 1u);
  EXPECT_EQ(out.groups[0].decisions, std::vector<std::string>{"p-decision-1"});
  EXPECT_EQ(out.groups[0].cluster_count, 3);
}

TEST(SchedulePlacementTest, CandidatesComeFromBoundSetsIntersectedWithSpec) {
  model::Snapshot snap;
  snap.managed_clusters = {Cluster("a1", {{model::kClusterSetLabel, "a"}}),
                           Cluster("b1", {{model::kClusterSetLabel, "b"}, {"zone", "eu"}}),
                           Cluster("eu2", {{"zone", "eu"}}), Cluster("none")};
  snap.managed_clusters[1].deletion_timestamp = std::nullopt;
  model::ManagedCluster deleting = Cluster("a2", {{model::kClusterSetLabel, "a"}});
  deleting.deletion_timestamp = T(1);
  snap.managed_clusters.push_back(deleting);
  snap.managed_cluster_sets = {ExclusiveSet("a"), ExclusiveSet("b"),
                               LabelSet("eu", {{"zone", "eu"}})};
  snap.managed_cluster_set_bindings = {Binding("ns", "a"), Binding("ns", "eu"),
                                       Binding("ns", "missing"), Binding("other", "b")};

  PlacementOutcome all = SchedulePlacement(snap, MakePlacement("p"), T(0));
  EXPECT_EQ(all.selected, (std::vector<std::string>{"a1", "b1", "eu2"}));

  model::Placement only_a = MakePlacement("p");
  only_a.cluster_sets = {"a", "b"};  // b is not bound in ns
  EXPECT_EQ(SchedulePlacement(snap, only_a, T(0)).selected, std::vector<std::string>{"a1"});
}

TEST(SchedulePlacementTest, SatisfiedConditionReasons) {
  model::Snapshot snap;
  snap.managed_clusters = Clusters({"c1"});
  PlacementOutcome out = SchedulePlacement(snap, MakePlacement("p"), T(0));
  EXPECT_EQ(out.satisfied.reason, "NoManagedClusterSetBindings");
  EXPECT_EQ(out.satisfied.message,
            "No valid ManagedClusterSetBindings found in placement namespace");
  ASSERT_EQ(out.decisions.size(), 1u);  // always one PlacementDecision, here empty
  EXPECT_TRUE(out.decisions[0].decisions.empty());

  snap.managed_cluster_sets = {ExclusiveSet("a")};
  snap.managed_cluster_set_bindings = {Binding("ns", "a")};
  model::Placement p = MakePlacement("p");
  p.cluster_sets = {"x", "y"};
  out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(out.satisfied.reason, "NoIntersection");
  EXPECT_EQ(out.satisfied.message,
            "None of ManagedClusterSets [x,y] is bound to placement namespace");

  out = SchedulePlacement(snap, MakePlacement("p"), T(0));
  EXPECT_EQ(out.satisfied.reason, "AllManagedClusterSetsEmpty");
  EXPECT_EQ(out.satisfied.message, "All ManagedClusterSets [a] have no member ManagedCluster");

  snap.managed_clusters[0].meta.labels[model::kClusterSetLabel] = "a";
  snap.managed_clusters[0].taints.push_back({"t", "", model::ClusterTaintEffect::kNoSelect, {}});
  out = SchedulePlacement(snap, MakePlacement("p"), T(0));
  EXPECT_EQ(out.satisfied.reason, "NoManagedClusterMatched");
  EXPECT_EQ(out.satisfied.message, "No ManagedCluster matches any of the cluster predicate");
  ASSERT_NE(Verdict(out, "c1"), nullptr);
  EXPECT_EQ(out.RejectionOf(*Verdict(out, "c1"))->plugin, "TaintToleration");
}

TEST(SchedulePlacementTest, MoreClustersWantedThanFeasibleLeavesDecisionsUnscheduled) {
  model::Snapshot snap = GlobalHub(Clusters({"c1", "c2"}));
  model::Placement p = MakePlacement("p");
  p.number_of_clusters = 4;
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(out.selected.size(), 2u);
  EXPECT_EQ(out.unscheduled, 2);
  EXPECT_EQ(out.satisfied.reason, "NotAllDecisionsScheduled");
  EXPECT_EQ(out.satisfied.message, "2 cluster decisions unscheduled");
}

TEST(SchedulePlacementTest, TopScoresWinAndTiesGoToTheSmallerName) {
  model::Snapshot snap = GlobalHub(Clusters({"c1", "c2", "c3", "c4"}));
  SetResource(&snap.managed_clusters[0], "cpu", "10", "10");
  SetResource(&snap.managed_clusters[1], "cpu", "30", "30");
  SetResource(&snap.managed_clusters[2], "cpu", "30", "30");
  SetResource(&snap.managed_clusters[3], "cpu", "20", "20");
  model::Placement p = MakePlacement("p");
  p.number_of_clusters = 2;
  p.prioritizer_policy.mode = model::PrioritizerMode::kExact;
  p.prioritizer_policy.configurations = {BuiltIn("ResourceAllocatableCPU", 2)};
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(out.selected, (std::vector<std::string>{"c2", "c3"}));
  EXPECT_EQ(Verdict(out, "c2")->total, 200);
  EXPECT_EQ(Verdict(out, "c4")->total, 0);
  EXPECT_EQ(Verdict(out, "c1")->total, -200);
  EXPECT_FALSE(Verdict(out, "c4")->selected);
  ASSERT_EQ(out.ScoresOf(*Verdict(out, "c1")).size(), 1u);  // Exact: no Balance/Steady
  EXPECT_EQ(out.ScoresOf(*Verdict(out, "c1"))[0].weight, 2);

  // A negative weight favours low scores.
  p.prioritizer_policy.configurations = {BuiltIn("ResourceAllocatableCPU", -1)};
  EXPECT_EQ(SchedulePlacement(snap, p, T(0)).selected, (std::vector<std::string>{"c1", "c4"}));
}

TEST(SchedulePlacementTest, AdditiveConfigurationsOverrideTheDefaults) {
  model::Snapshot snap = GlobalHub(Clusters({"c1", "c2", "c3"}));
  snap.placement_decisions.push_back(Decision("p", "ns", {"c3"}));
  model::Placement p = MakePlacement("p");
  p.number_of_clusters = 1;
  PlacementOutcome steady = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(steady.selected, std::vector<std::string>{"c3"});  // Steady keeps it
  p.prioritizer_policy.configurations = {BuiltIn("Steady", 0)};
  PlacementOutcome unsteady = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(unsteady.selected, std::vector<std::string>{"c1"});
  EXPECT_EQ(unsteady.ScoresOf(*Verdict(unsteady, "c3")).size(), 1u);  // weight 0 does not run
}

TEST(SchedulePlacementTest, AddOnScoresPickTheCluster) {
  model::Snapshot snap = GlobalHub(Clusters({"c1", "c2"}));
  model::AddOnPlacementScore s;
  s.meta.name = "usage";
  s.meta.namespace_ = "c2";
  s.scores = {{"gpu", 60}};
  snap.addon_placement_scores.push_back(s);
  model::Placement p = MakePlacement("p");
  p.number_of_clusters = 1;
  p.prioritizer_policy.mode = model::PrioritizerMode::kExact;
  p.prioritizer_policy.configurations = {AddOn("usage", "gpu", 3)};
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(out.selected, std::vector<std::string>{"c2"});
  EXPECT_EQ(Verdict(out, "c2")->total, 180);
  EXPECT_EQ(out.prioritizers[out.ScoresOf(*Verdict(out, "c2"))[0].prioritizer].name,
            "AddOn/usage/gpu");
  // Expired: 0 and a warning; still scheduled.
  snap.addon_placement_scores[0].valid_until = T(10);
  out = SchedulePlacement(snap, p, T(11));
  EXPECT_EQ(out.selected, std::vector<std::string>{"c1"});
  EXPECT_EQ(out.warnings, std::vector<std::string>{"AddOnPlacementScores c2/usage expired"});
  EXPECT_EQ(out.satisfied.reason, "AllDecisionsScheduled");
}

TEST(SchedulePlacementTest, MisconfigurationsSelectNothing) {
  model::Snapshot snap = GlobalHub(Clusters({"c1"}));
  struct Case {
    model::Placement placement;
    const char* message;
  };
  std::vector<Case> cases;
  model::Placement bad_mode = MakePlacement("p");
  bad_mode.prioritizer_policy.mode = model::PrioritizerMode::kOther;
  bad_mode.prioritizer_policy.mode_text = "Sometimes";
  cases.push_back({bad_mode, ":incorrect prioritizer policy mode: Sometimes"});
  model::Placement spread = MakePlacement("p");
  spread.prioritizer_policy.configurations = {BuiltIn("Spread", 1)};
  cases.push_back({spread, ":incorrect builtin prioritizer: Spread"});
  model::Placement no_coordinate = MakePlacement("p");
  no_coordinate.prioritizer_policy.configurations = {model::PrioritizerConfig{}};
  cases.push_back({no_coordinate, ":scoreCoordinate field is required"});
  model::Placement addon = MakePlacement("p");
  addon.prioritizer_policy.configurations = {AddOn("", "", 1)};
  cases.push_back({addon, ":addOn should not be empty"});
  model::Placement toleration = MakePlacement("p");
  toleration.tolerations.push_back(
      {"", model::PlacementTolerationOp::kEqual, "", std::nullopt, std::nullopt});
  cases.push_back({toleration, "TaintToleration:If the key is empty, operator must be Exists."});
  for (const Case& c : cases) {
    PlacementOutcome out = SchedulePlacement(snap, c.placement, T(0));
    EXPECT_TRUE(out.selected.empty()) << c.message;
    EXPECT_EQ(out.misconfigured.status, model::ConditionStatus::kTrue);
    EXPECT_EQ(out.misconfigured.reason, "Misconfigured");
    EXPECT_EQ(out.misconfigured.message, c.message);
    EXPECT_EQ(out.satisfied.reason, "NoManagedClusterMatched");
    ASSERT_EQ(out.decisions.size(), 1u);
    EXPECT_TRUE(out.decisions[0].decisions.empty());
  }
}

TEST(SchedulePlacementTest, MisconfigurationNeedsClustersToReachThePlugin) {
  // Upstream's filters return before validating when they receive no cluster.
  model::Snapshot snap = GlobalHub(Clusters({"c1"}));
  model::Placement p = MakePlacement("p");
  model::ClusterSelector none;
  none.label_selector = core::LabelSelector{{{"x", "y"}}, {}};
  p.predicates.push_back(none);
  p.tolerations.push_back(
      {"", model::PlacementTolerationOp::kEqual, "", std::nullopt, std::nullopt});
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(out.misconfigured.reason, "Succeedconfigured");
  EXPECT_EQ(out.satisfied.reason, "NoManagedClusterMatched");
  // An unknown prioritizer with weight 0 is never built.
  model::Placement zero = MakePlacement("p");
  zero.prioritizer_policy.configurations = {BuiltIn("Spread", 0)};
  EXPECT_EQ(SchedulePlacement(snap, zero, T(0)).misconfigured.reason, "Succeedconfigured");
}

TEST(SchedulePlacementTest, BadClustersPerDecisionGroupWritesNoDecisions) {
  model::Snapshot snap = GlobalHub(Clusters({"c1", "c2"}));
  model::Placement p = MakePlacement("p");
  p.group_strategy.clusters_per_decision_group = {true, 0, "abc"};
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(out.misconfigured.status, model::ConditionStatus::kTrue);
  EXPECT_EQ(out.misconfigured.message, ":abc invalid type: string is not a percentage");
  EXPECT_TRUE(out.decisions.empty());
  EXPECT_TRUE(out.groups.empty());
  EXPECT_EQ(out.number_of_selected_clusters, 2);
  EXPECT_EQ(out.satisfied.reason, "AllDecisionsScheduled");
}

TEST(SchedulePlacementTest, AddOnConfigurationsNeverOverrideEachOther) {
  model::Snapshot snap = GlobalHub(Clusters({"c1"}));
  model::AddOnPlacementScore s;
  s.meta.name = "usage";
  s.meta.namespace_ = "c1";
  s.scores = {{"gpu", 10}};
  snap.addon_placement_scores.push_back(s);
  model::Placement p = MakePlacement("p");
  p.prioritizer_policy.mode = model::PrioritizerMode::kExact;
  p.prioritizer_policy.configurations = {AddOn("usage", "gpu", 1), AddOn("usage", "gpu", 2),
                                         BuiltIn("Steady", 1), BuiltIn("Steady", 3)};
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(Verdict(out, "c1")->total, 30);
  EXPECT_EQ(out.ScoresOf(*Verdict(out, "c1")).size(), 3u);
}

TEST(SchedulePlacementTest, SplitsDecisionsIntoHundredsByName) {
  std::vector<std::string> names;
  for (int i = 1; i <= 101; ++i) names.push_back(testing::Numbered("cluster", i));
  model::Snapshot snap = GlobalHub(Clusters(names));
  PlacementOutcome out = SchedulePlacement(snap, MakePlacement("p"), T(0));
  ASSERT_EQ(out.decisions.size(), 2u);
  EXPECT_EQ(out.decisions[0].meta.name, "p-decision-1");
  EXPECT_EQ(out.decisions[0].decisions.size(), 100u);
  EXPECT_EQ(out.decisions[0].decisions.front().cluster_name, "cluster1");
  EXPECT_EQ(out.decisions[1].meta.name, "p-decision-2");
  EXPECT_EQ(DecisionNames(out.decisions[1]), std::vector<std::string>{"cluster99"});
  ASSERT_EQ(out.groups.size(), 1u);
  EXPECT_EQ(out.groups[0].decisions, (std::vector<std::string>{"p-decision-1", "p-decision-2"}));
  EXPECT_EQ(out.groups[0].cluster_count, 101);
}

TEST(SchedulePlacementTest, DecisionGroupsNumberDecisionsAcrossGroups) {
  model::Snapshot snap = GlobalHub(Clusters({"c1", "c2", "c3", "c4", "c5"}));
  snap.managed_clusters[4].meta.labels["canary"] = "true";
  model::Placement p = MakePlacement("p");
  model::DecisionGroupSpec canary{"canary", {}};
  canary.group_cluster_selector.label_selector = core::LabelSelector{{{"canary", "true"}}, {}};
  p.group_strategy.decision_groups = {canary};
  p.group_strategy.clusters_per_decision_group = {true, 0, "50%"};  // ceil(2.5) = 3
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  ASSERT_EQ(out.decisions.size(), 3u);
  EXPECT_EQ(DecisionNames(out.decisions[0]), std::vector<std::string>{"c5"});
  EXPECT_EQ(out.decisions[0].meta.labels.at(model::kDecisionGroupNameLabel), "canary");
  EXPECT_EQ(DecisionNames(out.decisions[1]), (std::vector<std::string>{"c1", "c2", "c3"}));
  EXPECT_EQ(out.decisions[1].meta.labels.at(model::kDecisionGroupIndexLabel), "1");
  EXPECT_EQ(DecisionNames(out.decisions[2]), std::vector<std::string>{"c4"});
  EXPECT_EQ(out.decisions[2].meta.name, "p-decision-3");
  ASSERT_EQ(out.groups.size(), 3u);
  EXPECT_EQ(out.groups[2].index, 2);
  EXPECT_EQ(out.groups[2].name, "");
}

TEST(SchedulePlacementTest, RequeuesWhenAToleratedSelectedClusterExpires) {
  model::Snapshot snap = GlobalHub(Clusters({"c1", "c2"}));
  for (model::ManagedCluster& c : snap.managed_clusters) {
    c.conditions[0].status = model::ConditionStatus::kUnknown;
  }
  snap.managed_clusters[0].conditions[0].last_transition_time = T(100);
  snap.managed_clusters[1].conditions[0].last_transition_time = T(50);
  snap.placement_decisions.push_back(Decision("p", "ns", {"c1"}));
  model::Placement p = MakePlacement("p");
  p.tolerations.push_back({model::kTaintClusterUnreachable, model::PlacementTolerationOp::kExists,
                           "", std::nullopt, int64_t{60}});
  PlacementOutcome out = SchedulePlacement(snap, p, T(105));
  EXPECT_EQ(out.selected, (std::vector<std::string>{"c1", "c2"}));
  EXPECT_EQ(out.requeue_at, T(160));  // c1 is in the decisions; c2 (expiring at 110) is not
}

TEST(SchedulePlacementTest, SchedulingDisabledAnnotationSkips) {
  model::Snapshot snap = GlobalHub(Clusters({"c1"}));
  model::Placement p = MakePlacement("p");
  p.meta.annotations[model::kSchedulingDisableAnnotation] = "true";
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  EXPECT_TRUE(out.skipped);
  EXPECT_TRUE(out.decisions.empty());
}

// A berth extension plugs in through the registry under its BuiltIn name.
class FixedScorer final : public ClusterScorer {
 public:
  const std::string& Name() const override { return name_; }
  ScoreOutput Score(const ScoreContext& /*context*/,
                    const std::vector<const model::ManagedCluster*>& clusters) const override {
    ScoreOutput out;
    for (const model::ManagedCluster* c : clusters) {
      out.scores.emplace_back(c->meta.name == "c2" ? 50 : -50);
    }
    return out;
  }

 private:
  std::string name_ = "Fixed";
};

TEST(SchedulePlacementTest, RegisteredScorersPlugIn) {
  model::Snapshot snap = GlobalHub(Clusters({"c1", "c2"}));
  ScorerRegistry registry = ScorerRegistry::Upstream();
  registry.Register("Fixed", [] { return std::make_unique<FixedScorer>(); });
  model::Placement p = MakePlacement("p");
  p.number_of_clusters = 1;
  p.prioritizer_policy.configurations = {BuiltIn("Fixed", 1)};
  PlacementOutcome out = SchedulePlacement(snap, p, T(0), {&registry});
  EXPECT_EQ(out.selected, std::vector<std::string>{"c2"});
  EXPECT_EQ(Verdict(out, "c2")->total, 150);
  // Without the registration it is an unknown prioritizer.
  EXPECT_EQ(SchedulePlacement(snap, p, T(0)).misconfigured.reason, "Misconfigured");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::placement

namespace berth::placement {
namespace BERTH_UNITY_ID {

TEST(SchedulePlacementTest, CandidatesAreNameOrderedWhateverTheInputOrder) {
  // A long shared prefix, names that agree in the 8 bytes after it, different lengths,
  // bytes above 0x7f and a repeated name (the first one counts).
  std::vector<std::string> names = {
      "fleet-cluster-b",          "fleet-cluster-a10",        "fleet-cluster-a2",
      "fleet-cluster-abcdefgh-2", "fleet-cluster-abcdefgh-1", "fleet-cluster-a",
      "fleet-cluster-\xc3\xa9",   "fleet-cluster-a10",        "fleet-cluster-abcdefgh"};
  model::Snapshot snap = GlobalHub(Clusters(names));
  PlacementOutcome out = SchedulePlacement(snap, MakePlacement("p"), T(0));
  std::vector<std::string> got;
  for (const ClusterVerdict& v : out.clusters) got.push_back(v.cluster_name);
  std::vector<std::string> want = names;
  std::sort(want.begin(), want.end());
  want.erase(std::unique(want.begin(), want.end()), want.end());
  EXPECT_EQ(got, want);
  EXPECT_EQ(out.selected, want);  // equal totals: by name
}

TEST(SchedulePlacementTest, ClustersRejectedAlikeShareOneRejection) {
  std::vector<model::ManagedCluster> clusters;
  for (int i = 0; i < 40; ++i) {
    clusters.push_back(Cluster(testing::Numbered("c", i), {{"tier", i % 4 == 0 ? "gold" : "x"}}));
  }
  clusters[1].cluster_claims.push_back({"cloud", "aws"});
  model::Snapshot snap = GlobalHub(clusters);
  model::Placement p = MakePlacement("p");
  model::ClusterSelector gold;
  gold.label_selector = core::LabelSelector{{{"tier", "gold"}}, {}};
  model::ClusterSelector aws;
  aws.claim_selector = model::ClaimSelector{{{"cloud", core::SelectorOp::kIn, {"aws"}}}};
  p.predicates = {gold, aws};
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(out.selected.size(), 11u);  // 10 gold and c1
  ASSERT_EQ(out.rejections.size(), 1u);
  EXPECT_EQ(out.rejections[0].count, 29);
  EXPECT_EQ(out.rejections[0].stage, "placement");
  EXPECT_EQ(out.rejections[0].plugin, "Predicate");
  EXPECT_EQ(out.rejections[0].reason, "PredicateNotMatched");
  EXPECT_EQ(out.rejections[0].message,
            "predicates[0]: labelSelector does not match; predicates[1]: claimSelector does not "
            "match");
  for (const ClusterVerdict& v : out.clusters) {
    EXPECT_EQ(v.feasible, v.selected) << v.cluster_name;
    EXPECT_EQ(out.RejectionOf(v) != nullptr, !v.feasible) << v.cluster_name;
  }
  // A misconfigured placement keeps no verdicts and no rejections.
  p.prioritizer_policy.mode = model::PrioritizerMode::kOther;
  out = SchedulePlacement(snap, p, T(0));
  EXPECT_TRUE(out.clusters.empty());
  EXPECT_TRUE(out.rejections.empty());
}

TEST(SchedulePlacementTest, ManyDistinctRejectionsAreIndexed) {
  // More distinct messages than the table scans linearly: the hashed path.
  std::vector<model::ManagedCluster> clusters;
  for (int i = 0; i < 60; ++i) {
    model::ManagedCluster c = Cluster(testing::Numbered("c", i));
    c.taints.push_back(
        {testing::Numbered("t", i % 30), "", model::ClusterTaintEffect::kNoSelect, {}});
    clusters.push_back(c);
  }
  model::Snapshot snap = GlobalHub(clusters);
  PlacementOutcome out = SchedulePlacement(snap, MakePlacement("p"), T(0));
  ASSERT_EQ(out.rejections.size(), 30u);
  for (const model::Rejection& r : out.rejections) EXPECT_EQ(r.count, 2) << r.message;
  EXPECT_EQ(out.RejectionOf(*Verdict(out, "c7"))->message, "taint t7:NoSelect is not tolerated");
  EXPECT_EQ(out.RejectionOf(*Verdict(out, "c37"))->message, "taint t7:NoSelect is not tolerated");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::placement
