// MIG geometry: the Multi-Instance GPU profiles each MIG-capable NVIDIA GPU offers, as
// constant data (memory and compute slices, instance limits, valid placements), and the
// rules a layout follows. Read by gpu_inventory (to place the MIG instances node labels only
// count) and by `berth inventory`; later by repartitioning. Tables and functions are pure
// and thread-safe. Sources and assumptions: docs/gpus.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace berth::gpu {

// One GPU instance profile, e.g. "3g.40gb": 3 compute slices and 4 of 8 memory slices.
struct MigProfile {
  std::string_view name;   // "1g.10gb", "1g.10gb+me"
  int32_t compute_slices;  // the "g" count
  int32_t memory_slices;   // of MigGeometry::memory_slices; also the placement size
  int32_t memory_gb;       // the "gb" count of the name
  int32_t max_instances;   // per GPU
  uint32_t starts;         // bit i set: an instance may start at memory slice i
  bool media_extensions;   // "+me": holds the GPU's one set of media engines

  bool CanStartAt(int32_t slice) const {
    return slice >= 0 && slice < 32 && ((starts >> static_cast<uint32_t>(slice)) & 1U) != 0;
  }
};

// The MIG profiles of one GPU model. A100, H100, H200 and B200 have 8 memory slices and 7
// compute slices; A30 has 4 of each.
struct MigGeometry {
  std::string_view name;  // "A100-40GB", "H100-80GB", "H200-141GB", "B200", ...
  int32_t memory_gb;      // the whole GPU, as the 7g (4g on A30) profile names it
  int32_t compute_slices;
  int32_t memory_slices;
  std::span<const MigProfile> profiles;  // larger profiles last, as NVIDIA lists them

  // The profile named `name` ("1g.10gb"), or nullptr.
  const MigProfile* FindProfile(std::string_view name) const;
};

// One GPU instance of a layout: a profile at a placement (memory slices [start, start+size)).
struct MigInstance {
  std::string profile;
  int32_t start = 0;
  int32_t size = 0;

  bool operator==(const MigInstance&) const = default;
};

// Every geometry berth knows, in a fixed order.
std::span<const MigGeometry> AllMigGeometries();

// The geometry named `name` ("A100-80GB"), or nullptr.
const MigGeometry* FindMigGeometry(std::string_view name);

// The geometry of a GPU product as GPU Feature Discovery labels it (nvidia.com/gpu.product:
// "NVIDIA-A100-SXM4-80GB", "NVIDIA-H100-80GB-HBM3", "NVIDIA-H200", "NVIDIA-B200"); the
// "-MIG-<profile>" and "-SHARED" suffixes GFD adds are ignored. `memory_mib` (the
// nvidia.com/gpu.memory label, 0 when unknown) tells an A100-40GB from an A100-80GB when
// the name does not. nullptr for products without MIG (T4, L40S, ...).
const MigGeometry* MigGeometryForProduct(std::string_view product, int64_t memory_mib = 0);

// Ok when `layout` could exist on one GPU of `geometry`: every profile known, every
// placement valid for its profile, no two placements sharing a memory slice, at most
// max_instances of each profile, at most one media-extension instance, and at most
// compute_slices compute slices in all. Otherwise InvalidArgument saying which rule broke.
core::Status ValidateMigLayout(const MigGeometry& geometry, std::span<const MigInstance> layout);

// The lowest start at which one more `profile` instance fits next to `existing` (assumed
// valid): a valid start whose slices are free, with the instance and compute budgets kept.
// nullopt when there is none.
std::optional<int32_t> FindMigPlacement(const MigGeometry& geometry, const MigProfile& profile,
                                        std::span<const MigInstance> existing);

// A layout holding exactly `counts` (profile name, instances) on one GPU, found by a
// depth-first search that places larger profiles first, each at its lowest free start, and
// backtracks (greedy placement alone misses layouts such as 3g+2g+1g+1g, where the 3g must
// take slices 4-7). The first layout found, sorted by start; deterministic. InvalidArgument
// for an unknown profile, ResourceExhausted when no layout holds the counts.
core::Result<std::vector<MigInstance>> MigLayoutFromCounts(
    const MigGeometry& geometry, std::span<const std::pair<std::string, int32_t>> counts);

// Every valid non-empty layout of `geometry` (media-extension profiles left out unless
// `with_media_extensions`), each sorted by start, the list in lexicographic order of
// (start, profile) sequences. With `maximal_only`, only layouts no instance can be added to.
std::vector<std::vector<MigInstance>> EnumerateMigLayouts(const MigGeometry& geometry,
                                                          bool with_media_extensions = false,
                                                          bool maximal_only = false);

}  // namespace berth::gpu
