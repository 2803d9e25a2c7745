// The hub-agent sync protocol (berth's, modelled on OCM's CloudEvents resync and Armada's
// executor lease round; ../shared/reference/serve.md §2): an agent POSTs its cluster's levels
// and the hub answers with its own. Levels, not edges: every message says the whole state
// (the works held by (name, generation), the newest status of each with a sequence number,
// the hash of the inventory), so a lost, repeated, delayed or reordered sync is harmless:
//  - the hub stores an inventory only when its hash differs from the one it holds, and says
//    which hash it holds, so the agent resends the objects only after a change or a hub that
//    lost them;
//  - the hub writes a work's status only when its sequence is above the one it stored, and
//    acknowledges the highest it holds;
//  - the hub sends back every work whose (name, generation) the agent does not hold and the
//    names of held works it no longer has; of those, the ones its event log shows deleted
//    since the store version it last told the agent (`worksVersion`, which the agent
//    echoes) are `deleted`: removed at once, as OCM's agent removes a work it saw deleted;
//    the others (a hub restored from an older copy, a log compacted past that version) only
//    after the agent's orphan grace; the agent never removes work merely because the hub
//    is unreachable (agent_runner.h).
// Every reply names the hub (its identity, created once per store) and its leader epoch:
// an agent ignores a reply from an older epoch than it has seen, and treats works of a hub
// whose identity changed as orphans it keeps (a restored or new hub must not wipe a cluster).
// Path: POST /apis/agent.berth.dev/v1/clusters/{cluster}/sync. Pure JSON conversion here,
// bounded by SyncLimits; thread-safe (no state).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"

namespace berth::server::agent {

using Json = nlohmann::ordered_json;

inline constexpr std::string_view kSyncPathPrefix = "/apis/agent.berth.dev/v1/clusters/";
inline constexpr std::string_view kSyncPathSuffix = "/sync";
// The store's home of each cluster's inventory (not served by the API: docs/fleet.md).
inline constexpr const char* kInventoryGroup = "agent.berth.dev";
inline constexpr const char* kInventoryKind = "ClusterInventory";
inline constexpr const char* kInventoryHashAnnotation = "agent.berth.dev/inventory-hash";
// The sequence of the status the hub stored for a ManifestWork (an annotation on it).
inline constexpr const char* kStatusSequenceAnnotation = "agent.berth.dev/status-sequence";

// "/apis/agent.berth.dev/v1/clusters/eu-1/sync" -> "eu-1"; nullopt for any other path.
std::optional<std::string> SyncPathCluster(std::string_view path);
std::string SyncPath(std::string_view cluster);

struct SyncLimits {
  size_t max_inventory_objects = 50000;
  size_t max_works = 10000;
  size_t max_claims = 64;
  size_t max_status_bytes = 256 * 1024;  // one work's status
};

struct HeldWork {
  std::string name;
  std::string uid;  // the hub's uid of the work (a work deleted and made again differs)
  int64_t generation = 0;
};

struct StatusReport {
  std::string name;
  std::string uid;
  int64_t generation = 0;
  int64_t sequence = 0;  // grows with every status the agent observes for this work
  Json status;           // the ManifestWork status (conditions, resourceStatus)
};

struct SyncRequest {
  std::string cluster;
  std::string agent_id;     // this agent process (a restart is a new one)
  std::string hub_id;       // the hub identity the agent last accepted; "" at first
  int64_t epoch = 0;        // the highest hub epoch the agent has seen
  std::string kubernetes_version;
  std::string inventory_hash;                 // of the agent's current inventory
  std::optional<std::vector<Json>> inventory; // the objects, when the hub lacks that hash
  std::vector<std::pair<std::string, std::string>> claims;  // ClusterClaims (name, value)
  std::vector<HeldWork> works;
  std::vector<StatusReport> statuses;
  int64_t works_version = 0;  // the last reply's works_version (0: none yet)
};

struct SyncReply {
  std::string hub_id;
  int64_t epoch = 0;
  bool accepted = false;         // the ManagedCluster's spec.hubAcceptsClient
  std::string inventory_hash;    // the one the hub holds ("" = none)
  std::vector<Json> apply;       // whole ManifestWorks (served form)
  std::vector<std::string> remove;  // names of held works the hub no longer has
  std::vector<std::string> deleted;  // of `remove`, those deleted on the hub since works_version
  int64_t works_version = 0;         // the store's version when the works were listed
  std::map<std::string, int64_t> status_acks;  // work name -> highest sequence stored
  int64_t sync_period_s = 10;
  int64_t lease_duration_s = 40;
  std::string message;           // why nothing was sent (not accepted, ...)
};

// Strict decoding: wrong types, missing cluster, lists over the limits are InvalidArgument
// naming the field ("works[3].generation: must be a 64-bit integer": an integer past int64 is
// refused, never wrapped); unknown fields are ignored (a newer agent may send more).
core::Result<SyncRequest> ParseSyncRequest(std::string_view body, const SyncLimits& limits = {});
std::string EncodeSyncRequest(const SyncRequest& request);
core::Result<SyncReply> ParseSyncReply(std::string_view body, const SyncLimits& limits = {});
std::string EncodeSyncReply(const SyncReply& reply);

}  // namespace berth::server::agent
