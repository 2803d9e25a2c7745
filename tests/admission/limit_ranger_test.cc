// LimitRanger, ported from upstream plugin/pkg/admission/limitranger/admission_test.go:
// each test names the upstream test (and table case) it follows. Messages are upstream's.
#include "admission/limit_ranger.h"

#include <gtest/gtest.h>

#include "admission_builders.h"

namespace berth::admission {
namespace BERTH_UNITY_ID {

using testing::Amounts;
using testing::Entries;
using testing::MakeContainer;
using testing::ValidPod;

model::LimitRangeItem Item(const std::string& type, const Amounts& min, const Amounts& max,
                           const Amounts& default_limits = {}, const Amounts& default_requests = {},
                           const Amounts& ratio = {}) {
  model::LimitRangeItem item;
  item.type = type;
  item.min = Entries(min);
  item.max = Entries(max);
  item.default_limits = Entries(default_limits);
  item.default_requests = Entries(default_requests);
  item.max_limit_request_ratio = Entries(ratio);
  return item;
}

model::LimitRange Range(std::vector<model::LimitRangeItem> items) {
  model::LimitRange r;
  r.meta.name = "abc";
  r.meta.namespace_ = "test";
  r.limits = std::move(items);
  return DefaultedLimitRange(r);
}

LimitRangerResult Apply(const model::LimitRange& range, model::ResourceCatalog& catalog,
                        model::Pod* pod) {
  const model::LimitRange* ranges[] = {&range};
  return ApplyLimitRanges(ranges, catalog, pod);
}

// upstream createLimitRange(Container, min 50m/5Mi, max 500m/50Mi, default 250m/25Mi? ...):
// TestDefaultContainerResourceRequirements / TestMergePodResourceRequirements: a container
// without resources gets the defaults, and the annotation names what was set.
TEST(LimitRangerTest, MergePodResourceRequirementsFillsDefaults) {
  model::ResourceCatalog catalog;
  const model::LimitRange range = Range({Item("Container", {}, {}, {{"cpu", "500m"}, {"memory", "1Gi"}},
                                              {{"cpu", "100m"}, {"memory", "512Mi"}})});
  model::Pod pod = ValidPod(catalog, "pod", 1, {}, {});
  const LimitRangerResult r = Apply(range, catalog, &pod);
  ASSERT_TRUE(r.admitted());
  EXPECT_EQ(pod.containers[0].requests.Get(model::kCpu), 100);
  EXPECT_EQ(pod.containers[0].requests.Get(model::kMemory), 512LL << 20);
  EXPECT_EQ(pod.containers[0].limits.Get(model::kCpu), 500);
  EXPECT_EQ(pod.containers[0].limits.Get(model::kMemory), 1LL << 30);
  EXPECT_TRUE(pod.containers[0].cpu_request_named);
  EXPECT_EQ(r.annotation,
            "LimitRanger plugin set: cpu, memory request for container foo-0; cpu, memory limit "
            "for container foo-0");
}

// TestMergePodResourceRequirements, "pod with some resources": what the container names
// stays; only the missing ones are defaulted.
TEST(LimitRangerTest, MergeKeepsNamedResources) {
  model::ResourceCatalog catalog;
  const model::LimitRange range = Range({Item("Container", {}, {}, {{"cpu", "500m"}, {"memory", "1Gi"}},
                                              {{"cpu", "100m"}, {"memory", "512Mi"}})});
  model::Pod pod = ValidPod(catalog, "pod", 1, {{"cpu", "200m"}}, {{"cpu", "300m"}});
  const LimitRangerResult r = Apply(range, catalog, &pod);
  ASSERT_TRUE(r.admitted());
  EXPECT_EQ(pod.containers[0].requests.Get(model::kCpu), 200);
  EXPECT_EQ(pod.containers[0].limits.Get(model::kCpu), 300);
  EXPECT_EQ(pod.containers[0].requests.Get(model::kMemory), 512LL << 20);
  EXPECT_EQ(r.annotation,
            "LimitRanger plugin set: memory request for container foo-0; memory limit for "
            "container foo-0");
}

// SetDefaults_LimitRangeItem (pkg/apis/core/v1/defaults_test.go TestSetDefaultLimitRangeItem):
// a max alone becomes the default limit and the default request.
TEST(LimitRangerTest, MaxAloneDefaultsLimitAndRequest) {
  model::ResourceCatalog catalog;
  const model::LimitRange range = Range({Item("Container", {}, {{"cpu", "2"}})});
  model::Pod pod = ValidPod(catalog, "pod", 1, {}, {});
  ASSERT_TRUE(Apply(range, catalog, &pod).admitted());
  EXPECT_EQ(pod.containers[0].limits.Get(model::kCpu), 2000);
  EXPECT_EQ(pod.containers[0].requests.Get(model::kCpu), 2000);
}

// TestPodLimitFunc error case: container limit above the Container max.
TEST(LimitRangerTest, PodLimitFuncMaxContainerLimit) {
  model::ResourceCatalog catalog;
  const model::LimitRange range = Range({Item("Container", {}, {{"cpu", "2"}})});
  model::Pod pod = ValidPod(catalog, "pod", 1, {{"cpu", "1"}}, {{"cpu", "4"}});
  const LimitRangerResult r = Apply(range, catalog, &pod);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.Message(), "maximum cpu usage per Container is 2, but limit is 4");
}

// TestPodLimitFunc error case: request below the Container min, and a min with no request
// for a resource the defaults do not cover.
TEST(LimitRangerTest, PodLimitFuncMinContainer) {
  model::ResourceCatalog catalog;
  const model::LimitRange range = Range({Item("Container", {{"memory", "1Gi"}}, {})});
  model::Pod pod = ValidPod(catalog, "pod", 1, {{"memory", "512Mi"}}, {});
  const LimitRangerResult r = Apply(range, catalog, &pod);
  EXPECT_EQ(r.Message(), "minimum memory usage per Container is 1Gi, but request is 512Mi");
}

// TestPodLimitFunc error case: limit below the min (the request defaulted to the min).
TEST(LimitRangerTest, PodLimitFuncMinContainerLimit) {
  model::ResourceCatalog catalog;
  const model::LimitRange range = Range({Item("Container", {{"cpu", "500m"}}, {})});
  model::Pod pod = ValidPod(catalog, "pod", 1, {{"cpu", "600m"}}, {{"cpu", "400m"}});
  EXPECT_EQ(Apply(range, catalog, &pod).Message(),
            "minimum cpu usage per Container is 500m, but limit is 400m");
}

// TestPodLimitFunc error case: maxLimitRequestRatio exceeded per Container.
TEST(LimitRangerTest, PodLimitFuncRatioContainer) {
  model::ResourceCatalog catalog;
  const model::LimitRange range =
      Range({Item("Container", {}, {}, {}, {}, {{"cpu", "2"}})});
  model::Pod pod = ValidPod(catalog, "pod", 1, {{"cpu", "250m"}}, {{"cpu", "1"}});
  EXPECT_EQ(Apply(range, catalog, &pod).Message(),
            "cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000");
}

// TestPodLimitFunc error case: a ratio needs a limit.
TEST(LimitRangerTest, PodLimitFuncRatioWithoutLimit) {
  model::ResourceCatalog catalog;
  const model::LimitRange range =
      Range({Item("Container", {}, {}, {}, {}, {{"memory", "1500m"}})});
  model::Pod pod = ValidPod(catalog, "pod", 1, {{"memory", "1Gi"}}, {});
  EXPECT_EQ(Apply(range, catalog, &pod).Message(),
            "memory max limit to request ratio per Container is 1500m, but no limit is specified "
            "or limit is 0");
}

// TestPodLimitFunc success case: within a ratio of 1.5.
TEST(LimitRangerTest, PodLimitFuncRatioWithin) {
  model::ResourceCatalog catalog;
  const model::LimitRange range =
      Range({Item("Container", {}, {}, {}, {}, {{"cpu", "1500m"}})});
  model::Pod pod = ValidPod(catalog, "pod", 1, {{"cpu", "1"}}, {{"cpu", "1500m"}});
  EXPECT_TRUE(Apply(range, catalog, &pod).admitted());
}

// TestPodLimitFunc error case: the Pod max bounds the sum of the containers.
TEST(LimitRangerTest, PodLimitFuncMaxPodSum) {
  model::ResourceCatalog catalog;
  const model::LimitRange range = Range({Item("Pod", {}, {{"cpu", "2"}})});
  model::Pod pod = ValidPod(catalog, "pod", 2, {{"cpu", "1500m"}}, {{"cpu", "1500m"}});
  EXPECT_EQ(Apply(range, catalog, &pod).Message(),
            "maximum cpu usage per Pod is 2, but limit is 3");
}

// TestPodLimitFunc error case: a max with no limit on the container.
TEST(LimitRangerTest, PodLimitFuncMaxWithoutLimit) {
  model::ResourceCatalog catalog;
  const model::LimitRange range = Range({Item("Pod", {}, {{"memory", "1Gi"}})});
  model::Pod pod = ValidPod(catalog, "pod", 1, {{"memory", "1Gi"}}, {});
  EXPECT_EQ(Apply(range, catalog, &pod).Message(),
            "maximum memory usage per Pod is 1Gi.  No limit is specified");
}

// TestPodLimitFunc: several violations are aggregated as "[a, b]".
TEST(LimitRangerTest, PodLimitFuncAggregatesErrors) {
  model::ResourceCatalog catalog;
  const model::LimitRange range = Range({Item("Container", {}, {{"cpu", "1"}, {"memory", "1Gi"}})});
  model::Pod pod = ValidPod(catalog, "pod", 1, {{"cpu", "2"}, {"memory", "2Gi"}},
                            {{"cpu", "2"}, {"memory", "2Gi"}});
  const LimitRangerResult r = Apply(range, catalog, &pod);
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.Message(),
            "[maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per "
            "Container is 1Gi, but limit is 2Gi]");
}

// TestPodLimitFunc with init containers: they are defaulted and checked per Container too.
TEST(LimitRangerTest, PodLimitFuncInitContainers) {
  model::ResourceCatalog catalog;
  const model::LimitRange range = Range({Item("Container", {}, {{"nvidia.com/gpu", "1"}})});
  model::Pod pod = ValidPod(catalog, "pod", 1, {}, {});
  pod.init_containers.push_back(
      MakeContainer(catalog, "init", {{"nvidia.com/gpu", "2"}}, {{"nvidia.com/gpu", "2"}}));
  EXPECT_EQ(Apply(range, catalog, &pod).Message(),
            "maximum nvidia.com/gpu usage per Container is 1, but limit is 2");
}

// TestLimitRangerAdmitPod: a pod inside every bound is admitted unchanged.
TEST(LimitRangerTest, AdmitPodWithinBounds) {
  model::ResourceCatalog catalog;
  const model::LimitRange range = Range({Item("Container", {{"cpu", "100m"}}, {{"cpu", "2"}})});
  model::Pod pod = ValidPod(catalog, "pod", 1, {{"cpu", "1"}}, {{"cpu", "1"}});
  const LimitRangerResult r = Apply(range, catalog, &pod);
  EXPECT_TRUE(r.admitted());
  EXPECT_EQ(r.annotation, "");
  EXPECT_EQ(pod.containers[0].requests.Get(model::kCpu), 1000);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::admission
