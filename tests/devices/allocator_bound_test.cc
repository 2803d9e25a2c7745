// Allocator::FreeDeviceBound, MinDevices and TakeChangedNodes: what binding's index uses to
// skip nodes. The bound must never be below what Allocate() can take (a node below a
// claim's MinDevices is one where Allocate fails), and every Release that raises a node's
// bound must name the node.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "devices/allocator_test_util.h"

namespace berth::devices::testing {
namespace BERTH_UNITY_ID {

const std::string kA = "driver-a";

std::vector<int32_t> Nodes(std::vector<model::NodeIndex> nodes) {
  std::vector<int32_t> out;
  for (model::NodeIndex n : nodes) out.push_back(n.v);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

TEST(AllocatorBoundTest, CountsFreeNodeLocalDevicesAndFollowsCommitAndRelease) {
  World w;
  w.Classes({Class("class-a", kA)});
  w.Slices(
       {SliceB("s1", "node-1", "pool-1", kA).Devs(3), SliceB("s2", "node-2", "pool-2", kA).Devs(1)})
      .Claims({ClaimB("two").Req(RequestB("req-0", "class-a", 2)),
               ClaimB("one").Req(RequestB("req-0", "class-a", 1))})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-0"}})});
  core::Diagnostics diags;
  auto a = MakeAllocator(w.snap, diags);
  EXPECT_EQ(a->FreeDeviceBound(model::NodeIndex{0}), 2);
  EXPECT_EQ(a->FreeDeviceBound(model::NodeIndex{1}), 1);
  EXPECT_EQ(a->MinDevices({w.claims[0]}), 2);
  EXPECT_EQ(a->MinDevices({w.claims[0], w.claims[1]}), 3);
  // Below the need: Allocate fails there, as the bound promises.
  EXPECT_FALSE(a->Allocate({w.claims[0], w.claims[1]}, model::NodeIndex{0}).ok());
  EXPECT_TRUE(a->TakeChangedNodes().empty());

  AllocationOutcome out = a->Allocate({w.claims[0]}, model::NodeIndex{0});
  ASSERT_TRUE(out.ok()) << Describe(out);
  a->Commit({w.claims[0]}, out);
  // Commit only lowers the bound of the node it allocated on, which the caller knows.
  EXPECT_TRUE(a->TakeChangedNodes().empty());
  EXPECT_EQ(a->FreeDeviceBound(model::NodeIndex{0}), 0);
  // Allocated claims need nothing more.
  EXPECT_EQ(a->MinDevices({w.claims[0]}), 0);

  a->Release({w.claims[0]});
  EXPECT_EQ(Nodes(a->TakeChangedNodes()), std::vector<int32_t>{0});
  EXPECT_EQ(a->FreeDeviceBound(model::NodeIndex{0}), 2);
  // The snapshot's allocation frees its device too.
  a->Release({ClaimIndex{2}});
  EXPECT_EQ(Nodes(a->TakeChangedNodes()), std::vector<int32_t>{0});
  EXPECT_EQ(a->FreeDeviceBound(model::NodeIndex{0}), 3);
}

TEST(AllocatorBoundTest, SharedPoolsAndShareableDevicesAreNeverCountedAsTaken) {
  World w;
  w.Classes({Class("class-a", kA), ClassMulti("class-multi", kA, true)});
  w.Slices({SliceB("all", "*", "pool-all", kA).Devs(2),
            SliceB("per", "per-device", "pool-per", kA)
                .Dev(DeviceB("local").OnNode("node-1"))
                .Dev(DeviceB("other").OnNode("node-2")),
            SliceB("multi", "node-2", "pool-multi", kA).Dev(DeviceB("m").Multi())})
      .Claims({ClaimB("two").Req(RequestB("req-0", "class-a", 2))});
  core::Diagnostics diags;
  auto a = MakeAllocator(w.snap, diags);
  // node-1: two devices every node sees, one of its own.
  EXPECT_EQ(a->FreeDeviceBound(model::NodeIndex{0}), 3);
  // node-2 sees a shareable device: no bound.
  EXPECT_EQ(a->FreeDeviceBound(model::NodeIndex{1}), Allocator::kUnboundedDevices);
  AllocationOutcome out = a->Allocate({w.claims[0]}, model::NodeIndex{0});
  ASSERT_TRUE(out.ok()) << Describe(out);
  a->Commit({w.claims[0]}, out);
  // The shared pool's devices were taken; they still count (no other node's bound moves),
  // so node-1's bound stays an upper bound without naming every node.
  // The search takes pool-all's devices first (pools in name order).
  EXPECT_EQ(a->FreeDeviceBound(model::NodeIndex{0}), 3);
  EXPECT_TRUE(a->TakeChangedNodes().empty());
}

TEST(AllocatorBoundTest, AdminAllAndFirstAvailableCountWhatThePrecheckCounts) {
  World w;
  w.Classes({Class("class-a", kA)});
  w.Slices({SliceB("s1", "node-1", "pool-1", kA).Devs(4)})
      .Claims({ClaimB("admin").Req(RequestB("req-0", "class-a", 3).Admin()),
               ClaimB("all").Req(RequestB("req-0", "class-a").All()),
               ClaimB("first").Req(
                   RequestB("req-0", {SubB("big", "class-a", 3), SubB("small", "class-a", 2)})),
               ClaimB("bad").Req(RequestB("req-0", "no-such-class", 5))});
  core::Diagnostics diags;
  auto a = MakeAllocator(w.snap, diags);
  EXPECT_EQ(a->MinDevices({w.claims[0]}), 0);
  EXPECT_EQ(a->MinDevices({w.claims[1]}), 0);
  EXPECT_EQ(a->MinDevices({w.claims[2]}), 2);
  // A claim that cannot be planned fails on every node with its own error: no bound.
  EXPECT_EQ(a->MinDevices({w.claims[2], w.claims[3]}), 0);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::devices::testing
