// DeviceTaintRules applied to the published devices: which taints each rule adds to which
// device record, with the semantics of upstream's ResourceSlice tracker
// (k8s.io/dynamic-resource-allocation/resourceslice/tracker), which the scheduler reads
// slices through. Called once by the Allocator after the PoolIndex is built. Not thread-safe.
#pragma once

#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "devices/internal/pool_index.h"
#include "devices/internal/selector_matcher.h"
#include "model/resource_slice.h"
#include "model/snapshot.h"

namespace berth::devices::internal {

// Per device record of `pools` (indexed like PoolIndex records), the taints the cluster's
// DeviceTaintRules add, in the order of the rules in the snapshot. A rule whose selector
// does not compile is reported to `diags` (an error, as upstream fails to list slices then)
// and applies nowhere; a CEL runtime error means "does not select this device".
// O(rules x devices) selector evaluations at most.
std::vector<std::vector<model::DeviceTaint>> MatchDeviceTaintRules(const model::Snapshot& snapshot,
                                                                   const std::string& cluster,
                                                                   const PoolIndex& pools,
                                                                   SelectorMatcher& matcher,
                                                                   core::Diagnostics& diags);

}  // namespace berth::devices::internal
