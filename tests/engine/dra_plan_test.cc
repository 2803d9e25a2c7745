// RunPlan with ResourceClaims: allocations and consumers written into the planned claims,
// the changed claims listed for the writer, claims of each member cluster allocated from
// that cluster's devices only, and the allocator's diagnostics reported once.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/plan.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* kDriver = "gpu.example.com";

model::Node Node(const std::string& name, const std::string& cluster = "default") {
  model::Node node;
  node.meta.name = name;
  node.allocatable.Set(model::kCpu, 8000);
  node.allocatable.Set(model::kMemory, int64_t{32} << 30);
  node.allocatable.Set(model::kPods, 110);
  node.capacity = node.allocatable;
  node.cluster = cluster;
  return node;
}

model::Pod Pod(const std::string& name, const std::string& claim, int64_t created,
               const std::string& cluster = "default") {
  model::Pod pod;
  pod.meta.name = name;
  pod.meta.namespace_ = "default";
  pod.meta.creation_timestamp.unix_s = created;
  model::Container c;
  c.name = "main";
  c.requests.Set(model::kCpu, 100);
  pod.containers.push_back(c);
  pod.resource_claims.push_back(model::PodResourceClaim{"gpu", claim, ""});
  pod.cluster = cluster;
  return pod;
}

model::ResourceSlice Slice(const std::string& node, int devices,
                           const std::string& cluster = "default") {
  model::ResourceSlice s;
  s.meta.name = node + "-" + cluster;
  s.driver = kDriver;
  s.pool_name = node + "-" + cluster;
  s.node_name = node;
  s.cluster = cluster;
  for (int i = 0; i < devices; ++i) {
    model::Device d;
    d.name = "gpu-" + std::to_string(i);
    s.devices.push_back(d);
  }
  return s;
}

model::ResourceClaim Claim(const std::string& name, const std::string& cluster = "default") {
  model::ResourceClaim c;
  c.meta.name = name;
  c.meta.namespace_ = "default";
  model::DeviceRequest r;
  r.name = "gpu";
  r.exactly.emplace();
  r.exactly->device_class_name = "gpu";
  c.spec.requests.push_back(r);
  c.cluster = cluster;
  return c;
}

model::DeviceClass Class(const std::string& name, const std::string& expression) {
  model::DeviceClass c;
  c.meta.name = name;
  c.selectors.push_back({expression});
  return c;
}

TEST(RunPlanClaimsTest, WritesAllocationsAndConsumers) {
  model::Snapshot s;
  s.nodes = {Node("n1"), Node("n2")};
  s.resource_slices = {Slice("n2", 1)};
  s.device_classes = {Class("gpu", "device.driver == \"gpu.example.com\"")};
  s.resource_claims = {Claim("shared"), Claim("own")};
  s.pods = {Pod("a", "shared", 1), Pod("b", "shared", 2), Pod("c", "own", 3)};

  const Plan plan = RunPlan(s, {});
  EXPECT_TRUE(plan.diagnostics.entries().empty());
  ASSERT_EQ(plan.pod_decisions.size(), 3u);
  EXPECT_EQ(plan.planned.pods[0].node_name, "n2");
  EXPECT_EQ(plan.planned.pods[1].node_name, "n2");
  EXPECT_EQ(plan.planned.pods[2].node_name, "");
  EXPECT_EQ(plan.pod_decisions[2].message,
            "0/2 nodes are available: 2 cannot allocate all claims. preemption: 0/2 nodes are "
            "available: 2 Preemption is not helpful for scheduling.");
  EXPECT_THAT(plan.changed_claims, ElementsAre(0));
  const model::ResourceClaim& shared = plan.planned.resource_claims[0];
  ASSERT_TRUE(shared.allocation.has_value());
  ASSERT_EQ(shared.allocation->results.size(), 1u);
  EXPECT_EQ(shared.allocation->results[0].pool, "n2-default");
  EXPECT_EQ(shared.allocation->results[0].device, "gpu-0");
  EXPECT_THAT(shared.reserved_for, ElementsAre("a", "b"));
  EXPECT_FALSE(plan.planned.resource_claims[1].allocation.has_value());
  // The input is left as it was.
  EXPECT_FALSE(s.resource_claims[0].allocation.has_value());
}

TEST(RunPlanClaimsTest, EachClusterAllocatesFromItsOwnDevices) {
  model::Snapshot s;
  s.nodes = {Node("n1", "east"), Node("n1", "west")};
  // Slices listed west first, claims east first: indices differ between the parts.
  s.resource_slices = {Slice("n1", 1, "west"), Slice("n1", 1, "east")};
  s.device_classes = {Class("gpu", "device.driver == \"gpu.example.com\"")};
  s.resource_claims = {Claim("c", "east"), Claim("c", "west")};
  s.pods = {Pod("w", "c", 1, "west"), Pod("e", "c", 2, "east")};

  const Plan plan = RunPlan(s, {});
  EXPECT_TRUE(plan.diagnostics.entries().empty());
  EXPECT_THAT(plan.changed_claims, ElementsAre(0, 1));
  ASSERT_TRUE(plan.planned.resource_claims[0].allocation.has_value());
  ASSERT_TRUE(plan.planned.resource_claims[1].allocation.has_value());
  EXPECT_EQ(plan.planned.resource_claims[0].allocation->results[0].pool, "n1-east");
  EXPECT_THAT(plan.planned.resource_claims[0].reserved_for, ElementsAre("e"));
  EXPECT_EQ(plan.planned.resource_claims[1].allocation->results[0].pool, "n1-west");
  EXPECT_THAT(plan.planned.resource_claims[1].reserved_for, ElementsAre("w"));
}

TEST(RunPlanClaimsTest, ReportsAllocatorProblemsOnceAndPlansTheRest) {
  model::Snapshot s;
  s.nodes = {Node("n1", "east"), Node("n1", "west")};
  s.resource_slices = {Slice("n1", 1, "east"), Slice("n1", 1, "west")};
  s.device_classes = {Class("gpu", "device.driver == \"gpu.example.com\""),
                      Class("broken", "device.driver ==")};
  s.resource_claims = {Claim("c", "east"), Claim("c", "west")};
  s.pods = {Pod("e", "c", 1, "east"), Pod("w", "c", 2, "west")};

  const Plan plan = RunPlan(s, {});
  // Both clusters' allocators see the broken class: one diagnostic.
  ASSERT_EQ(plan.diagnostics.entries().size(), 1u);
  const core::Error& e = plan.diagnostics.entries()[0].error;
  EXPECT_TRUE(plan.diagnostics.has_errors());
  EXPECT_EQ(e.location().object, "DeviceClass/broken");
  EXPECT_EQ(e.location().field, "spec.selectors[0].cel.expression");
  EXPECT_THAT(e.message(), HasSubstr("CEL"));
  EXPECT_EQ(plan.planned.pods[0].node_name, "n1");
  EXPECT_EQ(plan.planned.pods[1].node_name, "n1");
}

TEST(RunPlanClaimsTest, ExplainShowsTheAllocatorDetail) {
  model::Snapshot s;
  s.nodes = {Node("n1"), Node("n2")};
  s.resource_slices = {Slice("n2", 1)};
  s.device_classes = {Class("gpu", "device.driver == \"gpu.example.com\"")};
  s.resource_claims = {Claim("own")};
  s.pods = {Pod("a", "own", 1)};
  auto explanation = ExplainPod(s, "default/a", {});
  ASSERT_TRUE(explanation.has_value());
  const binding::PodExplanation& pod = explanation.value().pod;
  ASSERT_EQ(pod.nodes.size(), 2u);
  const binding::FilterVerdict& n1 = pod.nodes[0].filters.back();
  EXPECT_EQ(n1.plugin, "DynamicResources");
  EXPECT_EQ(n1.reason, "cannot allocate all claims");
  EXPECT_THAT(n1.detail, HasSubstr("default/own"));
  const binding::FilterVerdict& n2 = pod.nodes[1].filters.back();
  EXPECT_TRUE(n2.passed);
  EXPECT_EQ(n2.detail, "default/own: gpu=gpu.example.com/n2-default/gpu-0");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
