// Upstream table cases for consumable capacity (allowMultipleAllocations, request
// policies, shares), distinctAttribute constraints and multi-host pools, ported by
// semantics. Share IDs are berth's deterministic ones, so tests only check they are set.
#include <gtest/gtest.h>

#include "devices/allocator_test_util.h"

namespace berth::devices::testing {
namespace BERTH_UNITY_ID {

const std::string kA = "driver-a";

World Base() {
  World w;
  w.Classes({Class("class-a", kA), ClassMulti("class-multi", kA, true),
             ClassMulti("class-dedicated", kA, false)});
  return w;
}

// Results with consumed capacity: (request, device, {capacity: amount}).
using Shared = std::tuple<std::string, std::string, std::map<std::string, std::string>>;

void ExpectShared(const AllocationOutcome& out, const std::vector<std::vector<Shared>>& per_claim) {
  ASSERT_TRUE(out.ok()) << Describe(out);
  ASSERT_EQ(out.allocations.size(), per_claim.size());
  for (size_t c = 0; c < per_claim.size(); ++c) {
    std::vector<Shared> got;
    for (const auto& r : out.allocations[c].results) {
      EXPECT_FALSE(r.share_id.empty()) << r.device;
      std::map<std::string, std::string> consumed;
      for (const auto& [k, v] : r.consumed_capacity) consumed[k] = v.ToString();
      got.emplace_back(r.request, r.device, consumed);
    }
    std::vector<Shared> want = per_claim[c];
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << "claim #" << c;
  }
}

ClaimB OneReq(const std::string& name, const std::string& cls, const std::string& cap = "") {
  RequestB r("req-0", cls);
  if (!cap.empty()) r.CapReq("capacity-0", cap);
  return ClaimB(name).Req(r);
}

TEST(AllocatorCapacityTest, MultiAllocatableDeviceWithMissingCapacityRequest) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("capacity-1", "1").Multi())})
      .Claims({OneReq("claim-0", "class-a", "1")});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorCapacityTest, AllocationModeAllWithMissingCapacityRequest) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("capacity-1", "1").Multi())})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", "class-multi").All().CapReq("capacity-0", "1"))});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorCapacityTest, WithoutCapacityWithoutCapacityRequest) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Dev(DeviceB("device-1").Multi())})
      .Claims({OneReq("claim-0", "class-multi"), OneReq("claim-1", "class-multi")});
  auto run = Allocate(w);
  ExpectShared(run->out, {{{"req-0", "device-1", {}}}, {{"req-0", "device-1", {}}}});
  EXPECT_NE(run->out.allocations[0].results[0].share_id,
            run->out.allocations[1].results[0].share_id);
}

TEST(AllocatorCapacityTest, WithoutPolicyWithoutCapacityRequest) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("capacity-0", "1").Multi())
                .Dev(DeviceB("device-2").Cap("capacity-0", "1").Multi())})
      .Claims({OneReq("claim-0", "class-multi"), OneReq("claim-1", "class-multi")});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "1"}}}},
                                  {{"req-0", "device-2", {{"capacity-0", "1"}}}}});
}

TEST(AllocatorCapacityTest, WithoutPolicyWithoutCapacityRequestBlock) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("capacity-0", "2").Multi())})
      .Claims({OneReq("claim-0", "class-multi"), OneReq("claim-1", "class-multi")});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorCapacityTest, WithoutPolicyWithCapacityRequest) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("capacity-0", "2").Multi())})
      .Claims({OneReq("claim-0", "class-multi", "1"), OneReq("claim-1", "class-multi", "1")});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "1"}}}},
                                  {{"req-0", "device-1", {{"capacity-0", "1"}}}}});
}

TEST(AllocatorCapacityTest, WithPolicyWithoutCapacityRequest) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Multi().CapRange("capacity-0", "4"))})
      .Claims({OneReq("claim-0", "class-multi"), OneReq("claim-1", "class-multi")});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "2"}}}},
                                  {{"req-0", "device-1", {{"capacity-0", "2"}}}}});
}

TEST(AllocatorCapacityTest, WithZeroRequestPolicy) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Multi().CapValues("capacity-0", "1", "0"))})
      .Claims({OneReq("claim-0", "class-multi"), OneReq("claim-1", "class-multi")});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "0"}}}},
                                  {{"req-0", "device-1", {{"capacity-0", "0"}}}}});
}

TEST(AllocatorCapacityTest, ViolatesZeroRequestPolicy) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Multi().CapValues("capacity-0", "1", "0"))})
      .Claims({OneReq("claim-0", "class-multi", "1")});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorCapacityTest, WithRangePolicyWithCapacityRequest) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Multi().CapRange("capacity-0", "4"))})
      .Claims({OneReq("claim-0", "class-multi", "1"), OneReq("claim-1", "class-multi", "1")});
  // Rounded up to the range minimum.
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "2"}}}},
                                  {{"req-0", "device-1", {{"capacity-0", "2"}}}}});
}

TEST(AllocatorCapacityTest, WithRangePolicyStep) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Multi().CapRange("capacity-0", "4"))})
      .Claims({OneReq("claim-0", "class-multi", "3")});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "4"}}}}});
}

TEST(AllocatorCapacityTest, WithValidValuesPolicy) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Multi().CapValues("capacity-0", "4", "1", {"2"}))})
      .Claims({OneReq("claim-0", "class-multi", "2")});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "2"}}}}});
}

TEST(AllocatorCapacityTest, WithValidValuesPolicyRoundUp) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Multi().CapValues("capacity-0", "3", "1", {"3"}))})
      .Claims({OneReq("claim-0", "class-multi", "2")});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "3"}}}}});
}

TEST(AllocatorCapacityTest, WithExceededConsumableCapacityRequest) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Multi().CapRange("capacity-0", "2"))})
      .Claims({OneReq("claim-0", "class-multi", "1"), OneReq("claim-1", "class-multi", "2")});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorCapacityTest, WithRequestOverMaxSharingPolicy) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Multi().CapRange("capacity-0", "10"))})
      .Claims({OneReq("claim-0", "class-multi", "6")});
  ExpectNoFit(Allocate(w)->out);  // the range's max is 4
}

TEST(AllocatorCapacityTest, WithAllocatedCapacityUseRemaining) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Multi().CapRange("capacity-0", "4"))})
      .Held({ClaimB("held").AllocatedShare(kA, "pool-1", "device-1", {{"capacity-0", "2"}})})
      .Claims({OneReq("claim-0", "class-multi", "2")});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "2"}}}}});
}

TEST(AllocatorCapacityTest, WithAllocatedCapacityNextDevice) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Multi().CapRange("capacity-0", "2"))
                .Dev(DeviceB("device-2").Multi().CapRange("capacity-0", "2"))})
      .Held({ClaimB("held").AllocatedShare(kA, "pool-1", "device-1", {{"capacity-0", "2"}})})
      .Claims({OneReq("claim-0", "class-multi", "2")});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-2", {{"capacity-0", "2"}}}}});
}

TEST(AllocatorCapacityTest, WithMultiAllocatableDeviceBacktrack) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-2")
                         .Str("stringAttribute", "stringAttributeValue1")
                         .Multi()
                         .CapRange("capacity-0", "2"))
                .Dev(DeviceB("device-1")
                         .Str("stringAttribute", "stringAttributeValue2")
                         .Multi()
                         .CapRange("capacity-0", "4"))})
      .Claims({ClaimB("claim-0")
                   .Match("driver-a/stringAttribute")
                   .Req(RequestB("req-0", "class-a").CapReq("capacity-0", "2"))
                   .Req(RequestB("req-1", "class-a").CapReq("capacity-0", "2")),
               OneReq("claim-1", "class-a", "2")});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "2"}}},
                                   {"req-1", "device-1", {{"capacity-0", "2"}}}},
                                  {{"req-0", "device-2", {{"capacity-0", "2"}}}}});
}

TEST(AllocatorCapacityTest, WithSubrequest) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Multi().CapRange("capacity-0", "2"))})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-multi").CapReq("capacity-0", "4"),
                             SubB("subReq-1", "class-multi").CapReq("capacity-0", "2"),
                             SubB("subReq-1", "class-multi")}))});
  ExpectShared(Allocate(w)->out, {{{"req-0/subReq-1", "device-1", {{"capacity-0", "2"}}}}});
}

TEST(AllocatorCapacityTest, WithNoAvailableConsumableCapacity) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Multi().CapRange("capacity-0", "2"))})
      .Held({ClaimB("held").AllocatedShare(kA, "pool-1", "device-1", {{"capacity-0", "2"}})})
      .Claims({OneReq("claim-0", "class-multi", "2")});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorCapacityTest, AllocationModeAllFilterOutNoCapacity) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("capacity-0", "2").Multi())
                .Dev(DeviceB("device-2").Multi())})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", "class-multi").All().CapReq("capacity-0", "2"))});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "2"}}}}});
}

TEST(AllocatorCapacityTest, AllocationModeAllFilterOutInsufficientCapacity) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("capacity-0", "2").Multi())
                .Dev(DeviceB("device-2").Cap("capacity-0", "1").Multi())})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", "class-multi").All().CapReq("capacity-0", "2"))});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "2"}}}}});
}

TEST(AllocatorCapacityTest, AllocationModeAllAllocatingSufficient) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("capacity-0", "2").Multi())
                .Dev(DeviceB("device-2").Cap("capacity-0", "1").Multi())})
      .Claims({ClaimB("claim-0")
                   .Req(RequestB("req-0", "class-a").CapReq("capacity-0", "1"))
                   .Req(RequestB("req-1", "class-a").All().CapReq("capacity-0", "1"))});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "1"}}},
                                   {"req-1", "device-1", {{"capacity-0", "1"}}},
                                   {"req-1", "device-2", {{"capacity-0", "1"}}}}});
}

TEST(AllocatorCapacityTest, AllocationModeAllInUseSufficient) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("capacity-0", "2").Multi())
                .Dev(DeviceB("device-2").Cap("capacity-0", "1").Multi())})
      .Held({ClaimB("held").AllocatedShare(kA, "pool-1", "device-1", {{"capacity-0", "1"}})})
      .Claims(
          {ClaimB("claim-0").Req(RequestB("req-0", "class-a").All().CapReq("capacity-0", "1"))});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "1"}}},
                                   {"req-0", "device-2", {{"capacity-0", "1"}}}}});
}

TEST(AllocatorCapacityTest, AllocationModeAllAllocatingInsufficient) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("capacity-0", "1").Multi())
                .Dev(DeviceB("device-2").Cap("capacity-0", "1").Multi())})
      .Claims({ClaimB("claim-0")
                   .Req(RequestB("req-0", "class-a").CapReq("capacity-0", "1"))
                   .Req(RequestB("req-1", "class-a").All().CapReq("capacity-0", "1"))});
  ExpectNoFit(Allocate(w)->out);
}

// The older table (allocator_testing.go before kubernetes#140769) filtered device-1 out of
// "all" because its remaining capacity is used up; newer upstream keeps it in the set, so
// the request cannot be satisfied. berth follows the newer rule.
TEST(AllocatorCapacityTest, AllocationModeAllInUseInsufficient) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("capacity-0", "1").Multi())
                .Dev(DeviceB("device-2").Cap("capacity-0", "1").Multi())})
      .Held({ClaimB("held").AllocatedShare(kA, "pool-1", "device-1", {{"capacity-0", "1"}})})
      .Claims(
          {ClaimB("claim-0").Req(RequestB("req-0", "class-a").All().CapReq("capacity-0", "1"))});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorCapacityTest, DedicatedDeviceWithConsumableCapacityRequest) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "node-1", "pool-1", kA).Dev(DeviceB("device-1").Cap("capacity-0", "1"))})
      .Claims({OneReq("claim-0", "class-dedicated", "1")});
  auto run = Allocate(w);
  ExpectAllocated(run->out, {{R("req-0", kA, "pool-1", "device-1")}});
  EXPECT_TRUE(run->out.allocations[0].results[0].share_id.empty());
  EXPECT_TRUE(run->out.allocations[0].results[0].consumed_capacity.empty());
}

TEST(AllocatorCapacityTest, DedicatedDeviceWithMultipleConsumableCapacityRequest) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").CapRange("capacity-0", "2"))})
      .Claims(
          {OneReq("claim-0", "class-dedicated", "1"), OneReq("claim-1", "class-dedicated", "1")});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorCapacityTest, ExcludeMultiAllocatableDeviceByClassSelector) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("capacity-0", "1").Multi())})
      .Claims({OneReq("claim-0", "class-dedicated", "1")});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorCapacityTest, NotAllocateMultiAllocatableDeviceWhichAlreadyDedicated) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Multi().CapRange("capacity-0", "2"))})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-1"}})})
      .Claims({OneReq("claim-0", "class-multi", "1")});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorCapacityTest, NotAllocateDedicatedDeviceWhichChangeFromMultiAllocatable) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").CapRange("capacity-0", "2"))})
      .Held({ClaimB("held").AllocatedShare(kA, "pool-1", "device-1", {{"capacity-0", "1"}})})
      .Claims({OneReq("claim-0", "class-multi", "1")});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorCapacityTest, AllowMultipleAllocationsWithPartitionableDevice) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Count(2)
                .Dev(DeviceB("device-1").Consumes("counter-set-1", {{"memory", "4Gi"}}).Multi())
                .Dev(DeviceB("device-2").Consumes("counter-set-1", {{"memory", "6Gi"}}).Multi())
                .Dev(DeviceB("device-3").Consumes("counter-set-1", {{"memory", "4Gi"}}).Multi()),
            SliceB("slice-2", "node-1", "pool-1", kA)
                .Count(2)
                .CounterSet("counter-set-1", {{"memory", "8Gi"}})})
      .Claims({ClaimB("claim-0")
                   .Req(RequestB("req-0", "class-multi"))
                   .Req(RequestB("req-1", {SubB("subReq-0", "class-multi")
                                               .Sel("device.capacity[\"driver-a\"].memory."
                                                    "compareTo(quantity(\"6Gi\")) >= 0"),
                                           SubB("subReq-1", "class-multi")
                                               .Sel("device.capacity[\"driver-a\"].memory."
                                                    "compareTo(quantity(\"4Gi\")) >= 0")}))});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"memory", "4Gi"}}},
                                   {"req-1/subReq-1", "device-3", {{"memory", "4Gi"}}}}});
}

TEST(AllocatorCapacityTest, WithPartitionableDeviceMultipleCapacityPools) {
  World w = Base();
  auto dev = [](const std::string& name, const std::string& c0) {
    return DeviceB(name)
        .Consumes("counter-set-1", {{"capacity-0", c0}})
        .Consumes("counter-set-2", {{"capacity-1", "4"}})
        .Multi()
        .CapRange("capacity-1", "4");
  };
  auto at_least = [](const std::string& q) {
    return "device.capacity[\"driver-a\"][\"capacity-0\"].compareTo(quantity(\"" + q + "\")) >= 0";
  };
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Count(2)
                .Dev(dev("device-1", "2"))
                .Dev(dev("device-2", "4"))
                .Dev(dev("device-3", "2")),
            SliceB("slice-2", "node-1", "pool-1", kA)
                .Count(2)
                .CounterSet("counter-set-1", {{"capacity-0", "4"}})
                .CounterSet("counter-set-2", {{"capacity-1", "8"}})})
      .Claims(
          {ClaimB("claim-0")
               .Req(RequestB("req-0", "class-a").CapReq("capacity-0", "1"))
               .Req(RequestB("req-2", "class-a").CapReq("capacity-0", "2"))
               .Req(RequestB(
                   "req-1",
                   {SubB("subReq-0", "class-a").Sel(at_least("4")).CapReq("capacity-0", "1"),
                    SubB("subReq-1", "class-a").Sel(at_least("2")).CapReq("capacity-0", "1")}))});
  ExpectShared(Allocate(w)->out,
               {{{"req-0", "device-1", {{"capacity-0", "1"}, {"capacity-1", "2"}}},
                 {"req-2", "device-3", {{"capacity-0", "2"}, {"capacity-1", "2"}}},
                 {"req-1/subReq-1", "device-1", {{"capacity-0", "1"}, {"capacity-1", "2"}}}}});
}

// --- distinctAttribute ---

TEST(AllocatorDistinctTest, WithDistinctConstraints) {
  World w = Base();
  auto dev = [](const std::string& name, const std::string& version, int64_t numa, bool b) {
    return DeviceB(name)
        .Version("driverVersion", version)
        .Int("numa", numa)
        .Bool("boolAttribute", b)
        .Multi();
  };
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(dev("device-1", "1.0.0", 0, true))
                .Dev(dev("device-2", "1.0.1", 1, false))
                .Dev(dev("device-3", "1.0.2", 2, true))
                .Dev(dev("device-4", "1.0.0", 3, true))})
      .Claims({ClaimB("claim-0")
                   .Distinct("driver-a/boolAttribute", {"req-0", "req-1"})
                   .Distinct("driver-a/driverVersion", {"req-0", "req-1", "req-2"})
                   .Distinct("driver-a/numa", {"req-0", "req-1", "req-2", "req-3"})
                   .Req(RequestB("req-0", "class-a"))
                   .Req(RequestB("req-1", "class-a"))
                   .Req(RequestB("req-2", "class-a"))
                   .Req(RequestB("req-3", "class-a"))});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {}},
                                   {"req-1", "device-2", {}},
                                   {"req-2", "device-3", {}},
                                   {"req-3", "device-4", {}}}});
}

TEST(AllocatorDistinctTest, AttributeNotSet) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Dev(DeviceB("device-1").Multi())})
      .Claims({ClaimB("claim-0")
                   .Distinct("driver-a/boolAttribute", {"req-0"})
                   .Req(RequestB("req-0", "class-a"))});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorDistinctTest, WithSubrequests) {
  World w = Base();
  const std::string flag = "device.attributes[\"driver-a\"].boolAttribute";
  auto req = [&](const std::string& name) {
    return RequestB(name, {SubB("subReq-0", "class-a").Sel(flag), SubB("subReq-1", "class-a")});
  };
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Bool("boolAttribute", true).Multi())
                .Dev(DeviceB("device-2").Bool("boolAttribute", false).Multi())})
      .Claims({ClaimB("claim-0")
                   .Distinct("driver-a/boolAttribute", {"req-0", "req-1"})
                   .Req(req("req-0"))
                   .Req(req("req-1"))
                   .Req(req("req-2"))});
  ExpectShared(Allocate(w)->out, {{{"req-0/subReq-0", "device-1", {}},
                                   {"req-1/subReq-1", "device-2", {}},
                                   {"req-2/subReq-0", "device-1", {}}}});
}

TEST(AllocatorDistinctTest, OneMultiAllocatableDevice) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1")
                         .Str("stringAttribute", "stringAttributeValue")
                         .Multi()
                         .CapRange("capacity-0", "2"))})
      .Claims({ClaimB("claim-0")
                   .Distinct("driver-a/stringAttribute")
                   .Req(RequestB("req-0", "class-multi").CapReq("capacity-0", "1"))
                   .Req(RequestB("req-1", "class-multi").CapReq("capacity-0", "1"))});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorDistinctTest, TwoMultiAllocatableDevices) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Count(2)
                .Dev(DeviceB("device-1")
                         .Str("stringAttribute", "stringAttributeValue1")
                         .Multi()
                         .CapRange("capacity-0", "4")),
            SliceB("slice-1", "node-1", "pool-1", kA)
                .Count(2)
                .Dev(DeviceB("device-2")
                         .Str("stringAttribute", "stringAttributeValue2")
                         .Multi()
                         .CapRange("capacity-0", "4"))})
      .Claims({ClaimB("claim-0")
                   .Distinct("driver-a/stringAttribute")
                   .Req(RequestB("req-0", "class-multi").CapReq("capacity-0", "2"))
                   .Req(RequestB("req-1", "class-multi").CapReq("capacity-0", "2"))});
  ExpectShared(Allocate(w)->out, {{{"req-0", "device-1", {{"capacity-0", "2"}}},
                                   {"req-1", "device-2", {{"capacity-0", "2"}}}}});
}

TEST(AllocatorDistinctTest, ScalarStringValues) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Str("stringAttribute", "value1"))
                .Dev(DeviceB("device-2").Str("stringAttribute", "value1"))
                .Dev(DeviceB("device-3").Str("stringAttribute", "value2"))})
      .Claims({ClaimB("claim-0")
                   .Distinct("driver-a/stringAttribute")
                   .Req(RequestB("req-0", "class-a", 2))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-0", kA, "pool-1", "device-3")}});
}

// --- Multi-host pools and pool completeness ---

TEST(AllocatorMultiHostTest, AllocationModeAllWithMultiHostResourcePool) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Count(2).Dev(DeviceB("device-1")),
            SliceB("slice-2", "node-2", "pool-1", kA).Count(2).Dev(DeviceB("device-2"))})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a").All())});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1")}});
}

TEST(AllocatorMultiHostTest, StaleSliceForCurrentNode) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Count(2).Dev(DeviceB("device-1")),
            SliceB("slice-2", "node-2", "pool-1", kA).Count(2).Gen(2).Dev(DeviceB("device-2"))})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectNoFit(Allocate(w)->out);
}

World Update(const std::string& gen1_node, const std::string& gen2_node, bool gen2_complete) {
  World w = Base();
  w.Slices({SliceB("slice-1", gen1_node, "pool-1", kA).Count(2).Dev(DeviceB("device-1")),
            SliceB("slice-1", gen1_node, "pool-1", kA).Count(2).Dev(DeviceB("device-2")),
            SliceB("slice-2", gen2_node, "pool-1", kA).Count(2).Gen(2).Dev(DeviceB("device-1"))});
  if (gen2_complete)
    w.Slices({SliceB("slice-2", gen2_node, "pool-1", kA).Count(2).Gen(2).Dev(DeviceB("device-2"))});
  w.Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  return w;
}

TEST(AllocatorMultiHostTest, CompleteUpdateFromNode1ToNode2) {
  ExpectAllocated(Allocate(Update("node-1", "node-2", true))->out,
                  {{R("req-0", kA, "pool-1", "device-1")}});
}

TEST(AllocatorMultiHostTest, CompleteUpdateFromNode2ToNode1) {
  ExpectAllocated(Allocate(Update("node-2", "node-1", true))->out,
                  {{R("req-0", kA, "pool-1", "device-1")}});
}

TEST(AllocatorMultiHostTest, IncompleteUpdateFromNode1ToNode2) {
  ExpectAllocated(Allocate(Update("node-1", "node-2", false))->out,
                  {{R("req-0", kA, "pool-1", "device-1")}});
}

TEST(AllocatorMultiHostTest, IncompleteUpdateFromNode2ToNode1) {
  ExpectNoFit(Allocate(Update("node-2", "node-1", false))->out);
}

TEST(AllocatorMultiHostTest, DifferentResourceSlicesInPoolCanTargetDifferentNodes) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-2", "pool-1", kA).Count(2).Dev(DeviceB("device-1")),
            SliceB("slice-2", "node-1", "pool-1", kA).Count(2).Dev(DeviceB("device-2"))})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-2")}});
}

World InvalidPoolWorld() {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Count(2).Dev(DeviceB("device-1")),
            SliceB("slice-2", "node-1", "pool-1", kA).Count(2).Dev(DeviceB("device-1")),
            SliceB("slice-3", "node-1", "pool-2", kA).Dev(DeviceB("device-2"))});
  return w;
}

TEST(AllocatorMultiHostTest, InvalidPoolIsOkIfDevicesCanBeAllocatedFromOther) {
  World w = InvalidPoolWorld();
  w.Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-2", "device-2")}});
}

TEST(AllocatorMultiHostTest, InvalidPoolIsErrorIfNoOtherDeviceCanBeAllocated) {
  World w = InvalidPoolWorld();
  w.Held({ClaimB("held").Allocated({{kA, "pool-2", "device-2"}})})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectError(Allocate(w)->out, "invalid resource pools were encountered");
}

TEST(AllocatorMultiHostTest, NoAllocationFromIncompletePools) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Count(2).Dev(DeviceB("device-1"))})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectNoFit(Allocate(w)->out);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::devices::testing
