// Residency fails closed: a list that does not parse is an error for the caller to turn into
// "no cluster qualifies", never an empty list (which would mean "anywhere").
#include "model/data_residency.h"

namespace berth::model {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool RegionChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

// Calls visit(item) for each trimmed item of a comma list, empty ones included.
template <typename Visit>
void ForEachItem(std::string_view text, Visit&& visit) {
  while (true) {
    const size_t comma = text.find(',');
    visit(Trim(text.substr(0, comma)));
    if (comma == std::string_view::npos) return;
    text.remove_prefix(comma + 1);
  }
}

}  // namespace

core::Result<std::vector<std::string>> ParseRegionList(std::string_view text) {
  std::vector<std::string> out;
  std::string problem;
  size_t position = 0;
  ForEachItem(text, [&](std::string_view item) {
    ++position;
    if (!problem.empty()) return;
    if (item.empty()) {
      problem = "entry " + std::to_string(position) + " is empty";
      return;
    }
    for (char c : item) {
      if (!RegionChar(c)) {
        problem =
            "\"" + std::string(item) + "\" is not a region name (letters, digits, '-', '_', '.')";
        return;
      }
    }
    out.emplace_back(item);
  });
  if (Trim(text).empty()) problem = "names no region";
  if (!problem.empty()) {
    return core::InvalidArgument("\"" + std::string(text) + "\": " + problem +
                                 "; expected comma-separated regions such as "
                                 "\"eu-west-1,eu-central-1\"");
  }
  return out;
}

std::string ComplianceProblem(std::string_view subject, const std::vector<std::string>& required,
                              const ManagedCluster& cluster, bool name_cluster) {
  if (required.empty()) return "";
  const std::string* claim = cluster.FindClaim(kComplianceClaim);
  bool covered = claim != nullptr;
  for (size_t r = 0; r < required.size() && covered; ++r) {
    bool found = false;
    ForEachItem(*claim, [&](std::string_view item) { found = found || item == required[r]; });
    covered = found;
  }
  if (covered) return "";
  std::string out(subject);
  out += " requires compliance ";
  for (size_t r = 0; r < required.size(); ++r) out += (r == 0 ? "" : ",") + required[r];
  out += name_cluster ? "; cluster " + cluster.meta.name : std::string("; the cluster");
  out += claim == nullptr ? std::string(" has no ") + kComplianceClaim + " claim"
                          : std::string(" claims ") + kComplianceClaim + "=" + *claim;
  return out;
}

}  // namespace berth::model
