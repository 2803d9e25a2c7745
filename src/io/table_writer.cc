#include "io/table_writer.h"

#include <algorithm>
#include <array>
#include <string>

namespace berth::io {

namespace {

constexpr size_t kColumns = 5;
using Row = std::array<std::string, kColumns>;

}  // namespace

void WritePlanTable(const model::Snapshot& planned,
                    const std::vector<model::PodDecision>& decisions, std::ostream& out) {
  std::vector<Row> rows;
  rows.reserve(decisions.size() + 1);
  rows.push_back({"NAMESPACE", "NAME", "NODE", "STATUS", "REASON"});
  for (const model::PodDecision& d : decisions) {
    const model::Pod& pod = planned.pod(d.pod);
    std::string node = pod.node_name;
    if (node.empty() && d.node.has_value()) node = planned.node(*d.node).meta.name;
    bool bound = !node.empty();
    std::string reason;
    if (!bound) {
      reason = d.message;
      if (reason.empty() && d.skipped) {
        reason = "not handled by any profile (schedulerName " + pod.scheduler_name + ")";
      }
    }
    rows.push_back({pod.meta.namespace_, pod.meta.name, bound ? node : "<none>",
                    bound ? "Bound" : "Pending", reason});
  }
  std::array<size_t, kColumns> width{};
  for (const Row& row : rows) {
    for (size_t c = 0; c < kColumns; ++c) width[c] = std::max(width[c], row[c].size());
  }
  std::string line;
  for (const Row& row : rows) {
    line.clear();
    for (size_t c = 0; c < kColumns; ++c) {
      line += row[c];
      if (c + 1 < kColumns) line.append(width[c] - row[c].size() + 3, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }
}

}  // namespace berth::io
