// Cases ported by semantics from upstream's shared allocator table test
// (k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting): same inputs,
// same expected results, written with berth's builders. Test names follow the upstream
// case names. Where berth follows a newer upstream rule than that table, the test says so.
#include <gtest/gtest.h>

#include "devices/allocator_test_util.h"

namespace berth::devices::testing {
namespace BERTH_UNITY_ID {

const std::string kA = "driver-a";
const std::string kB = "driver-b";

SliceB OneDevice(const std::string& slice, const std::string& node, const std::string& pool,
                 const std::string& driver) {
  return SliceB(slice, node, pool, driver).Dev(DeviceB("device-1"));
}

RequestB Req(const std::string& name, const std::string& cls = "class-a", int64_t count = 1) {
  return RequestB(name, cls, count);
}

ClaimB Claim(const std::string& name, const std::string& req = "req-0",
             const std::string& cls = "class-a") {
  return ClaimB(name).Req(Req(req, cls));
}

std::string MemAtLeast(const std::string& q) {
  return "device.capacity[\"driver-a\"].memory.compareTo(quantity(\"" + q + "\")) >= 0";
}

World Base() {
  World w;
  w.Classes({Class("class-a", kA), Class("class-b", kB)});
  return w;
}

TEST(AllocatorTableTest, Empty) {
  World w = Base();
  auto run = Allocate(w);
  ASSERT_TRUE(run->out.ok());
  EXPECT_TRUE(run->out.allocations.empty());
}

TEST(AllocatorTableTest, Simple) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)}).Claims({Claim("claim-0")});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1")}});
}

TEST(AllocatorTableTest, OtherNode) {
  World w = Base();
  w.Slices(
       {OneDevice("slice-1", "node-1", "pool-1", kB), OneDevice("slice-2", "node-2", "pool-2", kA)})
      .Claims({Claim("claim-0")})
      .OnNode(1);
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-2", "device-1")}},
                  LocalSelector("node-2"));
}

TEST(AllocatorTableTest, SmallAndLarge) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Cap("memory", "1Gi"))
                .Dev(DeviceB("device-2").Cap("memory", "2Gi"))})
      .Claims({ClaimB("claim-0")
                   .Req(Req("req-0").Sel(MemAtLeast("1Gi")))
                   .Req(Req("req-1").Sel(MemAtLeast("2Gi")))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-1", kA, "pool-1", "device-2")}});
}

TEST(AllocatorTableTest, SmallAndLargeBacktrackRequests) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-2").Cap("memory", "2Gi"))
                .Dev(DeviceB("device-1").Cap("memory", "1Gi"))})
      .Claims({ClaimB("claim-0")
                   .Req(Req("req-0").Sel(MemAtLeast("1Gi")))
                   .Req(Req("req-1").Sel(MemAtLeast("2Gi")))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-1", kA, "pool-1", "device-2")}});
}

TEST(AllocatorTableTest, SmallAndLargeBacktrackClaims) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-2").Cap("memory", "2Gi"))
                .Dev(DeviceB("device-1").Cap("memory", "1Gi"))})
      .Claims({ClaimB("claim-0").Req(Req("req-0").Sel(MemAtLeast("1Gi"))),
               ClaimB("claim-1").Req(Req("req-1").Sel(MemAtLeast("2Gi")))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1")}, {R("req-1", kA, "pool-1", "device-2")}});
}

TEST(AllocatorTableTest, DevicesSplitAcrossDifferentSlices) {
  World w = Base();
  w.Slices(
       {OneDevice("slice-1", "node-1", "pool-1", kA), OneDevice("slice-2", "node-1", "pool-2", kA)})
      .Claims({ClaimB("claim-0").Req(Req("req-0", "class-a", 2))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-0", kA, "pool-2", "device-1")}});
}

TEST(AllocatorTableTest, ObsoleteSlice) {
  World w = Base();
  w.Slices({SliceB("slice-1-obsolete", "node-1", "pool-1", kA).Count(2).Dev(DeviceB("device-1")),
            SliceB("slice-1-obsolete", "node-1", "pool-1", kA)
                .Count(2)
                .Gen(2)
                .Dev(DeviceB("device-2"))})
      .Claims({Claim("claim-0")});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTableTest, DuplicateSlice) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA).Count(2),
            OneDevice("slice-1-2", "node-1", "pool-1", kA).Count(2)})
      .Claims({Claim("claim-0")});
  auto run = Allocate(w);
  ExpectError(run->out, "invalid resource pools were encountered");
  // The duplicate device name is a warning: the API server accepts the slices, and the
  // allocator only skips the pool (allocator_invalid_pool_test.cc).
  EXPECT_FALSE(run->diags.has_errors());
  EXPECT_EQ(run->diags.entries().size(), 1u);
}

TEST(AllocatorTableTest, NoSlices) {
  World w = Base();
  w.Claims({Claim("claim-0")});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTableTest, NotEnoughSuitableDevices) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Claims({Claim("claim-0", "req-0"), Claim("claim-0", "req-1")});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTableTest, NoClasses) {
  World w;
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)}).Claims({Claim("claim-0")});
  auto run = Allocate(w);
  ExpectError(run->out, "could not retrieve device class class-a");
  ASSERT_EQ(run->diags.entries().size(), 1u);
  EXPECT_EQ(run->diags.entries()[0].error.location().object, "ResourceClaim/claim-0");
  EXPECT_EQ(run->diags.entries()[0].error.location().field,
            "spec.devices.requests[0].exactly.deviceClassName");
}

TEST(AllocatorTableTest, UnknownClass) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Claims({Claim("claim-0", "req-0", "unknown-class")});
  ExpectError(Allocate(w)->out, "could not retrieve device class unknown-class");
}

TEST(AllocatorTableTest, EmptyClass) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)}).Claims({Claim("claim-0", "req-0", "")});
  ExpectError(
      Allocate(w)->out,
      "claim claim-0, request req-0: missing device class name (unsupported request type?)");
}

TEST(AllocatorTableTest, AllDevicesSingle) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Claims({ClaimB("claim-0").Req(Req("req-0").All())});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1")}});
}

TEST(AllocatorTableTest, AllDevicesMany) {
  World w = Base();
  w.Slices(
       {OneDevice("slice-1", "node-1", "pool-1", kA), OneDevice("slice-1", "node-1", "pool-2", kA)})
      .Claims({ClaimB("claim-0").Req(Req("req-0").All())});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-0", kA, "pool-2", "device-1")}});
}

TEST(AllocatorTableTest, AllDevicesOfTheIncompletePool) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA).Count(2)})
      .Claims({ClaimB("claim-0").Req(Req("req-0").All())});
  ExpectError(Allocate(w)->out,
              "claim claim-0, request req-0: asks for all devices, but resource pool "
              "driver-a/pool-1 is currently being updated");
}

TEST(AllocatorTableTest, AllDevicesPlusAnother) {
  World w = Base();
  w.Slices(
       {OneDevice("slice-1", "node-1", "pool-1", kA), OneDevice("slice-1", "node-1", "pool-1", kB)})
      .Claims({ClaimB("claim-0").Req(Req("req-0").All()),
               ClaimB("claim-1").Req(Req("req-0", "class-b"))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1")}, {R("req-0", kB, "pool-1", "device-1")}});
}

TEST(AllocatorTableTest, AllDevicesPlusAnotherReversed) {
  World w = Base();
  w.Slices(
       {OneDevice("slice-1", "node-1", "pool-1", kA), OneDevice("slice-1", "node-1", "pool-1", kB)})
      .Claims({ClaimB("claim-1").Req(Req("req-0", "class-b")),
               ClaimB("claim-0").Req(Req("req-0").All())});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kB, "pool-1", "device-1")}, {R("req-0", kA, "pool-1", "device-1")}});
}

TEST(AllocatorTableTest, AllDevicesManyPlusAnother) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "node-1", "pool-1", kA).Dev(DeviceB("device-1")).Dev(DeviceB("device-2")),
        OneDevice("slice-1", "node-1", "pool-1", kB)})
      .Claims({ClaimB("claim-0").Req(Req("req-0").All()),
               ClaimB("claim-1").Req(Req("req-0", "class-b"))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-0", kA, "pool-1", "device-2")},
                   {R("req-0", kB, "pool-1", "device-1")}});
}

TEST(AllocatorTableTest, AllDevicesNoSolution) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Claims({ClaimB("claim-1").Req(Req("req-0")), ClaimB("claim-0").Req(Req("req-0").All())});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTableTest, AllDevicesNoSolutionReversed) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Claims({ClaimB("claim-0").Req(Req("req-0").All()), ClaimB("claim-1").Req(Req("req-0"))});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTableTest, AllDevicesSliceWithoutDevices) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)})
      .Claims({ClaimB("claim-0").Req(Req("req-0").All())});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTableTest, AllDevicesNoSlices) {
  World w = Base();
  w.Claims({ClaimB("claim-0").Req(Req("req-0").All())});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTableTest, AllDevicesSomeAllocated) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1"))
                .Dev(DeviceB("device-2"))})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-1"}})})
      .Claims({ClaimB("claim-0").Req(Req("req-0").All())});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTableTest, AllDevicesSomeAllocatedAdminAccess) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1"))
                .Dev(DeviceB("device-2"))})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-1"}})})
      .Claims({ClaimB("claim-0").Req(Req("req-0").All().Admin())});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1", true),
                                      R("req-0", kA, "pool-1", "device-2", true)}});
}

TEST(AllocatorTableTest, AllDevicesSomeAllocatingAdminAccess) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1"))
                .Dev(DeviceB("device-2"))})
      .Claims({ClaimB("claim-0").Req(Req("req-0").Admin()).Req(Req("req-1").Admin().All())});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTableTest, CountDevicesSomeAllocatedAdminAccess) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1"))
                .Dev(DeviceB("device-2"))})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-1"}})})
      .Claims({ClaimB("claim-0").Req(Req("req-0", "class-a", 2).Admin())});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1", true),
                                      R("req-0", kA, "pool-1", "device-2", true)}});
}

TEST(AllocatorTableTest, SeparateClaimsShareDeviceAdminAccess) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1"))
                .Dev(DeviceB("device-2"))})
      .Claims({ClaimB("claim-0").Req(Req("req-0").Admin()),
               ClaimB("claim-1").Req(Req("req-0").Admin())});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1", true)},
                                     {R("req-0", kA, "pool-1", "device-1", true)}});
}

TEST(AllocatorTableTest, AdminAccessClaimsDeviceAllocatingForNonAdminAccess) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1"))
                .Dev(DeviceB("device-2"))})
      .Claims({ClaimB("claim-0").Req(Req("req-0")), ClaimB("claim-1").Req(Req("req-0").Admin())});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1")},
                                     {R("req-0", kA, "pool-1", "device-1", true)}});
}

TEST(AllocatorTableTest, AllDevicesSliceWithoutDevicesPrioritizedList) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "node-1", "pool-1", kA), OneDevice("slice-2", "node-1", "pool-2", kB)})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-a").All(), SubB("subReq-1", "class-b")}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0/subReq-1", kB, "pool-2", "device-1")}});
}

TEST(AllocatorTableTest, AllDevicesNoSlicesPrioritizedList) {
  World w = Base();
  w.Slices({OneDevice("slice-2", "node-1", "pool-2", kB)})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-a").All(), SubB("subReq-1", "class-b")}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0/subReq-1", kB, "pool-2", "device-1")}});
}

TEST(AllocatorTableTest, AllDevicesSomeAllocatedPrioritizedList) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "node-1", "pool-1", kA).Dev(DeviceB("device-1")).Dev(DeviceB("device-2")),
        OneDevice("slice-2", "node-1", "pool-2", kB)})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-1"}})})
      .Claims({ClaimB("claim-0").Req(
          RequestB("req-0", {SubB("subReq-0", "class-a").All(), SubB("subReq-1", "class-b")}))});
  ExpectAllocated(Allocate(w)->out, {{R("req-0/subReq-1", kB, "pool-2", "device-1")}});
}

TEST(AllocatorTableTest, NetworkAttachedDevice) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "", "pool-1", kA).Selector(LabelSelector("region", "region-1"))})
      .Claims({Claim("claim-0")});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1")}},
                  LabelSelector("region", "region-1"));
}

TEST(AllocatorTableTest, UnsuccessfulAllocationNetworkAttachedDevice) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "", "pool-1", kA).Selector(LabelSelector("region", "region-1"))})
      .Claims({Claim("claim-0")})
      .OnNode(1);
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTableTest, ManyNetworkAttachedDevices) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "", "pool-1", kA).Selector(LabelSelector("region", "region-1")),
            OneDevice("slice-1", "*", "pool-2", kA),
            OneDevice("slice-1", "", "pool-3", kA).Selector(LabelSelector("planet", "earth")),
            OneDevice("slice-1", "", "pool-4", kA).Selector(LocalSelector("node-1"))})
      .Claims({ClaimB("claim-0").Req(Req("req-0", "class-a", 4))});
  core::NodeSelectorTerm term;
  term.match_expressions = {{"region", core::SelectorOp::kIn, {"region-1"}},
                            {"planet", core::SelectorOp::kIn, {"earth"}}};
  term.match_fields = {{"metadata.name", core::SelectorOp::kIn, {"node-1"}}};
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-0", kA, "pool-2", "device-1"),
                    R("req-0", kA, "pool-3", "device-1"), R("req-0", kA, "pool-4", "device-1")}},
                  core::NodeSelector{{term}});
}

TEST(AllocatorTableTest, LocalAndNetworkAttachedDevices) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "", "pool-1", kA).Selector(LabelSelector("region", "region-1")),
            OneDevice("slice-1", "node-1", "pool-2", kA)})
      .Claims({ClaimB("claim-0").Req(Req("req-0", "class-a", 2))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-0", kA, "pool-2", "device-1")}});
}

TEST(AllocatorTableTest, AllNodesDeviceHasNoNodeSelector) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "*", "pool-1", kA)}).Claims({Claim("claim-0")});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1")}}, std::nullopt);
}

TEST(AllocatorTableTest, SeveralDifferentDrivers) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "node-1", "pool-1", kA).Dev(DeviceB("device-1")).Dev(DeviceB("device-2")),
        OneDevice("slice-1", "node-1", "pool-1", kB)})
      .Claims({Claim("claim-0", "req-0", "class-a"), Claim("claim-0", "req-0", "class-b")});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1")}, {R("req-0", kB, "pool-1", "device-1")}});
}

TEST(AllocatorTableTest, AlreadyAllocatedDevices) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-1"}, {kA, "pool-1", "device-2"}})})
      .Claims({Claim("claim-0")});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTableTest, AdminAccessEnabled) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-1"}, {kA, "pool-1", "device-2"}})})
      .Claims({ClaimB("claim-0").Req(Req("req-0").Admin())});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1", true)}});
}

DeviceB AllAttrs(const std::string& name) {
  return DeviceB(name)
      .Version("driverVersion", "1.0.0")
      .Int("numa", 1)
      .Str("stringAttribute", "stringAttributeValue")
      .Bool("boolAttribute", true);
}

TEST(AllocatorTableTest, WithConstraint) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(AllAttrs("device-1"))
                .Dev(AllAttrs("device-2"))})
      .Claims({ClaimB("claim-0")
                   .Match("driver-a/numa")
                   .Match("driver-a/driverVersion")
                   .Match("driver-a/stringAttribute")
                   .Match("driver-a/boolAttribute")
                   .Req(Req("req-0"))
                   .Req(Req("req-1"))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-1", kA, "pool-1", "device-2")}});
}

TEST(AllocatorTableTest, WithConstraintNonExistentAttribute) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Claims({ClaimB("claim-0").Match("driver-a/NonExistentAttribute").Req(Req("req-0"))});
  ExpectNoFit(Allocate(w)->out);
}

struct MismatchCase {
  const char* name;
  DeviceB d1;
  DeviceB d2;
  const char* attribute;
};

TEST(AllocatorTableTest, WithConstraintNotMatchingAttributes) {
  const std::vector<MismatchCase> cases = {
      {"int", DeviceB("device-1").Int("numa", 1), DeviceB("device-2").Int("numa", 2),
       "driver-a/numa"},
      {"string", DeviceB("device-1").Str("stringAttribute", "stringAttributeValue"),
       DeviceB("device-2").Str("stringAttribute", "stringAttributeValue2"),
       "driver-a/stringAttribute"},
      {"bool", DeviceB("device-1").Bool("boolAttribute", true),
       DeviceB("device-2").Bool("boolAttribute", false), "driver-a/boolAttribute"},
      {"version", DeviceB("device-1").Version("driverVersion", "1.0.0"),
       DeviceB("device-2").Version("driverVersion", "2.0.0"), "driver-a/driverVersion"},
  };
  for (const MismatchCase& c : cases) {
    SCOPED_TRACE(c.name);
    World w = Base();
    w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Dev(c.d1).Dev(c.d2)})
        .Claims({ClaimB("claim-0").Match(c.attribute).Req(Req("req-0", "class-a", 2))});
    ExpectNoFit(Allocate(w)->out);
  }
}

TEST(AllocatorTableTest, WithConstraintNotMatchingIntAttributeAllDevices) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Int("numa", 1))
                .Dev(DeviceB("device-2").Int("numa", 2))})
      .Claims({ClaimB("claim-0").Match("driver-a/numa").Req(Req("req-0").All())});
  ExpectError(Allocate(w)->out,
              "claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a "
              "claim constraint would not be satisfied");
}

TEST(AllocatorTableTest, WithConstraintForRequest) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Version("driverVersion", "1.0.0"))
                .Dev(DeviceB("device-2").Version("driverVersion", "2.0.0"))})
      .Claims({ClaimB("claim-0")
                   .Match("driver-a/driverVersion", {"req-0"})
                   .Req(Req("req-0"))
                   .Req(Req("req-1"))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-1", kA, "pool-1", "device-2")}});
}

TEST(AllocatorTableTest, WithConstraintForRequestRetry) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "node-1", "pool-1", kA)
            .Dev(DeviceB("device-1").Version("driverVersion", "1.0.0").Str("stringAttribute", "a"))
            .Dev(DeviceB("device-2").Version("driverVersion", "2.0.0").Str("stringAttribute", "b"))
            .Dev(
                DeviceB("device-3").Version("driverVersion", "3.0.0").Str("stringAttribute", "b"))})
      .Claims({ClaimB("claim-0")
                   .Match("driver-a/driverVersion", {"req-0"})
                   .Match("driver-a/stringAttribute")
                   .Req(Req("req-0"))
                   .Req(Req("req-1"))});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-2"), R("req-1", kA, "pool-1", "device-3")}});
}

// Upstream lists the request names in a class config; newer upstream (PR 139731, 139814)
// clears the list when the config covers every request of the claim, as here.
TEST(AllocatorTableTest, WithClassDeviceConfig) {
  World w;
  w.Classes({ClassWithConfig("class-a", kA, "classAttribute")})
      .Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Claims({Claim("claim-0")});
  auto run = Allocate(w);
  ExpectAllocated(run->out, {{R("req-0", kA, "pool-1", "device-1")}});
  ASSERT_EQ(run->out.allocations[0].config.size(), 1u);
  const auto& cfg = run->out.allocations[0].config[0];
  EXPECT_EQ(cfg.source, model::AllocationConfigSource::kFromClass);
  EXPECT_TRUE(cfg.requests.empty());
  EXPECT_EQ(cfg.opaque.driver, kA);
  EXPECT_EQ(cfg.opaque.parameters_json, "{\"classAttribute\":\"classAttributeValue\"}");
}

TEST(AllocatorTableTest, WithClassDeviceConfigWithMultipleRequestAndConfigs) {
  World w;
  w.Classes({ClassWithConfig("class-a", kA, "classAttribute-A"),
             ClassWithConfig("class-b", kB, "classAttribute-B")})
      .Slices({SliceB("slice-1", "node-1", "pool-1", kA).Devs(2),
               OneDevice("slice-2", "node-1", "pool-1", kB)})
      .Claims({ClaimB("claim-0").Req(Req("req-0")).Req(Req("req-1")).Req(Req("req-2", "class-b"))});
  auto run = Allocate(w);
  ExpectAllocated(run->out,
                  {{R("req-0", kA, "pool-1", "device-0"), R("req-1", kA, "pool-1", "device-1"),
                    R("req-2", kB, "pool-1", "device-1")}});
  const auto& config = run->out.allocations[0].config;
  ASSERT_EQ(config.size(), 2u);
  EXPECT_EQ(config[0].source, model::AllocationConfigSource::kFromClass);
  EXPECT_EQ(config[0].requests, (std::vector<std::string>{"req-0", "req-1"}));
  EXPECT_EQ(config[0].opaque.driver, kA);
  EXPECT_EQ(config[1].requests, (std::vector<std::string>{"req-2"}));
  EXPECT_EQ(config[1].opaque.driver, kB);
}

TEST(AllocatorTableTest, ClaimWithDeviceConfig) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Claims({Claim("claim-0").Config({}, kA, "deviceAttribute")});
  auto run = Allocate(w);
  ExpectAllocated(run->out, {{R("req-0", kA, "pool-1", "device-1")}});
  ASSERT_EQ(run->out.allocations[0].config.size(), 1u);
  EXPECT_EQ(run->out.allocations[0].config[0].source, model::AllocationConfigSource::kFromClaim);
  EXPECT_TRUE(run->out.allocations[0].config[0].requests.empty());
}

TEST(AllocatorTableTest, UnknownSelector) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Claims({ClaimB("claim-0").Req(Req("req-0").Sel(""))});
  ExpectError(Allocate(w)->out, "CEL expression empty (unsupported selector type?)");
}

TEST(AllocatorTableTest, UnknownConstraint) {
  World w = Base();
  ClaimB claim = Claim("claim-0");
  claim.c.spec.constraints.push_back({});
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)}).Claims({claim});
  ExpectError(Allocate(w)->out, "empty constraint (unsupported constraint type?)");
}

TEST(AllocatorTableTest, InvalidCelOneDevice) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Claims({ClaimB("claim-0").Req(Req("req-0").Sel("noSuchVar"))});
  auto run = Allocate(w);
  ExpectError(run->out, "undeclared reference");
  ASSERT_EQ(run->diags.entries().size(), 1u);
  EXPECT_EQ(run->diags.entries()[0].error.location().field,
            "spec.devices.requests[0].exactly.selectors[0].cel.expression");
}

TEST(AllocatorTableTest, InvalidCelOneDeviceClass) {
  World w;
  model::DeviceClass cls = Class("class-a", kA);
  cls.selectors[0].cel_expression = "noSuchVar";
  w.Classes({cls})
      .Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Claims({Claim("claim-0")});
  auto run = Allocate(w);
  ExpectError(run->out, "undeclared reference");
  ASSERT_FALSE(run->diags.entries().empty());
  EXPECT_EQ(run->diags.entries()[0].error.location().object, "DeviceClass/class-a");
  EXPECT_EQ(run->diags.entries()[0].error.location().field, "spec.selectors[0].cel.expression");
}

TEST(AllocatorTableTest, InvalidCelAllDevices) {
  World w = Base();
  w.Slices({OneDevice("slice-1", "node-1", "pool-1", kA)})
      .Claims({ClaimB("claim-0").Req(Req("req-0").Sel("noSuchVar").All())});
  ExpectError(Allocate(w)->out, "undeclared reference");
}

TEST(AllocatorTableTest, TooManyDevicesSingleRequest) {
  World w = Base();
  w.Claims({ClaimB("claim-0").Req(Req("req-0", "class-a", 500))});
  ExpectError(Allocate(w)->out, "exceeds the claim limit");
}

TEST(AllocatorTableTest, ManyDevicesOkay) {
  World w = Base();
  w.Claims({ClaimB("claim-0").Req(Req("req-0", "class-a", 32))});
  ExpectNoFit(Allocate(w)->out);
}

TEST(AllocatorTableTest, TooManyDevicesTotal) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Devs(33)})
      .Claims({ClaimB("claim-0").Req(Req("req-0", "class-a", 32)).Req(Req("req-1"))});
  ExpectError(Allocate(w)->out, "exceeds the claim limit");
}

TEST(AllocatorTableTest, MaxNumberDevices) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Devs(32)})
      .Claims({ClaimB("claim-0").Req(Req("req-0", "class-a", 32))});
  std::vector<ResultTuple> want;
  for (int i = 0; i < 32; ++i)
    want.push_back(R("req-0", kA, "pool-1", "device-" + std::to_string(i)));
  ExpectAllocated(Allocate(w)->out, {want});
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::devices::testing
