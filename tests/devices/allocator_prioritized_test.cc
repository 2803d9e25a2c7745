// Upstream table cases for firstAvailable (prioritized list), partitionable devices
// (shared counters) and device taints, ported by semantics.
#include <gtest/gtest.h>

#include "devices/allocator_test_util.h"

namespace berth::devices::testing {
namespace BERTH_UNITY_ID {

const std::string kA = "driver-a";
const std::string kB = "driver-b";

World Base() {
  World w;
  w.Classes({Class("class-a", kA), Class("class-b", kB)});
  return w;
}
SliceB OneDevice(const std::string& slice, const std::string& node, const std::string& pool,
                 const std::string& driver) {
  return SliceB(slice, node, pool, driver).Dev(DeviceB("device-1"));
}
std::string MemAtLeast(const std::string& q) {
  return "device.capacity[\"driver-a\"].memory.compareTo(quantity(\"" + q + "\")) >= 0";
}
std::string Gen(const std::string& v) {
  return "device.attributes[\"driver-a\"].generation == \"" + v + "\"";
}

TEST(AllocatorPrioritizedListTest, FirstUnavailable) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-b"), SubB("subReq-1", "class-a")}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0/subReq-1", kA, "pool-1", "device-1")}});
}

TEST(AllocatorPrioritizedListTest, NonAvailable) {
  World w = Base();
  w.Slices(
       {OneDevice("slice-1", "node-1", "pool-1", kA), OneDevice("slice-2", "node-1", "pool-2", kB)})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-b", 2), SubB("subReq-1", "class-a", 2)}))});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorPrioritizedListTest, DeviceConfig) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kB)
                .Dev(DeviceB("device-1"))
                .Dev(DeviceB("device-2"))})
      .Claims({ClaimB("claim-0")
                   .Req(RequestB("req-0",
                                 {SubB("subReq-0", "class-a"), SubB("subReq-1", "class-b", 2)}))
                   .Config({"req-0/subReq-0"}, kA, "foo")
                   .Config({"req-0/subReq-1"}, kB, "bar")});
  auto run = Allocate(w);
  ExpectAllocated(run->out, {{R("req-0/subReq-1", kB, "pool-1", "device-1"),
                              R("req-0/subReq-1", kB, "pool-1", "device-2")}});
  const auto& config = run->out.allocations[0].config;
  ASSERT_EQ(config.size(), 1u);
  EXPECT_EQ(config[0].source, model::AllocationConfigSource::kFromClaim);
  EXPECT_EQ(config[0].opaque.driver, kB);
  // It names the selected subrequest of the claim's only request: it covers all requests,
  // so newer upstream writes it as "all" (empty).
  EXPECT_TRUE(config[0].requests.empty());
}

TEST(AllocatorPrioritizedListTest, ConfigForOneOfSeveralRequestsKeepsItsNames) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kB)
                .Dev(DeviceB("device-1"))
                .Dev(DeviceB("device-2"))})
      .Claims(
          {ClaimB("claim-0")
               .Req(RequestB("req-0", {SubB("subReq-0", "class-a"), SubB("subReq-1", "class-b")}))
               .Req(RequestB("req-1", "class-b"))
               .Config({"req-0/subReq-1"}, kB, "bar")
               .Config({"req-1"}, kB, "baz")
               .Config({"req-0/subReq-0"}, kA, "unused")});
  auto run = Allocate(w);
  ASSERT_TRUE(run->out.ok()) << Describe(run->out);
  const auto& config = run->out.allocations[0].config;
  ASSERT_EQ(config.size(), 2u);
  EXPECT_EQ(config[0].requests, (std::vector<std::string>{"req-0/subReq-1"}));
  EXPECT_EQ(config[1].requests, (std::vector<std::string>{"req-1"}));
}

TEST(AllocatorPrioritizedListTest, ClassConfig) {
  World w;
  w.Classes({ClassWithConfig("class-a", kA, "foo"), ClassWithConfig("class-b", kB, "bar")})
      .Slices({SliceB("slice-1", "node-1", "pool-1", kB)
                   .Dev(DeviceB("device-1"))
                   .Dev(DeviceB("device-2")),
               SliceB("slice-2", "node-1", "pool-2", kA).Dev(DeviceB("device-3"))})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-a", 2), SubB("subReq-1", "class-b", 2)}))});
  auto run = Allocate(w);
  ExpectAllocated(run->out, {{R("req-0/subReq-1", kB, "pool-1", "device-1"),
                              R("req-0/subReq-1", kB, "pool-1", "device-2")}});
  const auto& config = run->out.allocations[0].config;
  ASSERT_EQ(config.size(), 1u);
  EXPECT_EQ(config[0].source, model::AllocationConfigSource::kFromClass);
  EXPECT_EQ(config[0].opaque.driver, kB);
}

TEST(AllocatorPrioritizedListTest, SubrequestsWithExpressions) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("memory", "2Gi"))
                .Dev(DeviceB("device-2").Cap("memory", "2Gi"))
                .Dev(DeviceB("device-3").Cap("memory", "1Gi"))})
      .Claims(
          {ClaimB("claim-0")
               .Req(RequestB("req-0", "class-a").Sel(MemAtLeast("1Gi")))
               .Req(RequestB("req-1", {SubB("subReq-0", "class-a").Sel(MemAtLeast("4Gi")),
                                       SubB("subReq-1", "class-a", 2).Sel(MemAtLeast("2Gi"))}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-3"),
                                      R("req-1/subReq-1", kA, "pool-1", "device-1"),
                                      R("req-1/subReq-1", kA, "pool-1", "device-2")}});
}

World ConstraintWorld(bool second_device_in_pool2) {
  World w = Base();
  SliceB pool2 =
      SliceB("slice-2", "node-1", "pool-2", kA)
          .Dev(DeviceB("device-2").Cap("memory", "2Gi").Version("driverVersion", "2.0.0"));
  if (second_device_in_pool2) {
    pool2.Dev(DeviceB("device-3").Cap("memory", "1Gi").Version("driverVersion", "1.0.0"));
  }
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("memory", "8Gi").Version("driverVersion", "1.0.0")),
            pool2});
  return w;
}

TEST(AllocatorPrioritizedListTest, SubrequestsWithConstraintsRefParentRequest) {
  World w = ConstraintWorld(true);
  w.Claims({ClaimB("claim-0")
                .Match("driver-a/driverVersion", {"req-0", "req-1"})
                .Req(RequestB("req-0", "class-a").Sel(MemAtLeast("8Gi")))
                .Req(RequestB("req-1", {SubB("subReq-0", "class-a").Sel(MemAtLeast("2Gi")),
                                        SubB("subReq-1", "class-a").Sel(MemAtLeast("1Gi"))}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1"),
                                      R("req-1/subReq-1", kA, "pool-2", "device-3")}});
}

TEST(AllocatorPrioritizedListTest, SubrequestsWithConstraintsRefSubRequest) {
  World w = ConstraintWorld(false);
  w.Claims({ClaimB("claim-0")
                .Match("driver-a/driverVersion", {"req-0", "req-1/subReq-0"})
                .Req(RequestB("req-0", "class-a").Sel(MemAtLeast("8Gi")))
                .Req(RequestB("req-1", {SubB("subReq-0", "class-a").Sel(MemAtLeast("2Gi")),
                                        SubB("subReq-1", "class-a").Sel(MemAtLeast("1Gi"))}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1"),
                                      R("req-1/subReq-1", kA, "pool-2", "device-2")}});
}

TEST(AllocatorPrioritizedListTest, SubrequestsWithAllocationModeAll) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1"))
                .Dev(DeviceB("device-2"))})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-1"}})})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-a").All(), SubB("subReq-1", "class-a")}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0/subReq-1", kA, "pool-1", "device-2")}});
}

TEST(AllocatorPrioritizedListTest, AllocationModeAllMultipleRequests) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1"))
                .Dev(DeviceB("device-2"))})
      .Claims({ClaimB("claim-0")
                   .Req(RequestB("req-0", "class-a"))
                   .Req(RequestB("req-1", {SubB("subReq-0", "class-a").All(),
                                           SubB("subReq-1", "class-a")}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1"),
                                      R("req-1/subReq-1", kA, "pool-1", "device-2")}});
}

World MemWorld() {
  World w = Base();
  w.Slices(
      {SliceB("slice-1", "node-1", "pool-1", kA).Dev(DeviceB("device-1").Cap("memory", "8Gi")),
       SliceB("slice-2", "node-1", "pool-2", kA).Dev(DeviceB("device-2").Cap("memory", "4Gi"))});
  return w;
}

TEST(AllocatorPrioritizedListTest, MultiRequest) {
  World w = MemWorld();
  w.Claims({ClaimB("claim-0")
                .Req(RequestB("req-1", "class-a").Sel(MemAtLeast("8Gi")))
                .Req(RequestB("req-0", {SubB("subReq-0", "class-a").Sel(MemAtLeast("8Gi")),
                                        SubB("subReq-1", "class-a").Sel(MemAtLeast("4Gi"))}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-1", kA, "pool-1", "device-1"),
                                      R("req-0/subReq-1", kA, "pool-2", "device-2")}});
}

TEST(AllocatorPrioritizedListTest, WithBacktracking) {
  World w = MemWorld();
  w.Claims({ClaimB("claim-0")
                .Req(RequestB("req-0", {SubB("subReq-0", "class-a").Sel(MemAtLeast("8Gi")),
                                        SubB("subReq-1", "class-a").Sel(MemAtLeast("4Gi"))}))
                .Req(RequestB("req-1", "class-a").Sel(MemAtLeast("8Gi")))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0/subReq-1", kA, "pool-2", "device-2"),
                                      R("req-1", kA, "pool-1", "device-1")}});
}

TEST(AllocatorPrioritizedListTest, TooManyInFirstSubrequest) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-b", 500), SubB("subReq-1", "class-a")}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0/subReq-1", kA, "pool-1", "device-1")}});
}

TEST(AllocatorPrioritizedListTest, AllocationModeAll) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1"))
                .Dev(DeviceB("device-2"))})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-2"}})})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-a").All(), SubB("subReq-1", "class-a")}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0/subReq-1", kA, "pool-1", "device-1")}});
}

TEST(AllocatorPrioritizedListTest, AllocationModeAllWithSelectors) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "node-1", "pool-1", kA).Dev(DeviceB("device-1").Str("generation", "v5"))})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-a").All().Sel(Gen("v6")),
                             SubB("subReq-1", "class-a").All().Sel(Gen("v5"))}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0/subReq-1", kA, "pool-1", "device-1")}});
}

TEST(AllocatorPrioritizedListTest, AllocationModeAllWithSelectorsMultiplePools) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "node-1", "pool-1", kA).Dev(DeviceB("device-1").Str("generation", "v5")),
        SliceB("slice-2", "node-1", "pool-2", kA).Dev(DeviceB("device-1").Str("generation", "v5"))})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-a").All().Sel(Gen("v6")),
                             SubB("subReq-1", "class-a").All().Sel(Gen("v5"))}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0/subReq-1", kA, "pool-1", "device-1"),
                                      R("req-0/subReq-1", kA, "pool-2", "device-1")}});
}

TEST(AllocatorPrioritizedListTest, AllocationModeAllWithSelectorsMultiplePoolsAcrossNodes) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "node-1", "pool-1", kA).Dev(DeviceB("device-1").Str("generation", "v5")),
        SliceB("slice-2", "node-2", "pool-2", kA)
            .Dev(DeviceB("device-1").Str("generation", "v5"))
            .Dev(DeviceB("device-2").Str("generation", "v6"))})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-a").All().Sel(Gen("v6")),
                             SubB("subReq-1", "class-a").All().Sel(Gen("v5"))}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0/subReq-1", kA, "pool-1", "device-1")}});
}

TEST(AllocatorPrioritizedListTest, AllocationModeAllWithSelectorsDeviceClassSubset) {
  World w;
  model::DeviceClass cls;
  cls.meta.name = "class-a";
  cls.selectors.push_back(
      {"device.driver == \"driver-a\" && device.attributes[\"driver-a\"].selected"});
  w.Classes({cls})
      .Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                   .Dev(DeviceB("device-1").Str("generation", "v6").Bool("selected", false))
                   .Dev(DeviceB("device-2").Str("generation", "v5").Bool("selected", false))
                   .Dev(DeviceB("device-3").Str("generation", "v5").Bool("selected", true))})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-a").All().Sel(Gen("v6")),
                             SubB("subReq-1", "class-a").All().Sel(Gen("v5"))}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0/subReq-1", kA, "pool-1", "device-3")}});
}

TEST(AllocatorPrioritizedListTest, MaxAllocationLimitRequest) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Devs(64)})
      .Claims({ClaimB("claim-0")
                   .Req(RequestB(
                       "req-0", {SubB("subReq-0", "class-a", 32), SubB("subReq-1", "class-a", 16)}))
                   .Req(RequestB("req-1", {SubB("subReq-0", "class-a", 32),
                                           SubB("subReq-1", "class-a", 16)}))});
  std::vector<ResultTuple> want;
  for (int i = 0; i < 16; ++i)
    want.push_back(R("req-0/subReq-1", kA, "pool-1", "device-" + std::to_string(i)));
  for (int i = 16; i < 32; ++i)
    want.push_back(R("req-1/subReq-1", kA, "pool-1", "device-" + std::to_string(i)));
  ExpectAllocated(Allocate(w)->out, {want});
  // Upstream's experimental channel needs 75 steps; the bare search here takes the same path.
  World same = w;
  auto bare = Allocate(same, /*prune=*/false);
  ExpectAllocated(bare->out, {want});
  EXPECT_EQ(bare->allocator->Stats().search_steps, 75);
}

TEST(AllocatorPrioritizedListTest, MaxAllocationAllocationModeAll) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Devs(31),
            SliceB("slice-2", "node-1", "pool-2", kB).Devs(2)})
      .Claims({ClaimB("claim-0")
                   .Req(RequestB("req-0", {SubB("subReq-0", "class-a").All(),
                                           SubB("subReq-1", "class-a", 2)}))
                   .Req(RequestB("req-1", "class-b", 2))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0/subReq-1", kA, "pool-1", "device-0"),
                    R("req-0/subReq-1", kA, "pool-1", "device-1"),
                    R("req-1", kB, "pool-2", "device-0"), R("req-1", kB, "pool-2", "device-1")}});
  auto bare = Allocate(w, /*prune=*/false);
  ASSERT_TRUE(bare->out.ok());
  EXPECT_EQ(bare->allocator->Stats().search_steps, 42);
}

// --- Partitionable devices (shared counters) ---

SliceB Counters(const std::string& slice, const std::string& pool, int64_t count,
                std::map<std::string, std::map<std::string, std::string>> sets,
                const std::string& node = "node-1", const std::string& driver = kA) {
  SliceB s(slice, node, pool, driver);
  s.Count(count);
  for (const auto& [name, counters] : sets) s.CounterSet(name, counters);
  return s;
}

TEST(AllocatorPartitionableTest, SingleDevice) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Count(2)
                .Dev(DeviceB("device-1").Consumes("counter-set-1", {{"memory", "4Gi"}}, false)),
            Counters("slice-2", "pool-1", 2, {{"counter-set-1", {{"memory", "8Gi"}}}})})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1")}});
}

SliceB ThreeMemDevices(const std::string& slice = "slice-1", int64_t count = 2) {
  return SliceB(slice, "node-1", "pool-1", kA)
      .Count(count)
      .Dev(DeviceB("device-1").Consumes("counter-set-1", {{"memory", "4Gi"}}))
      .Dev(DeviceB("device-2").Consumes("counter-set-1", {{"memory", "6Gi"}}))
      .Dev(DeviceB("device-3").Consumes("counter-set-1", {{"memory", "4Gi"}}));
}

TEST(AllocatorPartitionableTest, PrioritizedList) {
  World w = Base();
  w.Slices({ThreeMemDevices(),
            Counters("slice-2", "pool-1", 2, {{"counter-set-1", {{"memory", "8Gi"}}}})})
      .Claims({ClaimB("claim-0")
                   .Req(RequestB("req-0", "class-a"))
                   .Req(RequestB("req-1", {SubB("subReq-0", "class-a").Sel(MemAtLeast("6Gi")),
                                           SubB("subReq-1", "class-a").Sel(MemAtLeast("4Gi"))}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1"),
                                      R("req-1/subReq-1", kA, "pool-1", "device-3")}});
}

TEST(AllocatorPartitionableTest, MultipleDevices) {
  World w = Base();
  w.Slices({ThreeMemDevices(),
            Counters("slice-2", "pool-1", 2, {{"counter-set-1", {{"memory", "8Gi"}}}})})
      .Claims(
          {ClaimB("claim-0").Req(RequestB("req-0", "class-a")).Req(RequestB("req-1", "class-a"))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-1", kA, "pool-1", "device-3")}});
}

TEST(AllocatorPartitionableTest, MultipleCapacityPools) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "node-1", "pool-1", kA)
            .Count(2)
            .Dev(DeviceB("device-1")
                     .Consumes("counter-set-1", {{"memory", "4Gi"}})
                     .Consumes("counter-set-2", {{"cpus", "4"}}))
            .Dev(DeviceB("device-2")
                     .Consumes("counter-set-1", {{"memory", "6Gi"}})
                     .Consumes("counter-set-2", {{"cpus", "6"}}))
            .Dev(DeviceB("device-3")
                     .Consumes("counter-set-1", {{"memory", "4Gi"}})
                     .Consumes("counter-set-2", {{"cpus", "4"}})),
        Counters("slice-2", "pool-1", 2,
                 {{"counter-set-1", {{"memory", "18Gi"}}}, {"counter-set-2", {{"cpus", "8"}}}})})
      .Claims({ClaimB("claim-0")
                   .Req(RequestB("req-0", "class-a"))
                   .Req(RequestB("req-1", {SubB("subReq-0", "class-a").Sel(MemAtLeast("6Gi")),
                                           SubB("subReq-1", "class-a").Sel(MemAtLeast("4Gi"))}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1"),
                                      R("req-1/subReq-1", kA, "pool-1", "device-3")}});
}

TEST(AllocatorPartitionableTest, MultipleCounters) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Count(2)
                .Dev(DeviceB("device-1")
                         .Consumes("counter-set-1", {{"memory", "4Gi"}, {"cpus", "6"}})
                         .Consumes("counter-set-2", {{"cpus", "4"}, {"memory", "2Gi"}}))
                .Dev(DeviceB("device-2")
                         .Consumes("counter-set-1", {{"memory", "6Gi"}, {"cpus", "4"}})
                         .Consumes("counter-set-2", {{"cpus", "6"}, {"memory", "6Gi"}}))
                .Dev(DeviceB("device-3")
                         .Consumes("counter-set-1", {{"memory", "4Gi"}, {"cpus", "4"}})
                         .Consumes("counter-set-2", {{"cpus", "4"}, {"memory", "4Gi"}})),
            Counters("slice-2", "pool-1", 2,
                     {{"counter-set-1", {{"cpus", "8"}, {"memory", "18Gi"}}},
                      {"counter-set-2", {{"cpus", "12"}, {"memory", "18Gi"}}}})})
      .Claims(
          {ClaimB("claim-0").Req(RequestB("req-0", "class-a")).Req(RequestB("req-1", "class-a"))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-2"), R("req-1", kA, "pool-1", "device-3")}});
}

TEST(AllocatorPartitionableTest, MultiplePools) {
  World w = Base();
  auto devs = [](const std::string& slice, const std::string& pool,
                 std::vector<std::pair<std::string, std::string>> use) {
    SliceB s(slice, "node-1", pool, kA);
    s.Count(2);
    for (size_t i = 0; i < use.size(); ++i) {
      s.Dev(DeviceB("device-" + std::to_string(i + 1))
                .Consumes("counter-set-1", {{"cpus", use[i].first}, {"memory", use[i].second}}));
    }
    return s;
  };
  w.Slices(
       {devs("slice-1", "pool-1", {{"6", "4Gi"}, {"4", "6Gi"}, {"4", "4Gi"}}),
        Counters("slice-2", "pool-1", 2, {{"counter-set-1", {{"cpus", "8"}, {"memory", "18Gi"}}}}),
        devs("slice-3", "pool-2", {{"6", "4Gi"}, {"1", "7Gi"}, {"1", "7Gi"}}),
        Counters("slice-4", "pool-2", 2, {{"counter-set-1", {{"cpus", "8"}, {"memory", "18Gi"}}}})})
      .Held({ClaimB("held").Allocated(
          {{kA, "pool-1", "device-2"}, {kA, "pool-1", "device-3"}, {kA, "pool-2", "device-1"}})})
      .Claims(
          {ClaimB("claim-0").Req(RequestB("req-0", "class-a")).Req(RequestB("req-1", "class-a"))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-2", "device-2"), R("req-1", kA, "pool-2", "device-3")}});
}

TEST(AllocatorPartitionableTest, UnusedCountersInCounterSet) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Count(2)
                .Dev(DeviceB("device-1").Consumes("counter-set-1", {{"memory", "5Gi"}}, false))
                .Dev(DeviceB("device-2").Consumes("counter-set-1", {{"memory", "4Gi"}}, false))
                .Dev(DeviceB("device-3").Consumes("counter-set-1", {{"memory", "4Gi"}}, false)),
            Counters("slice-2", "pool-1", 2,
                     {{"counter-set-1", {{"memory", "8Gi"}, {"unused", "1Gi"}}}})})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a", 2))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-2"), R("req-0", kA, "pool-1", "device-3")}});
}

TEST(AllocatorPartitionableTest, NoCapacityAvailable) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Count(2)
                .Dev(DeviceB("device-1").Consumes("counter-set-1", {{"memory", "4Gi"}}))
                .Dev(DeviceB("device-2").Consumes("counter-set-1", {{"memory", "16Gi"}})),
            Counters("slice-2", "pool-1", 2, {{"counter-set-1", {{"memory", "18Gi"}}}})})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-2"}})})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorPartitionableTest, OverallocatedCapacityPool) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Count(2)
                .Dev(DeviceB("device-1").Consumes("counter-set-1", {{"memory", "4Gi"}}))
                .Dev(DeviceB("device-2").Consumes("counter-set-1", {{"memory", "20Gi"}})),
            Counters("slice-2", "pool-1", 2, {{"counter-set-1", {{"memory", "18Gi"}}}})})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-2"}})})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorPartitionableTest, PerDeviceNodeSelectionNodeName) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "per-device", "pool-1", kA)
            .Count(2)
            .Dev(
                DeviceB("device-1").Consumes("counter-set-1", {{"memory", "4Gi"}}).OnNode("node-1"))
            .Dev(DeviceB("device-2")
                     .Consumes("counter-set-1", {{"memory", "6Gi"}})
                     .OnNode("node-2")),
        Counters("slice-2", "pool-1", 2, {{"counter-set-1", {{"memory", "18Gi"}}}}, "per-device")})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-a").Sel(MemAtLeast("6Gi")),
                             SubB("subReq-1", "class-a").Sel(MemAtLeast("4Gi"))}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0/subReq-1", kA, "pool-1", "device-1")}});
}

TEST(AllocatorPartitionableTest, PerDeviceNodeSelectionNodeSelector) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "per-device", "pool-1", kA)
            .Count(2)
            .Dev(DeviceB("device-1")
                     .Consumes("counter-set-1", {{"memory", "4Gi"}})
                     .OnSelector(LabelSelector("region", "region-1"))),
        Counters("slice-2", "pool-1", 2, {{"counter-set-1", {{"memory", "18Gi"}}}}, "per-device")})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1")}},
                  LabelSelector("region", "region-1"));
}

TEST(AllocatorPartitionableTest, PerDeviceNodeSelectionNodeSelectorMultipleDevices) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "per-device", "pool-1", kA)
            .Count(2)
            .Dev(DeviceB("device-1")
                     .Consumes("counter-set-1", {{"memory", "4Gi"}})
                     .OnSelector(LabelSelector("region", "region-1")))
            .Dev(
                DeviceB("device-2").Consumes("counter-set-1", {{"memory", "4Gi"}}).OnNode("node-1"))
            .Dev(DeviceB("device-3").Consumes("counter-set-1", {{"memory", "4Gi"}}).OnAllNodes()),
        Counters("slice-2", "pool-1", 2, {{"counter-set-1", {{"memory", "18Gi"}}}}, "per-device"),
        SliceB("slice-3", "node-1", "pool-2", kB)
            .Count(2)
            .Dev(DeviceB("device-1").Consumes("counter-set-2", {{"memory", "4Gi"}}))
            .Dev(DeviceB("device-2").Consumes("counter-set-2", {{"memory", "4Gi"}}))
            .Dev(DeviceB("device-3").Consumes("counter-set-2", {{"memory", "4Gi"}})),
        Counters("slice-4", "pool-2", 2, {{"counter-set-2", {{"memory", "12Gi"}}}}, "node-1", kB)})
      .Claims({ClaimB("claim-0")
                   .Req(RequestB("req-0", "class-a", 3))
                   .Req(RequestB("req-1", "class-b", 3))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-0", kA, "pool-1", "device-2"),
                    R("req-0", kA, "pool-1", "device-3"), R("req-1", kB, "pool-2", "device-1"),
                    R("req-1", kB, "pool-2", "device-2"), R("req-1", kB, "pool-2", "device-3")}});
}

TEST(AllocatorPartitionableTest, WithAttributeSelector) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Count(2)
                .Dev(DeviceB("device-1")
                         .Bool("special", true)
                         .Consumes("counter-set-1", {{"cpu1", "1"}}, false)
                         .Consumes("counter-set-2", {{"mem", "10Gi"}}, false))
                .Dev(DeviceB("device-2")
                         .Bool("special", false)
                         .Consumes("counter-set-1", {{"cpu2", "1"}}, false)
                         .Consumes("counter-set-2", {{"mem", "10Gi"}}, false))
                .Dev(DeviceB("device-3")
                         .Bool("special", false)
                         .Consumes("counter-set-1", {{"cpu3", "1"}}, false)
                         .Consumes("counter-set-2", {{"mem", "10Gi"}}, false)),
            Counters("slice-2", "pool-1", 2,
                     {{"counter-set-1", {{"cpu1", "1"}, {"cpu2", "1"}, {"cpu3", "1"}}},
                      {"counter-set-2", {{"mem", "30Gi"}}}})})
      .Claims(
          {ClaimB("claim-0")
               .Req(RequestB("req-0", "class-a", 2))
               .Req(RequestB("req-1", "class-a").Sel("device.attributes[\"driver-a\"].special"))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-2"), R("req-0", kA, "pool-1", "device-3"),
                    R("req-1", kA, "pool-1", "device-1")}});
}

TEST(AllocatorPartitionableTest, SameCounterSetNameInDifferentResourceSlices) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Count(4).Dev(DeviceB("device-1")),
            Counters("slice-2", "pool-1", 4, {{"counter-set-1", {{"c", "1"}}}}),
            SliceB("slice-3", "node-1", "pool-1", kA).Count(4).Dev(DeviceB("device-2")),
            Counters("slice-4", "pool-1", 4, {{"counter-set-1", {{"c", "1"}}}})})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  auto run = Allocate(w);
  ExpectError(run->out, "invalid resource pools were encountered");
  ASSERT_FALSE(run->diags.entries().empty());
  EXPECT_EQ(run->diags.entries()[0].error.location().object, "ResourceSlice/slice-4");
  EXPECT_EQ(run->diags.entries()[0].error.location().field, "spec.sharedCounters[0].name");
}

TEST(AllocatorPartitionableTest, ReferencesUnknownCounterSet) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Count(2)
                .Dev(DeviceB("device-1").Consumes("counter-set-2", {{"c", "1"}}, false)),
            Counters("slice-2", "pool-1", 2, {{"counter-set-1", {{"c", "1"}}}})})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  auto run = Allocate(w);
  ExpectError(run->out, "invalid resource pools were encountered");
  ASSERT_FALSE(run->diags.entries().empty());
  EXPECT_EQ(run->diags.entries()[0].error.location().object, "ResourceSlice/slice-1");
  EXPECT_EQ(run->diags.entries()[0].error.location().field,
            "spec.devices[0].consumesCounters[0].counterSet");
}

TEST(AllocatorPartitionableTest, ReferencesUnknownCounterInCounterSet) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Count(2)
                .Dev(DeviceB("device-1").Consumes("counter-set-1", {{"memory", "8Gi"}}, false)),
            Counters("slice-2", "pool-1", 2, {{"counter-set-1", {{"other-memory", "8Gi"}}}})})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectError(Allocate(w)->out, "invalid resource pools were encountered");
}

TEST(AllocatorPartitionableTest, ReferencesCounterSetInOtherPool) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Consumes("counter-set-1", {{"memory", "8Gi"}}, false)),
            Counters("slice-2", "pool-2", 1, {{"counter-set-1", {{"memory", "8Gi"}}}})})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectError(Allocate(w)->out, "invalid resource pools were encountered");
}

TEST(AllocatorPartitionableTest, DevicesOnDifferentNodesConsumeSameCounterSet) {
  World w = Base();
  w.Slices({Counters("slice-1", "pool-1", 3, {{"counter-set-1", {{"memory", "8Gi"}}}}),
            SliceB("slice-2", "node-1", "pool-1", kA)
                .Count(3)
                .Dev(DeviceB("device-1").Consumes("counter-set-1", {{"memory", "6Gi"}}))
                .Dev(DeviceB("device-2").Consumes("counter-set-1", {{"memory", "2Gi"}})),
            SliceB("slice-3", "node-2", "pool-1", kA)
                .Count(3)
                .Dev(DeviceB("device-3").Consumes("counter-set-1", {{"memory", "6Gi"}}, false))})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-3"}})})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-a").Sel(MemAtLeast("6Gi")),
                             SubB("subReq-1", "class-a").Sel(MemAtLeast("2Gi"))}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0/subReq-1", kA, "pool-1", "device-2")}});
}

TEST(AllocatorPartitionableTest, ValidationErrorOnNonTargetingSlice) {
  World w = Base();
  w.Slices({Counters("slice-1", "pool-1", 3, {{"counter-set-1", {{"memory", "8Gi"}}}}),
            SliceB("slice-2", "node-1", "pool-1", kA)
                .Count(3)
                .Dev(DeviceB("device-1").Consumes("counter-set-1", {{"memory", "6Gi"}})),
            SliceB("slice-3", "node-2", "pool-1", kA)
                .Count(3)
                .Dev(DeviceB("device-3").Consumes("counter-set-2", {{"memory", "6Gi"}}, false))})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectError(Allocate(w)->out, "invalid resource pools were encountered");
}

// --- Device taints ---

core::Toleration TolerateNoSchedule() {
  core::Toleration t;
  t.op = core::TolerationOp::kExists;
  t.key = "taint-key";
  t.effect = core::TaintEffect::kNoSchedule;
  return t;
}
core::Toleration TolerateNoExecute() {
  core::Toleration t;
  t.op = core::TolerationOp::kEqual;
  t.key = "taint-key";
  t.value = "taint-value-2";
  t.effect = core::TaintEffect::kNoExecute;
  return t;
}
DeviceB NoSchedule(DeviceB d) {
  return d.Taint("taint-key", "taint-value", model::DeviceTaintEffect::kNoSchedule);
}
DeviceB NoExecute(DeviceB d) {
  return d.Taint("taint-key", "taint-value-2", model::DeviceTaintEffect::kNoExecute);
}

TEST(AllocatorTaintTest, TwoDevices) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(NoSchedule(DeviceB("device-1")))
                .Dev(NoExecute(DeviceB("device-2")))})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTaintTest, OneDeviceTwoTaints) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "node-1", "pool-1", kA).Dev(NoExecute(NoSchedule(DeviceB("device-1"))))})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTaintTest, TwoDevicesTolerated) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(NoSchedule(DeviceB("device-1")))
                .Dev(NoExecute(DeviceB("device-2")))})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a").Tol(TolerateNoExecute()))});
  auto run = Allocate(w);
  ExpectAllocated(run->out, {{R("req-0", kA, "pool-1", "device-2")}});
  ASSERT_EQ(run->out.allocations[0].results[0].tolerations.size(), 1u);
  EXPECT_EQ(run->out.allocations[0].results[0].tolerations[0], TolerateNoExecute());
}

TEST(AllocatorTaintTest, TwoDevicesPrioritizedListTolerated) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(NoSchedule(DeviceB("device-1")))
                .Dev(NoExecute(DeviceB("device-2")))})
      .Claims({ClaimB("claim-0").Req(RequestB(
          "req-0",
          {SubB("subReq-0", "class-a"), SubB("subReq-1", "class-a").Tol(TolerateNoExecute())}))});
  auto run = Allocate(w);
  ExpectAllocated(run->out, {{R("req-0/subReq-1", kA, "pool-1", "device-2")}});
  EXPECT_EQ(run->out.allocations[0].results[0].tolerations.size(), 1u);
}

TEST(AllocatorTaintTest, NoEffect) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1")
                         .Taint("taint-key", "taint-value", model::DeviceTaintEffect::kNone))})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1")}});
}

TEST(AllocatorTaintTest, OneDeviceTwoTaintsBothTolerated) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "node-1", "pool-1", kA).Dev(NoExecute(NoSchedule(DeviceB("device-1"))))})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", "class-a").Tol(TolerateNoSchedule()).Tol(TolerateNoExecute()))});
  auto run = Allocate(w);
  ExpectAllocated(run->out, {{R("req-0", kA, "pool-1", "device-1")}});
  EXPECT_EQ(run->out.allocations[0].results[0].tolerations.size(), 2u);
}

TEST(AllocatorTaintTest, PrioritizedList) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Dev(NoSchedule(DeviceB("device-1")))})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-b"), SubB("subReq-1", "class-a")}))});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTaintTest, AdminAccessDoesNotBypassTaints) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Dev(NoSchedule(DeviceB("device-1")))})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-1"}, {kA, "pool-1", "device-2"}})})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a").Admin())});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTaintTest, AllDevicesSingle) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Dev(NoSchedule(DeviceB("device-1")))})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a").All())});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTaintTest, EmptyKeyExistsToleratesEverything) {
  World w = Base();
  core::Toleration all;
  all.op = core::TolerationOp::kExists;
  w.Slices(
       {SliceB("slice-1", "node-1", "pool-1", kA).Dev(NoExecute(NoSchedule(DeviceB("device-1"))))})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a").Tol(all))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1")}});
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::devices::testing
