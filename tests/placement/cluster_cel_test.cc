// celSelector's CEL library: managedCluster.scores() (sdk-go library/managedcluster.go and
// its tests, by semantics), the lazy `managedCluster` value, and the AddOnPlacementScore
// index behind both.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cel/activation.h"
#include "cel/program.h"
#include "placement/addon_score_index.h"
#include "placement/cluster_cel_library.h"
#include "placement/cluster_filter.h"
#include "placement/fleet_builder.h"
#include "placement/managed_cluster_value.h"
#include "placement/placement_scheduler.h"

namespace berth::placement {
namespace BERTH_UNITY_ID {

using testing::CelPredicate;
using testing::Cluster;
using testing::GlobalHub;
using testing::MakePlacement;
using testing::Score;
using testing::T;

// Evaluates `expr` against `cluster` with the scores in `scores`: the value's DebugString,
// "error: ..." or "compile: ...".
std::string Eval(const std::string& expr, const model::ManagedCluster& cluster,
                 const std::vector<model::AddOnPlacementScore>& scores = {}) {
  AddOnScoreIndex index(scores);
  ClusterCelLibrary library(&index);
  auto program = cel::Compile(expr, library.environment());
  if (!program.has_value()) return "compile: " + program.error().message();
  ManagedClusterValue value;
  value.Reset(cluster);
  cel::Activation activation(library.environment());
  activation.Bind(library.cluster_slot(), value.value());
  cel::Value v = program->EvaluateValue(activation);
  if (v.is_error()) return "error: " + std::string(v.error_message());
  return v.DebugString();
}

std::vector<model::AddOnPlacementScore> UsageScores() {
  return {Score("c1", "resource-usage-score",
                {{"gpuClusterAvailable", 3}, {"cpuClusterAvailable", 40}}),
          Score("c2", "resource-usage-score", {{"gpuClusterAvailable", 1}})};
}

TEST(ScoresFunctionTest, ReturnsTheNameValueListOfTheClustersObject) {
  EXPECT_EQ(Eval("managedCluster.scores('resource-usage-score')", Cluster("c1"), UsageScores()),
            "[{\"name\": \"gpuClusterAvailable\", \"value\": 3}, "
            "{\"name\": \"cpuClusterAvailable\", \"value\": 40}]");
  EXPECT_EQ(Eval("managedCluster.scores('resource-usage-score')", Cluster("c2"), UsageScores()),
            "[{\"name\": \"gpuClusterAvailable\", \"value\": 1}]");
}

TEST(ScoresFunctionTest, FilterAllAndExistsOverTheScores) {
  const std::string expr =
      "managedCluster.scores(\"resource-usage-score\").filter(s, s.name == "
      "\"gpuClusterAvailable\").all(e, e.value > 2)";
  EXPECT_EQ(Eval(expr, Cluster("c1"), UsageScores()), "true");
  EXPECT_EQ(Eval(expr, Cluster("c2"), UsageScores()), "false");
  EXPECT_EQ(Eval("managedCluster.scores('resource-usage-score').exists(s, s.value >= 40)",
                 Cluster("c1"), UsageScores()),
            "true");
  EXPECT_EQ(
      Eval("size(managedCluster.scores('resource-usage-score'))", Cluster("c2"), UsageScores()),
      "1");
}

TEST(ScoresFunctionTest, AMissingObjectIsAnErrorAsUpstream) {
  // Upstream's lister returns NotFound and the function returns that error, so even an
  // `all` over it does not pass vacuously.
  EXPECT_EQ(Eval("managedCluster.scores('resource-usage-score').all(s, true)", Cluster("c3"),
                 UsageScores()),
            "error: failed to get score: addonplacementscore.cluster.open-cluster-management.io "
            "\"resource-usage-score\" not found");
  EXPECT_EQ(Eval("managedCluster.scores('other').size()", Cluster("c1"), UsageScores()),
            "error: failed to get score: addonplacementscore.cluster.open-cluster-management.io "
            "\"other\" not found");
  // Without any index, every lookup misses the same way.
  ClusterCelLibrary library(nullptr);
  auto program = cel::Compile("managedCluster.scores('x')", library.environment());
  ASSERT_TRUE(program.has_value());
  ManagedClusterValue value;
  model::ManagedCluster c = Cluster("c1");
  value.Reset(c);
  cel::Activation activation(library.environment());
  activation.Bind(library.cluster_slot(), value.value());
  EXPECT_FALSE(program->Evaluate(activation).has_value());
}

TEST(ScoresFunctionTest, ValidUntilIsNotLookedAt) {
  std::vector<model::AddOnPlacementScore> scores = {
      Score("c1", "usage", {{"gpu", 5}}, T(10))};  // long expired
  EXPECT_EQ(Eval("managedCluster.scores('usage')[0].value", Cluster("c1"), scores), "5");
}

TEST(ScoresFunctionTest, TheNameComesFromTheReceiversMetadata) {
  // Any map with metadata.name works, as upstream reads the receiver, not a binding.
  EXPECT_EQ(Eval("{'metadata': {'name': 'c2'}}.scores('resource-usage-score')[0].value",
                 Cluster("c1"), UsageScores()),
            "1");
  EXPECT_EQ(Eval("{'spec': {}}.scores('resource-usage-score')", Cluster("c1"), UsageScores()),
            "error: failed to get cluster metadata");
  EXPECT_EQ(Eval("{'metadata': {}}.scores('resource-usage-score')", Cluster("c1"), UsageScores()),
            "error: failed to get cluster name");
}

TEST(ScoresFunctionTest, OnlyTheMemberFormWithAStringCompiles) {
  EXPECT_EQ(Eval("scores(managedCluster, 'x')", Cluster("c1")),
            "compile: ERROR: <input>:1:7: found no matching overload for 'scores' applied to "
            "'(dyn, string)'");
  EXPECT_EQ(Eval("managedCluster.scores(1)", Cluster("c1")),
            "compile: ERROR: <input>:1:22: found no matching overload for 'scores' applied to "
            "'dyn.(int)'");
  // The result is a list: list operations type-check against it.
  EXPECT_EQ(Eval("managedCluster.scores('x') + 1", Cluster("c1")),
            "compile: ERROR: <input>:1:28: found no matching overload for '_+_' applied to "
            "'(list(map(string, dyn)), int)'");
}

TEST(ManagedClusterValueTest, ExposesTheUnstructuredFields) {
  model::ManagedCluster c = Cluster("c1", {{"region", "eu"}});
  c.meta.annotations["note"] = "x";
  c.hub_accepts_client = true;
  c.taints.push_back({"gpu", "true", model::ClusterTaintEffect::kNoSelect, T(60)});
  c.taints.push_back({"maint", "", model::ClusterTaintEffect::kPreferNoSelect, std::nullopt});
  c.cluster_claims.push_back({"platform.open-cluster-management.io", "AWS"});
  c.allocatable["cpu"] = core::Quantity::Parse("1500m").value();
  c.capacity["nvidia.com/gpu"] = core::Quantity::Parse("8").value();
  c.kubernetes_version = "v1.31.2";
  EXPECT_EQ(Eval("managedCluster.apiVersion + '/' + managedCluster.kind", c),
            "\"cluster.open-cluster-management.io/v1/ManagedCluster\"");
  EXPECT_EQ(Eval("managedCluster.metadata.name + managedCluster.metadata.labels.region", c),
            "\"c1eu\"");
  EXPECT_EQ(Eval("managedCluster.metadata.annotations['note']", c), "\"x\"");
  EXPECT_EQ(Eval("managedCluster.spec.hubAcceptsClient", c), "true");
  EXPECT_EQ(Eval("managedCluster.spec.taints[0]", c),
            "{\"key\": \"gpu\", \"value\": \"true\", \"effect\": \"NoSelect\", "
            "\"timeAdded\": \"1970-01-01T00:01:00Z\"}");
  EXPECT_EQ(Eval("has(managedCluster.spec.taints[1].timeAdded)", c), "false");
  EXPECT_EQ(Eval("managedCluster.status.clusterClaims.exists(x, x.value == 'AWS')", c), "true");
  EXPECT_EQ(Eval("managedCluster.status.allocatable.cpu", c), "\"1500m\"");
  EXPECT_EQ(Eval("quantity(managedCluster.status.capacity['nvidia.com/gpu']).isGreaterThan("
                 "quantity('4'))",
                 c),
            "true");
  EXPECT_EQ(Eval("managedCluster.status.conditions[0].status", c), "\"True\"");
  EXPECT_EQ(Eval("managedCluster.status.version.kubernetes", c), "\"v1.31.2\"");
  EXPECT_EQ(Eval("managedCluster.metadata.labels.nosuch", c), "error: no such key: nosuch");
}

TEST(ManagedClusterValueTest, MapsIterateAndCompareLikeMaps) {
  model::ManagedCluster c = Cluster("c1", {{"a", "1"}, {"b", "2"}});
  EXPECT_EQ(Eval("managedCluster.metadata.labels.all(k, k in ['a', 'b'])", c), "true");
  EXPECT_EQ(Eval("managedCluster.metadata.labels == {'a': '1', 'b': '2'}", c), "true");
  EXPECT_EQ(Eval("size(managedCluster.status) == 5 && 'kind' in managedCluster", c), "true");
  EXPECT_EQ(Eval("managedCluster.spec.taints.size()", c), "0");
}

TEST(ManagedClusterValueTest, ResetRepointsAtTheNextCluster) {
  // One filter and one scratch over several clusters, as SchedulePlacement runs it.
  model::Placement p = MakePlacement("p");
  p.predicates.push_back(CelPredicate(
      {"managedCluster.status.clusterClaims.exists(c, c.name == 'gpu' && int(c.value) > 2)"}));
  ClusterFilter filter = ClusterFilter::Compile(p);
  PredicateScratch scratch = filter.NewScratch();
  std::vector<model::ManagedCluster> clusters;
  for (int i = 0; i < 6; ++i) {
    model::ManagedCluster c = Cluster(testing::Numbered("c", i));
    for (int k = 0; k < i; ++k) c.cluster_claims.push_back({"other", "x"});  // varying sizes
    c.cluster_claims.push_back({"gpu", std::to_string(i)});
    clusters.push_back(c);
  }
  std::string why;
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(filter.MatchPredicates(clusters[static_cast<size_t>(i)], scratch, &why), i > 2) << i;
  }
  EXPECT_EQ(why, "");  // the last one matched
  EXPECT_FALSE(filter.MatchPredicates(clusters[0], scratch, &why));
  EXPECT_EQ(why, "predicates[0]: celExpressions[0] is false");
}

TEST(AddOnScoreIndexTest, FindsByNamespaceAndNameFirstOneWins) {
  std::vector<model::AddOnPlacementScore> scores;
  for (int i = 0; i < 300; ++i) {
    scores.push_back(Score(testing::Numbered("cluster-", i), "usage", {{"gpu", i % 100}}));
    scores.push_back(Score(testing::Numbered("cluster-", i), "other", {}));
  }
  scores.push_back(Score("cluster-7", "usage", {{"gpu", 99}}));  // a duplicate: ignored
  AddOnScoreIndex index(scores);
  EXPECT_EQ(index.size(), 600u);
  for (int i = 0; i < 300; ++i) {
    const model::AddOnPlacementScore* s = index.Find(testing::Numbered("cluster-", i), "usage");
    ASSERT_NE(s, nullptr) << i;
    EXPECT_EQ(s->scores[0].value, i % 100);
    EXPECT_NE(index.Find(testing::Numbered("cluster-", i), "other"), nullptr);
  }
  EXPECT_EQ(index.Find("cluster-300", "usage"), nullptr);
  EXPECT_EQ(index.Find("cluster-1", "usag"), nullptr);
  EXPECT_EQ(index.Find("cluster-", "1usage"), nullptr);  // keys do not run together
  ASSERT_NE(index.CelScores("cluster-7", "usage"), nullptr);
  EXPECT_EQ(index.CelScores("cluster-7", "usage")->Size(), 1u);
  EXPECT_EQ(index.CelScores("cluster-7", "other")->Size(), 0u);
  EXPECT_EQ(index.CelScores("nowhere", "usage"), nullptr);
  EXPECT_EQ(AddOnScoreIndex(std::vector<model::AddOnPlacementScore>{}).Find("a", "b"), nullptr);
}

TEST(ScoresPredicateTest, SchedulePlacementSelectsByScores) {
  model::Snapshot snap = GlobalHub({Cluster("c1"), Cluster("c2"), Cluster("c3")});
  snap.addon_placement_scores = UsageScores();  // c3 has none
  model::Placement p = MakePlacement("p");
  p.predicates.push_back(
      CelPredicate({"managedCluster.scores(\"resource-usage-score\").filter(s, s.name == "
                    "\"gpuClusterAvailable\").all(e, e.value > 2)"}));
  PlacementOutcome out = SchedulePlacement(snap, p, T(0));
  EXPECT_EQ(out.selected, std::vector<std::string>{"c1"});
  ASSERT_EQ(out.clusters.size(), 3u);
  EXPECT_EQ(out.RejectionOf(out.clusters[1])->message, "predicates[0]: celExpressions[0] is false");
  EXPECT_EQ(out.RejectionOf(out.clusters[2])->message,
            "predicates[0]: celExpressions[0] failed: failed to get score: "
            "addonplacementscore.cluster.open-cluster-management.io \"resource-usage-score\" not "
            "found");
  // The caller's prebuilt index gives the same answer.
  AddOnScoreIndex index(snap.addon_placement_scores);
  ScheduleOptions options;
  options.addon_scores = &index;
  EXPECT_EQ(SchedulePlacement(snap, p, T(0), options).selected, out.selected);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::placement
