// Invalid and incomplete pools: what upstream's GatherPools marks (duplicate device names
// across the slices of a pool, counters a device consumes that no slice of the pool
// defines, a counter set defined twice, fewer slices than resourceSliceCount) is skipped by
// the search, other pools still serve the claim, and berth warns once per pool instead of
// failing the run. Cases citing an upstream name port its semantics: the shared allocator
// table (structured/internal/allocatortesting) or the scheduler integration test
// test/integration/dra (testInvalidResourceSlices).
#include <gtest/gtest.h>

#include "devices/allocator_test_util.h"

namespace berth::devices::testing {
namespace BERTH_UNITY_ID {

const std::string kA = "driver-a";

World Base() {
  World w;
  w.Classes({Class("class-a", kA)});
  return w;
}

ClaimB Claim(const std::string& name) { return ClaimB(name).Req(RequestB("req-0", "class-a", 1)); }

// Two slices of pool-1 on node-1, both listing device-1 (upstream "duplicate-slice").
std::vector<SliceB> DuplicatedPool(const std::string& pool = "pool-1") {
  return {SliceB("slice-1", "node-1", pool, kA).Count(2).Dev(DeviceB("device-1")),
          SliceB("slice-1-2", "node-1", pool, kA).Count(2).Dev(DeviceB("device-1"))};
}

std::vector<std::string> Warnings(const core::Diagnostics& diags) {
  std::vector<std::string> out;
  for (const core::Diagnostic& d : diags.entries()) {
    EXPECT_EQ(d.severity, core::Severity::kWarning) << d.error.message();
    out.push_back(d.error.location().object + ": " + d.error.location().field + ": " +
                  d.error.message());
  }
  return out;
}

// allocatortesting "duplicate-slice": nothing else fits, so the allocation fails with
// upstream's text; the pool is a warning, not an error.
TEST(AllocatorInvalidPoolTest, DuplicateSliceFailsWithUpstreamTextAndWarns) {
  World w = Base();
  w.Slices(DuplicatedPool()).Claims({Claim("claim-0")});
  auto run = Allocate(w);
  ExpectError(run->out, "invalid resource pools were encountered");
  EXPECT_EQ(run->out.failure->reason, "invalid resource pools were encountered");
  EXPECT_EQ(Warnings(run->diags),
            std::vector<std::string>{
                "ResourceSlice/slice-1-2: spec.devices[0].name: pool pool-1 of driver driver-a on "
                "node node-1 is invalid (duplicate device name device-1); devices are not "
                "allocated from it"});
}

// test/integration/dra "invalid-one-node-and-valid-other", on one node: a valid pool the
// node also sees serves the claim, and the invalid one is never surfaced.
TEST(AllocatorInvalidPoolTest, ValidPoolServesTheClaim) {
  World w = Base();
  std::vector<SliceB> slices = DuplicatedPool();
  slices.push_back(SliceB("slice-2", "node-1", "pool-2", kA).Dev(DeviceB("device-1")));
  w.Slices(slices).Claims({Claim("claim-0")});
  auto run = Allocate(w);
  ExpectAllocated(run->out, {{R("req-0", kA, "pool-2", "device-1")}});
  EXPECT_FALSE(run->diags.has_errors());
  EXPECT_EQ(run->diags.entries().size(), 1u);
}

// test/integration/dra "only-invalid-for-one-node": another node's valid pool is not seen
// from node-1 (its reason is "invalid resource pools were encountered"), node-2 fits.
TEST(AllocatorInvalidPoolTest, InvalidOnlyForOneNode) {
  World w = Base();
  std::vector<SliceB> slices = DuplicatedPool();
  slices.push_back(SliceB("slice-2", "node-2", "pool-2", kA).Dev(DeviceB("device-1")));
  w.Slices(slices).Claims({Claim("claim-0")});
  auto on_1 = Allocate(w);
  ExpectError(on_1->out, "invalid resource pools were encountered");
  w.OnNode(1);
  auto on_2 = Allocate(w);
  ExpectAllocated(on_2->out, {{R("req-0", kA, "pool-2", "device-1")}}, LocalSelector("node-2"));
}

// allocatortesting "all-devices-of-the-incomplete-pool", invalid variant: an "All" request
// that sees an invalid pool fails with upstream's text, naming claim, request and pool.
TEST(AllocatorInvalidPoolTest, AllDevicesOfAnInvalidPool) {
  World w = Base();
  w.Slices(DuplicatedPool()).Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a", 1).All())});
  ExpectError(Allocate(w)->out,
              "claim claim-0, request req-0: asks for all devices, but resource pool "
              "driver-a/pool-1 is currently invalid");
}

// An older generation with duplicates is ignored by upstream (addSlice drops it), so it is
// neither used nor warned about.
TEST(AllocatorInvalidPoolTest, ObsoleteDuplicateGenerationIsSilent) {
  World w = Base();
  std::vector<SliceB> slices = DuplicatedPool();
  slices.push_back(SliceB("slice-new", "node-1", "pool-1", kA).Gen(2).Dev(DeviceB("device-1")));
  w.Slices(slices).Claims({Claim("claim-0")});
  auto run = Allocate(w);
  ExpectAllocated(run->out, {{R("req-0", kA, "pool-1", "device-1")}});
  EXPECT_TRUE(run->diags.entries().empty());
}

// allocatortesting "obsolete-slice" and "all-devices-of-the-incomplete-pool": an incomplete
// pool is skipped (no fit, not an error) and berth warns with the slice count.
TEST(AllocatorInvalidPoolTest, IncompletePoolIsSkippedWithAWarning) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Count(2).Dev(DeviceB("device-1"))})
      .Claims({Claim("claim-0")});
  auto run = Allocate(w);
  ExpectNoFit(run->out);
  EXPECT_EQ(Warnings(run->diags),
            std::vector<std::string>{
                "ResourceSlice/slice-1: spec.pool.resourceSliceCount: pool pool-1 of driver "
                "driver-a on node node-1 is incomplete (1 of 2 slices at generation 1); devices "
                "are not allocated from it"});
}

// A device consuming a counter set no slice of the pool defines makes the pool invalid
// (upstream validateDeviceCounterConsumption); the API server cannot see across slices.
TEST(AllocatorInvalidPoolTest, UndefinedCounterSetInvalidatesThePool) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Consumes("gpu-0", {{"memory", "1Gi"}}))})
      .Claims({Claim("claim-0")});
  auto run = Allocate(w);
  ExpectError(run->out, "invalid resource pools were encountered");
  EXPECT_EQ(Warnings(run->diags),
            std::vector<std::string>{
                "ResourceSlice/slice-1: spec.devices[0].consumesCounters[0].counterSet: pool "
                "pool-1 of driver driver-a on node node-1 is invalid (device device-1 consumes "
                "counter set gpu-0, which no slice of the pool defines); devices are not "
                "allocated from it"});
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::devices::testing
