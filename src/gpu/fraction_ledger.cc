#include "gpu/fraction_ledger.h"

#include <algorithm>

#include "core/check.h"
#include "gpu/gpu_inventory.h"

namespace berth::gpu {

std::optional<std::vector<int32_t>> FractionLedger::Choose(const FractionRequest& request,
                                                           int64_t free_whole_gpus) const {
  if (!shareable_) return std::nullopt;
  std::optional<GpuPortion> portion = request.On(gpu_memory_mib_);
  if (!portion.has_value() || portion->milli > kMilliGpu) return std::nullopt;
  std::vector<int32_t> choice;
  choice.reserve(static_cast<size_t>(request.num_devices));
  std::vector<bool> taken(shared_.size(), false);
  int64_t opened = 0;
  for (int32_t i = 0; i < request.num_devices; ++i) {
    int32_t best = -1;
    for (size_t s = 0; s < shared_.size(); ++s) {
      const SharedGpu& g = shared_[s];
      if (taken[s] || g.milli_used + portion->milli > kMilliGpu) continue;
      if (gpu_memory_mib_ > 0 && g.memory_used_mib + portion->memory_mib > gpu_memory_mib_) {
        continue;
      }
      // Bin-packing: the fullest GPU that still fits; the earlier reservation on ties.
      if (best < 0 || g.milli_used > shared_[static_cast<size_t>(best)].milli_used) {
        best = static_cast<int32_t>(s);
      }
    }
    if (best >= 0) {
      taken[static_cast<size_t>(best)] = true;
    } else if (opened < free_whole_gpus) {
      ++opened;
    } else {
      return std::nullopt;
    }
    choice.push_back(best);
  }
  return choice;
}

int32_t FractionLedger::Apply(const FractionRequest& request, std::span<const int32_t> choice,
                              model::PodIndex pod) {
  std::optional<GpuPortion> portion = request.On(gpu_memory_mib_);
  // Choose() returned `choice` for this request, which it does only when the portion exists.
  BERTH_CHECK(portion.has_value(), "FractionLedger::Apply without a fitting Choose()");
  int32_t opened = 0;
  for (int32_t slot : choice) {
    size_t s = 0;
    if (slot < 0) {
      shared_.push_back(SharedGpu{});
      s = shared_.size() - 1;
      ++opened;
    } else {
      s = static_cast<size_t>(slot);
    }
    SharedGpu& g = shared_[s];
    g.milli_used += portion->milli;
    g.memory_used_mib += portion->memory_mib;
    g.holders.push_back(FractionHolder{pod, *portion});
  }
  return opened;
}

FractionBook::FractionBook(const model::Snapshot& snapshot) {
  bool any = std::any_of(snapshot.pods.begin(), snapshot.pods.end(), [](const model::Pod& p) {
    return HasFractionAnnotations(p.meta.annotations);
  });
  if (!any) return;
  ledgers_.reserve(snapshot.nodes.size());
  for (const model::Node& node : snapshot.nodes) {
    NodeGpuInventory inv = ReadNodeGpus(node, snapshot.resources);
    ledgers_.emplace_back(inv.GpuMemoryMib(), inv.FractionShareable());
  }
}

}  // namespace berth::gpu
