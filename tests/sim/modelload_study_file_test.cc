// sim/modelload/study_file.h: a ModelLoadStudy file read field by field, and every bad input
// an InvalidArgument naming the file, the study and the field.
#include <gtest/gtest.h>

#include <string>

#include "sim/modelload/study_file.h"

namespace berth::sim::modelload {
namespace BERTH_UNITY_ID {

constexpr const char* kHead = R"(apiVersion: berth.dev/v1alpha1
kind: ModelLoadStudy
metadata: {name: s}
spec:
  fleet: fleet.yaml
  inferenceService: serve/llm
)";

core::Result<ModelLoadStudy> ParseTail(const std::string& spec_tail) {
  return ParseModelLoadStudy(std::string(kHead) + spec_tail, "dir/study.yaml");
}

// The error's field, and that it names the file and the study.
std::string FieldOf(const core::Result<ModelLoadStudy>& r) {
  EXPECT_FALSE(r.has_value());
  if (r.has_value()) return "";
  EXPECT_EQ(r.error().code(), core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().location().file, "dir/study.yaml");
  return r.error().location().field;
}

TEST(ModelLoadStudyFileTest, ReadsEveryField) {
  auto r = ParseTail(R"(  replicas: 64
  origin: {egressGBps: 4, streamGBps: 0.5}
  strategies:
  - name: a
    maxOriginPulls: 8
    maxOriginPullsPerCluster: 2
    p2p: true
    fleetCache: false
    warmNodes: 25%
    warmUp: {seedNodes: 3}
    origin: {egressGBps: 1.5}
  - name: b
    warmNodes: 5
)");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->name, "s");
  EXPECT_EQ(r->fleet, "dir/fleet.yaml");  // relative to the file
  EXPECT_EQ(r->inference_service, "serve/llm");
  EXPECT_EQ(r->replicas, 64);
  EXPECT_DOUBLE_EQ(r->origin.egress_gbps, 4);
  EXPECT_DOUBLE_EQ(r->origin.stream_gbps, 0.5);
  ASSERT_EQ(r->strategies.size(), 2u);
  const StudyStrategy& a = r->strategies[0];
  EXPECT_EQ(a.name, "a");
  EXPECT_EQ(a.max_origin_pulls, 8);
  EXPECT_EQ(a.max_origin_pulls_per_cluster, 2);
  EXPECT_TRUE(a.p2p);
  EXPECT_FALSE(a.fleet_cache);
  ASSERT_TRUE(a.warm_percent.has_value());
  EXPECT_DOUBLE_EQ(*a.warm_percent, 25);
  EXPECT_EQ(a.warmup_seed_nodes, 3);
  EXPECT_DOUBLE_EQ(a.origin.egress_gbps, 1.5);
  EXPECT_DOUBLE_EQ(a.origin.stream_gbps, 0);
  const StudyStrategy& b = r->strategies[1];
  EXPECT_EQ(b.warm_nodes, 5);
  EXPECT_FALSE(b.warm_percent.has_value());
  EXPECT_EQ(b.max_origin_pulls, 0);
  EXPECT_FALSE(b.p2p);
  EXPECT_TRUE(b.fleet_cache);
}

TEST(ModelLoadStudyFileTest, NameDefaultsToTheFileStemAndReplicasToTheService) {
  auto r = ParseModelLoadStudy(R"(kind: ModelLoadStudy
spec: {fleet: f, inferenceService: x, strategies: [{name: a}]}
)",
                               "/abs/storm.yaml");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_EQ(r->name, "storm");
  EXPECT_EQ(r->fleet, "/abs/f");
  EXPECT_FALSE(r->replicas.has_value());
}

TEST(ModelLoadStudyFileTest, UnknownStrategyKeyNamesTheField) {
  auto r = ParseTail("  strategies:\n  - name: a\n    maxOriginPull: 4\n");
  EXPECT_EQ(FieldOf(r), "spec.strategies[0].maxOriginPull");
  EXPECT_EQ(r.error().location().object, "ModelLoadStudy/s");
}

TEST(ModelLoadStudyFileTest, RefusesNegativeLimits) {
  EXPECT_EQ(FieldOf(ParseTail("  strategies: [{name: a, maxOriginPulls: -1}]\n")),
            "spec.strategies[0].maxOriginPulls");
  EXPECT_EQ(FieldOf(ParseTail("  strategies: [{name: a, maxOriginPullsPerCluster: -2}]\n")),
            "spec.strategies[0].maxOriginPullsPerCluster");
}

TEST(ModelLoadStudyFileTest, RefusesMissingFields) {
  auto no_isvc = ParseModelLoadStudy(R"(kind: ModelLoadStudy
spec: {fleet: f, strategies: [{name: a}]}
)",
                                     "dir/study.yaml");
  EXPECT_EQ(FieldOf(no_isvc), "spec.inferenceService");
  auto no_fleet = ParseModelLoadStudy(R"(kind: ModelLoadStudy
spec: {inferenceService: x, strategies: [{name: a}]}
)",
                                      "dir/study.yaml");
  EXPECT_EQ(FieldOf(no_fleet), "spec.fleet");
  EXPECT_EQ(FieldOf(ParseTail("")), "spec.strategies");
  EXPECT_EQ(FieldOf(ParseTail("  strategies: [{maxOriginPulls: 1}]\n")), "spec.strategies[0].name");
}

TEST(ModelLoadStudyFileTest, RefusesReplicaCountsOutOfRange) {
  // kMaxStudyReplicas is 10000: one more is refused, and so is a count beyond int32.
  EXPECT_TRUE(ParseTail("  replicas: 10000\n  strategies: [{name: a}]\n").has_value());
  EXPECT_EQ(FieldOf(ParseTail("  replicas: 10001\n  strategies: [{name: a}]\n")), "spec.replicas");
  EXPECT_EQ(FieldOf(ParseTail("  replicas: 99999999999\n  strategies: [{name: a}]\n")),
            "spec.replicas");
  EXPECT_EQ(FieldOf(ParseTail("  replicas: 0\n  strategies: [{name: a}]\n")), "spec.replicas");
}

TEST(ModelLoadStudyFileTest, RefusesBadValues) {
  EXPECT_EQ(FieldOf(ParseTail("  strategies: [{name: a}, {name: a}]\n")),
            "spec.strategies[1].name");
  EXPECT_EQ(FieldOf(ParseTail("  strategies: [{name: a, warmNodes: 120%}]\n")),
            "spec.strategies[0].warmNodes");
  EXPECT_EQ(FieldOf(ParseTail("  strategies: [{name: a, warmNodes: many}]\n")),
            "spec.strategies[0].warmNodes");
  EXPECT_EQ(FieldOf(ParseTail("  strategies: [{name: a, p2p: yes}]\n")), "spec.strategies[0].p2p");
  EXPECT_EQ(FieldOf(ParseTail("  strategies: [{name: a, warmUp: {seedNodes: 0}}]\n")),
            "spec.strategies[0].warmUp.seedNodes");
  EXPECT_EQ(FieldOf(ParseTail("  strategies: [{name: a, origin: {egressGBps: 0}}]\n")),
            "spec.strategies[0].origin.egressGBps");
  EXPECT_EQ(FieldOf(ParseTail("  origin: {egress: 4}\n  strategies: [{name: a}]\n")),
            "spec.origin.egress");
  EXPECT_EQ(FieldOf(ParseTail("  trace: t.csv\n  strategies: [{name: a}]\n")), "spec.trace");
  auto wrong_kind = ParseModelLoadStudy("kind: SimulationScenario\nspec: {}\n", "dir/study.yaml");
  EXPECT_EQ(FieldOf(wrong_kind), "kind");
}

TEST(ModelLoadStudyFileTest, TellsAStudyFromOtherFiles) {
  EXPECT_TRUE(IsModelLoadStudy("kind: ModelLoadStudy\n"));
  EXPECT_FALSE(IsModelLoadStudy("kind: SimulationScenario\n"));
  EXPECT_FALSE(IsModelLoadStudy("submit,duration\n1,2\n"));
  EXPECT_FALSE(IsModelLoadStudy("{unclosed"));
}

TEST(ModelLoadStudyFileTest, MissingFileIsNotFound) {
  auto r = ReadModelLoadStudyFile("/nonexistent/study.yaml");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), core::ErrorCode::kNotFound);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim::modelload
