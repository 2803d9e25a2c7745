// PoolIndex: the ResourceSlices of one cluster, grouped by (driver, pool) and generation,
// with one record per published device, and the per-node view the structured allocator
// searches (upstream GatherPools: relevance, highest generation, completeness, validity,
// deterministic order). Built once by the Allocator; node views are built on first use and
// cached, so Allocate() never scans slices. Not thread-safe (the cache is mutable).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "core/quantity.h"
#include "devices/internal/ids.h"
#include "model/node.h"
#include "model/snapshot.h"

namespace berth::devices::internal {

// One device as published by one slice.
struct DeviceRecord {
  int32_t slice = -1;   // index into Snapshot::resource_slices
  int32_t device = -1;  // index into that slice's devices
  DeviceKeyId key;
  PoolGenId gen;
  // True when the device is local to one node (slice nodeName, or the device's own nodeName
  // under perDeviceNodeSelection): the result's node selector then names that node.
  bool node_local = false;
  // Copies of hot Device fields, so that the search's checks stay in this compact table.
  bool multi = false;  // allowMultipleAllocations
  bool has_taints = false;
  bool consumes_counters = false;  // the device lists consumesCounters (valid or not)
  bool has_capacity = false;
  // Counter consumption resolved against the pool generation's counter sets: (index into
  // PoolGen::counter_names, milli-units). Empty when the device consumes nothing or the
  // generation's counters are invalid.
  std::vector<std::pair<int32_t, core::Int128>> counters;
};

// All slices of one (driver, pool) at one generation.
struct PoolGen {
  int32_t pool = -1;  // index into PoolIndex::pools()
  int64_t generation = 0;
  std::vector<int32_t> slices;  // snapshot order
  // Shared counters, flattened: "set/counter" names and their totals in milli-units.
  std::vector<std::string> counter_names;
  std::vector<core::Int128> counter_totals;
  // Set when a device references an unknown counter set or counter, or a counter set is
  // defined twice: upstream then treats the pool as invalid.
  std::string counters_invalid_reason;
  std::vector<DeviceRecordId> records;  // every device of every slice at this generation
};

struct Pool {
  std::string driver;
  std::string name;
  std::vector<PoolGenId> gens;
  int64_t max_generation = 0;
};

// One pool as seen from one node.
struct NodePool {
  int32_t pool = -1;
  PoolGenId gen;  // unset for incomplete pools
  bool incomplete = false;
  std::string invalid_reason;  // non-empty: invalid
  bool binding_conditions = false;
  // Range of this pool's devices in NodeView::devices (empty for incomplete/invalid pools).
  int32_t first = 0;
  int32_t last = 0;
  bool invalid() const { return !invalid_reason.empty(); }
};

// The pools a node can use, in search order: by driver then pool name, pools whose devices
// have binding conditions last; inside a pool, slices by name, devices as published.
struct NodeView {
  std::vector<NodePool> pools;
  // Devices of the complete and valid pools, in search order, already filtered by
  // per-device node selection.
  std::vector<DeviceRecordId> devices;
  bool has_invalid = false;
};

class PoolIndex {
 public:
  // Reads the slices of `cluster`; reports malformed pools (duplicate device names,
  // undefined counters, counter sets defined twice, node selectors with several terms).
  PoolIndex(const model::Snapshot& snapshot, const std::string& cluster, core::Diagnostics& diags);

  // The view of `node`, built on the first call and cached. The reference stays valid for
  // the PoolIndex's lifetime.
  const NodeView& ViewFor(model::NodeIndex node) const;

  const DeviceRecord& record(DeviceRecordId id) const { return records_[id.v]; }
  const model::ResourceSlice& slice_of(DeviceRecordId id) const {
    return snapshot_.resource_slices[records_[id.v].slice];
  }
  const model::Device& device(DeviceRecordId id) const {
    const DeviceRecord& r = records_[id.v];
    return snapshot_.resource_slices[r.slice].devices[r.device];
  }
  int32_t record_count() const { return static_cast<int32_t>(records_.size()); }

  // Taints DeviceTaintRules add, per record (device_taint_rules.h); marks those records as
  // tainted. Called once, before the first search.
  void SetRuleTaints(std::vector<std::vector<model::DeviceTaint>> taints) {
    rule_taints_ = std::move(taints);
    for (size_t r = 0; r < rule_taints_.size(); ++r) {
      if (!rule_taints_[r].empty()) records_[r].has_taints = true;
    }
  }
  // The taints a DeviceTaintRule adds to the device (the slice's own are device().taints).
  const std::vector<model::DeviceTaint>& RuleTaints(DeviceRecordId id) const {
    static const std::vector<model::DeviceTaint> kNone;
    return static_cast<size_t>(id.v) < rule_taints_.size() ? rule_taints_[id.v] : kNone;
  }
  const PoolGen& gen(PoolGenId id) const { return gens_[id.v]; }
  int32_t gen_count() const { return static_cast<int32_t>(gens_.size()); }
  const Pool& pool(int32_t i) const { return pools_[i]; }

  // Device keys: (driver, pool, device). Intern() adds unknown keys (devices named by
  // allocation results but no longer published); Find() returns an unset id for them.
  DeviceKeyId InternKey(const std::string& driver, const std::string& pool,
                        const std::string& device);
  DeviceKeyId FindKey(const std::string& driver, const std::string& pool,
                      const std::string& device) const;
  int32_t key_count() const { return static_cast<int32_t>(key_names_.size()); }
  // "driver/pool/device", as upstream prints a DeviceID.
  const std::string& KeyName(DeviceKeyId id) const { return key_names_[id.v]; }
  const std::vector<DeviceRecordId>& RecordsOfKey(DeviceKeyId id) const {
    return key_records_[id.v];
  }

  // Approximate heap bytes held, for the benchmark's memory figure.
  size_t MemoryBytes() const;
  // Node views built so far.
  int64_t views_built() const { return views_built_; }

 private:
  void AddSlice(int32_t slice_index);
  void BuildGen(PoolGenId id, core::Diagnostics& diags);
  NodeView BuildView(const model::Node& node) const;
  bool SliceRelevant(const model::ResourceSlice& slice, const model::Node& node) const;

  const model::Snapshot& snapshot_;
  std::vector<Pool> pools_;
  std::map<std::pair<std::string, std::string>, int32_t> pool_ids_;
  std::vector<PoolGen> gens_;
  std::vector<PoolGenId> slice_gen_;         // per snapshot slice; unset when not in the cluster
  std::vector<int32_t> slice_first_record_;  // per snapshot slice
  std::vector<DeviceRecord> records_;
  std::vector<std::vector<model::DeviceTaint>> rule_taints_;  // empty when no rule applies
  std::unordered_map<std::string, int32_t> key_ids_;
  std::vector<std::string> key_names_;
  std::vector<std::vector<DeviceRecordId>> key_records_;
  // Slices published for one node by name, and the others (all nodes, node selectors,
  // per-device selection, shared counters), which every node view must look at.
  std::unordered_map<std::string, std::vector<int32_t>> slices_by_node_;
  std::vector<int32_t> global_slices_;
  mutable std::vector<std::optional<NodeView>> views_;
  mutable int64_t views_built_ = 0;
};

// Upstream nodeMatches: nodeName, then allNodes, then the node selector; nothing set means
// no match.
bool NodeSelectionMatches(const model::Node& node, const std::string& node_name, bool all_nodes,
                          const std::optional<core::NodeSelector>& selector);

}  // namespace berth::devices::internal
