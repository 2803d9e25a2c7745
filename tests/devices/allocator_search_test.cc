// The search itself: upstream's step counts for the bare search (the unit of upstream's
// numAllocateOneInvocations), the no-permutation property, the pre-check, rollback of
// counters, capacity and constraint state, determinism, Commit, and a seeded cross-check
// that pruning never changes an answer.
#include <gtest/gtest.h>

#include <random>

#include "devices/allocator_test_util.h"

namespace berth::devices::testing {
namespace BERTH_UNITY_ID {

const std::string kA = "driver-a";

World Base() {
  World w;
  w.Classes({Class("class-a", kA), ClassMulti("class-multi", kA, true)});
  return w;
}

std::string TypeIs(const std::string& v) {
  return "device.attributes[\"driver-a\"].type == \"" + v + "\"";
}

struct CombinationCase {
  const char* name;
  std::vector<SliceB> slices;
};

TEST(AllocatorSearchTest, CheckCombinationsWithinSingleRequest) {
  const std::vector<CombinationCase> cases = {
      {"single-pool-single-slice",
       {SliceB("slice-1", "node-1", "pool-1", kA)
            .Dev(DeviceB("device-1"))
            .Dev(DeviceB("device-2"))
            .Dev(DeviceB("device-3"))
            .Dev(DeviceB("device-4"))}},
      {"single-pool-multiple-slices",
       {SliceB("slice-1", "node-1", "pool-1", kA)
            .Count(2)
            .Dev(DeviceB("device-1"))
            .Dev(DeviceB("device-2")),
        SliceB("slice-2", "node-1", "pool-1", kA)
            .Count(2)
            .Dev(DeviceB("device-3"))
            .Dev(DeviceB("device-4"))}},
      {"multiple-pools-multiple-slices",
       {SliceB("slice-1", "node-1", "pool-1", kA).Count(2).Dev(DeviceB("device-1")),
        SliceB("slice-2", "node-1", "pool-1", kA).Count(2).Dev(DeviceB("device-2")),
        SliceB("slice-3", "node-1", "pool-2", kA)
            .Dev(DeviceB("device-3"))
            .Dev(DeviceB("device-4"))}},
      {"many-pools",
       {SliceB("slice-1", "node-1", "pool-1", kA).Dev(DeviceB("device-1")),
        SliceB("slice-2", "node-1", "pool-2", kA).Dev(DeviceB("device-2")),
        SliceB("slice-3", "node-1", "pool-3", kA).Dev(DeviceB("device-3")),
        SliceB("slice-4", "node-1", "pool-4", kA).Dev(DeviceB("device-4"))}},
  };
  for (const CombinationCase& c : cases) {
    SCOPED_TRACE(c.name);
    World w = Base();
    w.Slices(c.slices).Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a", 5))});
    // Bare search: every subset of the 4 devices once, in increasing order: 2^4 steps,
    // upstream's experimental count (its stable channel needs 65).
    auto bare = Allocate(w, /*prune=*/false);
    ExpectNoFit(bare->out);
    EXPECT_EQ(bare->allocator->Stats().search_steps, 16);
    // With the pre-check the answer comes without searching.
    auto pruned = Allocate(w);
    ExpectNoFit(pruned->out);
    EXPECT_EQ(pruned->allocator->Stats().search_steps, 0);
    EXPECT_EQ(pruned->allocator->Stats().precheck_rejections, 1);
  }
}

World BacktrackingWorld(bool across_pools) {
  World w = Base();
  if (across_pools) {
    w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                  .Count(2)
                  .Dev(DeviceB("device-1").Str("type", "X")),
              SliceB("slice-2", "node-1", "pool-1", kA)
                  .Count(2)
                  .Dev(DeviceB("device-2").Str("type", "Y")),
              // Binding conditions put pool-2 after pool-1 whatever the names.
              SliceB("slice-3", "node-1", "pool-0", kA)
                  .Dev(DeviceB("device-3").Str("type", "Y").BindingConditions({"IsPrepare"}))});
  } else {
    w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                  .Dev(DeviceB("device-1").Str("type", "X"))
                  .Dev(DeviceB("device-2").Str("type", "Y"))
                  .Dev(DeviceB("device-3").Str("type", "Y"))});
  }
  w.Claims({ClaimB("claim-0")
                .Req(RequestB("req-1", "class-a", 2))
                .Req(RequestB("req-2", "class-a").Sel(TypeIs("X")))});
  return w;
}

TEST(AllocatorSearchTest, CheckCombinationsWithBacktracking) {
  World w = BacktrackingWorld(false);
  auto bare = Allocate(w, /*prune=*/false);
  ExpectAllocated(bare->out,
                  {{R("req-1", kA, "pool-1", "device-2"), R("req-1", kA, "pool-1", "device-3"),
                    R("req-2", kA, "pool-1", "device-1")}});
  EXPECT_EQ(bare->allocator->Stats().search_steps, 12);  // upstream stable: 14
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-1", kA, "pool-1", "device-2"), R("req-1", kA, "pool-1", "device-3"),
                    R("req-2", kA, "pool-1", "device-1")}});
}

TEST(AllocatorSearchTest, CheckCombinationsWithBacktrackingAcrossSlicesAndPools) {
  World w = BacktrackingWorld(true);
  auto bare = Allocate(w, /*prune=*/false);
  ExpectAllocated(bare->out,
                  {{R("req-1", kA, "pool-1", "device-2"), R("req-1", kA, "pool-0", "device-3"),
                    R("req-2", kA, "pool-1", "device-1")}});
  EXPECT_EQ(bare->allocator->Stats().search_steps, 12);
}

TEST(AllocatorSearchTest, CheckCombinationsWithPrioritizedList) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Str("type", "X"))
                .Dev(DeviceB("device-2").Str("type", "Y"))
                .Dev(DeviceB("device-3").Str("type", "Y"))})
      .Claims({ClaimB("claim-0")
                   .Req(RequestB("req-1", {SubB("subReq-0", "class-a", 3).Sel(TypeIs("Y")),
                                           SubB("subReq-1", "class-a", 2)}))
                   .Req(RequestB("req-2", {SubB("subReq-0", "class-a", 2),
                                           SubB("subReq-1", "class-a").Sel(TypeIs("X"))}))});
  const std::vector<std::vector<ResultTuple>> want = {
      {R("req-1/subReq-1", kA, "pool-1", "device-2"), R("req-1/subReq-1", kA, "pool-1", "device-3"),
       R("req-2/subReq-1", kA, "pool-1", "device-1")}};
  auto bare = Allocate(w, /*prune=*/false);
  ExpectAllocated(bare->out, want);
  EXPECT_EQ(bare->allocator->Stats().search_steps, 26);  // upstream stable: 32
  auto pruned = Allocate(w);
  ExpectAllocated(pruned->out, want);
  EXPECT_LT(pruned->allocator->Stats().search_steps, 26);
}

// Inside one request only increasing device sets are tried, so proving "n+1 of n"
// impossible visits each of the 2^n subsets once (a permutation-enumerating search visits
// every ordered tuple: 109601 for n = 8).
TEST(AllocatorSearchTest, NeverTriesAPermutationOfATriedSet) {
  for (int n = 1; n <= 10; ++n) {
    World w = Base();
    w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Devs(n)})
        .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a", n + 1))});
    auto bare = Allocate(w, /*prune=*/false);
    ExpectNoFit(bare->out);
    EXPECT_EQ(bare->allocator->Stats().search_steps, int64_t{1} << n) << "n=" << n;
  }
}

TEST(AllocatorSearchTest, EightOfSevenIsRejectedByThePrecheck) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Devs(8)})
      .Held({ClaimB("held").Allocated({{kA, "pool-1", "device-3"}})})
      .Claims({ClaimB("claim-0", "ns").Req(RequestB("gpus", "class-a", 8))});
  auto run = Allocate(w);
  ExpectNoFit(run->out);
  EXPECT_EQ(run->out.failure->reason, "cannot allocate all claims");
  EXPECT_EQ(run->out.failure->detail,
            "claim ns/claim-0, request gpus: 8 devices needed, 7 selectable and free");
  EXPECT_EQ(run->out.failure->request, "gpus");
  ASSERT_TRUE(run->out.failure->claim.has_value());
  EXPECT_EQ(run->out.failure->claim->v, 1);
  EXPECT_EQ(run->allocator->Stats().search_steps, 0);
  EXPECT_EQ(run->allocator->Stats().precheck_rejections, 1);
  // Repeating the decision evaluates no selector again.
  const int64_t evaluations = run->allocator->Stats().selector_evaluations;
  for (int i = 0; i < 100; ++i) ExpectNoFit(run->allocator->Allocate(w.claims, w.node));
  EXPECT_EQ(run->allocator->Stats().selector_evaluations, evaluations);
}

TEST(AllocatorSearchTest, PrecheckCountsAllRequestsTogether) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Devs(7)})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a", 4)),
               ClaimB("claim-1").Req(RequestB("req-0", "class-a", 4))});
  auto run = Allocate(w);
  ExpectNoFit(run->out);
  EXPECT_EQ(run->allocator->Stats().search_steps, 0);
  EXPECT_NE(run->out.failure->detail.find("8 devices needed by all requests together, 7"),
            std::string::npos);
}

TEST(AllocatorSearchTest, PrecheckMatchAttributeNeedsEnoughDevicesWithOneValue) {
  World w = Base();
  SliceB slice("slice-1", "node-1", "pool-1", kA);
  for (int i = 0; i < 8; ++i)
    slice.Dev(DeviceB("gpu-" + std::to_string(i)).Str("pcieRoot", "root-" + std::to_string(i / 2)));
  w.Slices({slice}).Claims(
      {ClaimB("claim-0").Match("driver-a/pcieRoot").Req(RequestB("req-0", "class-a", 3))});
  auto run = Allocate(w);
  ExpectNoFit(run->out);
  EXPECT_EQ(run->allocator->Stats().search_steps, 0);
  auto bare = Allocate(w, /*prune=*/false);
  ExpectNoFit(bare->out);
  EXPECT_GT(bare->allocator->Stats().search_steps, 0);
}

TEST(AllocatorSearchTest, BacktrackingUndoesCounters) {
  World w = Base();
  w.Slices(
       {SliceB("slice-1", "node-1", "pool-1", kA)
            .Count(2)
            .Dev(DeviceB("device-1").Str("type", "big").Consumes("set", {{"mem", "6"}}, false))
            .Dev(DeviceB("device-2").Str("type", "small").Consumes("set", {{"mem", "2"}}, false))
            .Dev(DeviceB("device-3").Str("type", "small").Consumes("set", {{"mem", "2"}}, false))
            .Dev(DeviceB("device-4").Str("type", "small").Consumes("set", {{"mem", "2"}}, false)),
        SliceB("slice-2", "node-1", "pool-1", kA).Count(2).CounterSet("set", {{"mem", "8"}})})
      .Claims({ClaimB("claim-0")
                   .Req(RequestB("req-0", "class-a"))
                   .Req(RequestB("req-1", "class-a", 2).Sel(TypeIs("small")))});
  const std::vector<std::vector<ResultTuple>> want = {{R("req-0", kA, "pool-1", "device-2"),
                                                       R("req-1", kA, "pool-1", "device-3"),
                                                       R("req-1", kA, "pool-1", "device-4")}};
  ExpectAllocated(Allocate(w)->out, want);
  ExpectAllocated(Allocate(w, /*prune=*/false)->out, want);
}

TEST(AllocatorSearchTest, BacktrackingUndoesCapacityAndConstraints) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Str("x", "a").Cap("mem", "4").Multi())
                .Dev(DeviceB("device-2").Str("x", "b").Cap("mem", "8").Multi())})
      .Claims({ClaimB("claim-0")
                   .Match("driver-a/x")
                   .Req(RequestB("req-0", "class-multi").CapReq("mem", "3"))
                   .Req(RequestB("req-1", "class-multi").CapReq("mem", "2")),
               ClaimB("claim-1").Req(RequestB("req-0", "class-multi").CapReq("mem", "4"))});
  for (bool prune : {true, false}) {
    auto run = Allocate(w, prune);
    ExpectAllocated(run->out,
                    {{R("req-0", kA, "pool-1", "device-2"), R("req-1", kA, "pool-1", "device-2")},
                     {R("req-0", kA, "pool-1", "device-1")}});
  }
}

TEST(AllocatorSearchTest, DeterministicAcrossRunsAndSliceOrder) {
  World w = Base();
  w.Slices({SliceB("slice-b", "node-1", "pool-b", kA).Dev(DeviceB("device-1").Multi()),
            SliceB("slice-a", "node-1", "pool-a", kA).Dev(DeviceB("device-1").Multi())})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-multi", 2))});
  auto first = Allocate(w);
  auto second = Allocate(w);
  ASSERT_TRUE(first->out.ok());
  ASSERT_EQ(first->out.allocations[0].results.size(), 2u);
  // Pools go by name: pool-a first, whatever the input order.
  EXPECT_EQ(first->out.allocations[0].results[0].pool, "pool-a");
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(first->out.allocations[0].results[i].share_id,
              second->out.allocations[0].results[i].share_id);
    EXPECT_EQ(first->out.allocations[0].results[i].share_id.size(), 36u);
  }
  EXPECT_NE(first->out.allocations[0].results[0].share_id,
            first->out.allocations[0].results[1].share_id);
  World reversed = Base();
  reversed
      .Slices({SliceB("slice-a", "node-1", "pool-a", kA).Dev(DeviceB("device-1").Multi()),
               SliceB("slice-b", "node-1", "pool-b", kA).Dev(DeviceB("device-1").Multi())})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-multi", 2))});
  auto third = Allocate(reversed);
  ASSERT_TRUE(third->out.ok());
  EXPECT_EQ(Tuples(third->out.allocations[0]), Tuples(first->out.allocations[0]));
}

TEST(AllocatorSearchTest, CommitHoldsDevicesAndCounters) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Count(2)
                .Dev(DeviceB("device-1").Consumes("set", {{"mem", "6"}}, false))
                .Dev(DeviceB("device-2").Consumes("set", {{"mem", "4"}}, false))
                .Dev(DeviceB("device-3").Consumes("set", {{"mem", "2"}}, false)),
            SliceB("slice-2", "node-1", "pool-1", kA).Count(2).CounterSet("set", {{"mem", "8"}})})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a")),
               ClaimB("claim-1").Req(RequestB("req-0", "class-a"))});
  core::Diagnostics diags;
  auto allocator = MakeAllocator(w.snap, diags);
  const std::vector<ClaimIndex> first = {w.claims[0]};
  const std::vector<ClaimIndex> second = {w.claims[1]};
  AllocationOutcome a = allocator->Allocate(first, w.node);
  ExpectAllocated(a, {{R("req-0", kA, "pool-1", "device-1")}});
  // Not committed yet: claim-1 alone could take device-1 too.
  ExpectAllocated(allocator->Allocate(second, w.node), {{R("req-0", kA, "pool-1", "device-1")}});
  allocator->Commit(first, a);
  // device-1 is held and used 6 of 8: device-2 (4) no longer fits, device-3 (2) does.
  ExpectAllocated(allocator->Allocate(second, w.node), {{R("req-0", kA, "pool-1", "device-3")}});
  // A committed claim is allocated: Allocate returns its allocation on its node only.
  ExpectAllocated(allocator->Allocate(first, w.node), {{R("req-0", kA, "pool-1", "device-1")}});
  AllocationOutcome other = allocator->Allocate(first, model::NodeIndex{1});
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.failure->reason, "resourceclaim not available on the node");
  EXPECT_FALSE(other.failure->is_error);
  EXPECT_EQ(allocator->FindClaim("", "claim-1")->v, w.claims[1].v);
  EXPECT_FALSE(allocator->FindClaim("other", "claim-1").has_value());
}

TEST(AllocatorSearchTest, OnlyTheAllocatorsClusterCounts) {
  World w = Base();
  SliceB other("slice-x", "node-1", "pool-x", kA);
  other.s.cluster = "east";
  other.Dev(DeviceB("device-1"));
  ClaimB remote = ClaimB("claim-x").Req(RequestB("req-0", "class-a"));
  remote.c.cluster = "east";
  w.Slices({other}).Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a"))});
  ExpectNoFit(Allocate(w)->out);
  w.Claims({remote});
  auto run = Allocate(w);
  ASSERT_FALSE(run->out.ok());
  EXPECT_TRUE(run->out.failure->is_error);
}

TEST(AllocatorSearchTest, CelRuntimeErrorAbortsWhereUpstreamMeetsIt) {
  const std::string sel = "device.attributes[\"driver-a\"].model == \"x\"";
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Str("model", "x"))
                .Dev(DeviceB("device-2"))})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a").Sel(sel))});
  // device-1 matches before the search reaches device-2: no error, as upstream.
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1")}});
  // Two devices needed: the search reaches device-2 and fails with its runtime error.
  World two = Base();
  two.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                  .Dev(DeviceB("device-1").Str("model", "x"))
                  .Dev(DeviceB("device-2"))})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a", 2).Sel(sel))});
  auto run = Allocate(two);
  ASSERT_FALSE(run->out.ok());
  EXPECT_TRUE(run->out.failure->is_error);
  EXPECT_NE(run->out.failure->reason.find("claim claim-0: selector #0: CEL runtime error:"),
            std::string::npos)
      << run->out.failure->reason;
}

TEST(AllocatorSearchTest, MixedAttributeTypesAreReported) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Int("numa", 1))
                .Dev(DeviceB("device-2").Str("numa", "1"))})
      .Claims(
          {ClaimB("claim-0", "ns").Match("driver-a/numa").Req(RequestB("req-0", "class-a", 2))});
  auto run = Allocate(w);
  ExpectNoFit(run->out);  // an int never equals a string
  ASSERT_EQ(run->diags.entries().size(), 1u);
  EXPECT_EQ(run->diags.entries()[0].error.location().object, "ResourceClaim/ns/claim-0");
  EXPECT_EQ(run->diags.entries()[0].error.location().field,
            "spec.devices.constraints[0].matchAttribute");
}

TEST(AllocatorSearchTest, StatsAndMemory) {
  World w = Base();
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA).Devs(4)})
      .Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-a", 2))});
  auto run = Allocate(w);
  ASSERT_TRUE(run->out.ok());
  const AllocatorStats s = run->allocator->Stats();
  EXPECT_EQ(s.allocate_calls, 1);
  EXPECT_EQ(s.node_views, 1);
  EXPECT_EQ(s.selector_evaluations, 4);
  EXPECT_GT(s.search_steps, 0);
  EXPECT_GT(run->allocator->MemoryBytes(), 0u);
}

// Seeded cross-check: on random small worlds the pre-check and pruning never change an
// answer (fit or not, which devices, error or not).
TEST(AllocatorSearchTest, PruningNeverChangesTheAnswer) {
  std::mt19937 rng(20240607);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  int fits = 0;
  for (int iter = 0; iter < 400; ++iter) {
    World w = Base();
    std::vector<SliceB> slices;
    const int pools = 1 + pick(2);
    for (int p = 0; p < pools; ++p) {
      const std::string pool = "pool-" + std::to_string(p);
      SliceB s("slice-" + std::to_string(p), "node-1", pool, kA);
      const bool counters = pick(2) == 0;
      if (counters) s.Count(2);
      const int devices = 1 + pick(5);
      for (int d = 0; d < devices; ++d) {
        DeviceB dev("device-" + std::to_string(d));
        dev.Str("type", pick(2) == 0 ? "X" : "Y").Int("numa", pick(2));
        if (counters) dev.Consumes("set", {{"mem", std::to_string(1 + pick(4))}}, false);
        if (pick(6) == 0) dev.Taint("k", "v", model::DeviceTaintEffect::kNoSchedule);
        s.Dev(dev);
      }
      slices.push_back(s);
      if (counters)
        slices.push_back(SliceB("counters-" + std::to_string(p), "node-1", pool, kA)
                             .Count(2)
                             .CounterSet("set", {{"mem", std::to_string(3 + pick(6))}}));
    }
    w.Slices(slices);
    if (pick(3) == 0) w.Held({ClaimB("held").Allocated({{kA, "pool-0", "device-0"}})});
    std::vector<ClaimB> claims;
    const int nclaims = 1 + pick(2);
    for (int c = 0; c < nclaims; ++c) {
      ClaimB claim("claim-" + std::to_string(c));
      const int nreq = 1 + pick(2);
      for (int r = 0; r < nreq; ++r) {
        const std::string name = "req-" + std::to_string(r);
        if (pick(3) == 0) {
          claim.Req(RequestB(name, {SubB("a", "class-a", 1 + pick(3)).Sel(TypeIs("X")),
                                    SubB("b", "class-a", 1 + pick(2))}));
        } else {
          RequestB req(name, "class-a", 1 + pick(3));
          if (pick(2) == 0) req.Sel(TypeIs(pick(2) == 0 ? "X" : "Y"));
          claim.Req(req);
        }
      }
      if (pick(3) == 0) claim.Match("driver-a/numa");
      if (pick(5) == 0) claim.Distinct("driver-a/type");
      claims.push_back(claim);
    }
    w.Claims(claims);
    auto pruned = Allocate(w, true);
    auto bare = Allocate(w, false);
    SCOPED_TRACE("iteration " + std::to_string(iter));
    ASSERT_EQ(pruned->out.ok(), bare->out.ok())
        << Describe(pruned->out) << " vs " << Describe(bare->out);
    if (pruned->out.ok()) {
      ++fits;
      for (size_t c = 0; c < claims.size(); ++c) {
        EXPECT_EQ(Tuples(pruned->out.allocations[c]), Tuples(bare->out.allocations[c]));
      }
    } else {
      EXPECT_EQ(pruned->out.failure->is_error, bare->out.failure->is_error);
    }
    EXPECT_LE(pruned->allocator->Stats().search_steps, bare->allocator->Stats().search_steps);
  }
  EXPECT_GT(fits, 50);
  EXPECT_LT(fits, 350);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::devices::testing
