// ResourceCatalog, ResourceVector and the resource-name classifiers.
#include "model/resources.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace berth::model {
namespace BERTH_UNITY_ID {

TEST(ResourceCatalogTest, FixedIdsComeFirst) {
  ResourceCatalog catalog;
  EXPECT_EQ(catalog.size(), 4u);
  EXPECT_EQ(catalog.Name(kCpu), "cpu");
  EXPECT_EQ(catalog.Name(kMemory), "memory");
  EXPECT_EQ(catalog.Name(kEphemeralStorage), "ephemeral-storage");
  EXPECT_EQ(catalog.Name(kPods), "pods");
  EXPECT_EQ(catalog.Intern("cpu"), kCpu);
  EXPECT_EQ(catalog.Intern("pods"), kPods);
  EXPECT_EQ(catalog.size(), 4u);
}

TEST(ResourceCatalogTest, InternsInFirstSeenOrder) {
  ResourceCatalog catalog;
  ResourceId gpu = catalog.Intern("nvidia.com/gpu");
  ResourceId rdma = catalog.Intern("rdma/hca");
  EXPECT_EQ(gpu.v, 4);
  EXPECT_EQ(rdma.v, 5);
  EXPECT_EQ(catalog.Intern("nvidia.com/gpu"), gpu);
  EXPECT_EQ(catalog.Name(rdma), "rdma/hca");
  EXPECT_EQ(catalog.size(), 6u);

  ResourceId found;
  EXPECT_TRUE(catalog.Find("rdma/hca", &found));
  EXPECT_EQ(found, rdma);
  EXPECT_TRUE(catalog.Find("memory", &found));
  EXPECT_EQ(found, kMemory);
  found = ResourceId{42};
  EXPECT_FALSE(catalog.Find("amd.com/gpu", &found));
  EXPECT_EQ(found.v, 42);  // untouched on a miss
}

TEST(ResourceVectorTest, MissingIdsReadAsZero) {
  ResourceVector v;
  EXPECT_TRUE(v.IsZero());
  EXPECT_EQ(v.Get(ResourceId{10}), 0);
  v.Set(ResourceId{10}, 0);
  EXPECT_EQ(v.size(), 0u);  // zero beyond the end does not grow it
  v.Set(ResourceId{5}, 3);
  EXPECT_EQ(v.size(), 6u);
  EXPECT_EQ(v.Get(ResourceId{5}), 3);
  EXPECT_EQ(v.Get(kCpu), 0);
  EXPECT_FALSE(v.IsZero());
  v.Set(ResourceId{5}, 0);
  EXPECT_TRUE(v.IsZero());
}

TEST(ResourceVectorTest, AddSubtractMax) {
  ResourceVector a;
  a.Set(kCpu, 1500);
  a.Set(kMemory, 1024);
  ResourceVector b;
  b.Set(kCpu, 500);
  b.Set(ResourceId{4}, 2);

  ResourceVector sum = a;
  sum.Add(b);
  EXPECT_EQ(sum.Get(kCpu), 2000);
  EXPECT_EQ(sum.Get(kMemory), 1024);
  EXPECT_EQ(sum.Get(ResourceId{4}), 2);

  ResourceVector difference = a;
  difference.Subtract(b);
  EXPECT_EQ(difference.Get(kCpu), 1000);
  EXPECT_EQ(difference.Get(ResourceId{4}), -2);

  ResourceVector max = a;
  max.MaxWith(b);
  EXPECT_EQ(max.Get(kCpu), 1500);
  EXPECT_EQ(max.Get(kMemory), 1024);
  EXPECT_EQ(max.Get(ResourceId{4}), 2);

  sum.Subtract(b);
  EXPECT_EQ(sum, a);
}

TEST(ResourceVectorTest, EqualityIgnoresTrailingZeros) {
  ResourceVector a;
  a.Set(kCpu, 1);
  ResourceVector b = a;
  b.Set(ResourceId{7}, 5);
  EXPECT_FALSE(a == b);
  b.Set(ResourceId{7}, 0);
  EXPECT_EQ(a, b);
  EXPECT_EQ(b, a);
  EXPECT_EQ(ResourceVector{}, ResourceVector{});
  ResourceVector c;
  c.Set(kCpu, 2);
  EXPECT_FALSE(a == c);
}

TEST(ResourceNameTest, NativeResources) {
  // Upstream IsNativeResource: unprefixed names, and any name containing "kubernetes.io/".
  for (const char* name :
       {"cpu", "memory", "ephemeral-storage", "pods", "hugepages-2Mi", "hugepages-1Gi",
        "kubernetes.io/batch-cpu", "node.kubernetes.io/foo", "gpu"}) {
    EXPECT_TRUE(IsNativeResourceName(name)) << name;
    EXPECT_FALSE(IsExtendedResourceName(name)) << name;
  }
  EXPECT_FALSE(IsNativeResourceName("nvidia.com/gpu"));
  EXPECT_FALSE(IsNativeResourceName("example.com/kubernetes.io"));
}

TEST(ResourceNameTest, ExtendedResources) {
  for (const char* name :
       {"nvidia.com/gpu", "amd.com/gpu", "nvidia.com/mig-1g.10gb", "example.com/foo", "rdma/hca",
        "example.com/Foo_Bar", "gpu.intel.com/i915"}) {
    EXPECT_TRUE(IsExtendedResourceName(name)) << name;
  }
  for (const char* name : {"cpu", "gpu", "requests.nvidia.com/gpu", "kubernetes.io/foo",
                           "node.kubernetes.io/foo", "hugepages-2Mi"}) {
    EXPECT_FALSE(IsExtendedResourceName(name)) << name;
  }
}

TEST(ResourceNameTest, ExtendedResourcesMustBeQualifiedNames) {
  // "requests.<name>" must pass IsQualifiedName.
  for (const char* name : {"example.com/-bad", "Example.com/gpu", "a/b/c", "nvidia.com/",
                           "nvidia..com/gpu", "nvidia.com/gpu!"}) {
    EXPECT_FALSE(IsExtendedResourceName(name)) << name;
  }
  EXPECT_TRUE(IsExtendedResourceName("example.com/" + std::string(63, 'a')));
  EXPECT_FALSE(IsExtendedResourceName("example.com/" + std::string(64, 'a')));
}

// Issue 14: every sum of amounts saturates, and a saturated sum stays saturated when an
// amount is taken out again (full stays full), so nothing wraps.
TEST(ResourceVectorTest, AddAndSubtractSaturate) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(SaturatingAdd(kMax, 1), kMax);
  EXPECT_EQ(SaturatingAdd(kMin, -1), kMin);
  EXPECT_EQ(SaturatingRemove(kMax, 5), kMax);
  EXPECT_EQ(SaturatingRemove(kMin, -5), kMin);
  EXPECT_EQ(SaturatingRemove(10, 4), 6);
  EXPECT_EQ(SaturatingRemove(-10, kMax), kMin);
  EXPECT_EQ(SaturatingRemove(10, kMin), kMax);

  ResourceVector total;
  ResourceVector big;
  big.Set(kMemory, 5'000'000'000'000'000'000);
  total.Add(big);
  total.Add(big);
  EXPECT_EQ(total.Get(kMemory), kMax);
  total.Subtract(big);
  EXPECT_EQ(total.Get(kMemory), kMax);
  ResourceVector small;
  small.Set(kCpu, 3);
  total.Add(small);
  total.Subtract(small);
  EXPECT_EQ(total.Get(kCpu), 0);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::model
