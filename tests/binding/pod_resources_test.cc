// Pod requests: app containers, init containers, sidecars, overhead, and the non-zero
// defaults NodeResourcesFit scores with (k8s.io/component-helpers resource.PodRequests).
#include "binding/framework/pod_resources.h"

#include <gtest/gtest.h>

#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using testing::kMi;
using testing::PodBuilder;

PodResources Compute(const PodBuilder& b) {
  model::ResourceCatalog catalog;
  model::Pod pod = b.Build(catalog);
  catalog.Intern("nvidia.com/gpu");
  return ComputePodResources(pod, catalog.size());
}

TEST(PodResourcesTest, SumsAppContainers) {
  PodResources r = Compute(PodBuilder("p")
                               .Container({{"cpu", 100}, {"memory", 64 * kMi}})
                               .Container({{"cpu", 250}, {"nvidia.com/gpu", 1}}));
  EXPECT_EQ(r.request(model::kCpu), 350);
  EXPECT_EQ(r.request(model::kMemory), 64 * kMi);
}

TEST(PodResourcesTest, InitContainerPeakWinsOverSteadyState) {
  PodResources r = Compute(
      PodBuilder("p").Container({{"cpu", 500}}).InitContainer({{"cpu", 2000}, {"memory", 10}}));
  EXPECT_EQ(r.request(model::kCpu), 2000);
  EXPECT_EQ(r.request(model::kMemory), 10);
}

TEST(PodResourcesTest, SidecarsAddToSteadyStateAndToLaterInitContainers) {
  // KEP-753: init 1000, sidecar 500, init 800, app 600. Steady state 600 + 500 = 1100;
  // init peaks 1000, 500 (the sidecar starting), 800 + 500 = 1300. Request: 1300.
  PodResources r = Compute(PodBuilder("p")
                               .InitContainer({{"cpu", 1000}})
                               .Sidecar({{"cpu", 500}})
                               .InitContainer({{"cpu", 800}})
                               .Container({{"cpu", 600}}));
  EXPECT_EQ(r.request(model::kCpu), 1300);
  PodResources steady = Compute(PodBuilder("p")
                                    .InitContainer({{"cpu", 100}})
                                    .Sidecar({{"cpu", 500}})
                                    .Container({{"cpu", 600}}));
  EXPECT_EQ(steady.request(model::kCpu), 1100);
}

TEST(PodResourcesTest, OverheadIsAdded) {
  PodResources r = Compute(
      PodBuilder("p").Container({{"cpu", 500}}).Overhead({{"cpu", 250}, {"memory", 120 * kMi}}));
  EXPECT_EQ(r.request(model::kCpu), 750);
  EXPECT_EQ(r.request(model::kMemory), 120 * kMi);
  EXPECT_EQ(r.nonzero_cpu, 750);
  EXPECT_EQ(r.nonzero_memory, 200 * kMi + 120 * kMi);
}

TEST(PodResourcesTest, NonZeroDefaultsPerContainerThatNamesNothing) {
  PodResources r = Compute(PodBuilder("p").Container({}).Container({{"cpu", 300}}));
  EXPECT_EQ(r.request(model::kCpu), 300);
  EXPECT_EQ(r.nonzero_cpu, 100 + 300);
  EXPECT_EQ(r.nonzero_memory, 2 * 200 * kMi);
}

TEST(PodResourcesTest, ExplicitZeroRequestStaysZero) {
  PodResources r = Compute(PodBuilder("p").Container({{"cpu", 3000}, {"memory", 0}}));
  EXPECT_EQ(r.nonzero_memory, 0);
  EXPECT_EQ(r.nonzero_cpu, 3000);
}

TEST(PodResourcesTest, PodWithoutContainersAsksNothing) {
  PodResources r = Compute(PodBuilder("p"));
  EXPECT_EQ(r.nonzero_cpu, 0);
  EXPECT_EQ(r.nonzero_memory, 0);
}

TEST(PodResourcesTest, InitContainersGetDefaultsToo) {
  // The init container names no memory, so it counts 200Mi; the app container 64Mi.
  PodResources r =
      Compute(PodBuilder("p").InitContainer({{"cpu", 50}}).Container({{"memory", 64 * kMi}}));
  EXPECT_EQ(r.nonzero_memory, 200 * kMi);
  EXPECT_EQ(r.nonzero_cpu, 100);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
