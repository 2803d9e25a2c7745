// FragmentMemo: F(node) remembered by node state, for FGD's what-if evaluations. A node's
// fragment depends only on its model, free CPU and the multiset of its GPUs' free shares,
// and a run revisits few such states (about 24,000 distinct ones among 5 million what-ifs in
// a default-trace FGD run), so a hash table in front of FragmentationModel answers most of
// them without the typical-pod loop. The value is the one the model computes, bit for bit.
// Owned by one FGD scorer, so by one run: not thread-safe. O(GPUs log GPUs) per lookup.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/fragmentation.h"
#include "gpu/node_state.h"

namespace berth::gpu {

class FragmentMemo {
 public:
  explicit FragmentMemo(const FragmentationModel& model) : model_(model) {}

  // model.NodeFragmentMilli(node), from the table when this state was seen before.
  double NodeFragmentMilli(const NodeState& node);

  int64_t hits() const { return hits_; }
  int64_t misses() const { return misses_; }

 private:
  struct Slot {
    uint64_t key_high = 0;
    uint64_t key_low = 0;  // 0 in both words: empty (no packed state is all zero, see Pack)
    double fragment = 0;
  };
  // Packs the state into 128 bits; false for states too large to pack (more than 8 GPUs or
  // 2^31 milli-CPU or more), which are then computed directly.
  static bool Pack(const NodeState& node, uint64_t& high, uint64_t& low);
  void Grow();

  const FragmentationModel& model_;
  std::vector<Slot> slots_;
  size_t used_ = 0;
  int64_t hits_ = 0;
  int64_t misses_ = 0;
};

}  // namespace berth::gpu
