// Decoding of the Open Cluster Management hub kinds (cluster.open-cluster-management.io) and
// the errors that name the field of a bad object.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::Dump;
using ::testing::HasSubstr;
using testing::ReadString;

constexpr const char* kHub = R"(
apiVersion: cluster.open-cluster-management.io/v1
kind: ManagedCluster
metadata:
  name: eu-1
  labels: {region: eu, cluster.open-cluster-management.io/clusterset: gpu}
spec:
  hubAcceptsClient: true
  taints:
  - {key: maintenance, value: "yes", effect: NoSelectIfNew, timeAdded: "2026-01-01T00:00:00Z"}
status:
  clusterClaims: [{name: platform.open-cluster-management.io, value: AWS}]
  capacity: {cpu: "64", memory: 256Gi, nvidia.com/gpu: 8}
  allocatable: {cpu: 60500m, memory: 250Gi}
  conditions:
  - {type: ManagedClusterConditionAvailable, status: "True", reason: Ok,
     lastTransitionTime: "2026-01-01T00:00:00Z"}
  version: {kubernetes: v1.31.0}
---
apiVersion: cluster.open-cluster-management.io/v1alpha1
kind: ClusterClaim
metadata: {name: region.example.com}
spec: {value: eu-west-1}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSet
metadata: {name: gpu}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSet
metadata: {name: eu}
spec:
  clusterSelector:
    selectorType: LabelSelector
    labelSelector: {matchLabels: {region: eu}}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSetBinding
metadata: {name: gpu, namespace: ml}
spec: {clusterSet: gpu}
---
apiVersion: cluster.open-cluster-management.io/v1alpha1
kind: AddOnPlacementScore
metadata: {name: resource-usage-score, namespace: eu-1}
status:
  scores: [{name: gpuClusterAvailable, value: 40}]
  validUntil: "2026-01-02T00:00:00Z"
---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: PlacementDecision
metadata:
  name: train-decision-1
  namespace: ml
  labels: {cluster.open-cluster-management.io/placement: train}
status:
  decisions: [{clusterName: eu-1, reason: ""}]
---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: train, namespace: ml}
spec:
  clusterSets: [gpu]
  numberOfClusters: 2
  predicates:
  - requiredClusterSelector:
      labelSelector: {matchExpressions: [{key: region, operator: In, values: [eu, us]}]}
      claimSelector: {matchExpressions: [{key: platform.open-cluster-management.io, operator: Exists}]}
      celSelector: {celExpressions: ["managedCluster.metadata.name != 'x'"]}
  prioritizerPolicy:
    mode: Exact
    configurations:
    - {scoreCoordinate: {builtIn: ResourceAllocatableCPU}, weight: 2}
    - scoreCoordinate: {type: AddOn, addOn: {resourceName: resource-usage-score, scoreName: gpuClusterAvailable}}
      weight: -1
  spreadPolicy:
    spreadConstraints: [{topologyKey: region, topologyKeyType: Label, maxSkew: 2, whenUnsatisfiable: DoNotSchedule}]
  tolerations:
  - {key: cluster.open-cluster-management.io/unreachable, operator: Exists, tolerationSeconds: 300}
  decisionStrategy:
    groupStrategy:
      clustersPerDecisionGroup: 25%
      decisionGroups:
      - groupName: canary
        groupClusterSelector: {labelSelector: {matchLabels: {canary: "true"}}}
)";

TEST(OcmReaderTest, DecodesEveryHubKind) {
  core::Diagnostics diags;
  Input in = ReadString(kHub, diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  const model::Snapshot& snap = in.snapshot;

  ASSERT_EQ(snap.managed_clusters.size(), 1u);
  const model::ManagedCluster& mc = snap.managed_clusters[0];
  EXPECT_EQ(mc.meta.name, "eu-1");
  EXPECT_TRUE(mc.meta.namespace_.empty());
  EXPECT_TRUE(mc.hub_accepts_client);
  ASSERT_EQ(mc.taints.size(), 1u);
  EXPECT_EQ(mc.taints[0].effect, model::ClusterTaintEffect::kNoSelectIfNew);
  ASSERT_TRUE(mc.taints[0].time_added.has_value());
  EXPECT_EQ(mc.taints[0].time_added->ToString(), "2026-01-01T00:00:00Z");
  ASSERT_EQ(mc.cluster_claims.size(), 1u);
  EXPECT_EQ(mc.cluster_claims[0].value, "AWS");
  EXPECT_EQ(mc.capacity.at("nvidia.com/gpu").ToString(), "8");
  EXPECT_EQ(mc.allocatable.at("cpu").ToString(), "60500m");
  const model::Condition* available = mc.FindCondition(model::kConditionClusterAvailable);
  ASSERT_NE(available, nullptr);
  EXPECT_EQ(available->status, model::ConditionStatus::kTrue);
  EXPECT_EQ(mc.kubernetes_version, "v1.31.0");
  EXPECT_EQ(mc.cluster, "default");
  EXPECT_TRUE(mc.source.valid());

  ASSERT_EQ(snap.cluster_claims.size(), 1u);
  EXPECT_EQ(snap.cluster_claims[0].value, "eu-west-1");

  ASSERT_EQ(snap.managed_cluster_sets.size(), 2u);
  EXPECT_EQ(snap.managed_cluster_sets[0].selector_type,
            model::ClusterSetSelectorType::kExclusiveClusterSetLabel);
  EXPECT_EQ(snap.managed_cluster_sets[1].selector_type,
            model::ClusterSetSelectorType::kLabelSelector);
  EXPECT_EQ(snap.managed_cluster_sets[1].label_selector.match_labels.at("region"), "eu");

  ASSERT_EQ(snap.managed_cluster_set_bindings.size(), 1u);
  EXPECT_EQ(snap.managed_cluster_set_bindings[0].meta.namespace_, "ml");
  EXPECT_EQ(snap.managed_cluster_set_bindings[0].cluster_set, "gpu");

  ASSERT_EQ(snap.addon_placement_scores.size(), 1u);
  EXPECT_EQ(snap.addon_placement_scores[0].meta.namespace_, "eu-1");
  ASSERT_EQ(snap.addon_placement_scores[0].scores.size(), 1u);
  EXPECT_EQ(snap.addon_placement_scores[0].scores[0].value, 40);
  ASSERT_TRUE(snap.addon_placement_scores[0].valid_until.has_value());

  ASSERT_EQ(snap.placement_decisions.size(), 1u);
  EXPECT_EQ(snap.placement_decisions[0].decisions[0].cluster_name, "eu-1");

  ASSERT_EQ(snap.placements.size(), 1u);
  const model::Placement& p = snap.placements[0];
  EXPECT_EQ(p.cluster_sets, std::vector<std::string>{"gpu"});
  EXPECT_EQ(p.number_of_clusters, 2);
  ASSERT_EQ(p.predicates.size(), 1u);
  ASSERT_TRUE(p.predicates[0].label_selector.has_value());
  ASSERT_TRUE(p.predicates[0].claim_selector.has_value());
  EXPECT_EQ(p.predicates[0].claim_selector->match_expressions[0].op, core::SelectorOp::kExists);
  EXPECT_EQ(p.predicates[0].cel_expressions.size(), 1u);
  EXPECT_EQ(p.prioritizer_policy.mode, model::PrioritizerMode::kExact);
  ASSERT_EQ(p.prioritizer_policy.configurations.size(), 2u);
  EXPECT_EQ(p.prioritizer_policy.configurations[0].score_coordinate->built_in,
            "ResourceAllocatableCPU");
  EXPECT_EQ(p.prioritizer_policy.configurations[0].weight, 2);
  EXPECT_EQ(p.prioritizer_policy.configurations[1].score_coordinate->type,
            model::ScoreCoordinateType::kAddOn);
  EXPECT_EQ(p.prioritizer_policy.configurations[1].score_coordinate->addon_score_name,
            "gpuClusterAvailable");
  EXPECT_EQ(p.prioritizer_policy.configurations[1].weight, -1);
  ASSERT_EQ(p.spread_constraints.size(), 1u);
  EXPECT_EQ(p.spread_constraints[0].max_skew, 2);
  EXPECT_EQ(p.spread_constraints[0].when_unsatisfiable, model::WhenUnsatisfiable::kDoNotSchedule);
  ASSERT_EQ(p.tolerations.size(), 1u);
  EXPECT_EQ(p.tolerations[0].op, model::PlacementTolerationOp::kExists);
  EXPECT_EQ(p.tolerations[0].toleration_seconds, 300);
  EXPECT_FALSE(p.tolerations[0].effect.has_value());
  EXPECT_TRUE(p.group_strategy.clusters_per_decision_group.is_string);
  EXPECT_EQ(p.group_strategy.clusters_per_decision_group.text, "25%");
  ASSERT_EQ(p.group_strategy.decision_groups.size(), 1u);
  EXPECT_EQ(p.group_strategy.decision_groups[0].group_name, "canary");
}

TEST(OcmReaderTest, DefaultsAnEmptyPlacement) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: all}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  ASSERT_EQ(in.snapshot.placements.size(), 1u);
  const model::Placement& p = in.snapshot.placements[0];
  EXPECT_EQ(p.meta.namespace_, "default");
  EXPECT_FALSE(p.number_of_clusters.has_value());
  EXPECT_EQ(p.prioritizer_policy.mode, model::PrioritizerMode::kAdditive);
  EXPECT_TRUE(p.group_strategy.clusters_per_decision_group.is_string);
  EXPECT_EQ(p.group_strategy.clusters_per_decision_group.text, "100%");
}

TEST(OcmReaderTest, KeepsUnknownModeAndIntClustersPerGroupForTheScheduler) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: p, namespace: ns}
spec:
  prioritizerPolicy: {mode: Sometimes}
  decisionStrategy: {groupStrategy: {clustersPerDecisionGroup: 3}}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  const model::Placement& p = in.snapshot.placements.at(0);
  EXPECT_EQ(p.prioritizer_policy.mode, model::PrioritizerMode::kOther);
  EXPECT_EQ(p.prioritizer_policy.mode_text, "Sometimes");
  EXPECT_FALSE(p.group_strategy.clusters_per_decision_group.is_string);
  EXPECT_EQ(p.group_strategy.clusters_per_decision_group.int_value, 3);
}

struct BadCase {
  const char* yaml;
  const char* field;
  const char* message;
};

TEST(OcmReaderTest, ReportsTheFieldOfABadObject) {
  const BadCase cases[] = {
      {"apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\n"
       "metadata: {name: c}\nspec: {taints: [{key: k, effect: NoSchedule}]}\n",
       "spec.taints[0].effect", "unsupported value \"NoSchedule\""},
      {"apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\n"
       "metadata: {name: c}\nstatus: {allocatable: {cpu: lots}}\n",
       "status.allocatable.cpu", ""},
      {"apiVersion: cluster.open-cluster-management.io/v1alpha1\nkind: ClusterClaim\n"
       "metadata: {name: c}\nspec: {}\n",
       "spec.value", "Required value"},
      {"apiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSetBinding\n"
       "metadata: {name: a, namespace: n}\nspec: {clusterSet: b}\n",
       "spec.clusterSet", "must match"},
      {"apiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSet\n"
       "metadata: {name: s}\nspec: {clusterSelector: {selectorType: Magic}}\n",
       "spec.clusterSelector.selectorType", "unsupported value"},
      {"apiVersion: cluster.open-cluster-management.io/v1alpha1\nkind: AddOnPlacementScore\n"
       "metadata: {name: s, namespace: c}\nstatus: {scores: [{name: x, value: 101}]}\n",
       "status.scores[0].value", "between -100 and 100"},
      {"apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\n"
       "metadata: {name: p}\nspec: {prioritizerPolicy: {configurations: [{weight: 11}]}}\n",
       "spec.prioritizerPolicy.configurations[0].weight", "between -10 and 10"},
      {"apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\n"
       "metadata: {name: p}\nspec: {numberOfClusters: -1}\n",
       "spec.numberOfClusters", "greater than or equal to 0"},
      {"apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\n"
       "metadata: {name: p}\nspec: {tolerations: [{key: k, operator: Maybe}]}\n",
       "spec.tolerations[0].operator", "unsupported value"},
      {"apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\n"
       "metadata: {name: p}\nspec: {predicates: [{requiredClusterSelector: "
       "{claimSelector: {matchExpressions: [{key: k, operator: In}]}}}]}\n",
       "spec.predicates[0].requiredClusterSelector.claimSelector.matchExpressions[0].values", ""},
      {"apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\n"
       "metadata: {name: p}\nspec: {spreadPolicy: {spreadConstraints: [{topologyKey: z, "
       "topologyKeyType: Label, maxSkew: 0}]}}\n",
       "spec.spreadPolicy.spreadConstraints[0].maxSkew", "greater than or equal to 1"},
      {"apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: PlacementDecision\n"
       "metadata: {name: d}\nstatus: {decisions: [{reason: r}]}\n",
       "status.decisions[0].clusterName", "Required value"},
  };
  for (const BadCase& c : cases) {
    core::Diagnostics diags;
    Input in = ReadString(c.yaml, diags);
    ASSERT_EQ(diags.error_count(), 1u) << c.yaml << Dump(diags);
    const core::Error& error = diags.entries()[0].error;
    EXPECT_EQ(error.location().field, c.field) << c.yaml;
    EXPECT_THAT(error.message(), HasSubstr(c.message)) << c.yaml;
    EXPECT_TRUE(in.snapshot.placements.empty());
    EXPECT_TRUE(in.snapshot.managed_clusters.empty());
  }
}

TEST(OcmReaderTest, IgnoresVersionsBerthDoesNotRead) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: cluster.open-cluster-management.io/v1alpha1
kind: Placement
metadata: {name: old}
)",
                        diags);
  EXPECT_FALSE(diags.has_errors()) << Dump(diags);
  EXPECT_TRUE(in.snapshot.placements.empty());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
