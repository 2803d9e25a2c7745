// Allocator::Release: deallocating a claim undoes Commit() exactly (devices, shared
// counters, consumable capacity and share IDs), frees claims the snapshot had allocated,
// and leaves unallocated claims and other holders of a device alone.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "devices/allocator_test_util.h"

namespace berth::devices::testing {
namespace BERTH_UNITY_ID {

const std::string kA = "driver-a";

World Base() {
  World w;
  w.Classes({Class("class-a", kA), ClassMulti("class-multi", kA, true)});
  return w;
}

ClaimB Gpus(const std::string& name, int64_t count, const std::string& cls = "class-a") {
  return ClaimB(name).Req(RequestB("req-0", cls, count));
}

// Everything a later Allocate() can observe of an outcome: results with share IDs and
// consumed capacity, or the failure.
std::vector<std::string> Observed(const AllocationOutcome& out) {
  std::vector<std::string> lines;
  if (!out.ok()) {
    lines.push_back("fail: " + out.failure->reason + " / " + out.failure->detail);
    return lines;
  }
  for (const model::AllocationResult& a : out.allocations) {
    for (const auto& r : a.results) {
      std::string line = r.request + " " + r.pool + "/" + r.device + " share=" + r.share_id;
      for (const auto& [k, v] : r.consumed_capacity) line += " " + k + "=" + v.ToString();
      lines.push_back(line);
    }
    lines.push_back("--");
  }
  return lines;
}

// Allocates and commits `claims` on the world's node; the outcome must be ok.
AllocationOutcome Place(Allocator& a, const World& w, const std::vector<ClaimIndex>& claims) {
  AllocationOutcome out = a.Allocate(claims, w.node);
  EXPECT_TRUE(out.ok()) << Describe(out);
  if (out.ok()) a.Commit(claims, out);
  return out;
}

TEST(AllocatorReleaseTest, ReleasedDevicesCanBeAllocatedAgain) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Devs(2)})
      .Claims({Gpus("claim-0", 1), Gpus("claim-1", 2)});
  core::Diagnostics diags;
  auto a = MakeAllocator(w.snap, diags);
  const ClaimIndex c0 = w.claims[0];
  const ClaimIndex c1 = w.claims[1];
  const std::vector<std::string> fresh = Observed(a->Allocate({c1}, w.node));
  Place(*a, w, {c0});
  ASSERT_NE(a->Allocation(c0), nullptr);
  ExpectNoFit(a->Allocate({c1}, w.node));

  a->Release({c0});
  EXPECT_EQ(a->Allocation(c0), nullptr);
  EXPECT_EQ(Observed(a->Allocate({c1}, w.node)), fresh);
  // The released claim is unallocated again and gets the same device as the first time.
  ExpectAllocated(a->Allocate({c0}, w.node), {{R("req-0", kA, "pool-1", "device-0")}});
}

TEST(AllocatorReleaseTest, ReleaseRestoresSharedCounters) {
  World w = Base();
  // Partitions of one 8Gi device: 4Gi + 6Gi do not fit together, 6Gi alone does.
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Count(2)
                .Dev(DeviceB("part-4g").Consumes("set-1", {{"memory", "4Gi"}}))
                .Dev(DeviceB("part-6g").Consumes("set-1", {{"memory", "6Gi"}})),
            SliceB("slice-2", "node-1", "pool-1", kA)
                .Count(2)
                .CounterSet("set-1", {{"memory", "8Gi"}})})
      .Claims(
          {ClaimB("small").Req(
               RequestB("req-0", "class-a")
                   .Sel("device.capacity[\"driver-a\"].memory.compareTo(quantity(\"4Gi\")) == 0")),
           ClaimB("big").Req(
               RequestB("req-0", "class-a")
                   .Sel(
                       "device.capacity[\"driver-a\"].memory.compareTo(quantity(\"6Gi\")) == 0"))});
  core::Diagnostics diags;
  auto a = MakeAllocator(w.snap, diags);
  const std::vector<std::string> fresh = Observed(a->Allocate({w.claims[1]}, w.node));
  ASSERT_EQ(fresh.front().rfind("fail", 0), std::string::npos);
  Place(*a, w, {w.claims[0]});
  ExpectNoFit(a->Allocate({w.claims[1]}, w.node));
  a->Release({w.claims[0]});
  EXPECT_EQ(Observed(a->Allocate({w.claims[1]}, w.node)), fresh);
}

TEST(AllocatorReleaseTest, ReleaseRestoresConsumableCapacityAndShareIds) {
  World w = Base();
  // One shareable device with 4 units of capacity-0 (requests 2 or 4).
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").CapRange("capacity-0", "4").Multi())})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-multi").CapReq("capacity-0", "2")),
               ClaimB("claim-1").Req(RequestB("req-0", "class-multi").CapReq("capacity-0", "2")),
               ClaimB("claim-2").Req(RequestB("req-0", "class-multi").CapReq("capacity-0", "4"))});
  core::Diagnostics diags;
  auto a = MakeAllocator(w.snap, diags);
  const ClaimIndex c0 = w.claims[0];
  const ClaimIndex c1 = w.claims[1];
  const ClaimIndex c2 = w.claims[2];
  const std::vector<std::string> fresh_c1 = Observed(a->Allocate({c1}, w.node));
  const std::vector<std::string> fresh_c2 = Observed(a->Allocate({c2}, w.node));
  const AllocationOutcome first = Place(*a, w, {c0});
  ASSERT_TRUE(first.ok());
  EXPECT_FALSE(first.allocations[0].results[0].share_id.empty());
  ExpectNoFit(a->Allocate({c2}, w.node));  // 2 of 4 consumed
  Place(*a, w, {c1});
  ExpectNoFit(a->Allocate({c2}, w.node));  // 4 of 4 consumed

  // Release in commit order (not the reverse): each release frees exactly its share.
  a->Release({c0});
  ExpectNoFit(a->Allocate({c2}, w.node));
  EXPECT_EQ(Observed(a->Allocate({c0}, w.node)), Observed(first));  // same share ID again
  a->Release({c1});
  EXPECT_EQ(Observed(a->Allocate({c1}, w.node)), fresh_c1);
  EXPECT_EQ(Observed(a->Allocate({c2}, w.node)), fresh_c2);
}

TEST(AllocatorReleaseTest, ReleaseFreesAClaimTheSnapshotHadAllocated) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Devs(1)})
      .Held({ClaimB("held")
                 .Req(RequestB("req-0", "class-a"))
                 .Allocated({{kA, "pool-1", "device-0"}})})
      .Claims({Gpus("claim-0", 1)});
  const ClaimIndex held{0};
  core::Diagnostics diags;
  auto a = MakeAllocator(w.snap, diags);
  ASSERT_NE(a->Allocation(held), nullptr);
  ExpectNoFit(a->Allocate(w.claims, w.node));

  a->Release({held});
  EXPECT_EQ(a->Allocation(held), nullptr);
  ExpectAllocated(a->Allocate(w.claims, w.node), {{R("req-0", kA, "pool-1", "device-0")}});
  // The released claim is planned from its spec and can be allocated again.
  ExpectAllocated(a->Allocate({held}, w.node), {{R("req-0", kA, "pool-1", "device-0")}});
  Place(*a, w, {held});
  ExpectNoFit(a->Allocate(w.claims, w.node));
  EXPECT_TRUE(diags.entries().empty());
}

TEST(AllocatorReleaseTest, ReleaseKeepsOtherHoldersOfTheSameDevice) {
  World w = Base();
  // Inconsistent input: two allocated claims name the same device. Freeing one must not
  // free the device while the other still holds it.
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Devs(1)})
      .Held({ClaimB("held-1").Allocated({{kA, "pool-1", "device-0"}}),
             ClaimB("held-2").Allocated({{kA, "pool-1", "device-0"}})})
      .Claims({Gpus("claim-0", 1)});
  core::Diagnostics diags;
  auto a = MakeAllocator(w.snap, diags);
  a->Release({ClaimIndex{0}});
  ExpectNoFit(a->Allocate(w.claims, w.node));
  a->Release({ClaimIndex{1}});
  ExpectAllocated(a->Allocate(w.claims, w.node), {{R("req-0", kA, "pool-1", "device-0")}});
}

TEST(AllocatorReleaseTest, ReleasingAnUnallocatedClaimChangesNothing) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Devs(2)})
      .Claims({Gpus("claim-0", 1), Gpus("claim-1", 2)});
  core::Diagnostics diags;
  auto a = MakeAllocator(w.snap, diags);
  Place(*a, w, {w.claims[0]});
  a->Release({w.claims[1]});  // never allocated
  EXPECT_NE(a->Allocation(w.claims[0]), nullptr);
  ExpectNoFit(a->Allocate({w.claims[1]}, w.node));
  a->Release({w.claims[0]});
  a->Release({w.claims[0]});  // already released
  EXPECT_TRUE(a->Allocate({w.claims[1]}, w.node).ok());
}

TEST(AllocatorReleaseTest, AdminAccessAllocationsHoldNothingToRelease) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Devs(1)})
      .Claims({ClaimB("admin").Req(RequestB("req-0", "class-a").Admin()), Gpus("claim-0", 1)});
  core::Diagnostics diags;
  auto a = MakeAllocator(w.snap, diags);
  Place(*a, w, {w.claims[0]});
  EXPECT_TRUE(a->Allocate({w.claims[1]}, w.node).ok());  // admin access takes no device
  a->Release({w.claims[0]});
  EXPECT_EQ(a->Allocation(w.claims[0]), nullptr);
  EXPECT_TRUE(a->Allocate({w.claims[1]}, w.node).ok());
}

// Commits and releases in a seeded random order against a fresh allocator whose snapshot
// marks the claims still held as allocated: every claim's outcome must be the same.
TEST(AllocatorReleaseTest, CommitReleaseSequencesMatchAFreshAllocator) {
  uint64_t state = 12345;
  auto next = [&state](uint64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % n;
  };
  for (int round = 0; round < 40; ++round) {
    World w = Base();
    w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                  .Devs(3)
                  .Dev(DeviceB("shared").CapRange("capacity-0", "8").Multi())});
    std::vector<ClaimB> claims;
    for (int c = 0; c < 6; ++c) {
      if (next(2) == 0) {
        claims.push_back(Gpus("claim-" + std::to_string(c), static_cast<int64_t>(1 + next(2))));
      } else {
        claims.push_back(ClaimB("claim-" + std::to_string(c))
                             .Req(RequestB("req-0", "class-multi")
                                      .CapReq("capacity-0", next(2) == 0 ? "2" : "4")));
      }
    }
    w.Claims(claims);
    core::Diagnostics diags;
    auto a = MakeAllocator(w.snap, diags);
    for (int step = 0; step < 12; ++step) {
      const ClaimIndex c = w.claims[next(w.claims.size())];
      if (a->Allocation(c) != nullptr) {
        a->Release({c});
      } else if (AllocationOutcome out = a->Allocate({c}, w.node); out.ok()) {
        a->Commit({c}, out);
      }
    }
    World fresh = w;
    for (ClaimIndex c : w.claims) {
      const model::AllocationResult* held = a->Allocation(c);
      if (held != nullptr) fresh.snap.resource_claims[static_cast<size_t>(c.v)].allocation = *held;
    }
    core::Diagnostics fresh_diags;
    auto b = MakeAllocator(fresh.snap, fresh_diags);
    for (ClaimIndex c : w.claims) {
      if (a->Allocation(c) != nullptr) continue;
      EXPECT_EQ(Observed(a->Allocate({c}, w.node)), Observed(b->Allocate({c}, w.node)))
          << "round " << round << " claim " << c.v;
    }
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::devices::testing
