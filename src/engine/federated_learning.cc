// Semantics ported from open-cluster-management-io/addon-contrib,
// federated-learning-controller/internal/controller/federatedlearning_{controller,client,
// server}.go and api/v1alpha1/federatedlearning_types.go: the phases Waiting -> Running ->
// Completed | Failed, Waiting until the client placement selects minAvailableClients
// clusters, the data claim found as the `Exists` claim requirement of the placement's
// predicates and its value handed to each client, one client per selected cluster, the server
// and client Jobs `<name>-server` / `<name>-client` in the FederatedLearning's namespace, and
// Completed once the server Job succeeded. What is berth's own: the compliance rule, the
// abort conditions and the per-client status (docs/fleet.md "Federated learning").
//
// Why each plan is one step from the objects read: the hub runs the plan every cycle, so the
// state a step needs between cycles (the clients chosen, the round and when it began, recent
// losses) is kept in the FederatedLearning's status, and progress and failures come from
// what the agents report in the ManifestWorks' status. The same input at the same --now
// always gives the same status and works.
//
// Why the clients are fixed when the training starts: a Flower or OpenFL round expects the
// clients it began with; a cluster joining mid-training would start from a stale model, and
// one leaving is a lost client, which the minimum guards.
#include "engine/federated_learning.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dispatch/work_names.h"
#include "engine/data_load_time.h"
#include "engine/fleet_cycle.h"
#include "engine/remote_status.h"
#include "model/data_residency.h"
#include "placement/addon_score_index.h"
#include "placement/cluster_filter.h"
#include "placement/placement_scheduler.h"

namespace berth::engine {
namespace {

using model::FlClientState;
using model::FlPhase;

constexpr const char* kFlServerRole = "server";
constexpr const char* kFlClientRole = "client";
constexpr const char* kFlWorkApiVersion = "work.open-cluster-management.io/v1";
constexpr const char* kFlClientsPlaced = "ClientsPlaced";
constexpr const char* kFlTrainingAborted = "TrainingAborted";
constexpr const char* kFlCurrentRoundValue = "CurrentRound";
constexpr const char* kFlLossValue = "Loss";
constexpr int32_t kFlDefaultPort = 8080;

std::string FlDisplayName(const model::FederatedLearning& fl) {
  return fl.meta.namespace_ + "/" + fl.meta.name;
}

std::string FlLabelValue(const std::string& ns, const std::string& name) {
  return dispatch::BoundedName(ns + "." + name, dispatch::kMaxLabelValueLength);
}

std::string FlWorkName(const model::FederatedLearning& fl, const char* role) {
  return dispatch::BoundedName(fl.meta.namespace_ + "." + fl.meta.name + ".fl-" + role,
                               dispatch::kMaxObjectNameLength);
}

std::string FlJoined(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const std::string& p : parts) {
    if (!out.empty()) out += separator;
    out += p;
  }
  return out;
}

const model::ManagedCluster* FindFlCluster(const model::Snapshot& snapshot,
                                           const std::string& name) {
  for (const model::ManagedCluster& c : snapshot.managed_clusters) {
    if (c.meta.name == name) return &c;
  }
  return nullptr;
}

// Why a cluster may not run any part of the training now; empty when it is available.
std::string FlUnavailable(const model::ManagedCluster* cluster, const std::string& name) {
  if (cluster == nullptr) return "ManagedCluster " + name + " no longer exists";
  if (cluster->deletion_timestamp.has_value())
    return "ManagedCluster " + name + " is being deleted";
  const model::Condition* c = cluster->FindCondition(model::kConditionClusterAvailable);
  if (c == nullptr) return "ManagedCluster " + name + " reports no availability";
  if (c->status == model::ConditionStatus::kTrue) return "";
  std::string out = "ManagedCluster " + name + " is " + model::kConditionClusterAvailable + "=" +
                    model::ConditionStatusName(c->status);
  if (!c->reason.empty()) out += " (" + c->reason + ")";
  if (c->last_transition_time.has_value()) out += " since " + c->last_transition_time->ToString();
  return out;
}

// Empty when the cluster's compliance claim covers every requirement of the data; else why
// not. The rule is model's (DataResidency applies the same one to a Placement's datasets).
std::string FlComplianceProblem(const model::FederatedLearning& fl,
                                const model::ManagedCluster& cluster) {
  return model::ComplianceProblem("the data", fl.data_compliance, cluster);
}

// The claim naming the data: the last `Exists` claim requirement of the client placement's
// predicates, as upstream's controller finds it; "" when there is none.
std::string FlDataClaim(const model::Placement& placement) {
  std::string key;
  for (const model::ClusterSelector& p : placement.predicates) {
    if (!p.claim_selector.has_value()) continue;
    for (const core::SelectorRequirement& r : p.claim_selector->match_expressions) {
      if (r.op == core::SelectorOp::kExists) key = r.key;
    }
  }
  return key;
}

std::string FlDataConfig(const model::ManagedCluster& cluster, const std::string& data_claim) {
  if (data_claim.empty()) return "";
  const std::string* value = cluster.FindClaim(data_claim);
  return value == nullptr ? "" : *value;
}

// A cluster that holds the data, as the client placement judged it.
struct FlCandidate {
  std::string cluster;
  std::string reason;  // empty: may train
  std::string message;
  std::string data_config;
};

struct FlClientChoice {
  std::vector<FlCandidate> eligible;         // may train, in the placement's order (score, name)
  std::vector<FlCandidate> excluded;         // hold the data but may not train, by name
  std::optional<std::string> misconfigured;  // PlacementMisconfigured's message
};

// The client placement decided over the fleet: the clusters that pass its predicates hold the
// data; the taint filter, the compliance rule and numberOfClusters decide which may train.
FlClientChoice ChooseFlClients(const model::Snapshot& view, const model::FederatedLearning& fl,
                               core::Timestamp now, const placement::ScheduleOptions& options) {
  FlClientChoice out;
  model::Placement placement = fl.client.placement;
  placement.number_of_clusters.reset();  // every cluster that qualifies; cut after compliance
  const placement::PlacementOutcome outcome =
      placement::SchedulePlacement(view, placement, now, options);
  if (outcome.misconfigured.status == model::ConditionStatus::kTrue) {
    out.misconfigured = outcome.misconfigured.message;
    return out;
  }
  const std::string data_claim = FlDataClaim(fl.client.placement);
  std::map<std::string, FlCandidate> by_name;
  std::set<std::string> feasible;
  for (const placement::ClusterVerdict& v : outcome.clusters) {
    const model::Rejection* rejection = outcome.RejectionOf(v);
    if (rejection != nullptr && rejection->plugin == placement::kPredicatePlugin) continue;
    const model::ManagedCluster* cluster = FindFlCluster(view, v.cluster_name);
    FlCandidate c;
    c.cluster = v.cluster_name;
    if (cluster != nullptr) c.data_config = FlDataConfig(*cluster, data_claim);
    if (rejection != nullptr) {
      c.reason = "ClusterUnavailable";
      c.message = rejection->message;
    } else if (const model::Rejection* skip = outcome.SpreadSkipOf(v)) {
      c.reason = "NotSelected";
      c.message = skip->message;
    } else if (cluster != nullptr) {
      if (std::string problem = FlComplianceProblem(fl, *cluster); !problem.empty()) {
        c.reason = "ComplianceNotClaimed";
        c.message = std::move(problem);
      } else {
        feasible.insert(c.cluster);
      }
    }
    by_name.emplace(c.cluster, std::move(c));
  }
  // The placement's own order for those that may train (score, then name).
  const int32_t limit = fl.client.placement.number_of_clusters.value_or(INT32_MAX);
  for (const std::string& name : outcome.selected) {
    auto it = by_name.find(name);
    if (it == by_name.end() || !feasible.count(name)) continue;
    if (static_cast<int32_t>(out.eligible.size()) >= limit) {
      it->second.reason = "NotSelected";
      it->second.message = "the client placement's numberOfClusters is " + std::to_string(limit) +
                           "; clusters that score higher were chosen";
      continue;
    }
    out.eligible.push_back(it->second);
    by_name.erase(it);
  }
  for (auto& [name, c] : by_name) {
    if (c.reason.empty()) {
      c.reason = "NotSelected";
      c.message = "the client placement did not select it";
    }
    out.excluded.push_back(std::move(c));
  }
  return out;
}

// The placement snapshot the clients are chosen in: the input, plus a binding of each cluster
// set a client placement names in its FederatedLearning's namespace (upstream's controller
// creates those bindings). Copied only when one is missing.
struct FlPlacementView {
  const model::Snapshot* input = nullptr;
  std::optional<model::Snapshot> owned;

  const model::Snapshot& get() const { return owned ? *owned : *input; }
};

FlPlacementView BuildFlPlacementView(const model::Snapshot& snapshot,
                                     const std::vector<size_t>& hub_fls) {
  std::set<std::pair<std::string, std::string>> bound;
  for (const model::ManagedClusterSetBinding& b : snapshot.managed_cluster_set_bindings) {
    bound.emplace(b.meta.namespace_, b.cluster_set);
  }
  std::vector<model::ManagedClusterSetBinding> missing;
  for (size_t i : hub_fls) {
    const model::FederatedLearning& fl = snapshot.federated_learnings[i];
    for (const std::string& set : fl.client.placement.cluster_sets) {
      if (!bound.emplace(fl.meta.namespace_, set).second) continue;
      model::ManagedClusterSetBinding b;
      b.meta.name = set;
      b.meta.namespace_ = fl.meta.namespace_;
      b.cluster_set = set;
      b.cluster = fl.cluster;
      missing.push_back(std::move(b));
    }
  }
  FlPlacementView view;
  view.input = &snapshot;
  if (missing.empty()) return view;
  model::Snapshot& copy = view.owned.emplace();
  copy.managed_clusters = snapshot.managed_clusters;
  copy.managed_cluster_sets = snapshot.managed_cluster_sets;
  copy.managed_cluster_set_bindings = snapshot.managed_cluster_set_bindings;
  copy.managed_cluster_set_bindings.insert(copy.managed_cluster_set_bindings.end(), missing.begin(),
                                           missing.end());
  copy.addon_placement_scores = snapshot.addon_placement_scores;
  copy.placement_decisions = snapshot.placement_decisions;
  return view;
}

// The given works of one FederatedLearning (its label, same hub).
struct FlGivenWorks {
  std::vector<int32_t> server;  // indices into snapshot.manifest_works
  std::vector<int32_t> client;
};

const model::ManifestStatus* FlJobStatus(const model::ManifestWork& work, const std::string& job) {
  for (const model::ManifestStatus& s : work.manifest_statuses) {
    if (s.kind == "Job" && s.name == job) return &s;
  }
  return nullptr;
}

std::optional<int64_t> FlInteger(const std::string* text) {
  if (text == nullptr || text->empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text->c_str(), &end, 10);
  if (errno != 0 || end == nullptr || *end != '\0' || v < 0 || v > INT32_MAX) return std::nullopt;
  return v;
}

std::optional<double> FlNumber(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return v;
}

// Why a client's work says its client failed; empty when it does not.
std::string FlClientFailure(const model::ManifestWork& work, const std::string& job,
                            const std::string& cluster) {
  if (const model::ManifestStatus* s = FlJobStatus(work, job)) {
    if (auto finish = FinishedFromFeedback("Job", *s, cluster);
        finish.has_value() && finish->reason == "Failed") {
      return "client Job " + job + " failed on cluster " + cluster;
    }
  }
  for (const model::Condition& c : work.conditions) {
    const bool failed = (c.type == "Applied" && c.status == model::ConditionStatus::kFalse) ||
                        (c.type == "Degraded" && c.status == model::ConditionStatus::kTrue);
    if (!failed) continue;
    std::string out = "ManifestWork " + work.meta.name + " is " + c.type + "=" +
                      model::ConditionStatusName(c.status);
    if (!c.reason.empty()) out += " (" + c.reason + ")";
    if (!c.message.empty()) out += ": " + c.message;
    return out;
  }
  return "";
}

// A duration as Go prints one ("1h30m0s", "45m0s", "30s").
std::string FlDuration(int64_t seconds) {
  std::string out;
  if (seconds >= 3600) out += std::to_string(seconds / 3600) + "h";
  if (seconds >= 60) out += std::to_string(seconds % 3600 / 60) + "m";
  return out + std::to_string(seconds % 60) + "s";
}

model::Condition FlCondition(const char* type, model::ConditionStatus status, std::string reason,
                             std::string message, core::Timestamp now) {
  return model::Condition{type, status, std::move(reason), std::move(message), now};
}

// What one FederatedLearning's step decided.
struct FlStep {
  model::FederatedLearningStatus status;
  std::string reason;                       // FederatedLearningRun::reason
  std::vector<std::string> clients;         // the clusters that get a client work now
  bool server_work = false;                 // plan the server's work
  bool keep_server_work = false;            // keep a given server work (completed)
  std::string delete_reason;                // for works of this training not planned or kept
  std::map<std::string, std::string> lost;  // cluster -> reason its client work goes
};

// The status entries of the data clusters that are not clients, by name.
void AddFlCandidates(const FlClientChoice& choice, const std::set<std::string>& skip,
                     std::vector<model::FlClientStatus>* out) {
  for (const FlCandidate& c : choice.eligible) {
    if (skip.count(c.cluster)) continue;
    out->push_back({c.cluster, FlClientState::kEligible, "", "", c.data_config});
  }
  for (const FlCandidate& c : choice.excluded) {
    if (skip.count(c.cluster)) continue;
    out->push_back({c.cluster, FlClientState::kExcluded, c.reason, c.message, c.data_config});
  }
}

void SortFlClients(std::vector<model::FlClientStatus>* clients) {
  std::stable_sort(clients->begin(), clients->end(),
                   [](const model::FlClientStatus& a, const model::FlClientStatus& b) {
                     return a.cluster < b.cluster;
                   });
}

std::string FlExclusions(const FlClientChoice& choice) {
  std::vector<std::string> parts;
  for (const FlCandidate& c : choice.excluded) {
    parts.push_back(c.cluster + " (" + c.reason + ": " + c.message + ")");
  }
  return FlJoined(parts, "; ");
}

// Aborts the training: phase Failed, TrainingAborted=True, every work deleted.
void AbortFl(FlStep& step, const model::FederatedLearning& fl, const std::string& reason,
             const std::string& message, core::Timestamp now) {
  step.status.phase = FlPhase::kFailed;
  step.status.message = "training aborted: " + message;
  step.status.round_start_time.reset();
  step.status.conditions.push_back(
      FlCondition(kFlTrainingAborted, model::ConditionStatus::kTrue, reason, message, now));
  for (model::FlClientStatus& c : step.status.clients) {
    if (c.state != FlClientState::kTraining) continue;
    c.state = FlClientState::kFinished;
    c.reason = "Aborted";
    c.message = "the training was aborted";
  }
  step.reason = reason;
  step.clients.clear();
  step.server_work = false;
  step.keep_server_work = false;
  step.delete_reason = "federated learning " + FlDisplayName(fl) + " failed: " + reason;
}

// The server's cluster for a training about to start: the annotation, else the first client.
std::string FlServerCluster(const model::FederatedLearning& fl,
                            const std::vector<std::string>& clients) {
  if (!fl.server_cluster.empty()) return fl.server_cluster;
  std::vector<std::string> sorted = clients;
  std::sort(sorted.begin(), sorted.end());
  return sorted.empty() ? "" : sorted.front();
}

// Waiting: choose the clients, and start when there are enough.
void StepFlWaiting(const model::Snapshot& snapshot, const model::FederatedLearning& fl,
                   const FlClientChoice& choice, core::Timestamp now, FlStep& step) {
  model::FederatedLearningStatus& st = step.status;
  const int32_t min = fl.server.min_available_clients;
  const int32_t eligible = static_cast<int32_t>(choice.eligible.size());
  st.clients.clear();
  st.round_losses.clear();
  st.current_round = 0;
  st.round_start_time.reset();
  st.server_cluster.clear();
  AddFlCandidates(choice, {}, &st.clients);
  SortFlClients(&st.clients);
  std::vector<std::string> names;
  for (const FlCandidate& c : choice.eligible) names.push_back(c.cluster);
  const std::string exclusions = FlExclusions(choice);
  step.delete_reason = "federated learning " + FlDisplayName(fl) + " is waiting for clients";
  st.phase = FlPhase::kWaiting;
  if (choice.misconfigured.has_value()) {
    step.reason = "PlacementMisconfigured";
    st.message = "waiting: the client placement is misconfigured";
    st.conditions.push_back(FlCondition(kFlClientsPlaced, model::ConditionStatus::kFalse,
                                        step.reason, *choice.misconfigured, now));
    return;
  }
  if (eligible < min) {
    step.reason = "NotEnoughClients";
    st.message = "waiting for at least " + std::to_string(min) +
                 " clients: " + std::to_string(eligible) +
                 " cluster(s) hold the data and may train";
    std::string message =
        std::to_string(eligible) + " of at least " + std::to_string(min) +
        " clients; may train: " + (names.empty() ? "none" : FlJoined(names, ", "));
    if (!exclusions.empty()) message += "; excluded: " + exclusions;
    st.conditions.push_back(
        FlCondition(kFlClientsPlaced, model::ConditionStatus::kFalse, step.reason, message, now));
    return;
  }
  const std::string server = FlServerCluster(fl, names);
  if (std::string why = FlUnavailable(FindFlCluster(snapshot, server), server); !why.empty()) {
    step.reason = "ServerClusterUnavailable";
    st.message = "waiting for the server's cluster " + server;
    st.conditions.push_back(FlCondition(kFlClientsPlaced, model::ConditionStatus::kFalse,
                                        step.reason, "the server cannot start: " + why, now));
    return;
  }
  // Start: every eligible cluster is a client.
  st.phase = FlPhase::kRunning;
  st.server_cluster = server;
  st.round_start_time = now;
  st.clients.clear();
  std::set<std::string> client_set(names.begin(), names.end());
  for (const FlCandidate& c : choice.eligible) {
    st.clients.push_back({c.cluster, FlClientState::kTraining, "", "", c.data_config});
  }
  AddFlCandidates(choice, client_set, &st.clients);
  SortFlClients(&st.clients);
  std::vector<std::string> sorted_names(client_set.begin(), client_set.end());
  st.message = "training on " + std::to_string(sorted_names.size()) +
               " clients: " + FlJoined(sorted_names, ", ") + "; server on " + server;
  std::string message =
      std::to_string(sorted_names.size()) + " clients: " + FlJoined(sorted_names, ", ");
  if (!exclusions.empty()) message += "; excluded: " + exclusions;
  st.conditions.push_back(
      FlCondition(kFlClientsPlaced, model::ConditionStatus::kTrue, "ClientsPlaced", message, now));
  step.reason.clear();
  step.clients = std::move(sorted_names);
  step.server_work = true;
}

// Running: progress from the server's feedback, then the abort conditions in order.
void StepFlRunning(const model::Snapshot& snapshot, const model::FederatedLearning& fl,
                   const FlClientChoice& choice, const FlGivenWorks& given, core::Timestamp now,
                   FlStep& step) {
  model::FederatedLearningStatus& st = step.status;
  if (st.server_cluster.empty()) {
    std::vector<std::string> clients;
    for (const model::FlClientStatus& c : st.clients) {
      if (c.state == FlClientState::kTraining) clients.push_back(c.cluster);
    }
    st.server_cluster = FlServerCluster(fl, clients);
  }
  if (!st.round_start_time.has_value()) st.round_start_time = now;
  const std::string server_job = fl.meta.name + "-server";
  const std::string client_job = fl.meta.name + "-client";
  step.delete_reason = "federated learning " + FlDisplayName(fl) + " no longer needs it";

  // The server's report.
  const model::ManifestStatus* server_status = nullptr;
  for (int32_t w : given.server) {
    const model::ManifestWork& work = snapshot.manifest_works[static_cast<size_t>(w)];
    if (work.meta.namespace_ != st.server_cluster) continue;
    server_status = FlJobStatus(work, server_job);
  }
  if (server_status != nullptr) {
    if (auto r = FlInteger(server_status->Feedback(kFlCurrentRoundValue));
        r.has_value() && *r > st.current_round) {
      st.current_round = static_cast<int32_t>(*r);
      st.round_start_time = now;
    }
    if (const std::string* loss = server_status->Feedback(kFlLossValue);
        loss != nullptr && !loss->empty() && st.current_round > 0) {
      if (!st.round_losses.empty() && st.round_losses.back().round == st.current_round) {
        st.round_losses.back().loss = *loss;
      } else if (st.round_losses.empty() || st.round_losses.back().round < st.current_round) {
        st.round_losses.push_back({st.current_round, *loss});
      }
      const size_t keep = static_cast<size_t>(fl.divergence_rounds) + 1;
      if (st.round_losses.size() > keep) {
        st.round_losses.erase(st.round_losses.begin(),
                              st.round_losses.end() - static_cast<std::ptrdiff_t>(keep));
      }
    }
  }

  // Completed, or the server failed.
  if (server_status != nullptr) {
    if (auto finish = FinishedFromFeedback("Job", *server_status, st.server_cluster)) {
      if (finish->reason == "Failed") {
        AbortFl(step, fl, "ServerFailed",
                "server Job " + server_job + " failed on cluster " + st.server_cluster, now);
        return;
      }
      st.phase = FlPhase::kCompleted;
      st.message = "training completed" +
                   (st.current_round > 0 ? " after round " + std::to_string(st.current_round)
                                         : std::string()) +
                   "; the model is in the server's model store";
      st.round_start_time.reset();
      for (model::FlClientStatus& c : st.clients) {
        if (c.state == FlClientState::kTraining) {
          c.state = FlClientState::kFinished;
          c.reason = "Completed";
          c.message = "the training completed";
        }
      }
      step.reason = "TrainingCompleted";
      step.keep_server_work = true;
      step.delete_reason = "federated learning " + FlDisplayName(fl) + " completed";
      return;
    }
  }
  if (std::string why =
          FlUnavailable(FindFlCluster(snapshot, st.server_cluster), st.server_cluster);
      !why.empty()) {
    AbortFl(step, fl, "ServerLost", "the server's cluster is lost: " + why, now);
    return;
  }

  // Clients: each one still there, still allowed, still holding the data, not failed.
  const std::string data_claim = FlDataClaim(fl.client.placement);
  std::map<std::string, const model::ManifestWork*> client_works;
  for (int32_t w : given.client) {
    const model::ManifestWork& work = snapshot.manifest_works[static_cast<size_t>(w)];
    client_works.emplace(work.meta.namespace_, &work);
  }
  std::set<std::string> members;
  std::vector<std::string> training;
  std::vector<std::string> lost_now;
  for (model::FlClientStatus& c : st.clients) {
    if (c.state != FlClientState::kTraining && c.state != FlClientState::kLost &&
        c.state != FlClientState::kFinished) {
      continue;
    }
    members.insert(c.cluster);
    if (c.state != FlClientState::kTraining) continue;
    const model::ManagedCluster* cluster = FindFlCluster(snapshot, c.cluster);
    std::string reason;
    std::string message = FlUnavailable(cluster, c.cluster);
    if (!message.empty()) {
      reason = "ClusterLost";
    } else if (std::string problem = FlComplianceProblem(fl, *cluster); !problem.empty()) {
      reason = "ComplianceNotClaimed";
      message = std::move(problem);
    } else if (!data_claim.empty() && cluster->FindClaim(data_claim) == nullptr) {
      reason = "DataNotHeld";
      message = "cluster " + c.cluster + " no longer claims " + data_claim;
    } else if (auto w = client_works.find(c.cluster); w != client_works.end()) {
      message = FlClientFailure(*w->second, client_job, c.cluster);
      if (!message.empty()) reason = "ClientFailed";
    }
    if (reason.empty()) {
      training.push_back(c.cluster);
      continue;
    }
    c.state = FlClientState::kLost;
    c.reason = reason;
    c.message = message;
    step.lost[c.cluster] = "client on " + c.cluster + " lost: " + reason;
    lost_now.push_back(c.cluster + " (" + reason + ": " + message + ")");
  }
  // The other data clusters, as the placement sees them now.
  std::vector<model::FlClientStatus> kept;
  for (const model::FlClientStatus& c : st.clients) {
    if (members.count(c.cluster)) kept.push_back(c);
  }
  st.clients = std::move(kept);
  AddFlCandidates(choice, members, &st.clients);
  for (model::FlClientStatus& c : st.clients) {
    if (c.state == FlClientState::kEligible && !members.count(c.cluster)) {
      c.message = "holds the data; the clients were chosen when the training started";
    }
  }
  SortFlClients(&st.clients);
  step.clients = training;

  const int32_t min = fl.server.min_available_clients;
  if (static_cast<int32_t>(training.size()) < min) {
    // Every client lost so far, this step's and earlier ones.
    std::vector<std::string> lost_all;
    for (const model::FlClientStatus& c : st.clients) {
      if (c.state == FlClientState::kLost) {
        lost_all.push_back(c.cluster + " (" + c.reason + ": " + c.message + ")");
      }
    }
    std::string message =
        std::to_string(training.size()) + " client(s) left, fewer than " + std::to_string(min);
    if (!lost_all.empty()) message += "; lost: " + FlJoined(lost_all, "; ");
    st.conditions.push_back(FlCondition(kFlClientsPlaced, model::ConditionStatus::kFalse,
                                        "ClientsBelowMinimum", message, now));
    AbortFl(step, fl, "ClientsBelowMinimum", message, now);
    return;
  }
  if (!lost_now.empty()) {
    st.conditions.push_back(
        FlCondition(kFlClientsPlaced, model::ConditionStatus::kTrue, "ClientsPlaced",
                    std::to_string(training.size()) + " clients: " + FlJoined(training, ", ") +
                        "; lost: " + FlJoined(lost_now, "; "),
                    now));
  }

  // The loss.
  if (!st.round_losses.empty()) {
    const model::FlRoundLoss& last = st.round_losses.back();
    const std::optional<double> v = FlNumber(last.loss);
    if (v.has_value() && !std::isfinite(*v)) {
      AbortFl(step, fl, "MetricDiverged",
              "the loss is " + last.loss + " in round " + std::to_string(last.round), now);
      return;
    }
    const size_t n = static_cast<size_t>(fl.divergence_rounds);
    if (st.round_losses.size() > n) {
      bool growing = true;
      std::vector<std::string> values;
      const size_t first = st.round_losses.size() - n - 1;
      for (size_t i = first; i < st.round_losses.size(); ++i) {
        values.push_back(st.round_losses[i].loss);
        if (i == first) continue;
        const std::optional<double> a = FlNumber(st.round_losses[i - 1].loss);
        const std::optional<double> b = FlNumber(st.round_losses[i].loss);
        growing = growing && a.has_value() && b.has_value() && *b > *a;
      }
      if (growing) {
        AbortFl(step, fl, "MetricDiverged",
                "the loss grew for " + std::to_string(n) + " consecutive rounds (rounds " +
                    std::to_string(st.round_losses[first].round) + "-" +
                    std::to_string(last.round) + ": " + FlJoined(values, ", ") + ")",
                now);
        return;
      }
    }
  }

  // The round's time.
  if (fl.round_timeout_s.has_value() && st.round_start_time.has_value() &&
      now.unix_s - st.round_start_time->unix_s >= *fl.round_timeout_s) {
    const std::string round =
        st.current_round > 0 ? "round " + std::to_string(st.current_round) : "the first round";
    AbortFl(step, fl, "RoundTimeout",
            round + " started at " + st.round_start_time->ToString() + " and ran for " +
                FlDuration(now.unix_s - st.round_start_time->unix_s) + ", at least its " +
                model::kFlRoundTimeoutAnnotation + " of " + FlDuration(*fl.round_timeout_s),
            now);
    return;
  }

  st.message = "training on " + std::to_string(training.size()) +
               " clients: " + FlJoined(training, ", ") + "; server on " + st.server_cluster +
               (st.current_round > 0 ? "; round " + std::to_string(st.current_round) : "");
  step.server_work = true;
}

model::ManifestWork FlWork(const model::FederatedLearning& fl, const std::string& cluster,
                           const char* role, model::GeneratedJob job,
                           std::vector<model::JsonPathRule> paths) {
  model::ManifestWork work;
  work.meta.name = FlWorkName(fl, role);
  work.meta.namespace_ = cluster;
  work.meta.labels[model::kFederatedLearningLabel] = FlLabelValue(fl.meta.namespace_, fl.meta.name);
  work.meta.labels[model::kFederatedLearningRoleLabel] = role;
  model::ManifestConfig config;
  config.resource = {"batch", "jobs", job.name, job.namespace_};
  config.feedback_rules.push_back({model::FeedbackRuleType::kWellKnownStatus, {}});
  config.feedback_rules.push_back({model::FeedbackRuleType::kJsonPaths, std::move(paths)});
  work.manifest_configs.push_back(std::move(config));
  work.generated_jobs.push_back(std::move(job));
  work.created = true;
  work.cluster = fl.cluster;
  return work;
}

model::GeneratedJob FlJob(const model::FederatedLearning& fl, const char* role,
                          const std::string& image, const model::FlResources& resources) {
  model::GeneratedJob job;
  job.name = fl.meta.name + "-" + role;
  job.namespace_ = fl.meta.namespace_;
  job.labels[model::kFederatedLearningLabel] = FlLabelValue(fl.meta.namespace_, fl.meta.name);
  job.labels[model::kFederatedLearningRoleLabel] = role;
  job.container = role;
  job.image = image;
  job.args.push_back(role);
  job.requests = resources.requests;
  job.limits = resources.limits;
  return job;
}

constexpr const char* kFlJobFailedPath = ".status.conditions[?(@.type==\"Failed\")].status";

model::ManifestWork FlServerWork(const model::FederatedLearning& fl, const std::string& cluster) {
  model::GeneratedJob job = FlJob(fl, kFlServerRole, fl.server.image, fl.server.resources);
  if (fl.server.rounds > 0) job.args.push_back("--num-rounds=" + std::to_string(fl.server.rounds));
  job.args.push_back("--min-available-clients=" + std::to_string(fl.server.min_available_clients));
  const model::FlStorage& store = fl.server.storage;
  if (!store.path.empty()) job.args.push_back("--model-dir=" + store.path);
  if (store.type == "PersistentVolumeClaim") {
    job.volumes.push_back({"model-store", store.path, store.name, ""});
  } else if (store.type == "HostPath") {
    job.volumes.push_back({"model-store", store.path, "", store.path});
  }
  std::vector<model::JsonPathRule> paths = {
      {"JobFailed", kFlJobFailedPath},
      {kFlCurrentRoundValue,
       std::string(".metadata.annotations['") + model::kFlCurrentRoundAnnotation + "']"},
      {kFlLossValue, std::string(".metadata.annotations['") + model::kFlLossAnnotation + "']"}};
  return FlWork(fl, cluster, kFlServerRole, std::move(job), std::move(paths));
}

// Where clients reach the server: the address upstream's controller recorded for a listener,
// else the server Service's name in the FederatedLearning's namespace.
std::string FlServerAddress(const model::FederatedLearning& fl) {
  for (const model::FlListenerStatus& l : fl.read_status.listeners) {
    if (!l.address.empty()) return l.address;
  }
  const int32_t port = fl.server.listeners.empty() ? kFlDefaultPort : fl.server.listeners[0].port;
  return fl.meta.name + "-server." + fl.meta.namespace_ + ":" + std::to_string(port);
}

model::ManifestWork FlClientWork(const model::FederatedLearning& fl, const std::string& cluster,
                                 const std::string& data_config) {
  model::GeneratedJob job = FlJob(fl, kFlClientRole, fl.client.image, fl.client.resources);
  if (!data_config.empty()) job.args.push_back("--data-config=" + data_config);
  job.args.push_back("--server-address=" + FlServerAddress(fl));
  return FlWork(fl, cluster, kFlClientRole, std::move(job), {{"JobFailed", kFlJobFailedPath}});
}

// The planned snapshot's works by (namespace, name), the last of a name winning.
using FlWorkIndex = std::map<std::pair<std::string, std::string>, size_t>;

// Adds a planned work to the plan, replacing a given one of the same namespace and name.
void AddFlWork(model::ManifestWork work, FlWorkIndex& index, Plan& plan) {
  std::vector<model::ManifestWork>& works = plan.planned.manifest_works;
  auto [it, fresh] = index.try_emplace({work.meta.namespace_, work.meta.name}, works.size());
  plan.manifest_work_items.push_back(static_cast<int32_t>(it->second));
  if (fresh) {
    works.push_back(std::move(work));
    return;
  }
  work.source = works[it->second].source;
  works[it->second] = std::move(work);
}

void DeleteFlWork(const model::ManifestWork& work, std::string reason, Plan& plan) {
  plan.deleted_objects.push_back(model::ObjectDeletion{
      kFlWorkApiVersion, "ManifestWork", work.meta.namespace_, work.meta.name, std::move(reason)});
}

}  // namespace

void PlanFederatedLearning(const model::Snapshot& snapshot, core::Timestamp now,
                           const placement::FleetCapacity& capacity, Plan& plan) {
  std::vector<size_t> hub_fls;
  std::map<std::string, size_t> by_label;  // FL label value -> index
  for (size_t i = 0; i < snapshot.federated_learnings.size(); ++i) {
    const model::FederatedLearning& fl = snapshot.federated_learnings[i];
    if (fl.cluster != kHubCluster) continue;
    hub_fls.push_back(i);
    by_label.emplace(FlLabelValue(fl.meta.namespace_, fl.meta.name), i);
  }
  // The given works of each training; those of trainings that are gone are deleted.
  std::map<size_t, FlGivenWorks> given;
  for (size_t w = 0; w < snapshot.manifest_works.size(); ++w) {
    const model::ManifestWork& work = snapshot.manifest_works[w];
    if (work.created || work.cluster != kHubCluster) continue;
    auto label = work.meta.labels.find(model::kFederatedLearningLabel);
    if (label == work.meta.labels.end() || label->second.empty()) continue;
    auto fl = by_label.find(label->second);
    if (fl == by_label.end()) {
      std::string name = label->second;
      if (size_t dot = name.find('.'); dot != std::string::npos) name[dot] = '/';
      DeleteFlWork(work, "federated learning " + name + " no longer exists", plan);
      continue;
    }
    auto role = work.meta.labels.find(model::kFederatedLearningRoleLabel);
    const bool server = role != work.meta.labels.end() && role->second == kFlServerRole;
    (server ? given[fl->second].server : given[fl->second].client)
        .push_back(static_cast<int32_t>(w));
  }
  if (hub_fls.empty()) return;

  const FlPlacementView view = BuildFlPlacementView(snapshot, hub_fls);
  FlWorkIndex work_index;
  for (size_t w = 0; w < plan.planned.manifest_works.size(); ++w) {
    const model::ManifestWork& work = plan.planned.manifest_works[w];
    work_index[{work.meta.namespace_, work.meta.name}] = w;
  }
  const placement::AddOnScoreIndex scores(view.get().addon_placement_scores);
  placement::ScheduleOptions options;
  options.capacity = &capacity;
  options.addon_scores = &scores;
  const DataLoadTimeModel load_time;  // DataLocality as the placement stage ranks it
  options.load_time = &load_time;

  for (size_t i : hub_fls) {
    const model::FederatedLearning& fl = snapshot.federated_learnings[i];
    const FlGivenWorks& works = given[i];
    FlStep step;
    step.status = fl.read_status;
    // Conditions are patched by type into the ones read: start from none, add this step's.
    step.status.conditions.clear();
    const FlPhase read_phase = fl.read_status.phase;
    if (read_phase == FlPhase::kCompleted || read_phase == FlPhase::kFailed) {
      step.status = fl.read_status;
      step.status.conditions.clear();
      step.keep_server_work = read_phase == FlPhase::kCompleted;
      step.reason = read_phase == FlPhase::kCompleted ? "TrainingCompleted" : "";
      if (read_phase == FlPhase::kFailed) {
        for (const model::Condition& c : fl.read_status.conditions) {
          if (c.type == kFlTrainingAborted) step.reason = c.reason;
        }
      }
      step.delete_reason = "federated learning " + FlDisplayName(fl) + " " +
                           (read_phase == FlPhase::kCompleted ? "completed" : "failed");
    } else {
      const FlClientChoice choice = ChooseFlClients(view.get(), fl, now, options);
      if (choice.misconfigured.has_value()) {
        plan.diagnostics.Report(core::FailedPrecondition(
            "PlacementMisconfigured: " + *choice.misconfigured + "; no client is placed",
            {"", "FederatedLearning/" + FlDisplayName(fl), "spec.client.placement"}));
      }
      if (read_phase == FlPhase::kRunning) {
        StepFlRunning(snapshot, fl, choice, works, now, step);
      } else {
        StepFlWaiting(snapshot, fl, choice, now, step);
      }
      // A training started again after an abort (its status reset) is no longer aborted.
      for (const model::Condition& c : fl.read_status.conditions) {
        if (c.type == kFlTrainingAborted && c.status == model::ConditionStatus::kTrue &&
            step.status.phase != FlPhase::kFailed) {
          step.status.conditions.push_back(FlCondition(kFlTrainingAborted,
                                                       model::ConditionStatus::kFalse, "Restarted",
                                                       "the training was started again", now));
        }
      }
    }

    // The works this step plans, keeps and deletes.
    std::set<std::pair<std::string, std::string>> planned;  // (namespace, name)
    if (step.server_work) {
      model::ManifestWork work = FlServerWork(fl, step.status.server_cluster);
      planned.emplace(work.meta.namespace_, work.meta.name);
      AddFlWork(std::move(work), work_index, plan);
    }
    for (const std::string& cluster : step.clients) {
      std::string data_config;
      for (const model::FlClientStatus& c : step.status.clients) {
        if (c.cluster == cluster) data_config = c.data_config;
      }
      model::ManifestWork work = FlClientWork(fl, cluster, data_config);
      planned.emplace(work.meta.namespace_, work.meta.name);
      AddFlWork(std::move(work), work_index, plan);
    }
    for (int32_t w : works.server) {
      const model::ManifestWork& work = snapshot.manifest_works[static_cast<size_t>(w)];
      if (planned.count({work.meta.namespace_, work.meta.name})) continue;
      if (step.keep_server_work && work.meta.namespace_ == step.status.server_cluster) continue;
      std::string reason = step.delete_reason;
      if (step.server_work || step.keep_server_work) {
        reason = "the server of federated learning " + FlDisplayName(fl) + " runs on " +
                 step.status.server_cluster;
      }
      DeleteFlWork(work, std::move(reason), plan);
    }
    for (int32_t w : works.client) {
      const model::ManifestWork& work = snapshot.manifest_works[static_cast<size_t>(w)];
      if (planned.count({work.meta.namespace_, work.meta.name})) continue;
      auto lost = step.lost.find(work.meta.namespace_);
      DeleteFlWork(work, lost != step.lost.end() ? lost->second : step.delete_reason, plan);
    }

    FederatedLearningRun run;
    run.object = static_cast<int32_t>(i);
    run.namespace_ = fl.meta.namespace_;
    run.name = fl.meta.name;
    run.phase = step.status.phase;
    run.current_round = step.status.current_round;
    run.rounds = fl.server.rounds;
    run.clients = static_cast<int32_t>(step.clients.size());
    run.min_clients = fl.server.min_available_clients;
    for (const model::FlClientStatus& c : step.status.clients) {
      if (c.state == FlClientState::kEligible) ++run.eligible;
      if (c.state == FlClientState::kExcluded) ++run.excluded;
      if (c.state == FlClientState::kLost) ++run.lost;
    }
    if (!step.status.round_losses.empty())
      run.loss = FlNumber(step.status.round_losses.back().loss);
    run.reason = step.reason;
    run.server_cluster = step.status.server_cluster;
    plan.federated_learnings.push_back(std::move(run));

    plan.planned.federated_learnings[i].status = std::move(step.status);
    plan.federated_learning_items.push_back(static_cast<int32_t>(i));
  }
}

}  // namespace berth::engine
