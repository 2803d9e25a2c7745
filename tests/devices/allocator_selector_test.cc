// Device selectors through the real cel module (upstream's DRA CEL environment): typed
// attributes, semver, quantities, the driver's default domain, unknown domains and ids,
// runtime errors in class and request selectors, and the matcher hook for tests.
#include <gtest/gtest.h>

#include "devices/allocator_test_util.h"
#include "devices/fake_selector_matcher.h"

namespace berth::devices::testing {
namespace BERTH_UNITY_ID {

const std::string kA = "driver-a";

World GpuWorld() {
  World w;
  w.Classes({Class("class-a", kA)});
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1")
                         .Str("model", "A100")
                         .Version("firmware", "1.2.0")
                         .Int("numa", 0)
                         .Cap("memory", "40Gi"))
                .Dev(DeviceB("device-2")
                         .Str("driver-a/model", "H100")
                         .Version("firmware", "1.10.0")
                         .Int("numa", 1)
                         .Cap("driver-a/memory", "80Gi"))});
  return w;
}

std::string Pick(const std::string& selector) {
  World w = GpuWorld();
  w.Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a").Sel(selector))});
  auto run = Allocate(w);
  if (!run->out.ok()) return Describe(run->out);
  return run->out.allocations[0].results[0].device;
}

TEST(AllocatorSelectorTest, TypedAttributesAndDefaultDomain) {
  EXPECT_EQ(Pick("device.attributes[\"driver-a\"].model == \"H100\""), "device-2");
  EXPECT_EQ(Pick("device.attributes[\"driver-a\"][\"model\"] == \"A100\""), "device-1");
  EXPECT_EQ(Pick("device.attributes[\"driver-a\"].numa == 1"), "device-2");
  EXPECT_EQ(Pick("device.driver == \"driver-a\" && device.attributes[\"driver-a\"].numa > 0"),
            "device-2");
}

TEST(AllocatorSelectorTest, SemverAndQuantities) {
  EXPECT_EQ(Pick("device.attributes[\"driver-a\"].firmware.isGreaterThan(semver(\"1.2.0\"))"),
            "device-2");
  EXPECT_EQ(Pick("device.capacity[\"driver-a\"].memory.compareTo(quantity(\"50Gi\")) >= 0"),
            "device-2");
  EXPECT_EQ(Pick("device.capacity[\"driver-a\"].memory.isLessThan(quantity(\"50Gi\"))"),
            "device-1");
}

TEST(AllocatorSelectorTest, UnknownDomainIsEmptyAndRobustSelectorsWork) {
  EXPECT_EQ(Pick("!(\"model\" in device.attributes[\"other.example.com\"])"), "device-1");
  EXPECT_EQ(Pick("\"model\" in device.attributes[\"driver-a\"] && "
                 "device.attributes[\"driver-a\"].model == \"H100\""),
            "device-2");
}

TEST(AllocatorSelectorTest, UnknownIdIsARuntimeErrorThatAbortsAllocation) {
  const std::string result = Pick("device.attributes[\"driver-a\"].nosuch == \"x\"");
  EXPECT_NE(result.find("error: claim claim-0: selector #0: "
                        "CEL runtime error: no such key: nosuch"),
            std::string::npos)
      << result;
}

TEST(AllocatorSelectorTest, ClassSelectorRuntimeErrorNamesTheClass) {
  World w = GpuWorld();
  w.snap.device_classes[0].selectors.push_back({"device.attributes[\"driver-a\"].nosuch"});
  w.Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  auto run = Allocate(w);
  ExpectError(run->out, "class class-a: selector #1: CEL runtime error:");
}

TEST(AllocatorSelectorTest, CompileErrorNamesClaimFieldAndColumn) {
  World w = GpuWorld();
  w.Claims({ClaimB("claim-0", "team").Req(RequestB("req-0", "class-a").Sel("device.driver == ")),
            ClaimB("claim-1", "team").Req(RequestB("req-0", "class-a"))});
  core::Diagnostics diags;
  auto allocator = MakeAllocator(w.snap, diags);
  ASSERT_EQ(diags.entries().size(), 1u);
  const core::Error& e = diags.entries()[0].error;
  EXPECT_EQ(e.location().object, "ResourceClaim/team/claim-0");
  EXPECT_EQ(e.location().field, "spec.devices.requests[0].exactly.selectors[0].cel.expression");
  EXPECT_NE(e.message().find("<input>:1:"), std::string::npos) << e.message();
  AllocationOutcome bad = allocator->Allocate({w.claims[0]}, w.node);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.failure->is_error);
  EXPECT_NE(bad.failure->reason.find("claim team/claim-0: selector #0: CEL compile error"),
            std::string::npos);
  // The rest stays usable.
  EXPECT_TRUE(allocator->Allocate({w.claims[1]}, w.node).ok());
}

TEST(AllocatorSelectorTest, SubrequestSelectorFieldIsNamed) {
  World w = GpuWorld();
  w.Claims({ClaimB("claim-0").Req(
      RequestB("req-0", {SubB("a", "class-a"), SubB("b", "class-a").Sel("nope(")}))});
  core::Diagnostics diags;
  auto allocator = MakeAllocator(w.snap, diags);
  ASSERT_EQ(diags.entries().size(), 1u);
  EXPECT_EQ(diags.entries()[0].error.location().field,
            "spec.devices.requests[0].firstAvailable[1].selectors[0].cel.expression");
}

TEST(AllocatorSelectorTest, SelectorsAreEvaluatedOncePerDevice) {
  World w = GpuWorld();
  w.Claims({ClaimB("claim-0").Req(
      RequestB("req-0", "class-a").Sel("device.attributes[\"driver-a\"].numa >= 0"))});
  core::Diagnostics diags;
  auto allocator = MakeAllocator(w.snap, diags);
  ASSERT_TRUE(allocator->Allocate(w.claims, w.node).ok());
  const int64_t first = allocator->Stats().selector_evaluations;
  EXPECT_EQ(first, 4);  // class + request selector on two devices
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(allocator->Allocate(w.claims, w.node).ok());
  EXPECT_EQ(allocator->Stats().selector_evaluations, first);
}

TEST(AllocatorSelectorTest, CreateForTestUsesTheGivenMatcher) {
  World w = GpuWorld();
  w.Claims({ClaimB("claim-0").Req(
      RequestB("req-0", "class-a").Sel("device.attributes[\"driver-a\"].model == \"H100\""))});
  core::Diagnostics diags;
  auto allocator =
      Allocator::CreateForTest(w.snap, "default", diags, std::make_unique<FakeSelectorMatcher>());
  AllocationOutcome out = allocator->Allocate(w.claims, w.node);
  ExpectAllocated(out, {{R("req-0", kA, "pool-1", "device-2")}});
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::devices::testing
