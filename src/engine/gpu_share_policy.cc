// The names come from binding's plugin table and gpu's policy names, so a policy added to
// both needs no edit here.
#include "engine/gpu_share_policy.h"

#include "binding/framework/gpu_share_names.h"
#include "gpu/policy.h"

namespace berth::engine {

std::optional<std::string_view> GpuSharePluginForPolicy(std::string_view policy) {
  for (const binding::GpuSharePluginName& plugin : binding::kGpuSharePlugins) {
    if (gpu::PolicyName(plugin.policy) == policy) return plugin.name;
  }
  return std::nullopt;
}

}  // namespace berth::engine
