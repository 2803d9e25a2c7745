// Which binding score plugin runs one of the FGD paper's GPU-sharing policies, by the
// policy's short name. For `berth simulate`'s queued traces, whose --policy adds that
// plugin to the fleet's scheduler profiles. Pure function over constant tables.
#pragma once

#include <optional>
#include <string_view>

namespace berth::engine {

// The plugin name ("berth.dev/GpuShareFGD") of the paper policy whose gpu::PolicyName is
// `policy` ("random", "dotprod", "clustering", "packing", "bestfit", "fgd"; exact case);
// nullopt for any other name, berth's own policy included.
std::optional<std::string_view> GpuSharePluginForPolicy(std::string_view policy);

}  // namespace berth::engine
