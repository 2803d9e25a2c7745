#include "binding/plugins/gpu_share_random.h"

#include "binding/framework/gpu_share_names.h"
#include "binding/framework/plugin_names.h"

namespace berth::binding {

namespace {

// splitmix64's finalizer: FNV alone leaves the low bits, which the modulo keeps, poorly mixed.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t Fnv1a(uint64_t h, std::string_view text) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace

size_t GpuShareRandomPick(uint64_t seed, const model::Pod& pod, size_t n) {
  if (n == 0) return 0;
  uint64_t h = Fnv1a(0xcbf29ce484222325ULL ^ Mix(seed), pod.meta.namespace_);
  h = Fnv1a(h, "/");
  h = Fnv1a(h, pod.meta.name);
  return static_cast<size_t>(Mix(h) % n);
}

std::string_view GpuShareRandomScore::Name() const { return kGpuShareRandom; }

bool GpuShareRandomScore::PreScore(const CycleContext& ctx,
                                   std::span<const model::NodeIndex> feasible) {
  if (!GpuSharePlugin::PreScore(ctx, feasible) || feasible.empty()) return false;
  chosen_ = feasible[GpuShareRandomPick(kGpuShareRandomSeed, ctx.pod, feasible.size())];
  return true;
}

int64_t GpuShareRandomScore::Score(const CycleContext&, model::NodeIndex node) const {
  return node == chosen_ ? kMaxNodeScore : 0;
}

}  // namespace berth::binding
