#include "gpu/policy.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace berth::gpu {
namespace {

struct PolicyNames {
  Policy policy;
  std::string_view name;
  std::string_view paper_name;
};

// The registration table (STYLE.md: explicit, no static-init tricks), in the paper's order,
// berth's last.
constexpr std::array<PolicyNames, 7> kPolicyTable = {{
    {Policy::kRandom, "random", "01-Random"},
    {Policy::kDotProd, "dotprod", "02-DotProd"},
    {Policy::kClustering, "clustering", "03-GpuClustering"},
    {Policy::kPacking, "packing", "04-GpuPacking"},
    {Policy::kBestFit, "bestfit", "05-BestFit"},
    {Policy::kFgd, "fgd", "06-FGD"},
    {Policy::kBerth, "berth", "07-Berth"},
}};

const PolicyNames& Entry(Policy policy) {
  for (const PolicyNames& entry : kPolicyTable) {
    if (entry.policy == policy) return entry;
  }
  BERTH_CHECK(false, "a Policy value outside the table");
  return kPolicyTable[0];
}

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

std::string_view PolicyName(Policy policy) { return Entry(policy).name; }

std::string_view PolicyPaperName(Policy policy) { return Entry(policy).paper_name; }

core::Result<Policy> ParsePolicy(std::string_view name) {
  const std::string lowered = Lower(name);
  for (const PolicyNames& entry : kPolicyTable) {
    if (entry.name == lowered) return entry.policy;
  }
  std::string valid;
  for (const PolicyNames& entry : kPolicyTable) {
    if (!valid.empty()) valid += ", ";
    valid += entry.name;
  }
  return core::InvalidArgument("unknown policy '" + std::string(name) + "'; valid: " + valid +
                               ", all (the paper's six) or all+berth");
}

core::Result<std::vector<Policy>> ParsePolicyList(std::string_view list) {
  std::vector<Policy> out;
  const std::string lowered = Lower(list);
  if (lowered == "all" || lowered == "all+berth") {
    out.assign(kAllPolicies.begin(), kAllPolicies.end());
    if (lowered == "all+berth") out.push_back(Policy::kBerth);
    return out;
  }
  while (true) {
    const size_t comma = list.find(',');
    const std::string_view item = list.substr(0, comma);
    if (item.empty()) return core::InvalidArgument("empty policy name in the list");
    BERTH_ASSIGN_OR_RETURN(const Policy policy, ParsePolicy(item));
    if (std::find(out.begin(), out.end(), policy) == out.end()) out.push_back(policy);
    if (comma == std::string_view::npos) return out;
    list.remove_prefix(comma + 1);
  }
}

}  // namespace berth::gpu
