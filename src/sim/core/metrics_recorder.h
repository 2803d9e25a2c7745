// MetricsRecorder: turns the job and capacity events of one simulated run into RunMetrics.
// The simulator calls Record* as things happen, in non-decreasing virtual time, then Finish
// once. Each call is O(1) amortized (plus one row per interval boundary crossed, each
// O(queues + flavors + GPU models)); nothing rescans the jobs until Finish, which sorts the
// waits and JCTs once (O(n log n)).
// Not thread-safe; one recorder per run.
//
// Job life cycle (a call out of order is a bug in the simulator and aborts):
//   Submitted -> pending -> Started -> running -> Finished
//   running -> Preempted | Failed(requeued) -> pending;  running -> Failed(!requeued) -> gone
//   pending | running -> Cancelled -> gone
//
// How the simulator calls it, at each virtual time t (all calls of one t in any order, except
// that a failure event comes before the RecordFailed calls naming it):
//   - a job arrives:            JobIndex j = RecordSubmitted(t, {tenant, queue, class, GPUs...})
//   - a job starts running:     RecordStarted(t, j, {flavor, gpu_model})   (labels may be empty)
//   - it ends / is preempted:   RecordFinished(t, j) / RecordPreempted(t, j)
//   - a node, GPU or cluster is lost:
//       FailureIndex f = RecordFailureEvent(t, "node gpu-a-7");
//       for each job running there: RecordFailed(t, j, requeued, f);
//   - a user deletes a job:     RecordCancelled(t, j)
//   - after any change of allocation or capacity: RecordCapacity(t, {allocated, total, frag})
//   - when a pool's GPU capacity changes (at the start, failure, recovery, drain, scale-up):
//       RecordPoolCapacity(t, {flavor, gpu_model}, total_gpu_milli_of_that_pool_now)
//   - at the end: RunMetrics m = Finish(end)
// Per-flavor and per-model utilisation need both the labels of RecordStarted and the pool
// capacities; a run that gives neither has empty RunMetrics::by_flavor / by_gpu_model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/core/event.h"
#include "sim/core/run_metrics.h"

namespace berth::sim {

struct MetricsOptions {
  // Length of one IntervalRow; rows are aligned to multiples of it (time 0 starts a row).
  int64_t interval_ms = 60'000;
  // Tenant -> entitled share of the cluster in [0, 1] (nominal quota / capacity, say).
  std::vector<std::pair<std::string, double>> entitlements;
};

// What the recorder needs to know of a job; the strings are copied (interned) on submission.
struct JobInfo {
  std::string_view tenant;
  std::string_view queue;
  std::string_view job_class;
  int64_t gpu_milli = 0;  // GPUs x 1000 (fractional GPUs of sharing pods included)
  int64_t cpu_milli = 0;
  int64_t memory_bytes = 0;
};

// Where a job's attempt runs, or which GPUs a pool holds: the ResourceFlavor Kueue assigned and
// the GPU model of the nodes (e.g. "a100-spot", "A100-SXM4-80GB"). Either may be empty (not
// known); an empty label is left out of that breakdown. Copied (interned) by the recorder.
struct GpuLabels {
  std::string_view flavor;
  std::string_view gpu_model;
};

// A failure in the fleet, as returned by RecordFailureEvent; -1 means none.
struct FailureIndex {
  int32_t v = -1;
};

// The fleet's GPU state after a change. The totals of CPU and memory are optional (0 =
// unknown); they only enter tenants' dominant shares. Give the fragmentation amount with every
// sample or never: a sample without it keeps the previous amount.
struct CapacitySample {
  int64_t allocated_gpu_milli = 0;
  int64_t total_gpu_milli = 0;
  std::optional<double> frag_gpu_milli;
  int64_t total_cpu_milli = 0;
  int64_t total_memory_bytes = 0;
};

class MetricsRecorder {
 public:
  explicit MetricsRecorder(MetricsOptions options = {});

  // Returns the recorder's index for the job: 0, 1, 2, ... in submission order.
  JobIndex RecordSubmitted(int64_t t_ms, const JobInfo& job);
  // The attempt runs on `on` until it stops; its GPUs count as allocated to that flavor and
  // GPU model. A requeued job may start elsewhere the next time.
  void RecordStarted(int64_t t_ms, JobIndex job, const GpuLabels& on = {});
  void RecordFinished(int64_t t_ms, JobIndex job);
  // The attempt's work since its start is lost; the job is pending again.
  void RecordPreempted(int64_t t_ms, JobIndex job);
  // The attempt's work since its start is lost (GPU-hours rerun). requeued: pending again
  // (restart policy, Kueue backoff); otherwise the job is gone for good. cause: the failure
  // event that ended it (from RecordFailureEvent at or before t_ms), or none for a failure of
  // the job alone; the event recovers when every job it hit runs again.
  void RecordFailed(int64_t t_ms, JobIndex job, bool requeued, FailureIndex cause = {});
  void RecordCancelled(int64_t t_ms, JobIndex job);
  void RecordCapacity(int64_t t_ms, const CapacitySample& sample);

  // A failure in the fleet at t_ms (node, GPU, cluster lost), described by `what` (copied;
  // shown in reports). Returns its index for the RecordFailed calls of the jobs it hit. Its
  // time to recover runs until the last of those jobs starts again or is cancelled.
  FailureIndex RecordFailureEvent(int64_t t_ms, std::string_view what);

  // The GPU capacity of the pool of nodes with these labels is now total_gpu_milli (replacing
  // what was recorded for the same labels before). Give every pool once at the start, then
  // again whenever its capacity changes; repeating an unchanged total is harmless. An
  // unlabelled pool (both labels empty) is ignored. O(1) amortized.
  void RecordPoolCapacity(int64_t t_ms, const GpuLabels& pool, int64_t total_gpu_milli);

  // Closes the last interval at end_ms (>= every recorded time) and computes the end-of-run
  // metrics. Call once; the recorder is spent afterwards.
  RunMetrics Finish(int64_t end_ms);

  int64_t running() const { return running_; }
  int64_t pending() const { return pending_; }

 private:
  enum class JobStatus : uint8_t { kPending, kRunning, kFinished, kFailed, kCancelled };
  struct JobState {
    int64_t submit_ms = 0;
    int64_t first_start_ms = -1;
    int64_t last_start_ms = -1;
    int64_t end_ms = -1;
    int64_t failed_at_ms = -1;  // set by a failure, cleared by the next start
    int64_t gpu_milli = 0;
    int64_t cpu_milli = 0;
    int64_t memory_bytes = 0;
    int32_t tenant = 0;
    int32_t queue = 0;
    int32_t job_class = 0;
    int32_t flavor = -1;  // labels of the current (or last) attempt; -1: none
    int32_t gpu_model = -1;
    int32_t open_failure = -1;  // the failure event waiting for this job to run again
    JobStatus status = JobStatus::kPending;
  };
  // Allocated and total GPU of one flavor or GPU model, integrated lazily: the areas are
  // complete up to since_ms, and every interval boundary brings them up to date.
  struct LabelState {
    int64_t allocated_milli = 0;
    int64_t total_milli = 0;
    int64_t since_ms = 0;
    double row_alloc_area = 0;  // milli x ms, in the open interval
    double row_total_area = 0;
    double alloc_area = 0;  // over the run
    double total_area = 0;
  };
  struct FailureState {
    int64_t t_ms = 0;
    std::string what;
    int64_t jobs_hit = 0;
    int64_t outstanding = 0;     // jobs it hit that have not run again (nor were cancelled)
    int64_t recovered_ms = -1;   // when outstanding last dropped to 0
    bool lost_for_good = false;  // a job it hit failed without requeue
    double milli_ms_lost = 0;
  };
  struct TenantState {
    double entitlement = 0;
    int64_t jobs = 0;
    int64_t gpu_milli = 0;  // in use now
    int64_t cpu_milli = 0;
    int64_t memory_bytes = 0;
    int64_t since_ms = 0;  // usage integrals are complete up to here
    double gpu_area = 0;   // milli x ms
    double cpu_area = 0;
    double memory_area = 0;
  };
  // Heterogeneous lookup, so interning a string_view allocates only for a new name.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct NameTable {
    std::vector<std::string> names;
    std::unordered_map<std::string, int32_t, NameHash, std::equal_to<>> index;
    int32_t Intern(std::string_view name);
  };

  JobState& Job(JobIndex job);
  // Integrates the capacity state up to t_ms, emitting a row at each interval boundary.
  void AdvanceTo(int64_t t_ms);
  void Integrate(int64_t to_ms);
  void EmitRow(int64_t end_ms);
  void ChangeUsage(int64_t t_ms, const JobState& job, int sign);
  void StopAttempt(int64_t t_ms, JobState& job);
  // Brings a label's areas up to t_ms (no later than the recorder's time).
  static void IntegrateLabel(LabelState& label, int64_t t_ms);
  static int32_t LabelId(NameTable& names, std::vector<LabelState>& states, std::string_view name,
                         int64_t t_ms);
  // A job no longer holds its failure event open (it started again or was cancelled).
  void CloseFailure(int64_t t_ms, JobState& job);

  MetricsOptions options_;
  bool started_ = false;
  bool finished_ = false;
  int64_t first_ms_ = 0;
  int64_t now_ms_ = 0;
  int64_t row_start_ms_ = 0;

  // The current capacity state and its integrals (GPU milli x ms).
  CapacitySample capacity_;
  bool capacity_seen_ = false;
  bool frag_seen_ = false;
  double frag_gpu_milli_ = 0;
  double row_alloc_area_ = 0;
  double row_total_area_ = 0;
  double row_frag_area_ = 0;
  double run_alloc_area_ = 0;
  double run_total_area_ = 0;
  double run_frag_area_ = 0;
  double run_cpu_area_ = 0;
  double run_memory_area_ = 0;

  IntervalRow row_counts_;  // the counters of the open interval
  std::vector<IntervalRow> rows_;

  std::vector<JobState> jobs_;
  NameTable tenant_names_;
  NameTable queue_names_;
  NameTable class_names_;
  std::vector<TenantState> tenants_;
  std::vector<int64_t> pending_by_queue_;
  NameTable flavor_names_;
  NameTable model_names_;
  std::vector<LabelState> flavors_;
  std::vector<LabelState> models_;
  // (flavor id, model id) of a pool -> its recorded total, so a new total replaces the old one.
  std::unordered_map<uint64_t, int64_t> pool_totals_;
  std::vector<FailureState> failure_events_;
  int64_t running_ = 0;
  int64_t pending_ = 0;
  int64_t last_exit_ms_ = -1;

  int64_t preemptions_ = 0;
  int64_t failures_ = 0;
  double preempted_milli_ms_ = 0;
  double failed_milli_ms_ = 0;
  std::vector<double> recovery_s_;
};

}  // namespace berth::sim
