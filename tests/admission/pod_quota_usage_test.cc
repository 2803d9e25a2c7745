// The pod evaluator, ported from upstream pkg/quota/v1/evaluator/core/pods_test.go: each
// test names the upstream test (and table case) it follows.
#include "admission/pod_quota_usage.h"

#include <gtest/gtest.h>

#include "admission_builders.h"

namespace berth::admission {
namespace BERTH_UNITY_ID {

using testing::MakeContainer;
using testing::ValidPod;

std::string Show(const std::vector<QuotaAmount>& usage) {
  std::string out;
  for (const QuotaAmount& a : usage) out += a.name + "=" + std::to_string(a.milli) + " ";
  return out;
}

// TestPodEvaluatorUsage "init container CPU" style: requests and limits under every name.
TEST(PodQuotaUsageTest, PodEvaluatorUsageCpuMemory) {
  model::ResourceCatalog catalog;
  const model::Pod pod =
      ValidPod(catalog, "p", 1, {{"cpu", "1"}, {"memory", "1k"}}, {{"cpu", "2"}, {"memory", "2k"}});
  EXPECT_EQ(Show(PodQuotaUsage(pod, catalog)),
            "count/pods=1000 cpu=1000 limits.cpu=2000 limits.memory=2000000 memory=1000000 "
            "pods=1000 requests.cpu=1000 requests.memory=1000000 ");
}

// TestPodEvaluatorUsage "extended resource": only requests.<name>.
TEST(PodQuotaUsageTest, PodEvaluatorUsageExtendedResource) {
  model::ResourceCatalog catalog;
  const model::Pod pod = ValidPod(catalog, "p", 1, {{"example.com/dongle", "3"}}, {{"example.com/dongle", "3"}});
  EXPECT_EQ(Show(PodQuotaUsage(pod, catalog)),
            "count/pods=1000 pods=1000 requests.example.com/dongle=3000 ");
}

// TestPodEvaluatorUsage "init container maximums override sum of containers".
TEST(PodQuotaUsageTest, PodEvaluatorUsageInitContainerMax) {
  model::ResourceCatalog catalog;
  model::Pod pod = ValidPod(catalog, "p", 2, {{"cpu", "1"}}, {});
  pod.init_containers.push_back(MakeContainer(catalog, "init", {{"cpu", "4"}}, {}));
  const std::vector<QuotaAmount> usage = PodQuotaUsage(pod, catalog);
  EXPECT_EQ(Show(usage), "count/pods=1000 cpu=4000 pods=1000 requests.cpu=4000 ");
}

// TestPodEvaluatorUsage "terminated generic count still appears".
TEST(PodQuotaUsageTest, PodEvaluatorUsageTerminal) {
  model::ResourceCatalog catalog;
  model::Pod pod = ValidPod(catalog, "p", 1, {{"cpu", "1"}}, {});
  pod.phase = model::PodPhase::kFailed;
  EXPECT_EQ(Show(PodQuotaUsage(pod, catalog)), "count/pods=1000 ");
}

// TestPodConstraintsFunc: "cpu & memory requests" needed by a quota on them.
TEST(PodQuotaUsageTest, PodConstraintsFunc) {
  model::ResourceCatalog catalog;
  EXPECT_EQ(PodQuotaConstraints({"requests.cpu", "requests.memory"},
                                ValidPod(catalog, "p", 1, {{"cpu", "1"}}, {})),
            "must specify requests.memory for: foo-0");
  EXPECT_EQ(PodQuotaConstraints({"limits.cpu", "limits.memory"}, ValidPod(catalog, "p", 2, {}, {})),
            "must specify limits.cpu for: foo-0,foo-1; limits.memory for: foo-0,foo-1");
  EXPECT_EQ(PodQuotaConstraints({"requests.nvidia.com/gpu", "pods"}, ValidPod(catalog, "p", 1, {}, {})),
            "");
}

// TestPodEvaluatorMatchingResources.
TEST(PodQuotaUsageTest, PodEvaluatorMatchingResources) {
  EXPECT_TRUE(IsPodQuotaResource("requests.nvidia.com/gpu"));
  EXPECT_TRUE(IsPodQuotaResource("count/pods"));
  EXPECT_TRUE(IsPodQuotaResource("limits.memory"));
  EXPECT_TRUE(IsPodQuotaResource("requests.hugepages-2Mi"));
  EXPECT_FALSE(IsPodQuotaResource("nvidia.com/gpu"));
  EXPECT_FALSE(IsPodQuotaResource("limits.nvidia.com/gpu"));
  EXPECT_FALSE(IsPodQuotaResource("services"));
}

// TestPodEvaluatorMatchingScopes: Terminating, BestEffort, PriorityClass operators.
TEST(PodQuotaUsageTest, PodEvaluatorMatchingScopes) {
  model::ResourceCatalog catalog;
  model::NamespaceQuota q;
  model::Pod pod = ValidPod(catalog, "p", 1, {}, {});
  q.scopes = {"BestEffort", "NotTerminating"};
  EXPECT_TRUE(PodMatchesScopes(q, pod));
  pod.active_deadline_seconds = 10;
  EXPECT_FALSE(PodMatchesScopes(q, pod));
  q.scopes = {"PriorityClass"};
  EXPECT_FALSE(PodMatchesScopes(q, pod));
  pod.priority_class_name = "high";
  EXPECT_TRUE(PodMatchesScopes(q, pod));
  q.scopes.clear();
  q.scope_selector = {{.scope_name = "PriorityClass", .op = "NotIn", .values = {"high"}}};
  EXPECT_FALSE(PodMatchesScopes(q, pod));
  q.scope_selector = {{.scope_name = "PriorityClass", .op = "DoesNotExist", .values = {}}};
  EXPECT_FALSE(PodMatchesScopes(q, pod));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::admission
