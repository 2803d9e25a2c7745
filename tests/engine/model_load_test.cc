// engine/model_load.h: the snapshot's nodes as the data module's topology and copies, the
// model's cache name and artifact, and `explain isvc/NAME`'s fetch schedule on the plan's
// nodes (times hand-computed from docs/data.md's default table).
#include "engine/model_load.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/test_util.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

constexpr const char* kCluster = R"(
apiVersion: v1
kind: Node
metadata:
  name: a
  labels: {topology.kubernetes.io/region: eu-west-1, models.cache.berth.dev/llama: "true"}
status: {allocatable: {cpu: "8", memory: 32Gi, nvidia.com/gpu: "1", pods: "10"}}
---
apiVersion: v1
kind: Node
metadata:
  name: b
  labels: {topology.kubernetes.io/region: eu-west-1, models.cache.berth.dev/other: "false"}
status: {allocatable: {cpu: "8", memory: 32Gi, nvidia.com/gpu: "1", pods: "10"}}
---
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: chat
  namespace: serve
  annotations: {berth.dev/model-size: "3000000000", berth.dev/model-region: eu-west-1,
                berth.dev/models: llama}
spec:
  predictor:
    minReplicas: 2
    model:
      modelFormat: {name: huggingface}
      storageUri: s3://models/Llama-3/
      resources: {requests: {cpu: "1", nvidia.com/gpu: "1"}, limits: {nvidia.com/gpu: "1"}}
)";

TEST(ModelLoadTest, NodesBecomeTopologyAndCacheLabelsCopies) {
  const model::Snapshot snap = testing::ReadCleanYaml(kCluster);
  DataInputs in = BuildDataInputs(snap);
  ASSERT_EQ(in.topology.clusters.size(), 1u);
  EXPECT_EQ(in.topology.clusters[0].name, "default");
  EXPECT_EQ(in.topology.clusters[0].region, "eu-west-1");
  ASSERT_EQ(in.topology.nodes.size(), 2u);
  // Only a label set to "true" is a copy.
  ASSERT_EQ(in.copies.nodes.size(), 1u);
  EXPECT_EQ(in.copies.nodes[0].node, "a");
  EXPECT_EQ(in.copies.nodes[0].artifact, "model/llama");
  EXPECT_TRUE(in.copies.nodes[0].complete);
}

TEST(ModelLoadTest, UnknownSizeIsNoArtifact) {
  model::InferenceServiceModel m;
  auto a = ArtifactOf(m);
  ASSERT_FALSE(a.has_value());
  EXPECT_NE(a.error().message().find("berth.dev/model-size"), std::string::npos);
}

TEST(ModelLoadTest, DataRegionsBecomeTheArtifactsAllowedRegions) {
  model::InferenceServiceModel m;
  m.meta.namespace_ = "serve";
  m.meta.name = "chat";
  m.size_bytes = 1000;
  m.meta.annotations["berth.dev/models"] = "llama=16Gi";  // the cache name drops the size
  m.meta.annotations["berth.dev/data-regions"] = "eu-west-1, eu-central-1";
  auto a = ArtifactOf(m);
  ASSERT_TRUE(a.has_value()) << a.error().ToString();
  EXPECT_EQ(a->id, "model/llama");
  EXPECT_EQ(a->allowed_regions, (std::vector<std::string>{"eu-west-1", "eu-central-1"}));
  m.meta.annotations["berth.dev/data-regions"] = "eu-west-1,";
  a = ArtifactOf(m);
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().code(), core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(a.error().location().object, "InferenceService/serve/chat");
  EXPECT_EQ(a.error().location().field, "metadata.annotations[berth.dev/data-regions]");
  EXPECT_NE(a.error().message().find("entry 2 is empty"), std::string::npos);
}

TEST(ModelLoadTest, ExplainMarksNodesOutsideTheDataRegionsForbidden) {
  model::Snapshot snap = testing::ReadCleanYaml(kCluster);
  for (model::InferenceServiceModel& m : snap.inference_services) {
    m.meta.annotations["berth.dev/data-regions"] = "us-east-1";
  }
  auto e = ExplainInferenceService(std::move(snap), "serve/chat", PlanOptions{});
  ASSERT_TRUE(e.has_value()) << e.error().ToString();
  ASSERT_EQ(e->load.loads.size(), 2u) << e->load.no_schedule;
  for (const ReplicaLoad& l : e->load.loads) {
    EXPECT_EQ(l.forbidden,
              "residency: artifact model/llama may only be in regions [us-east-1]; node " +
                  l.node + " is in region 'eu-west-1'");
  }
}

TEST(ModelLoadTest, ExplainSchedulesTheModelToThePlannedNodes) {
  auto e = ExplainInferenceService(testing::ReadCleanYaml(kCluster), "serve/chat", PlanOptions{});
  ASSERT_TRUE(e.has_value()) << e.error().ToString();
  ASSERT_EQ(e->load.pods.size(), 2u);
  ASSERT_EQ(e->load.loads.size(), 2u) << e->load.no_schedule;
  EXPECT_EQ(e->load.max_origin_pulls, 4);
  // Node a holds the model: 3e9 bytes / 3e9 B/s disk + 3e9 / 25e9 B/s to the GPU = 1.12 s.
  // Node b pulls it from the origin in its region: 3e9 / 0.3e9 B/s + 0.12 s = 10.12 s.
  for (const ReplicaLoad& l : e->load.loads) {
    if (l.node == "a") {
      EXPECT_EQ(l.source, "node cache");
      EXPECT_NEAR(l.end_s, 1.12, 1e-6);
      EXPECT_EQ(l.origin_bytes, 0);
    } else {
      EXPECT_EQ(l.source, "origin (same region)");
      EXPECT_NEAR(l.end_s, 10.12, 1e-6);
      EXPECT_EQ(l.origin_bytes, 3000000000);
    }
  }
  EXPECT_NEAR(e->load.all_ready_s, 10.12, 1e-6);
  EXPECT_EQ(e->load.origin_bytes, 3000000000);
  EXPECT_EQ(e->load.peak_origin_pulls, 1);
}

TEST(ModelLoadTest, BandwidthLabelsAndOriginAnnotationsOverrideTheDefaults) {
  std::string yaml = kCluster;
  // Node b: a 25 GB/s NIC and a bad disk label (ignored with a warning); the origin serves
  // one pull at 1 GB/s.
  yaml.replace(yaml.find("models.cache.berth.dev/other: \"false\""),
               std::string("models.cache.berth.dev/other: \"false\"").size(),
               "bandwidth.berth.dev/nic: 25G, bandwidth.berth.dev/disk-read: fast");
  yaml.replace(yaml.find("berth.dev/models: llama}"), std::string("berth.dev/models: llama}").size(),
               "berth.dev/models: llama, berth.dev/origin-stream-bandwidth: 1G}");
  const model::Snapshot snap = testing::ReadCleanYaml(yaml);
  DataInputs in = BuildDataInputs(snap);
  ASSERT_EQ(in.topology.nodes.size(), 2u);
  EXPECT_EQ(in.topology.nodes[1].nic_bytes_per_s, 25e9);
  EXPECT_EQ(in.topology.nodes[1].disk_read_bytes_per_s, 0);  // the default
  ASSERT_EQ(in.warnings.size(), 1u);
  EXPECT_NE(in.warnings[0].find("bandwidth.berth.dev/disk-read"), std::string::npos);
  auto e = ExplainInferenceService(testing::ReadCleanYaml(yaml), "serve/chat", PlanOptions{});
  ASSERT_TRUE(e.has_value()) << e.error().ToString();
  EXPECT_EQ(e->load.warnings.size(), 1u);
  // Node b pulls at min(1 GB/s origin stream, 25 GB/s NIC): 3e9 / 1e9 + 0.12 s = 3.12 s.
  for (const ReplicaLoad& l : e->load.loads) {
    if (l.node == "b") EXPECT_NEAR(l.end_s, 3.12, 1e-6);
  }
}

TEST(ModelLoadTest, UnknownServiceIsNotFound) {
  auto e = ExplainInferenceService(testing::ReadCleanYaml(kCluster), "serve/none", PlanOptions{});
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().code(), core::ErrorCode::kNotFound);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
