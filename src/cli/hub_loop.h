// SchedulingLoop: the engine of `berth plan` driven on the hub's real clock (issue 15, part 4).
// A cycle sees every object the store holds (a mirror kept from the store's event log,
// decoding only what changed since the last cycle), runs the plan (admission, placement, dispatch,
// binding for the clusters the hub schedules itself) at the current time, and writes what the
// plan decided that differs from what is stored (statuses, created Workloads, pods bound to
// nodes, ManifestWorks, PlacementDecisions, and the deletions of preempted pods and stale
// objects) in one store transaction: a cycle is committed whole or not at all. A write that
// loses a race with a client (the object changed since the cycle read it) fails the commit,
// and the next cycle decides again on the newer state. With a store several hubs share, only
// the leader decides: a standby's cycle tries to take the lead and otherwise does nothing, so
// a standby takes over within a period of its leader's lease lapsing and decides from the
// same stored state. Cycles run when the store changes
// (after a short debounce, so a burst of submissions is one cycle) and on a period. Lives in
// cli because it joins io (decoding and writing objects), engine and store, which no lower
// module may join (DESIGN.md module table). One thread; Stop joins it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cli/inventory_sources.h"
#include "cli/store_mirror.h"
#include "core/result.h"
#include "io/decode_cache.h"
#include "io/reader.h"
#include "server/metrics/metrics_registry.h"
#include "server/rest/change_feed.h"
#include "store/store.h"

namespace berth::cli {

struct LoopOptions {
  std::chrono::milliseconds period{5000};   // a cycle at least this often
  std::chrono::milliseconds debounce{100};  // after a change, wait this long for more
  // Where a cycle's problems go (objects the reader refused, a failed commit); one line each.
  std::function<void(const std::string&)> log;
  // The clock of the cycle (Kueue's condition times); empty: the system clock.
  std::function<int64_t()> now_unix_s;
  // Kueue's metrics and berth_cycle_* are recorded here when set; replica_role labels them
  // ("standalone" for a store only this hub opens; empty: "leader" or "follower" as the
  // store's lease says).
  server::MetricsRegistry* metrics = nullptr;
  // engine::PlanOptions::cycles of every cycle. Unset (serve's choice): the settled plan, in
  // which an eviction completes in the cycle that chose it (the victims' pods deleted in the
  // preemptor's transaction). 1: one Kueue cycle per loop cycle, as time passes upstream
  // (the preemptor waits while the victims' pods terminate); not serve's default because
  // each cycle plans the whole snapshot, so a queue of N pending heads would take N plans.
  std::optional<int32_t> plan_cycles;
  std::string replica_role = "standalone";
  // Component configuration read with every cycle, as JSON texts (the Kueue Configuration
  // and KubeSchedulerConfiguration given to `berth serve -f`: not API objects, so not in the
  // store).
  std::vector<std::string> configuration;
  // How the reader expands workloads into pods (a simulated member cluster turns creation
  // off: its own controllers make the pods).
  io::ExpansionLimits expansion;
  // Runs after each committed cycle on the loop's thread (a simulated cluster's controllers
  // and kubelet, server/member); its writes are its own. Empty: nothing.
  std::function<void()> after_cycle;
};

struct CycleStats {
  bool standby = false;      // another hub leads the shared store: nothing was decided
  int64_t read_rv = 0;       // the store's resourceVersion the cycle read at
  size_t objects_read = 0;
  size_t decoded = 0;        // of those, new or changed since the last cycle (decoded again)
  size_t created = 0;
  size_t updated = 0;
  size_t deleted = 0;
  int64_t committed_rv = 0;  // 0 when nothing was written
  double seconds = 0;
  double read_seconds = 0;   // the store's events since the last cycle into the mirror
  double plan_seconds = 0;   // decoding, the plan, printing what changed
  double write_seconds = 0;  // comparing with the store and the commit
};

class SchedulingLoop {
 public:
  SchedulingLoop(store::Store& store, server::ChangeFeed& feed, LoopOptions options);
  ~SchedulingLoop();
  SchedulingLoop(const SchedulingLoop&) = delete;
  SchedulingLoop& operator=(const SchedulingLoop&) = delete;

  // One cycle now, on the calling thread (tests, and the loop thread itself). Cycles never
  // overlap: a second caller waits for the first.
  core::Result<CycleStats> RunCycle();

  // Starts the thread: a cycle at once, then on changes and on the period.
  void Start();
  // Finishes the cycle in progress and joins the thread.
  void Stop();

  // The last finished cycle's figures (for /metrics).
  CycleStats last() const;
  int64_t cycles() const { return cycles_.load(); }

 private:
  void Run();

  store::Store& store_;
  server::ChangeFeed& feed_;
  LoopOptions options_;
  std::mutex cycle_mu_;
  std::mt19937_64 uid_rng_{std::random_device{}()};  // under cycle_mu_
  StoreMirror mirror_;                                // under cycle_mu_
  io::DecodeCache decode_cache_;                      // under cycle_mu_
  InventorySources inventories_;                      // under cycle_mu_
  // Bodies with the store's generation written in (generation > 1), by mirror key: the
  // resourceVersion they were made at and the text.
  std::unordered_map<std::string, std::pair<int64_t, std::string>> generation_bodies_;  // under cycle_mu_
  mutable std::mutex stats_mu_;
  CycleStats last_;
  std::atomic<int64_t> cycles_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace berth::cli
