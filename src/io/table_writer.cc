#include "io/table_writer.h"

#include <algorithm>
#include <string>
#include <utility>

#include "io/internal/json_patch.h"

namespace berth::io {

namespace {

using Row = std::vector<std::string>;

// Columns padded to their widest cell plus three spaces, trailing spaces trimmed. rows[0]
// is the header: left out, and not measured, with --no-headers (as kubectl's).
void PrintAligned(const std::vector<Row>& rows, std::ostream& out, const TableOptions& options) {
  const size_t first = options.no_headers && !rows.empty() ? 1 : 0;
  std::vector<size_t> width;
  for (size_t r = first; r < rows.size(); ++r) {
    const Row& row = rows[r];
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  std::string line;
  for (size_t r = first; r < rows.size(); ++r) {
    const Row& row = rows[r];
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
                     std::ostream& out, const TableOptions& options) {
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
  PrintAligned(rows, out, options);
}

std::string OrNone(const std::string& s) { return s.empty() ? "<none>" : s; }

std::string Joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) {
    if (!out.empty()) out += ", ";
    out += p;
  }
  return out;
}

const char* CheckStateText(model::CheckState state) {
  switch (state) {
    case model::CheckState::kPending:
      return "Pending";
    case model::CheckState::kReady:
      return "Ready";
    case model::CheckState::kRetry:
      return "Retry";
    case model::CheckState::kRejected:
      return "Rejected";
  }
  return "Pending";
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
                             [&flavor = flavor](const auto& g) { return g.first == flavor; });
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

// -o wide adds PRIORITY and ADMISSION CHECKS (`name=State`, comma separated) before MESSAGE.
void WriteWorkloadTable(const model::Snapshot& planned, const std::vector<int32_t>& workloads,
                        std::ostream& out, const TableOptions& options,
                        const std::vector<int32_t>& cycles) {
  // The CLUSTER column only for MultiKueue plans, so single-cluster tables stay as they were.
  bool fleet = std::any_of(workloads.begin(), workloads.end(), [&](int32_t index) {
    return !planned.kueue_workloads[static_cast<size_t>(index)].cluster_name.empty();
  });
  std::vector<Row> rows;
  rows.push_back({"NAMESPACE", "NAME", "QUEUE", "CLUSTERQUEUE", "STATUS", "FLAVORS", "MESSAGE"});
  if (fleet) rows.back().insert(rows.back().begin() + 4, "CLUSTER");
  // The CYCLE column only for plans of N cycles (PlanItems::workload_cycles).
  const bool by_cycle = !cycles.empty();
  if (by_cycle) rows.back().insert(rows.back().end() - 1, "CYCLE");
  if (options.wide) rows.back().insert(rows.back().end() - 1, {"PRIORITY", "ADMISSION CHECKS"});
  for (size_t row = 0; row < workloads.size(); ++row) {
    const int32_t index = workloads[row];
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
      // Quota reserved, waiting for an admission check (a fleet check looking for a
      // cluster): the check's message says what it waits for.
      for (const model::AdmissionCheckStatus& check : wl.admission_checks) {
        if (status == "QuotaReserved" && check.state != model::CheckState::kReady &&
            !check.message.empty()) {
          message = check.name + ": " + check.message;
          break;
        }
      }
    }
    std::string cq = wl.admission.has_value() ? wl.admission->cluster_queue : "";
    rows.push_back({wl.meta.namespace_, wl.meta.name,
                    wl.queue_name.empty() ? "<none>" : wl.queue_name, cq.empty() ? "<none>" : cq,
                    status, FlavorsColumn(wl), message});
    if (fleet) rows.back().insert(rows.back().begin() + 4, OrNone(wl.cluster_name));
    if (by_cycle) {
      const int32_t cycle = row < cycles.size() ? cycles[row] : -1;
      rows.back().insert(rows.back().end() - 1, cycle < 0 ? "-" : std::to_string(cycle));
    }
    if (options.wide) {
      std::vector<std::string> checks;
      for (const model::AdmissionCheckStatus& check : wl.admission_checks) {
        checks.push_back(check.name + "=" + CheckStateText(check.state));
      }
      rows.back().insert(rows.back().end() - 1,
                         {std::to_string(wl.priority), OrNone(Joined(checks))});
    }
  }
  PrintAligned(rows, out, options);
}

void WritePlacementTable(const model::Snapshot& planned, const std::vector<int32_t>& placements,
                         std::ostream& out, const TableOptions& options) {
  std::vector<Row> rows;
  rows.push_back({"NAMESPACE", "NAME", "SELECTED", "SATISFIED", "DECISIONS"});
  for (int32_t index : placements) {
    const model::Placement& p = planned.placements[static_cast<size_t>(index)];
    std::string selected = "<none>";
    std::string satisfied = "<none>";
    std::vector<std::string> decisions;
    if (p.status.has_value()) {
      selected = std::to_string(p.status->number_of_selected_clusters);
      for (const model::Condition& c : p.status->conditions) {
        if (c.type != "PlacementSatisfied") continue;
        satisfied = model::ConditionStatusName(c.status);
        if (!c.reason.empty()) satisfied += " (" + c.reason + ")";
      }
      for (const model::PlacementDecisionGroupStatus& g : p.status->decision_groups) {
        decisions.insert(decisions.end(), g.decisions.begin(), g.decisions.end());
      }
    }
    rows.push_back(
        {p.meta.namespace_, p.meta.name, selected, satisfied, OrNone(Joined(decisions))});
  }
  PrintAligned(rows, out, options);
}

// "Kind/namespace/name", or "Kind/name" for a cluster-scoped object.
std::string ManifestName(const std::string& kind, const std::string& ns, const std::string& name) {
  return ns.empty() ? kind + "/" + name : kind + "/" + ns + "/" + name;
}

void WriteManifestWorkTable(const model::Snapshot& planned, const std::vector<int32_t>& works,
                            std::ostream& out, const TableOptions& options) {
  std::vector<Row> rows;
  rows.push_back({"CLUSTER", "NAME", "WORKLOAD", "MANIFESTS"});
  for (int32_t index : works) {
    const model::ManifestWork& work = planned.manifest_works[static_cast<size_t>(index)];
    std::vector<std::string> manifests;
    for (const model::ManifestPatch& m : work.manifests) {
      manifests.push_back(ManifestName(m.kind, m.namespace_, m.name));
    }
    for (const model::ManifestMeta& m : work.read_manifests) {
      manifests.push_back(ManifestName(m.kind, m.namespace_, m.name));
    }
    for (const model::GeneratedJob& job : work.generated_jobs) {
      manifests.push_back(ManifestName("Job", job.namespace_, job.name));
    }
    // A FederatedLearning's works name it in their own label.
    auto workload = work.meta.labels.find(model::kWorkloadLabel);
    if (workload == work.meta.labels.end()) {
      workload = work.meta.labels.find(model::kFederatedLearningLabel);
    }
    // A ManifestWorkReplicaSet's works name it in OCM's label.
    if (workload == work.meta.labels.end()) {
      workload = work.meta.labels.find(model::kMwrsOwnerLabel);
    }
    rows.push_back({work.meta.namespace_, work.meta.name,
                    workload == work.meta.labels.end() ? "<none>" : OrNone(workload->second),
                    OrNone(Joined(manifests))});
  }
  PrintAligned(rows, out, options);
}

// The MANIFESTWORKREPLICASETS table: per MWRS its placements, the rollout's state, the
// clusters holding the revision out of those its placements selected, the revision, and why
// it paused or rolled back (else what is wrong with it).
void WriteReplicaSetTable(const model::Snapshot& planned, const std::vector<int32_t>& replica_sets,
                          std::ostream& out, const TableOptions& options) {
  std::vector<Row> rows;
  rows.push_back({"NAMESPACE", "NAME", "PLACEMENT", "ROLLOUT", "APPLIED", "REVISION", "MESSAGE"});
  for (int32_t index : replica_sets) {
    const model::ManifestWorkReplicaSet& mwrs =
        planned.manifest_work_replica_sets[static_cast<size_t>(index)];
    std::vector<std::string> placements;
    for (const model::MwrsPlacementRef& ref : mwrs.placement_refs) placements.push_back(ref.name);
    const model::MwrsRolloutSummary& r = mwrs.rollout;
    rows.push_back({mwrs.meta.namespace_, mwrs.meta.name, OrNone(Joined(placements)),
                    OrNone(r.state),
                    std::to_string(r.applied) + "/" + std::to_string(r.selected),
                    r.revision > 0 ? std::to_string(r.revision) : "<none>", r.message});
  }
  PrintAligned(rows, out, options);
}

// The FEDERATED LEARNING table, then one row per cluster of each one's status.clients.
void WriteFederatedLearningTables(const model::Snapshot& planned,
                                  const std::vector<int32_t>& federated_learnings,
                                  std::ostream& out, const TableOptions& options) {
  std::vector<Row> rows;
  rows.push_back({"NAMESPACE", "NAME", "PHASE", "ROUND", "CLIENTS", "SERVER", "MESSAGE"});
  std::vector<Row> clients;
  clients.push_back({"FEDERATED LEARNING", "CLUSTER", "STATE", "DATA", "REASON"});
  for (int32_t index : federated_learnings) {
    const model::FederatedLearning& fl = planned.federated_learnings[static_cast<size_t>(index)];
    const model::FederatedLearningStatus& st = fl.status ? *fl.status : fl.read_status;
    int32_t training = 0;
    for (const model::FlClientStatus& c : st.clients) {
      if (c.state == model::FlClientState::kTraining) ++training;
      std::string reason = c.reason;
      if (!c.message.empty()) reason += (reason.empty() ? "" : ": ") + c.message;
      clients.push_back({fl.meta.namespace_ + "/" + fl.meta.name, c.cluster,
                         model::FlClientStateName(c.state), OrNone(c.data_config),
                         reason});
    }
    std::string round = std::to_string(st.current_round);
    if (fl.server.rounds > 0) round += "/" + std::to_string(fl.server.rounds);
    rows.push_back({fl.meta.namespace_, fl.meta.name, model::FlPhaseName(st.phase), round,
                    std::to_string(training) + "/" +
                        std::to_string(fl.server.min_available_clients),
                    OrNone(st.server_cluster), st.message});
  }
  PrintAligned(rows, out, options);
  if (clients.size() > 1) {
    out << '\n';
    PrintAligned(clients, out, options);
  }
}

void WriteDeletedObjects(const std::vector<model::ObjectDeletion>& deleted, std::ostream& out,
                         const TableOptions& options) {
  if (!options.no_headers) out << "DELETED\n";
  for (const model::ObjectDeletion& d : deleted) {
    out << d.kind << ' ' << (d.namespace_.empty() ? d.name : d.namespace_ + "/" + d.name) << ": "
        << d.reason << '\n';
  }
}

}  // namespace

const char* WorkloadStatusName(const model::Workload& wl) {
  if (HasCondition(wl, "Finished", "True")) return "Finished";
  // Evicted while still holding its admission (`--cycles N`: its pods are terminating, the
  // reservation is cleared once they are gone) is already on its way out.
  if (HasCondition(wl, "Evicted", "True") || HasCondition(wl, "Preempted", "True")) {
    return "Preempted";
  }
  if (HasCondition(wl, "Admitted", "True")) return "Admitted";
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
  PlanItems items;
  items.pods = &decisions;
  items.claims = claims;
  items.workloads = workloads;
  items.deleted_pods = deleted;
  WritePlanTable(planned, items, out);
}

void WritePlanTable(const model::Snapshot& planned, const PlanItems& items, std::ostream& out,
                    const TableOptions& options) {
  const std::vector<model::PodDecision> none;
  const std::vector<model::PodDecision>& decisions = items.pods != nullptr ? *items.pods : none;
  const std::vector<int32_t>& claims = items.claims;
  const std::vector<int32_t>& workloads = items.workloads;
  const std::vector<model::PodDeletion>& deleted = items.deleted_pods;
  std::vector<Row> rows;
  rows.reserve(decisions.size() + 1);
  rows.push_back({"NAMESPACE", "NAME", "NODE", "STATUS", "REASON"});
  // -o wide: the pod's cluster and priority before REASON, which stays last (free text).
  if (options.wide) rows.back().insert(rows.back().end() - 1, {"CLUSTER", "PRIORITY"});
  auto widen = [&rows, &options](const model::Pod& pod) {
    if (options.wide) {
      rows.back().insert(rows.back().end() - 1, {pod.cluster, std::to_string(pod.priority)});
    }
  };
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
    // A pod left terminating by a plan of N cycles: its workload's eviction is the reason.
    if (bound && pod.deletion_timestamp) {
      rows.push_back({pod.meta.namespace_, pod.meta.name, node, "Terminating", d.message});
      widen(pod);
      continue;
    }
    rows.push_back({pod.meta.namespace_, pod.meta.name, bound ? node : "<none>",
                    bound ? "Bound" : "Pending", reason});
    widen(pod);
  }
  for (const model::PodDeletion& d : deleted) {
    const model::Pod& pod = planned.pod(d.pod);
    rows.push_back({pod.meta.namespace_, pod.meta.name,
                    pod.node_name.empty() ? "<none>" : pod.node_name, "Deleted", d.reason});
    widen(pod);
  }
  // Pods the API server refused to create (engine/pod_admission.h): no decision, no object;
  // the table lists them with their controller's FailedCreate message.
  if (items.pods != nullptr) {
    for (const model::Pod& pod : planned.pods) {
      if (pod.admission_refused.empty()) continue;
      rows.push_back({pod.meta.namespace_, pod.meta.name, "<none>", "NotCreated",
                      "Error creating: " + pod.admission_refused});
      widen(pod);
    }
  }
  // The pods table, unless there are no pods and other tables follow (a hub plans no pods
  // of its own); each further table after a blank line.
  const std::vector<int32_t> no_federated_learnings;
  const std::vector<int32_t>& federated_learnings =
      items.federated_learnings ? *items.federated_learnings : no_federated_learnings;
  const std::vector<int32_t> no_replica_sets;
  const std::vector<int32_t>& replica_sets =
      items.replica_sets ? *items.replica_sets : no_replica_sets;
  const bool others = !claims.empty() || !workloads.empty() || !items.placements.empty() ||
                      !items.manifest_works.empty() || !replica_sets.empty() ||
                      !federated_learnings.empty() ||
                      !items.deleted_objects.empty();
  // Each table under its title, so that a reader of a long plan knows which table a row
  // belongs to without reading its header.
  bool printed = false;
  auto section = [&](const char* title) {
    if (printed) out << '\n';
    printed = true;
    if (title != nullptr && !options.no_headers) out << title << '\n';
  };
  if (rows.size() > 1 || !others) {
    section("PODS");
    PrintAligned(rows, out, options);
  }
  if (!claims.empty()) {
    section("RESOURCE CLAIMS");
    WriteClaimTable(planned, claims, out, options);
  }
  if (!workloads.empty()) {
    section("WORKLOADS");
    WriteWorkloadTable(planned, workloads, out, options, items.workload_cycles);
  }
  if (!items.placements.empty()) {
    section("PLACEMENTS");
    WritePlacementTable(planned, items.placements, out, options);
  }
  if (!items.manifest_works.empty()) {
    section("MANIFESTWORKS");
    WriteManifestWorkTable(planned, items.manifest_works, out, options);
  }
  if (!replica_sets.empty()) {
    section("MANIFESTWORKREPLICASETS");
    WriteReplicaSetTable(planned, replica_sets, out, options);
  }
  if (!federated_learnings.empty()) {
    section("FEDERATED LEARNING");
    WriteFederatedLearningTables(planned, federated_learnings, out, options);
  }
  if (!items.deleted_objects.empty()) {
    section(nullptr);  // its own title line: DELETED
    WriteDeletedObjects(items.deleted_objects, out, options);
  }
}

}  // namespace berth::io
