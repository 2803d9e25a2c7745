// MetricsRecorder: turns the job and capacity events of one simulated run into RunMetrics.
// The simulator calls Record* as things happen, in non-decreasing virtual time, then Finish
// once. Each call is O(1) amortized (plus one row per interval boundary crossed); nothing
// rescans the jobs until Finish, which sorts the waits and JCTs once (O(n log n)).
// Not thread-safe; one recorder per run.
//
// Job life cycle (a call out of order is a bug in the simulator and aborts):
//   Submitted -> pending -> Started -> running -> Finished
//   running -> Preempted | Failed(requeued) -> pending;  running -> Failed(!requeued) -> gone
//   pending | running -> Cancelled -> gone
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
  void RecordStarted(int64_t t_ms, JobIndex job);
  void RecordFinished(int64_t t_ms, JobIndex job);
  // The attempt's work since its start is lost; the job is pending again.
  void RecordPreempted(int64_t t_ms, JobIndex job);
  // The attempt's work since its start is lost (GPU-hours rerun). requeued: pending again
  // (restart policy, Kueue backoff); otherwise the job is gone for good.
  void RecordFailed(int64_t t_ms, JobIndex job, bool requeued);
  void RecordCancelled(int64_t t_ms, JobIndex job);
  void RecordCapacity(int64_t t_ms, const CapacitySample& sample);

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
    JobStatus status = JobStatus::kPending;
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
