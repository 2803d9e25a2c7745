// Shared helpers of the allocator tests: build an Allocator for a World and check outcomes
// the way upstream's table test does (results as sets, node selectors order-insensitive).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "devices/allocator.h"
#include "devices/dra_builders.h"

namespace berth::devices::testing {

// The production allocator: selectors run on the cel module.
inline std::unique_ptr<Allocator> MakeAllocator(const model::Snapshot& snap,
                                                core::Diagnostics& diags) {
  return std::make_unique<Allocator>(snap, "default", diags);
}

struct Run {
  core::Diagnostics diags;
  std::unique_ptr<Allocator> allocator;
  AllocationOutcome out;
};

inline std::unique_ptr<Run> Allocate(const World& w, bool prune = true) {
  auto run = std::make_unique<Run>();
  run->allocator = MakeAllocator(w.snap, run->diags);
  run->allocator->SetPruningForTest(prune);
  run->out = run->allocator->Allocate(w.claims, w.node);
  return run;
}

inline std::string Describe(const AllocationOutcome& out) {
  if (out.ok()) return "ok";
  return (out.failure->is_error ? "error: " : "no fit: ") + out.failure->reason + " (" +
         out.failure->detail + ")";
}

// Every claim allocated with exactly these results (any order) and node selector.
inline void ExpectAllocated(
    const AllocationOutcome& out, const std::vector<std::vector<ResultTuple>>& per_claim,
    const std::optional<core::NodeSelector>& selector = LocalSelector("node-1")) {
  ASSERT_TRUE(out.ok()) << Describe(out);
  ASSERT_EQ(out.allocations.size(), per_claim.size());
  for (size_t i = 0; i < per_claim.size(); ++i) {
    EXPECT_EQ(Tuples(out.allocations[i]), Sorted(per_claim[i])) << "claim #" << i;
    EXPECT_EQ(SelectorStrings(out.allocations[i].node_selector), SelectorStrings(selector))
        << "claim #" << i;
  }
}

inline void ExpectNoFit(const AllocationOutcome& out) {
  ASSERT_FALSE(out.ok());
  EXPECT_FALSE(out.failure->is_error) << Describe(out);
}

inline void ExpectError(const AllocationOutcome& out, const std::string& substring) {
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(out.failure->is_error) << Describe(out);
  EXPECT_NE(out.failure->reason.find(substring), std::string::npos) << Describe(out);
}

}  // namespace berth::devices::testing
