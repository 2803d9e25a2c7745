// AgentHub: the hub's side of the agents' sync (sync_protocol.h) and its lease controller.
// Serve answers one agent's sync: registration (a ManagedCluster made on first contact,
// waiting for an admin's spec.hubAcceptsClient, OCM's accept step, unless auto-accept is
// on), then for an accepted cluster, in one store transaction: its namespace, its
// ManagedCluster status (joined, Available=True, claims, capacity and allocatable summed
// from its Nodes, the unreachable taint removed), its inventory when the hash changed, and
// the statuses of its works whose sequence is newer than stored; the reply carries the
// works to apply and remove. CheckLeases (run every second by Start's thread, and by tests)
// turns a cluster whose agent has not synced for the lease duration Available=Unknown with
// OCM's reason and adds the `cluster.open-cluster-management.io/unreachable` NoSelect taint,
// as OCM's lease and taint controllers do; placement and MultiKueue's lost-worker rule
// (engine/remote_status.h) follow from that condition. Thread-safe: syncs of different
// clusters run in parallel, syncs of one cluster one at a time.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>

#include "core/result.h"
#include "server/agent/sync_protocol.h"
#include "server/auth/rbac_authorizer.h"
#include "server/metrics/metrics_registry.h"
#include "server/rest/change_feed.h"
#include "server/rest/http_types.h"
#include "server/rest/rest_handler.h"
#include "store/store.h"

namespace berth::server::agent {

struct AgentHubOptions {
  // An agent that has not synced for this long is presumed gone (OCM: 5 x
  // leaseDurationSeconds, 60 s each; berth's default is shorter and sent to the agents).
  std::chrono::seconds lease_duration{40};
  std::chrono::seconds sync_period{10};
  // Accept every cluster that registers (the demo's own clusters); off: an admin sets
  // spec.hubAcceptsClient, as `clusteradm accept` does.
  bool auto_accept = false;
  // The clock (unix seconds); empty: the system clock.
  std::function<int64_t()> now_unix_s;
  SyncLimits limits;
  // Optional: berth_agent_* series (syncs by result, sync duration, clusters by state).
  MetricsRegistry* metrics = nullptr;
  // Where problems go (a failed lease write); one line each.
  std::function<void(const std::string&)> log;
};

class AgentHub {
 public:
  // `authorizer` may be null (every authenticated agent may sync any cluster). The store and
  // feed outlive the hub.
  AgentHub(store::Store& store, ChangeFeed& feed, RbacAuthorizer* authorizer, AgentHubOptions options);
  ~AgentHub();
  AgentHub(const AgentHub&) = delete;
  AgentHub& operator=(const AgentHub&) = delete;

  // Reads (or, leading, creates) the hub's identity (ConfigMap kube-system/berth-hub-identity)
  // and starts every Available cluster's lease at now: a restarted hub gives each agent a
  // whole lease to reach it. Call once before serving.
  core::Status Load();
  // Starts and stops the lease thread (CheckLeases every second).
  void Start();
  void Stop();

  // POST /apis/agent.berth.dev/v1/clusters/{cluster}/sync. Errors are Status replies: 400
  // (malformed body, naming the field; the path and body disagree on the cluster), 403 (the
  // user may not update that ManagedCluster's status), 405, 409 (a concurrent change won
  // three times), 503 (a standby hub, or the store is down).
  RestReply Serve(const HttpRequest& http);

  // Marks every cluster whose lease lapsed Unknown and tainted; returns how many changed.
  size_t CheckLeases();

  const std::string& hub_id() const { return hub_id_; }

 private:
  struct Lease {
    int64_t last_seen_s = 0;
    bool expired = false;
  };
  core::Result<SyncReply> Sync(const SyncRequest& request);
  // Of `missing` (held works the hub no longer has), those its event log shows deleted in
  // the cluster's namespace, at the uid the agent holds, since request.works_version; none
  // when the agent names no version or the log no longer reaches back to it.
  std::vector<std::string> DeletedSince(const std::string& cluster, const SyncRequest& request,
                                        const std::vector<std::string>& missing);
  int64_t Now() const;
  std::mutex& ClusterMutex(const std::string& cluster);

  store::Store& store_;
  ChangeFeed& feed_;
  RbacAuthorizer* authorizer_;
  AgentHubOptions options_;
  std::string hub_id_;
  std::mutex mu_;  // guards leases_, cluster_mu_, inventory_hash_, rng_
  std::unordered_map<std::string, Lease> leases_;
  std::unordered_map<std::string, std::unique_ptr<std::mutex>> cluster_mu_;
  std::unordered_map<std::string, std::string> inventory_hash_;  // as stored, per cluster
  std::mt19937_64 rng_{std::random_device{}()};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace berth::server::agent
