// Search: one Allocate() call of the structured allocator. Validates the claims' requests
// against the node's pools (allocation mode All, the 32-result cap), runs cheap
// necessary-condition checks, then the depth-first search with backtracking that upstream
// runs (claims, requests, subrequests in order; inside one request only device sets in
// increasing device order), undoing every tentative step through one record, and builds
// the AllocationResults of the first solution. Scratch buffers are reused across calls.
// Not thread-safe. docs/dra_allocator.md explains the algorithm and why it is exact.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "devices/allocator.h"
#include "devices/internal/allocated_state.h"
#include "devices/internal/attribute_index.h"
#include "devices/internal/claim_plan.h"
#include "devices/internal/pool_index.h"
#include "devices/internal/selector_cache.h"
#include "model/snapshot.h"

namespace berth::devices::internal {

// The Allocator's long-lived tables the search reads and (for memos) fills.
struct SearchTables {
  const model::Snapshot& snapshot;
  PoolIndex& pools;
  SelectorCache& selectors;
  AttributeIndex& attributes;
  AllocatedState& allocated;
};

class Search {
 public:
  explicit Search(SearchTables tables) : t_(tables) {}

  // Allocates `claims` (all unallocated and without plan errors) on `node`. Fills
  // `out->allocations` (one per claim, in order) or `out->failure`.
  void Run(const std::vector<const ClaimPlan*>& claims, model::NodeIndex node, bool prune,
           AllocationOutcome* out, AllocatorStats* stats);

 private:
  enum class Step { kFalse, kTrue, kMaxSize, kError };

  // Per request or subrequest of one claim, for this call.
  struct ReqData {
    const RequestPlan* plan = nullptr;
    int32_t num_devices = 0;
    int32_t all_begin = 0;  // allocation mode All: devices in all_devices_
    int32_t all_end = 0;
    int32_t status_begin = -1;  // ExactCount: per node device, see Status
  };
  enum Status : uint8_t { kUnusable = 0, kCandidate = 1, kCandidateWithError = 2 };

  struct Result {
    DeviceRecordId record;
    const RequestPlan* plan = nullptr;
    bool shared = false;        // allowMultipleAllocations: has a share and consumed capacity
    int32_t amounts_begin = 0;  // into amounts_
    int32_t amounts_count = 0;
  };
  struct ConstraintState {
    int32_t count = 0;            // matchAttribute: devices in the set
    int32_t value = -1;           // matchAttribute: their common value
    std::vector<int32_t> values;  // distinctAttribute: values in the set
  };
  struct Undo {
    int32_t claim = 0;
    DeviceKeyId key;
    bool exclusive_mark = false;
    bool share_mark = false;
    PoolGenId counters_gen;  // set when counters were consumed
    DeviceRecordId record;
    uint64_t constraints = 0;      // constraints the device was added to
    int32_t capacity_entries = 0;  // entries pushed on allocating_capacity_
    int32_t amounts_size = 0;      // amounts_ size before the step
  };
  struct CapacityUse {
    DeviceKeyId key;
    const std::string* qualified = nullptr;
    core::Int128 milli = 0;
  };

  void Reset(const std::vector<const ClaimPlan*>& claims, model::NodeIndex node);
  // Upstream validateDeviceRequest for allocation mode All, plus the status of every node
  // device for ExactCount requests. Returns false with `out` filled on an error.
  bool Validate(AllocationOutcome* out);
  bool Precheck(AllocationOutcome* out);
  Status StaticStatus(const RequestPlan& plan, DeviceRecordId rec);
  std::string SelectorErrorMessage(const ClaimPlan& claim, const RequestPlan& plan,
                                   DeviceRecordId rec) const;
  Step AllocateOne(int32_t claim, int32_t request, int32_t sub, int32_t device, bool in_sub,
                   int32_t start);
  // Tries to take `rec` for the (sub)request; on success pushes one Undo.
  Step AllocateDevice(int32_t claim, const ReqData& rd, DeviceRecordId rec, bool must);
  void Rollback();
  bool CapacityFits(const RequestPlan& plan, DeviceRecordId rec, DeviceKeyId key,
                    CapacityDemand* demand);
  bool DeviceInUse(DeviceKeyId key) const {
    return t_.allocated.exclusive(key) || marks_[key.v] > 0;
  }
  bool AllocatingForClaim(int32_t claim, DeviceKeyId key) const;
  bool CapacityInUse(DeviceKeyId key) const {
    return t_.allocated.shared(key) || shares_[key.v] > 0;
  }
  // The device's own taints and those DeviceTaintRules add.
  bool Tolerated(const RequestPlan& plan, DeviceRecordId rec) const;
  void BuildResults(AllocationOutcome* out);
  void NoFit(AllocationOutcome* out, std::string detail, const ClaimPlan* claim,
             const std::string& request);
  void Error(AllocationOutcome* out, std::string message);
  ReqData& Data(int32_t claim, int32_t request, int32_t sub) {
    const int32_t base = group_base_[static_cast<size_t>(claim)][static_cast<size_t>(request)];
    return req_data_[static_cast<size_t>(base) + static_cast<size_t>(sub)];
  }

  SearchTables t_;
  // Per call.
  std::vector<const ClaimPlan*> claims_;
  const model::Node* node_ = nullptr;
  const NodeView* view_ = nullptr;
  bool prune_ = true;
  int64_t steps_ = 0;
  std::string error_;
  std::vector<ReqData> req_data_;
  std::vector<std::vector<int32_t>> group_base_;
  std::vector<std::vector<int32_t>> selected_sub_;
  std::vector<DeviceRecordId> all_devices_;
  std::vector<uint8_t> status_;
  std::vector<int32_t> suffix_;  // per status_ entry: candidates at or after it
  std::vector<int32_t> exact_;   // req_data_ indices of ExactCount (sub)requests
  std::vector<uint8_t> precheck_used_;
  bool has_error_candidates_ = false;
  bool all_with_constraints_ = false;
  std::vector<std::vector<Result>> results_;
  std::vector<std::vector<ConstraintState>> constraints_;
  std::vector<core::Quantity> amounts_;
  std::vector<Undo> undo_;
  std::vector<CapacityUse> allocating_capacity_;
  // Per device key, reset after each call through touched_keys_.
  std::vector<uint16_t> marks_;
  std::vector<uint16_t> shares_;
  std::vector<DeviceKeyId> touched_keys_;
  // Counters consumed by this call, per pool generation slot.
  std::vector<int32_t> gen_slot_;
  std::vector<std::vector<core::Int128>> consumed_;
  std::vector<PoolGenId> touched_gens_;
};

}  // namespace berth::devices::internal
