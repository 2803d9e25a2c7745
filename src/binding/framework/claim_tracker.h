// ClaimTracker: the ResourceClaims of one cluster while binding places its pods (upstream's
// claim assume cache and the DynamicResources plugin's per-pod state in one place): which
// claim each pod reference names, which claims hold an allocation and which pods they are
// reserved for, and the devices::Allocator that finds devices for the others. Built by the
// Scheduler when its snapshot has DRA objects; the DynamicResources filter reads it, Bind()
// records a placement and Unbind() undoes one. Not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "core/diagnostics.h"
#include "devices/allocator.h"
#include "model/snapshot.h"

namespace berth::binding {

// The claims one pod uses, or why it fits no node (DynamicResources' PreFilter).
struct PodClaims {
  std::vector<devices::ClaimIndex> claims;  // distinct, in spec.resourceClaims order
  // kube-scheduler's message when the pod fits no node whatever the node: a reference names
  // no claim, an allocated claim has no room for another consumer, or a request names a
  // DeviceClass that does not exist. Empty when the pod may go on to Filter.
  std::string rejection;
};

class ClaimTracker {
 public:
  // resourceclaim.ResourceClaimReservedForMaxSize.
  static constexpr size_t kReservedForMaxSize = 256;

  // Borrows `snapshot` and `diags` for its lifetime. The allocator reports problems in the
  // device objects (selectors that do not compile, unknown classes, invalid pools) to
  // `diags` while it is built.
  ClaimTracker(const model::Snapshot& snapshot, const std::string& cluster,
               core::Diagnostics& diags);
  ~ClaimTracker();
  ClaimTracker(const ClaimTracker&) = delete;
  ClaimTracker& operator=(const ClaimTracker&) = delete;

  // DynamicResources' PreFilter: the claims `pod` references, in its namespace, and
  // upstream's message when the pod fits no node: a missing template claim gives
  // `pod "ns/name": ResourceClaim not created yet` (resourceclaim.Name: the controller has
  // not made it), a missing named claim `could not find ResourceClaim "ns/name"` (the
  // scheduler's claim cache), an allocated claim reserved for 256 other consumers
  // `resourceclaim in use`, an unallocated one naming an unknown class MissingDeviceClass's
  // message. Linear in the pod's claims and their requests.
  PodClaims Resolve(const model::Pod& pod) const;

  // PreFilter's check of an unallocated claim: upstream's message for the first request or
  // subrequest whose DeviceClass does not exist (`request gpu: device class x does not
  // exist`); empty when every class exists.
  std::string MissingDeviceClass(devices::ClaimIndex claim) const;

  // The claim's allocation now (as read, or made in this cycle); nullptr when it has none.
  const model::AllocationResult* Allocation(devices::ClaimIndex claim) const;
  // The pods the claim is reserved for now.
  const std::vector<std::string>& ReservedFor(devices::ClaimIndex claim) const;
  const model::ResourceClaim& claim(devices::ClaimIndex claim) const;

  const devices::Allocator& allocator() const { return *allocator_; }

  // For the index's device bound (ClusterState::free_devices): into `out` (cleared first)
  // the nodes whose Allocator::FreeDeviceBound() Bind and Unbind may have changed since the
  // last call: each node Bind placed claims on, and the nodes of the devices Unbind freed.
  void TakeChangedNodes(std::vector<model::NodeIndex>* out);

  // Places `pod`'s claims on `node`: allocates the unallocated ones (Allocate, then Commit)
  // and reserves every one for the pod. Precondition: the pod passed DynamicResources on
  // `node` at the current state, so the allocation exists (BERTH_CHECK). Records one
  // ClaimBinding per claim.
  void Bind(model::PodIndex pod, const std::vector<devices::ClaimIndex>& claims,
            model::NodeIndex node);

  // Undoes the placement of `pod` (a gang rolled back, a preemption victim; bound by Bind or
  // in the snapshot): the pod leaves the reservedFor of each of `claims`, and a claim then
  // reserved for no pod is deallocated (Allocator::Release), as the resource claim
  // controller does, so its devices, counters and capacity are free. The pod's
  // ClaimBindings go; where one of them made the allocation of a claim that stays
  // allocated, the claim's next binding becomes the one that made it. Unbinding the pods
  // bound last, newest first, restores the state before them. O(claims x reservedFor +
  // bindings made after the pod's; a pod without bindings skips them).
  void Unbind(model::PodIndex pod, const std::vector<devices::ClaimIndex>& claims);

  // The claims `pod` references that exist, distinct, in spec.resourceClaims order
  // (Resolve's list without its checks): what a bound pod holds.
  std::vector<devices::ClaimIndex> ClaimsOf(const model::Pod& pod) const;

  // Every claim placement in effect, in bind order.
  const std::vector<ClaimBinding>& bindings() const { return bindings_; }

 private:
  const model::Snapshot& snapshot_;
  std::unique_ptr<devices::Allocator> allocator_;
  std::vector<std::optional<model::AllocationResult>> allocations_;  // by claim index
  std::vector<std::vector<std::string>> reserved_for_;               // by claim index
  std::vector<ClaimBinding> bindings_;
  std::vector<uint8_t> in_bindings_;  // by pod index: 1 while the pod has entries in bindings_
  std::vector<model::NodeIndex> bound_nodes_;  // Bind's nodes since TakeChangedNodes
};

// "ns/claim: gpu=driver/pool/device, nic=..." per claim, "; " between claims: what explain
// shows for a node where the claims can be allocated.
std::string DescribeAllocations(const model::Snapshot& snapshot,
                                const std::vector<devices::ClaimIndex>& claims,
                                const std::vector<model::AllocationResult>& allocations);

}  // namespace berth::binding
