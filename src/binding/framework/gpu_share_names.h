// Names of berth's GPU-sharing score plugins (the FGD paper's six policies and berth's own,
// docs/binding.md "GPU-sharing score plugins"): a profile enables one by listing the name under
// plugins.score.enabled of a KubeSchedulerConfiguration, with a weight like any score
// plugin. Not upstream kube-scheduler plugins, hence the berth.dev/ prefix that out-of-tree
// plugin names carry. Constants only.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "gpu/policy.h"

namespace berth::binding {

inline constexpr std::string_view kGpuShareRandom = "berth.dev/GpuShareRandom";
inline constexpr std::string_view kGpuShareDotProd = "berth.dev/GpuShareDotProd";
inline constexpr std::string_view kGpuShareClustering = "berth.dev/GpuShareClustering";
inline constexpr std::string_view kGpuSharePacking = "berth.dev/GpuSharePacking";
inline constexpr std::string_view kGpuShareBestFit = "berth.dev/GpuShareBestFit";
inline constexpr std::string_view kGpuShareFgd = "berth.dev/GpuShareFGD";
// berth's policy (gpu/berth_scorer.h); unlike the six above it scores CPU-only pods too, as
// the simulator does.
inline constexpr std::string_view kGpuShareBerth = "berth.dev/GpuShareBerth";

// A plugin name and the gpu::Policy whose gpu::NodeScorer it runs (GpuShareScore, one class
// for all of them).
struct GpuSharePluginName {
  std::string_view name;
  gpu::Policy policy;
};

// The paper's six, in its order (Random, DotProd, GpuClustering, GpuPacking, BestFit, FGD):
// their scorers read binding's nodes as gpu::KaiNodes (gpu/kai_node.h says what that view
// has that the node model has not) and score GPU pods only.
inline constexpr std::array<GpuSharePluginName, 6> kGpuSharePlugins = {{
    {kGpuShareRandom, gpu::Policy::kRandom},
    {kGpuShareDotProd, gpu::Policy::kDotProd},
    {kGpuShareClustering, gpu::Policy::kClustering},
    {kGpuSharePacking, gpu::Policy::kPacking},
    {kGpuShareBestFit, gpu::Policy::kBestFit},
    {kGpuShareFgd, gpu::Policy::kFgd},
}};

// The plugins whose policy reads the gpu module's node model (not gpu::ReadsKaiView), kept
// for them by GpuShareNodeModel; they score every pod.
using GpuShareNodeModelPlugin = GpuSharePluginName;
inline constexpr std::array<GpuShareNodeModelPlugin, 1> kGpuShareNodeModelPlugins = {{
    {kGpuShareBerth, gpu::Policy::kBerth},
}};
static_assert(!gpu::ReadsKaiView(kGpuShareNodeModelPlugins[0].policy));

// Random's fixed seed (the first of the paper's seeds 42-51): the plugin takes no
// arguments, so the same input always draws the same nodes.
inline constexpr uint64_t kGpuShareRandomSeed = 42;

}  // namespace berth::binding
