#include "gpu/fragment_memo.h"

#include <array>

namespace berth::gpu {
namespace {

constexpr int kPackedGpus = 8;
constexpr size_t kInitialSlots = 1 << 12;

uint64_t Mix(uint64_t high, uint64_t low) {
  uint64_t h = high * 0x9e3779b97f4a7c15ULL ^ low;
  h ^= h >> 32;
  h *= 0xd6e8feb86659fd93ULL;
  h ^= h >> 32;
  return h;
}

}  // namespace

bool FragmentMemo::Pack(const NodeState& node, uint64_t& high, uint64_t& low) {
  if (node.num_gpu > kPackedGpus || node.cpu_free_milli < 0 ||
      node.cpu_free_milli >= (int64_t{1} << 31)) {
    return false;
  }
  // GPU order does not change F, so the state is the sorted multiset (insertion sort: at
  // most 8 values).
  std::array<int32_t, kPackedGpus> free{};
  for (int i = 0; i < node.num_gpu; ++i) {
    const int32_t value = node.gpu_free_milli[i];
    int j = i;
    for (; j > 0 && free[j - 1] > value; --j) free[j] = free[j - 1];
    free[j] = value;
  }
  // low: 6 shares x 10 bits; high: 2 shares x 10 bits, GPU count (4 bits), model (8 bits),
  // CPU (31 bits) and a marker bit that keeps every packed key non-zero.
  low = 0;
  for (int i = 0; i < 6; ++i) low |= static_cast<uint64_t>(free[i] & 0x3ff) << (10 * i);
  high = static_cast<uint64_t>(free[6] & 0x3ff) | static_cast<uint64_t>(free[7] & 0x3ff) << 10 |
         static_cast<uint64_t>(node.num_gpu) << 20 |
         static_cast<uint64_t>(static_cast<uint8_t>(node.model)) << 24 |
         static_cast<uint64_t>(node.cpu_free_milli) << 32 | uint64_t{1} << 63;
  return true;
}

double FragmentMemo::NodeFragmentMilli(const NodeState& node) {
  uint64_t high = 0;
  uint64_t low = 0;
  // A free share of 1000 needs 10 bits (0..1023), so every share packs without loss.
  if (!Pack(node, high, low)) return model_.NodeFragmentMilli(node);
  if (slots_.empty()) slots_.resize(kInitialSlots);
  const size_t mask = slots_.size() - 1;
  for (size_t i = Mix(high, low) & mask;; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.key_high == high && slot.key_low == low) {
      ++hits_;
      return slot.fragment;
    }
    if (slot.key_high == 0) {
      ++misses_;
      slot = {high, low, model_.NodeFragmentMilli(node)};
      const double fragment = slot.fragment;
      if (++used_ * 2 > slots_.size()) Grow();
      return fragment;
    }
  }
}

void FragmentMemo::Grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  const size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.key_high == 0) continue;
    size_t i = Mix(slot.key_high, slot.key_low) & mask;
    while (slots_[i].key_high != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

}  // namespace berth::gpu
