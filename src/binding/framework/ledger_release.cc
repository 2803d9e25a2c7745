#include "binding/framework/ledger_release.h"

#include <algorithm>
#include <optional>
#include <span>

namespace berth::binding {

namespace {

// A one-GPU request whose portion on this ledger's GPUs is exactly `portion`. FractionLedger
// records portions, not requests; a portion came from a request by fraction (milli given,
// memory derived) or by memory (memory given, milli derived), and asking the same way again
// derives the same numbers, because the GPU memory is the same.
gpu::FractionRequest RequestFor(const gpu::GpuPortion& portion, int64_t gpu_memory_mib) {
  gpu::FractionRequest by_fraction{portion.milli, 0, 1};
  std::optional<gpu::GpuPortion> again = by_fraction.On(gpu_memory_mib);
  if (again.has_value() && again->milli == portion.milli &&
      again->memory_mib == portion.memory_mib) {
    return by_fraction;
  }
  return gpu::FractionRequest{0, portion.memory_mib, 1};
}

}  // namespace

gpu::FractionLedger LedgerWithout(const gpu::FractionLedger& ledger, model::PodIndex pod,
                                      int32_t* released) {
  *released = 0;
  // FractionLedger has no removal; rebuilding it through Apply() replays the same sums in
  // the same GPU order, which is what removal would leave.
  gpu::FractionLedger out(ledger.gpu_memory_mib(), ledger.shareable());
  for (const gpu::SharedGpu& gpu : ledger.shared()) {
    const bool others = std::any_of(gpu.holders.begin(), gpu.holders.end(),
                                    [&](const gpu::FractionHolder& h) { return h.pod != pod; });
    if (!others) {
      ++*released;  // held only by `pod`: the reservation goes with it
      continue;
    }
    int32_t slot = -1;  // the first remaining holder reserves the GPU anew
    for (const gpu::FractionHolder& h : gpu.holders) {
      if (h.pod == pod) continue;
      out.Apply(RequestFor(h.portion, ledger.gpu_memory_mib()), std::span<const int32_t>(&slot, 1),
                h.pod);
      slot = static_cast<int32_t>(out.shared().size()) - 1;
    }
    if (gpu.gpu >= 0) out.SetPhysicalIndex(static_cast<size_t>(slot), gpu.gpu);
  }
  return out;
}

}  // namespace berth::binding
