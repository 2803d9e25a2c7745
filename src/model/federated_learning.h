// FederatedLearning (federation-ai.open-cluster-management.io/v1alpha1), the custom resource
// of OCM's federated-learning addon (addon-contrib federated-learning-controller), as plain
// data owned by Snapshot: a server (one training aggregator) and clients placed by an OCM
// Placement onto the clusters that hold the training data, so that only the model moves.
// io fills it (the spec, berth's annotations, the status as read); the engine's
// federated-learning stage (engine/federated_learning.h) decides it and io patches the status
// back. Semantics and berth's extras: docs/fleet.md "Federated learning".
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/quantity.h"
#include "core/time.h"
#include "model/berth_names.h"
#include "model/data_residency.h"  // kComplianceClaim, ComplianceProblem
#include "model/object_meta.h"
#include "model/ocm.h"

namespace berth::model {

// Annotations on a FederatedLearning (berth's, not upstream's):
// the compliance requirements of the training data, comma separated ("gdpr", "gdpr,hipaa"):
// a client may run only on a cluster whose kComplianceClaim lists every one of them;
inline constexpr const char* kFlDataComplianceAnnotation = kBerthDataComplianceKey;
// the longest a training round may run (a Go duration, "30m"); unset: no limit;
inline constexpr const char* kFlRoundTimeoutAnnotation = kBerthRoundTimeoutKey;
// how many consecutive rounds of growing loss abort the training (default 3);
inline constexpr const char* kFlDivergenceRoundsAnnotation = kBerthDivergenceRoundsKey;
// the member cluster the server runs on; unset: the first client cluster by name.
inline constexpr const char* kFlServerClusterAnnotation = kBerthServerClusterKey;

// Labels of the ManifestWorks berth plans for a FederatedLearning: "<ns>.<name>" of the
// FederatedLearning (bounded to 63 characters) and the work's role, "server" or "client".
inline constexpr const char* kFederatedLearningLabel = kBerthFederatedLearningKey;
inline constexpr const char* kFederatedLearningRoleLabel = kBerthFederatedLearningRoleKey;

// Annotations the server writes on its own Job to report progress; the server's
// ManifestWork reads them back as status feedback (values CurrentRound and Loss).
inline constexpr const char* kFlCurrentRoundAnnotation = kBerthFlCurrentRoundKey;
inline constexpr const char* kFlLossAnnotation = kBerthFlLossKey;

enum class FlPhase { kWaiting, kRunning, kCompleted, kFailed };

// The API's spelling ("Waiting", ...).
inline const char* FlPhaseName(FlPhase phase) {
  switch (phase) {
    case FlPhase::kWaiting:
      return "Waiting";
    case FlPhase::kRunning:
      return "Running";
    case FlPhase::kCompleted:
      return "Completed";
    case FlPhase::kFailed:
      return "Failed";
  }
  return "Waiting";
}

// spec.server.listeners[]: how clients reach the server (upstream's Service types).
struct FlListener {
  std::string name;
  int32_t port = 8080;
  std::string type;  // LoadBalancer | NodePort | Route
};

// status.listeners[]: the address upstream's controller found for a listener.
struct FlListenerStatus {
  std::string name;
  std::string type;
  std::string address;
  int32_t port = 0;
};

// spec.server.storage: the server's model store (the only thing that moves).
struct FlStorage {
  std::string type;  // PersistentVolumeClaim | HostPath | S3Bucket
  std::string name;  // the PVC's name
  std::string path;  // where the model lives (spec.server.storage.path)
  std::string size;
};

// A container's resources (berth's field: spec.server.resources, spec.client.resources).
struct FlResources {
  std::map<std::string, core::Quantity> requests;
  std::map<std::string, core::Quantity> limits;
};

struct FlServerSpec {
  std::string image;
  int32_t rounds = 0;  // 0: left to the server
  int32_t min_available_clients = 1;
  std::vector<FlListener> listeners;
  FlStorage storage;
  FlResources resources;
};

struct FlClientSpec {
  std::string image;
  // spec.client.placement as the Placement upstream's controller creates from it: named and
  // namespaced as the FederatedLearning.
  Placement placement;
  FlResources resources;
};

// What one member cluster is to the training (status.clients[].state).
enum class FlClientState {
  kEligible,  // holds the data and may train; waiting for enough clients
  kTraining,  // a client runs there (its ManifestWork is planned)
  kExcluded,  // holds the data but may not train there (the reason says why)
  kLost,      // was a client; its cluster or its client failed
  kFinished,  // was a client until the training ended (completed or aborted)
};

inline const char* FlClientStateName(FlClientState state) {
  switch (state) {
    case FlClientState::kEligible:
      return "Eligible";
    case FlClientState::kTraining:
      return "Training";
    case FlClientState::kExcluded:
      return "Excluded";
    case FlClientState::kLost:
      return "Lost";
    case FlClientState::kFinished:
      return "Finished";
  }
  return "Eligible";
}

struct FlClientStatus {
  std::string cluster;
  FlClientState state = FlClientState::kEligible;
  std::string reason;  // CamelCase, empty for Eligible and Training
  std::string message;
  std::string data_config;  // the data claim's value on that cluster, given to the client
};

// The loss the server reported while a round ran (the last value seen).
struct FlRoundLoss {
  int32_t round = 0;
  std::string loss;  // as reported ("0.42", "NaN")
};

// status: upstream's phase, message and listeners, and berth's fields (serverCluster,
// clients, currentRound, roundStartTime, roundLosses, conditions).
struct FederatedLearningStatus {
  FlPhase phase = FlPhase::kWaiting;
  std::string message;
  std::vector<FlListenerStatus> listeners;
  std::string server_cluster;
  std::vector<FlClientStatus> clients;
  int32_t current_round = 0;
  std::optional<core::Timestamp> round_start_time;
  std::vector<FlRoundLoss> round_losses;  // the most recent rounds, oldest first
  std::vector<Condition> conditions;      // ClientsPlaced, TrainingAborted
};

struct FederatedLearning {
  ObjectMeta meta;
  std::string framework = "other";  // flower | openfl | other
  FlServerSpec server;
  FlClientSpec client;
  // berth's annotations, parsed.
  std::vector<std::string> data_compliance;
  std::optional<int64_t> round_timeout_s;
  int32_t divergence_rounds = 3;
  std::string server_cluster;
  // The status as read (the state a plan continues from), and as the engine decided it
  // (nullopt: not decided; io prints only decided ones).
  FederatedLearningStatus read_status;
  std::optional<FederatedLearningStatus> status;
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
