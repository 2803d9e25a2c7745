#include "io/table_writer.h"

#include <algorithm>
#include <string>
#include <utility>

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

bool HasCondition(const model::Workload& wl, const char* type, const char* status) {
  const model::WorkloadCondition* c = wl.FindCondition(type);
  return c != nullptr && c->status == status;
}

std::string ConditionMessage(const model::Workload& wl, const char* type) {
  const model::WorkloadCondition* c = wl.FindCondition(type);
  return c == nullptr ? "" : c->message;
}

// "main: cpu,memory=default nvidia.com/gpu=h100; worker: ...": resources sharing a flavor
// are joined, flavors in order of their first resource by name.
std::string FlavorsColumn(const model::Workload& wl) {
  if (!wl.admission.has_value()) return "<none>";
  std::string out;
  for (const model::PodSetAssignment& psa : wl.admission->pod_set_assignments) {
    std::vector<std::pair<std::string, std::string>> groups;  // flavor, resources
    for (const auto& [resource, flavor] : psa.flavors) {
      auto it = std::find_if(groups.begin(), groups.end(),
                             [&](const auto& g) { return g.first == flavor; });
      if (it == groups.end()) {
        groups.emplace_back(flavor, resource);
      } else {
        it->second += "," + resource;
      }
    }
    if (!out.empty()) out += "; ";
    out += psa.name + ":";
    for (const auto& [flavor, resources] : groups) out += " " + resources + "=" + flavor;
  }
  return out.empty() ? "<none>" : out;
}

void WriteWorkloadTable(const model::Snapshot& planned, const std::vector<int32_t>& workloads,
                        std::ostream& out) {
  std::vector<Row> rows;
  rows.push_back({"NAMESPACE", "NAME", "QUEUE", "CLUSTERQUEUE", "STATUS", "FLAVORS", "MESSAGE"});
  for (int32_t index : workloads) {
    const model::Workload& wl = planned.kueue_workloads[static_cast<size_t>(index)];
    std::string status = WorkloadStatusName(wl);
    std::string message;
    if (status == "Finished") {
      message = ConditionMessage(wl, "Finished");
    } else if (status == "Admitted") {
      message = ConditionMessage(wl, "Admitted");
    } else if (status == "Preempted") {
      message = ConditionMessage(wl, "Preempted");
      if (message.empty()) message = ConditionMessage(wl, "Evicted");
    } else {
      message = ConditionMessage(wl, "QuotaReserved");
    }
    std::string cq = wl.admission.has_value() ? wl.admission->cluster_queue : "";
    rows.push_back({wl.meta.namespace_, wl.meta.name,
                    wl.queue_name.empty() ? "<none>" : wl.queue_name, cq.empty() ? "<none>" : cq,
                    status, FlavorsColumn(wl), message});
  }
  PrintAligned(rows, out);
}

}  // namespace

const char* WorkloadStatusName(const model::Workload& wl) {
  if (HasCondition(wl, "Finished", "True")) return "Finished";
  if (HasCondition(wl, "Admitted", "True")) return "Admitted";
  if (HasCondition(wl, "Evicted", "True") || HasCondition(wl, "Preempted", "True")) {
    return "Preempted";
  }
  if (HasCondition(wl, "QuotaReserved", "True")) return "QuotaReserved";
  const model::WorkloadCondition* qr = wl.FindCondition("QuotaReserved");
  if (!wl.active || (qr != nullptr && qr->status == "False" && qr->reason == "Inadmissible")) {
    return "Inadmissible";
  }
  return "Pending";
}

void WritePlanTable(const model::Snapshot& planned,
                    const std::vector<model::PodDecision>& decisions, std::ostream& out) {
  WritePlanTable(planned, decisions, {}, {}, out);
}

void WritePlanTable(const model::Snapshot& planned,
                    const std::vector<model::PodDecision>& decisions,
                    const std::vector<int32_t>& claims, std::ostream& out) {
  WritePlanTable(planned, decisions, claims, {}, out);
}

void WritePlanTable(const model::Snapshot& planned,
                    const std::vector<model::PodDecision>& decisions,
                    const std::vector<int32_t>& claims, const std::vector<int32_t>& workloads,
                    std::ostream& out, const std::vector<model::PodDeletion>& deleted) {
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
  for (const model::PodDeletion& d : deleted) {
    const model::Pod& pod = planned.pod(d.pod);
    rows.push_back({pod.meta.namespace_, pod.meta.name,
                    pod.node_name.empty() ? "<none>" : pod.node_name, "Deleted", d.reason});
  }
  PrintAligned(rows, out);
  if (!claims.empty()) {
    out << '\n';
    WriteClaimTable(planned, claims, out);
  }
  if (!workloads.empty()) {
    out << '\n';
    WriteWorkloadTable(planned, workloads, out);
  }
}

}  // namespace berth::io
