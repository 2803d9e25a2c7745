// AgentRunner: `berth agent`, the side of the sync protocol (sync_protocol.h) that runs beside
// one member cluster. It keeps a copy of the cluster's inventory by list+watch (kube::Reflector
// per kind: Nodes, Pods, ResourceSlices, DeviceClasses, Kueue's queues and Workloads; a kind the
// member does not serve is left out), and every sync period sends the hub its levels: the
// inventory's hash (the objects themselves when the hub does not hold that hash), the works it
// holds by (name, uid, generation), and each work's status with a sequence number until the
// hub acknowledges it. It applies the works the hub sends with OCM's work-agent semantics
// (server/work/work_applier.h) and reconciles the held ones every round (status feedback).
// Safety rules: a failed or slow hub changes nothing on the cluster; a work the hub no
// longer has is removed only after `orphan_grace` and never when it came from a hub whose
// identity differs from the current one (a restored or new hub must not wipe a cluster); a
// reply from an older leader epoch than seen is ignored. State (works held, their applied
// records, statuses and sequences, the hub identity) is kept in `state_dir` so a restarted
// agent converges without applying twice. Round() runs one sync (tests); Start/Stop run the
// loop and the reflectors on threads of their own.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"
#include "server/agent/sync_protocol.h"
#include "server/kube/kube_client.h"
#include "server/kube/reflector.h"
#include "server/work/applied_record.h"

namespace berth::server::agent {

struct AgentOptions {
  std::string cluster;
  std::string hub_server;  // the hub's URL (its hash names what this agent applied)
  std::string state_dir;   // "" = nothing persisted
  std::chrono::seconds orphan_grace{60};
  std::vector<std::pair<std::string, std::string>> claims;  // ClusterClaims sent to the hub
  // Before the first reply says otherwise.
  std::chrono::seconds sync_period{10};
  std::function<int64_t()> now_unix_s;  // empty: the system clock
  std::function<void(const std::string&)> log;
  // List+watch the member's kinds (off in tests that give the inventory by hand).
  bool watch_inventory = true;
  // How often a held work is applied again though nothing changed (OCM's manifest
  // controller resync); between resyncs each round only reads its objects back for the
  // status, and re-applies at once when one is gone or the last apply failed.
  std::chrono::seconds resync{300};
};

struct RoundStats {
  bool sent_inventory = false;
  bool accepted = false;
  bool stale_reply = false;  // ignored: an older epoch
  int applied = 0;           // works applied this round (new or changed)
  int resynced = 0;          // held works applied again (resync, a missing object, a failure)
  int refreshed = 0;         // held works whose status only was read back
  int removed = 0;           // works removed (orphans past their grace)
  int statuses_sent = 0;
  size_t inventory_objects = 0;
};

// A work's status as the agent sends it: whole when its JSON fits in `limit` bytes (the hub's
// SyncLimits::max_status_bytes); else without its manifests' statusFeedback values; else
// only the work's conditions; else empty.
Json StatusForSync(const Json& status, size_t limit);

class AgentRunner {
 public:
  // `hub` carries the syncs (HttpTransport with the hub's CA and the agent's token, or an
  // in-process one in tests); `member` is the cluster's API. Both outlive nothing else.
  AgentRunner(std::unique_ptr<kube::Transport> hub, std::unique_ptr<kube::Client> member,
              AgentOptions options);
  ~AgentRunner();
  AgentRunner(const AgentRunner&) = delete;
  AgentRunner& operator=(const AgentRunner&) = delete;

  // Reads the state folder (missing: a first start). InvalidArgument for a damaged file.
  core::Status Load();
  // One sync: Unavailable when the hub cannot be reached, the hub's Status message for a
  // refusal; the cluster is left as it is either way.
  core::Result<RoundStats> Round();
  void Start();
  void Stop();

  // The inventory as the next round would send it (tests; also used by Round); nullopt until
  // every watched kind has been listed once (or found not served).
  std::optional<std::vector<Json>> Inventory();
  // Gives the inventory by hand (tests with watch_inventory off).
  void SetInventoryForTest(std::vector<Json> objects);
  // Works held now: name -> generation.
  std::map<std::string, int64_t> HeldWorks();
  const std::string& hub_id() const { return hub_id_; }
  int64_t rounds() const { return rounds_.load(); }

 private:
  struct Held {
    Json work;                  // the hub's object as last received
    work::AppliedRecord record;
    Json status;                // last status computed
    int64_t sequence = 0;
    int64_t acked = 0;
    int64_t orphan_since_s = 0;  // 0: the hub has it
    bool foreign = false;        // from a hub whose identity is not the current one
    std::string hub_id;
    // When it was last applied in full (0: not since this process started, so the next
    // round does) and whether that apply left errors (retried every round).
    int64_t applied_at_s = 0;
    bool apply_failed = false;
  };
  int64_t Now() const;
  int64_t NextSequence();
  // One reconcile of a held work: a full apply, or (refresh_only) its status read back,
  // followed by a full apply when an object it applied is gone.
  void Reconcile(const std::string& name, Held& held, bool refresh_only, RoundStats& stats);
  core::Status Save();
  void Log(const std::string& line) const;

  int64_t works_version_ = 0;  // the hub's last works_version, echoed in the next sync
  std::unique_ptr<kube::Transport> hub_;
  std::unique_ptr<kube::Client> member_;
  AgentOptions options_;
  std::string agent_id_;
  std::string hub_hash_;

  std::mutex mu_;  // guards everything below and the rounds
  std::string hub_id_;
  int64_t epoch_ = 0;
  std::string hub_inventory_hash_;
  int64_t last_sequence_ = 0;
  std::map<std::string, Held> works_;
  bool told_not_accepted_ = false;
  std::optional<std::vector<Json>> manual_inventory_;

  struct Watched {
    std::unique_ptr<kube::Reflector> reflector;
    std::thread thread;
  };
  std::vector<Watched> watched_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> rounds_{0};
  std::atomic<int64_t> period_ms_;  // the sync period the hub asked for
  std::thread loop_;
};

}  // namespace berth::server::agent
