#include "io/table_writer.h"

#include <algorithm>
#include <string>

namespace berth::io {

namespace {

using Row = std::vector<std::string>;

// Columns padded to their widest cell plus three spaces, trailing spaces trimmed.
void PrintAligned(const std::vector<Row>& rows, std::ostream& out) {
  std::vector<size_t> width;
  for (const Row& row : rows) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  std::string line;
  for (const Row& row : rows) {
    line.clear();
    for (size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size()) line.append(width[c] - row[c].size() + 3, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }
}

void WriteClaimTable(const model::Snapshot& planned, const std::vector<int32_t>& claims,
                     std::ostream& out) {
  std::vector<Row> rows;
  rows.push_back({"NAMESPACE", "CLAIM", "RESERVED FOR", "REQUEST", "DEVICE"});
  for (int32_t index : claims) {
    const model::ResourceClaim& claim = planned.resource_claims[static_cast<size_t>(index)];
    std::string reserved;
    for (const std::string& pod : claim.reserved_for) {
      if (!reserved.empty()) reserved += ", ";
      reserved += pod;
    }
    if (reserved.empty()) reserved = "<none>";
    Row first = {claim.meta.namespace_, claim.meta.name, reserved};
    if (!claim.allocation.has_value() || claim.allocation->results.empty()) {
      first.push_back("<none>");
      first.push_back("<none>");
      rows.push_back(std::move(first));
      continue;
    }
    bool is_first = true;
    for (const model::DeviceRequestAllocationResult& r : claim.allocation->results) {
      Row row = is_first ? first : Row{"", "", ""};
      row.push_back(r.request);
      row.push_back(r.driver + "/" + r.pool + "/" + r.device);
      rows.push_back(std::move(row));
      is_first = false;
    }
  }
  PrintAligned(rows, out);
}

}  // namespace

void WritePlanTable(const model::Snapshot& planned,
                    const std::vector<model::PodDecision>& decisions, std::ostream& out) {
  WritePlanTable(planned, decisions, {}, out);
}

void WritePlanTable(const model::Snapshot& planned,
                    const std::vector<model::PodDecision>& decisions,
                    const std::vector<int32_t>& claims, std::ostream& out) {
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
  PrintAligned(rows, out);
  if (claims.empty()) return;
  out << '\n';
  WriteClaimTable(planned, claims, out);
}

}  // namespace berth::io
