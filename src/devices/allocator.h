// Allocator: Dynamic Resource Allocation with the upstream structured allocator's semantics
// (k8s.io/dynamic-resource-allocation/structured), for one cluster. Built once per planning
// pass from a Snapshot: gathers pools (highest generation, completeness, validity), sorts them
// by driver then pool name, compiles every CEL selector once, and records the devices,
// counters and consumable capacity already held by allocated claims. Binding calls
// Allocate() per candidate node, as kube-scheduler's DynamicResources plugin does, Commit()
// for the node it picks, and Release() when a pod is unbound and its claim deallocated (a
// gang rolled back, a preemption victim). Not thread-safe.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "model/node.h"
#include "model/resource_claim.h"
#include "model/snapshot.h"

namespace berth::devices {

namespace internal {
class SelectorMatcher;
}  // namespace internal

struct ClaimIndex {
  int32_t v = -1;  // index into Snapshot::resource_claims
  auto operator<=>(const ClaimIndex&) const = default;
};

// Why no allocation exists on a node, as data (binding turns it into a Rejection).
struct AllocationFailure {
  // kube-scheduler's per-node reason text, e.g. "cannot allocate all claims".
  std::string reason;
  // berth's detail for explain: which claim and request could not be satisfied and why
  // ("claim gpu-pod-gpu, request gpus: 8 devices needed, 7 selectable and free").
  std::string detail;
  // True when the allocation failed with an error (a CEL runtime error, invalid pools seen
  // and nothing else fits) rather than "does not fit here".
  bool is_error = false;
  // The claim and request `detail` is about, when one can be named (explain prints them).
  std::optional<ClaimIndex> claim;
  std::string request;
};

// Work counters since construction, for benchmarks and tests. search_steps counts the
// recursive steps of the depth-first search, the unit of upstream's
// numAllocateOneInvocations.
struct AllocatorStats {
  int64_t allocate_calls = 0;
  int64_t precheck_rejections = 0;  // decided by the necessary-condition checks alone
  int64_t search_steps = 0;
  int64_t selector_evaluations = 0;  // CEL program runs (selectability is memoised)
  int64_t node_views = 0;            // nodes whose pools were gathered
};

struct AllocationOutcome {
  // One result per requested claim, in the order given; empty when failure is set.
  std::vector<model::AllocationResult> allocations;
  std::optional<AllocationFailure> failure;
  bool ok() const { return !failure.has_value(); }
};

class Allocator {
 public:
  // Borrows `snapshot` and `diags` for its lifetime. Problems in the device objects (a
  // selector that does not compile, an unknown DeviceClass, a pool with undefined counters
  // or duplicate device names, a constraint on an attribute with mixed types) are reported
  // to `diags` with object and field, and make only the affected claims or pools unusable.
  // Claims allocated in the snapshot are checked only when Release() frees them.
  Allocator(const model::Snapshot& snapshot, const std::string& cluster, core::Diagnostics& diags);
  ~Allocator();
  Allocator(const Allocator&) = delete;
  Allocator& operator=(const Allocator&) = delete;

  // Tries to allocate every claim in `claims` (unallocated ones; allocated ones are checked
  // only for their node selector) on `node`, all or nothing, without changing state.
  // Cheap necessary-condition checks run before the search, which never retries a
  // permutation of a device set it has already tried.
  AllocationOutcome Allocate(const std::vector<ClaimIndex>& claims, model::NodeIndex node) const;

  // Records an allocation returned by Allocate(): the devices become in use, counters and
  // consumable capacity are consumed. Precondition: `outcome.ok()` and nothing committed
  // since it was computed.
  void Commit(const std::vector<ClaimIndex>& claims, const AllocationOutcome& outcome);

  // Deallocates `claims` (the resource claim controller's work once no pod reserves a
  // claim): each one's allocation, committed here or read from the snapshot, stops holding
  // its devices, shares, counters and consumable capacity, and the claim is unallocated
  // again, so Allocate() may place it anew. Releasing what Commit() recorded restores the
  // state before it exactly: later Allocate() calls return what they returned then, share
  // IDs included (they derive from the claim and the device). Claims without an allocation
  // are left alone. O(devices of the claims + their pools' devices on the next Allocate).
  void Release(const std::vector<ClaimIndex>& claims);

  // The claim's allocation now (committed here, or read and not released); nullptr when it
  // has none. Valid until the next Commit() or Release().
  const model::AllocationResult* Allocation(ClaimIndex claim) const;

  // What binding's index needs to skip nodes without probing them (docs/binding.md, "Pods
  // with ResourceClaims"): a node whose FreeDeviceBound() is below MinDevices(claims) is one
  // where Allocate(claims, node) fails.
  //
  // An upper bound on how many devices one Allocate() on `node` can give to requests
  // without admin access: the devices of the node's complete, valid pools that no allocation
  // holds exclusively, devices of pools other nodes see too counted as free whatever holds
  // them (so that only Commit and Release on the node's own devices change it).
  // kUnboundedDevices when the node sees a device that allows multiple allocations (one
  // device may then serve several requests). O(devices the node sees).
  static constexpr int32_t kUnboundedDevices = std::numeric_limits<int32_t>::max();
  int32_t FreeDeviceBound(model::NodeIndex node) const;
  // A lower bound on the devices allocating `claims` takes on any node, as the search's
  // pre-check counts them: per request (firstAvailable: the smallest subrequest) its exact
  // count; 0 for allocated claims, requests with admin access or allocation mode All, and
  // for every claim when one cannot be planned (Allocate then fails with its error).
  int32_t MinDevices(const std::vector<ClaimIndex>& claims) const;
  // The nodes whose FreeDeviceBound() Release() may have raised since the last call (the
  // nodes of the node-local devices it freed), then forgets them. Commit() only lowers
  // bounds, and only on the node Allocate() ran for (a node sees its own node-local devices
  // and shared ones): a caller that has not re-read that node's bound holds one that is too
  // high, which never makes it skip a node Allocate() would accept.
  std::vector<model::NodeIndex> TakeChangedNodes();

  // A claim's index by namespace and name; nullopt when there is none.
  std::optional<ClaimIndex> FindClaim(const std::string& namespace_, const std::string& name) const;

  // Counters of the work done so far.
  AllocatorStats Stats() const;
  AllocatorStats StatsForTest() const { return Stats(); }

  // Approximate heap bytes held by the allocator's indexes and caches.
  size_t MemoryBytes() const;

  // Turns the necessary-condition pre-check and the in-search pruning off (on by default),
  // so that tests can compare the bare search with upstream's step counts.
  void SetPruningForTest(bool enabled);

  // An allocator whose selectors are evaluated by `matcher` instead of the cel module.
  static std::unique_ptr<Allocator> CreateForTest(
      const model::Snapshot& snapshot, const std::string& cluster, core::Diagnostics& diags,
      std::unique_ptr<internal::SelectorMatcher> matcher);

 private:
  struct ForTestTag {};
  Allocator(const model::Snapshot& snapshot, const std::string& cluster, core::Diagnostics& diags,
            std::unique_ptr<internal::SelectorMatcher> matcher, ForTestTag);

  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace berth::devices
