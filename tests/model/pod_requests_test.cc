// model::PodRequests, the one pod-requests rule. The table ports the cases of upstream
// k8s.io/component-helpers/resource/helpers_test.go that berth's model can express (no
// pod-level resources, no in-place resize status); each row names its upstream test and
// case. Amounts: cpu in milli-cores, memory in bytes.
#include "model/pod_requests.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace berth::model {
namespace BERTH_UNITY_ID {

struct C {  // one container: requests and limits of cpu / memory (-1 = not named)
  int64_t cpu = -1;
  int64_t mem = -1;
  int64_t cpu_limit = -1;
  int64_t mem_limit = -1;
  bool restartable = false;
};

struct Case {
  const char* upstream;  // upstream test function / case name
  std::vector<C> init;
  std::vector<C> containers;
  int64_t cpu_overhead = 0;
  int64_t mem_overhead = 0;
  PodRequestsOptions options;
  int64_t want_cpu = 0;
  int64_t want_mem = 0;
};

Container Make(const C& c) {
  Container out;
  if (c.cpu >= 0) {
    out.requests.Set(kCpu, c.cpu);
    out.cpu_request_named = true;
  }
  if (c.mem >= 0) {
    out.requests.Set(kMemory, c.mem);
    out.memory_request_named = true;
  }
  if (c.cpu_limit >= 0) out.limits.Set(kCpu, c.cpu_limit);
  if (c.mem_limit >= 0) out.limits.Set(kMemory, c.mem_limit);
  out.restartable = c.restartable;
  return out;
}

Pod MakePod(const Case& tc) {
  Pod pod;
  for (const C& c : tc.init) pod.init_containers.push_back(Make(c));
  for (const C& c : tc.containers) pod.containers.push_back(Make(c));
  pod.overhead.Set(kCpu, tc.cpu_overhead);
  pod.overhead.Set(kMemory, tc.mem_overhead);
  return pod;
}

PodRequestsOptions ExcludeOverhead() {
  PodRequestsOptions o;
  o.exclude_overhead = true;
  return o;
}

PodRequestsOptions NonMissing(int64_t cpu, int64_t mem) {
  PodRequestsOptions o;
  o.non_missing_cpu_milli = cpu;
  o.non_missing_memory = mem;
  return o;
}

PodRequestsOptions LimitsForMissing() {
  PodRequestsOptions o;
  o.limits_for_missing_requests = true;
  return o;
}

constexpr int64_t kGi = 1LL << 30;

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      // TestPodRequestsAndLimits (getPod with one container).
      {"TestPodRequestsAndLimits/just-limit-no-overhead",
       {},
       {{.cpu_limit = 9000}},
       0,
       0,
       {},
       0,
       0},
      {"TestPodRequestsAndLimits/just-overhead", {}, {{}}, 5000, 5, {}, 5000, 5},
      {"TestPodRequestsAndLimits/req-and-overhead",
       {},
       {{.cpu = 1000, .mem = 10}},
       5000,
       5,
       {},
       6000,
       15},
      {"TestPodRequestsAndLimits/all-req-lim-and-overhead",
       {},
       {{.cpu = 1000, .mem = 10, .cpu_limit = 2000, .mem_limit = 12}},
       5000,
       5,
       {},
       6000,
       15},
      {"TestPodRequestsAndLimits/req-some-lim-and-overhead",
       {},
       {{.cpu = 1000, .mem = 10, .cpu_limit = 2000}},
       5000,
       5,
       {},
       6000,
       15},
      // TestPodRequestsAndLimitsWithoutOverhead (ExcludeOverhead).
      {"TestPodRequestsAndLimitsWithoutOverhead/two container no overhead",
       {},
       {{.cpu = 1000, .mem = 5, .cpu_limit = 2000, .mem_limit = 10},
        {.cpu = 4000, .mem = 12, .cpu_limit = 8000, .mem_limit = 24}},
       0,
       0,
       ExcludeOverhead(),
       5000,
       17},
      {"TestPodRequestsAndLimitsWithoutOverhead/two container with overhead",
       {},
       {{.cpu = 1000, .mem = 5, .cpu_limit = 2000, .mem_limit = 10},
        {.cpu = 4000, .mem = 12, .cpu_limit = 8000, .mem_limit = 24}},
       3000,
       8,
       ExcludeOverhead(),
       5000,
       17},
      {"TestPodRequestsAndLimitsWithoutOverhead/two container with overhead, massive init",
       {{.cpu = 1000, .mem = 5, .cpu_limit = 1000, .mem_limit = 5},
        {.cpu = 40000, .mem = 120, .cpu_limit = 80000, .mem_limit = 240}},
       {{.cpu = 1000, .mem = 5, .cpu_limit = 2000, .mem_limit = 10},
        {.cpu = 4000, .mem = 12, .cpu_limit = 8000, .mem_limit = 24}},
       3000,
       8,
       ExcludeOverhead(),
       40000,
       120},
      // TestPodResourceRequests (the cases without resize status).
      {"TestPodResourceRequests/nil options, larger init container",
       {{.cpu = 4000}},
       {{.cpu = 1000}},
       0,
       0,
       {},
       4000,
       0},
      {"TestPodResourceRequests/nil options, larger containers",
       {{.cpu = 2000}},
       {{.cpu = 2000}, {.cpu = 3000}},
       0,
       0,
       {},
       5000,
       0},
      {"TestPodResourceRequests/pod overhead excluded",
       {{.cpu = 2000}},
       {{.cpu = 2000}, {.cpu = 3000}},
       1000,
       0,
       ExcludeOverhead(),
       5000,
       0},
      {"TestPodResourceRequests/pod overhead included",
       {{.cpu = 2000, .cpu_limit = 2000}},
       {{.cpu = 2000}, {.cpu = 3000}},
       1000,
       kGi,
       {},
       6000,
       kGi},
      {"TestPodResourceRequests/restartable init container",
       {{.cpu = 1000, .restartable = true}},
       {{.cpu = 1000}},
       0,
       0,
       {},
       2000,
       0},
      {"TestPodResourceRequests/multiple restartable init containers",
       {{.cpu = 5000},
        {.cpu = 1000, .restartable = true},
        {.cpu = 2000, .restartable = true},
        {.cpu = 3000, .restartable = true}},
       {{.cpu = 1000}},
       0,
       0,
       {},
       7000,
       0},
      {"TestPodResourceRequests/multiple restartable and regular init containers",
       {{.cpu = 5000},
        {.cpu = 1000, .restartable = true},
        {.cpu = 2000, .restartable = true},
        {.cpu = 5000},
        {.cpu = 3000, .restartable = true}},
       {{.cpu = 1000}},
       0,
       0,
       {},
       8000,
       0},
      {"TestPodResourceRequests/restartable-init, init and regular",
       {{.cpu = 10000, .restartable = true}, {.cpu = 200000}},
       {{.cpu = 100000}},
       0,
       0,
       {},
       210000,
       0},
      // NonMissingContainerRequests (applyNonMissing): kube-scheduler's scoring defaults.
      {"applyNonMissing/missing requests take the defaults",
       {},
       {{}, {.cpu = 500}},
       0,
       0,
       NonMissing(100, 200),
       600,
       400},
      {"applyNonMissing/an explicit zero stays zero",
       {},
       {{.cpu = 0, .mem = 0}},
       0,
       0,
       NonMissing(100, 200),
       0,
       0},
      {"applyNonMissing/applies to init containers and sidecars too",
       {{.restartable = true}, {.cpu = 1000, .mem = 1000}},
       {{}},
       10,
       10,
       NonMissing(100, 200),
       1110,
       1210},
      // Kueue's option: limits stand in for missing requests (berth's own rows).
      {"Kueue/limit stands in for a missing request",
       {},
       {{.cpu_limit = 9000}, {.cpu = 1000, .mem = 10, .mem_limit = 20}},
       0,
       0,
       LimitsForMissing(),
       10000,
       10},
      {"Kueue/limits of init containers and sidecars",
       {{.cpu_limit = 3000, .restartable = true}, {.cpu_limit = 8000}},
       {{.cpu = 1000}},
       0,
       0,
       LimitsForMissing(),
       11000,
       0},
  };
  return cases;
}

class PodRequestsTableTest : public ::testing::TestWithParam<Case> {};

TEST_P(PodRequestsTableTest, MatchesUpstream) {
  const Case& tc = GetParam();
  const Pod pod = MakePod(tc);
  const ResourceVector got = PodRequests(pod, tc.options);
  EXPECT_EQ(got.Get(kCpu), tc.want_cpu) << tc.upstream;
  EXPECT_EQ(got.Get(kMemory), tc.want_mem) << tc.upstream;
  // PodRequestsInto agrees with PodRequests on any width.
  std::vector<int64_t> into(6, -7);
  PodRequestsInto(pod, tc.options, into);
  EXPECT_EQ(into[0], tc.want_cpu) << tc.upstream;
  EXPECT_EQ(into[1], tc.want_mem) << tc.upstream;
  for (size_t i = 2; i < into.size(); ++i) EXPECT_EQ(into[i], 0) << tc.upstream;
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name = std::to_string(info.index) + "_";
  for (const char* p = info.param.upstream; *p != '\0'; ++p) {
    const char ch = *p;
    const bool alnum =
        (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
    name += alnum ? ch : '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Upstream, PodRequestsTableTest, ::testing::ValuesIn(Cases()), CaseName);

TEST(PodRequestsTest, ExtendedResourcesBeyondTheFixedIds) {
  Pod pod;
  const ResourceId gpu{4};
  Container app;
  app.requests.Set(gpu, 2);
  Container init;
  init.requests.Set(gpu, 3);
  pod.containers.push_back(app);
  pod.init_containers.push_back(init);
  const ResourceVector got = PodRequests(pod);
  EXPECT_EQ(got.Get(gpu), 3);
  EXPECT_EQ(got.size(), 5u);
  // A narrower output simply leaves the extended resource out.
  std::vector<int64_t> narrow(2, 0);
  PodRequestsInto(pod, {}, narrow);
  EXPECT_EQ(narrow[0], 0);
}

TEST(PodRequestsTest, SumsSaturateInsteadOfOverflowing) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  Pod pod;
  Container big;
  big.requests.Set(kMemory, kMax - 1);
  pod.containers.push_back(big);
  pod.containers.push_back(big);
  Container sidecar = big;
  sidecar.restartable = true;
  pod.init_containers.push_back(sidecar);
  pod.init_containers.push_back(big);
  pod.overhead.Set(kMemory, kMax);
  EXPECT_EQ(PodRequests(pod).Get(kMemory), kMax);
  EXPECT_EQ(SaturatingAdd(kMax, 1), kMax);
  EXPECT_EQ(SaturatingAdd(std::numeric_limits<int64_t>::min(), -1),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(SaturatingAdd(2, 3), 5);
}

// Issue 14: two containers each asking 2^63-1 (or 5e18) nvidia.com/gpu, or 5E + 5E memory,
// overflowed the pod's sum and the pod was bound to a node without GPUs. Readers now refuse
// such a pod, naming the container whose amount takes the sum past the bound.
TEST(CheckPodRequestsInRangeTest, RefusesSumsPastInt64) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  ResourceCatalog catalog;
  const ResourceId gpu = catalog.Intern("nvidia.com/gpu");
  {
    Pod pod;
    Container c;
    c.requests.Set(gpu, kMax);
    pod.containers = {c, c};
    auto status = CheckPodRequestsInRange(pod, catalog);
    ASSERT_FALSE(status.has_value());
    EXPECT_EQ(status.error().code(), core::ErrorCode::kOutOfRange);
    EXPECT_EQ(status.error().location().field, "containers[1].resources.requests[nvidia.com/gpu]");
    EXPECT_NE(status.error().message().find("nvidia.com/gpu requests add up to more than"),
              std::string::npos);
  }
  {
    Pod pod;  // 5E + 5E memory
    Container c;
    c.requests.Set(kMemory, 5'000'000'000'000'000'000);
    pod.containers = {c, c};
    auto status = CheckPodRequestsInRange(pod, catalog);
    ASSERT_FALSE(status.has_value());
    EXPECT_EQ(status.error().location().field, "containers[1].resources.requests.memory");
  }
  {
    Pod pod;  // a limit standing in for a missing request counts too (Kueue's rule)
    Container c;
    c.limits.Set(gpu, kMax);
    Container d;
    d.requests.Set(gpu, 1);
    pod.containers = {d, c};
    auto status = CheckPodRequestsInRange(pod, catalog);
    ASSERT_FALSE(status.has_value());
    EXPECT_EQ(status.error().location().field, "containers[1].resources.limits[nvidia.com/gpu]");
  }
  {
    Pod pod;  // a sidecar adds to the app containers; the overhead to the larger of the two
    Container app;
    app.requests.Set(kCpu, kMax / 2);
    Container sidecar = app;
    sidecar.restartable = true;
    pod.containers = {app};
    pod.init_containers = {sidecar};
    EXPECT_TRUE(CheckPodRequestsInRange(pod, catalog).has_value());  // kMax - 1
    pod.overhead.Set(kCpu, 2);
    auto status = CheckPodRequestsInRange(pod, catalog);
    ASSERT_FALSE(status.has_value());
    EXPECT_EQ(status.error().location().field, "overhead.cpu");
  }
  {
    Pod pod;  // an init container's peak is its own amount plus the sidecars before it
    Container sidecar;
    sidecar.requests.Set(gpu, kMax);
    sidecar.restartable = true;
    Container init;
    init.requests.Set(gpu, 1);
    pod.containers = {Container{}};
    pod.init_containers = {sidecar, init};
    auto status = CheckPodRequestsInRange(pod, catalog);
    ASSERT_FALSE(status.has_value());
    EXPECT_EQ(status.error().location().field,
              "initContainers[1].resources.requests[nvidia.com/gpu]");
  }
  {
    Pod pod;  // at the bound exactly: fine
    Container c;
    c.requests.Set(gpu, kMax - 1);
    Container d;
    d.requests.Set(gpu, 1);
    pod.containers = {c, d};
    EXPECT_TRUE(CheckPodRequestsInRange(pod, catalog).has_value());
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::model
