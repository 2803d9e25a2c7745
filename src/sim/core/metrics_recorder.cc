#include "sim/core/metrics_recorder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/check.h"
#include "sim/core/virtual_clock.h"

namespace berth::sim {
namespace {

constexpr double kMilliMsPerGpuHour = 1000.0 * static_cast<double>(kMsPerHour);

// Floor division, so that rows stay aligned to multiples of the interval for negative times.
int64_t FloorTo(int64_t t, int64_t step) {
  int64_t q = t / step;
  if (t % step != 0 && t < 0) {
    --q;
  }
  return q * step;
}

double Seconds(int64_t ms) { return static_cast<double>(ms) / kMsPerSecond; }

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The key of a pool in pool_totals_: both label ids shifted by one, so -1 (none) fits.
uint64_t PoolKey(int32_t flavor, int32_t model) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(flavor + 1)) << 32) |
         static_cast<uint32_t>(model + 1);
}

}  // namespace

int32_t MetricsRecorder::NameTable::Intern(std::string_view name) {
  auto it = index.find(name);
  if (it != index.end()) {
    return it->second;
  }
  const auto id = static_cast<int32_t>(names.size());
  names.emplace_back(name);
  index.emplace(names.back(), id);
  return id;
}

MetricsRecorder::MetricsRecorder(MetricsOptions options) : options_(std::move(options)) {
  // A non-positive interval would emit rows forever; the CLI validates the flag.
  BERTH_CHECK(options_.interval_ms > 0, "MetricsRecorder: interval_ms must be positive");
  for (const auto& [tenant, share] : options_.entitlements) {
    const int32_t id = tenant_names_.Intern(tenant);
    if (static_cast<size_t>(id) >= tenants_.size()) {
      tenants_.resize(id + 1);
    }
    tenants_[id].entitlement = share;
  }
}

MetricsRecorder::JobState& MetricsRecorder::Job(JobIndex job) {
  // Indices come from RecordSubmitted; any other value is the simulator's bug.
  BERTH_CHECK(job.v >= 0 && static_cast<size_t>(job.v) < jobs_.size(),
              "MetricsRecorder: unknown job index");
  return jobs_[job.v];
}

void MetricsRecorder::Integrate(int64_t to_ms) {
  const auto dt = static_cast<double>(to_ms - now_ms_);
  if (dt > 0 && capacity_seen_) {
    const double alloc = static_cast<double>(capacity_.allocated_gpu_milli) * dt;
    const double total = static_cast<double>(capacity_.total_gpu_milli) * dt;
    row_alloc_area_ += alloc;
    row_total_area_ += total;
    run_alloc_area_ += alloc;
    run_total_area_ += total;
    run_cpu_area_ += static_cast<double>(capacity_.total_cpu_milli) * dt;
    run_memory_area_ += static_cast<double>(capacity_.total_memory_bytes) * dt;
    if (frag_seen_) {
      row_frag_area_ += frag_gpu_milli_ * dt;
      run_frag_area_ += frag_gpu_milli_ * dt;
    }
  }
  now_ms_ = to_ms;
}

void MetricsRecorder::EmitRow(int64_t end_ms) {
  IntervalRow row = row_counts_;
  row.start_ms = row_start_ms_;
  row.end_ms = end_ms;
  // A zero-length last interval (events exactly at the end) has no area: it shows the state.
  const double total =
      row_total_area_ > 0 ? row_total_area_ : static_cast<double>(capacity_.total_gpu_milli);
  const double alloc =
      row_total_area_ > 0 ? row_alloc_area_ : static_cast<double>(capacity_.allocated_gpu_milli);
  const double frag = row_total_area_ > 0 ? row_frag_area_ : frag_gpu_milli_;
  row.allocated_pct = total > 0 ? 100.0 * alloc / total : 0.0;
  if (frag_seen_) {
    row.frag_pct = total > 0 ? 100.0 * frag / total : 0.0;
  }
  row.running = running_;
  row.pending = pending_;
  row.pending_by_queue = pending_by_queue_;
  // Labels are integrated lazily; the boundary brings each up to date (O(labels) per row).
  const bool zero_length = end_ms == row_start_ms_;
  auto label_pcts = [&](std::vector<LabelState>& states, std::vector<double>* out) {
    out->reserve(states.size());
    for (LabelState& l : states) {
      IntegrateLabel(l, end_ms);
      double pct = kNaN;
      if (l.row_total_area > 0) {
        pct = 100.0 * l.row_alloc_area / l.row_total_area;
      } else if (zero_length && l.total_milli > 0) {
        pct = 100.0 * static_cast<double>(l.allocated_milli) / static_cast<double>(l.total_milli);
      }
      out->push_back(pct);
      l.row_alloc_area = l.row_total_area = 0;
    }
  };
  label_pcts(flavors_, &row.allocated_pct_by_flavor);
  label_pcts(models_, &row.allocated_pct_by_gpu_model);
  rows_.push_back(std::move(row));
  row_counts_ = IntervalRow{};
  row_alloc_area_ = row_total_area_ = row_frag_area_ = 0;
}

void MetricsRecorder::AdvanceTo(int64_t t_ms) {
  BERTH_CHECK(!finished_, "MetricsRecorder used after Finish");
  if (!started_) {
    started_ = true;
    first_ms_ = now_ms_ = t_ms;
    row_start_ms_ = FloorTo(t_ms, options_.interval_ms);
    return;
  }
  // The event loop hands out events in time order; an earlier time is a simulator bug.
  BERTH_CHECK(t_ms >= now_ms_, "MetricsRecorder: time went backwards");
  while (t_ms >= row_start_ms_ + options_.interval_ms) {
    const int64_t boundary = row_start_ms_ + options_.interval_ms;
    Integrate(boundary);
    EmitRow(boundary);
    row_start_ms_ = boundary;
  }
  Integrate(t_ms);
}

void MetricsRecorder::IntegrateLabel(LabelState& label, int64_t t_ms) {
  const auto dt = static_cast<double>(t_ms - label.since_ms);
  if (dt > 0) {
    const double alloc = static_cast<double>(label.allocated_milli) * dt;
    const double total = static_cast<double>(label.total_milli) * dt;
    label.row_alloc_area += alloc;
    label.row_total_area += total;
    label.alloc_area += alloc;
    label.total_area += total;
  }
  label.since_ms = t_ms;
}

int32_t MetricsRecorder::LabelId(NameTable& names, std::vector<LabelState>& states,
                                 std::string_view name, int64_t t_ms) {
  if (name.empty()) {
    return -1;
  }
  const int32_t id = names.Intern(name);
  if (static_cast<size_t>(id) >= states.size()) {
    states.resize(id + 1);
    states[id].since_ms = t_ms;
  }
  return id;
}

void MetricsRecorder::ChangeUsage(int64_t t_ms, const JobState& job, int sign) {
  if (job.flavor >= 0) {
    IntegrateLabel(flavors_[job.flavor], t_ms);
    flavors_[job.flavor].allocated_milli += sign * job.gpu_milli;
  }
  if (job.gpu_model >= 0) {
    IntegrateLabel(models_[job.gpu_model], t_ms);
    models_[job.gpu_model].allocated_milli += sign * job.gpu_milli;
  }
  TenantState& tenant = tenants_[job.tenant];
  const auto dt = static_cast<double>(t_ms - tenant.since_ms);
  tenant.gpu_area += static_cast<double>(tenant.gpu_milli) * dt;
  tenant.cpu_area += static_cast<double>(tenant.cpu_milli) * dt;
  tenant.memory_area += static_cast<double>(tenant.memory_bytes) * dt;
  tenant.since_ms = t_ms;
  tenant.gpu_milli += sign * job.gpu_milli;
  tenant.cpu_milli += sign * job.cpu_milli;
  tenant.memory_bytes += sign * job.memory_bytes;
}

JobIndex MetricsRecorder::RecordSubmitted(int64_t t_ms, const JobInfo& info) {
  AdvanceTo(t_ms);
  JobState job;
  job.submit_ms = t_ms;
  job.gpu_milli = info.gpu_milli;
  job.cpu_milli = info.cpu_milli;
  job.memory_bytes = info.memory_bytes;
  job.tenant = tenant_names_.Intern(info.tenant);
  job.queue = queue_names_.Intern(info.queue);
  job.job_class = class_names_.Intern(info.job_class);
  if (static_cast<size_t>(job.tenant) >= tenants_.size()) {
    tenants_.resize(job.tenant + 1);
    tenants_[job.tenant].since_ms = t_ms;
  }
  if (static_cast<size_t>(job.queue) >= pending_by_queue_.size()) {
    pending_by_queue_.resize(job.queue + 1, 0);
  }
  ++tenants_[job.tenant].jobs;
  ++pending_by_queue_[job.queue];
  ++pending_;
  ++row_counts_.submitted;
  jobs_.push_back(job);
  return JobIndex{static_cast<int32_t>(jobs_.size() - 1)};
}

void MetricsRecorder::CloseFailure(int64_t t_ms, JobState& job) {
  if (job.open_failure < 0) {
    return;
  }
  FailureState& failure = failure_events_[job.open_failure];
  if (--failure.outstanding == 0) {
    failure.recovered_ms = t_ms;
  }
  job.open_failure = -1;
}

void MetricsRecorder::RecordStarted(int64_t t_ms, JobIndex index, const GpuLabels& on) {
  AdvanceTo(t_ms);
  JobState& job = Job(index);
  BERTH_CHECK(job.status == JobStatus::kPending, "MetricsRecorder: start of a job not pending");
  job.status = JobStatus::kRunning;
  job.flavor = LabelId(flavor_names_, flavors_, on.flavor, t_ms);
  job.gpu_model = LabelId(model_names_, models_, on.gpu_model, t_ms);
  CloseFailure(t_ms, job);
  if (job.first_start_ms < 0) {
    job.first_start_ms = t_ms;
  }
  if (job.failed_at_ms >= 0) {
    recovery_s_.push_back(Seconds(t_ms - job.failed_at_ms));
    job.failed_at_ms = -1;
  }
  job.last_start_ms = t_ms;
  --pending_by_queue_[job.queue];
  --pending_;
  ++running_;
  ++row_counts_.started;
  ChangeUsage(t_ms, job, +1);
}

void MetricsRecorder::StopAttempt(int64_t t_ms, JobState& job) {
  BERTH_CHECK(job.status == JobStatus::kRunning, "MetricsRecorder: stop of a job not running");
  --running_;
  ChangeUsage(t_ms, job, -1);
}

void MetricsRecorder::RecordFinished(int64_t t_ms, JobIndex index) {
  AdvanceTo(t_ms);
  JobState& job = Job(index);
  StopAttempt(t_ms, job);
  job.status = JobStatus::kFinished;
  job.end_ms = t_ms;
  last_exit_ms_ = t_ms;
  ++row_counts_.finished;
}

void MetricsRecorder::RecordPreempted(int64_t t_ms, JobIndex index) {
  AdvanceTo(t_ms);
  JobState& job = Job(index);
  StopAttempt(t_ms, job);
  const double lost =
      static_cast<double>(job.gpu_milli) * static_cast<double>(t_ms - job.last_start_ms);
  preempted_milli_ms_ += lost;
  row_counts_.preemption_gpu_hours_lost += lost / kMilliMsPerGpuHour;
  job.status = JobStatus::kPending;
  ++pending_by_queue_[job.queue];
  ++pending_;
  ++preemptions_;
  ++row_counts_.preemptions;
}

void MetricsRecorder::RecordFailed(int64_t t_ms, JobIndex index, bool requeued,
                                   FailureIndex cause) {
  AdvanceTo(t_ms);
  JobState& job = Job(index);
  StopAttempt(t_ms, job);
  const double lost =
      static_cast<double>(job.gpu_milli) * static_cast<double>(t_ms - job.last_start_ms);
  failed_milli_ms_ += lost;
  row_counts_.failure_gpu_hours_lost += lost / kMilliMsPerGpuHour;
  job.failed_at_ms = t_ms;
  if (cause.v >= 0) {
    // Indices come from RecordFailureEvent; any other value is the simulator's bug.
    BERTH_CHECK(static_cast<size_t>(cause.v) < failure_events_.size(),
                "MetricsRecorder: unknown failure event");
    FailureState& failure = failure_events_[cause.v];
    ++failure.jobs_hit;
    failure.milli_ms_lost += lost;
    if (requeued) {
      ++failure.outstanding;
      job.open_failure = cause.v;
    } else {
      failure.lost_for_good = true;
    }
  }
  ++failures_;
  ++row_counts_.failures;
  if (requeued) {
    job.status = JobStatus::kPending;
    ++pending_by_queue_[job.queue];
    ++pending_;
  } else {
    job.status = JobStatus::kFailed;
    job.end_ms = t_ms;
    last_exit_ms_ = t_ms;
  }
}

void MetricsRecorder::RecordCancelled(int64_t t_ms, JobIndex index) {
  AdvanceTo(t_ms);
  JobState& job = Job(index);
  if (job.status == JobStatus::kRunning) {
    StopAttempt(t_ms, job);
  } else {
    BERTH_CHECK(job.status == JobStatus::kPending, "MetricsRecorder: cancel of a job that ended");
    --pending_by_queue_[job.queue];
    --pending_;
    CloseFailure(t_ms, job);  // withdrawn: its failure no longer waits for it
  }
  job.status = JobStatus::kCancelled;
  job.end_ms = t_ms;
  last_exit_ms_ = t_ms;
}

void MetricsRecorder::RecordCapacity(int64_t t_ms, const CapacitySample& sample) {
  AdvanceTo(t_ms);
  capacity_ = sample;
  capacity_seen_ = true;
  if (sample.frag_gpu_milli.has_value()) {
    frag_seen_ = true;
    frag_gpu_milli_ = *sample.frag_gpu_milli;
  }
}

FailureIndex MetricsRecorder::RecordFailureEvent(int64_t t_ms, std::string_view what) {
  AdvanceTo(t_ms);
  FailureState& failure = failure_events_.emplace_back();
  failure.t_ms = t_ms;
  failure.what.assign(what.data(), what.size());
  return FailureIndex{static_cast<int32_t>(failure_events_.size() - 1)};
}

void MetricsRecorder::RecordPoolCapacity(int64_t t_ms, const GpuLabels& pool,
                                         int64_t total_gpu_milli) {
  // Capacity is counted by the simulator from its nodes; a negative one is its bug.
  BERTH_CHECK(total_gpu_milli >= 0, "MetricsRecorder: negative pool capacity");
  AdvanceTo(t_ms);
  const int32_t flavor = LabelId(flavor_names_, flavors_, pool.flavor, t_ms);
  const int32_t model = LabelId(model_names_, models_, pool.gpu_model, t_ms);
  if (flavor < 0 && model < 0) {
    return;  // an unlabelled pool is in no breakdown
  }
  int64_t& recorded = pool_totals_[PoolKey(flavor, model)];
  const int64_t delta = total_gpu_milli - recorded;
  recorded = total_gpu_milli;
  if (flavor >= 0) {
    IntegrateLabel(flavors_[flavor], t_ms);
    flavors_[flavor].total_milli += delta;
  }
  if (model >= 0) {
    IntegrateLabel(models_[model], t_ms);
    models_[model].total_milli += delta;
  }
}

RunMetrics MetricsRecorder::Finish(int64_t end_ms) {
  const bool had_events = started_;
  AdvanceTo(end_ms);
  if (had_events) {
    if (end_ms > row_start_ms_ || rows_.empty()) {
      EmitRow(end_ms);
    } else {
      // The run ends exactly on a boundary: events at end_ms count in the last interval
      // (rather than in a zero-length one), which ends in the final state.
      IntervalRow& last = rows_.back();
      last.submitted += row_counts_.submitted;
      last.started += row_counts_.started;
      last.finished += row_counts_.finished;
      last.preemptions += row_counts_.preemptions;
      last.failures += row_counts_.failures;
      last.preemption_gpu_hours_lost += row_counts_.preemption_gpu_hours_lost;
      last.failure_gpu_hours_lost += row_counts_.failure_gpu_hours_lost;
      last.running = running_;
      last.pending = pending_;
      last.pending_by_queue = pending_by_queue_;
    }
  }
  finished_ = true;

  RunMetrics m;
  m.start_ms = first_ms_;
  m.end_ms = end_ms;
  m.queue_names = queue_names_.names;
  m.flavor_names = flavor_names_.names;
  m.gpu_model_names = model_names_.names;
  m.rows = std::move(rows_);
  for (IntervalRow& row : m.rows) {
    // Queues and labels first seen later.
    row.pending_by_queue.resize(m.queue_names.size(), 0);
    row.allocated_pct_by_flavor.resize(m.flavor_names.size(), kNaN);
    row.allocated_pct_by_gpu_model.resize(m.gpu_model_names.size(), kNaN);
  }
  auto utilisation = [&](const NameTable& names, std::vector<LabelState>& states) {
    std::map<std::string, LabelUtilisation> by_name;
    for (size_t i = 0; i < states.size(); ++i) {
      IntegrateLabel(states[i], end_ms);
      LabelUtilisation u;
      u.name = names.names[i];
      u.gpu_hours_available = states[i].total_area / kMilliMsPerGpuHour;
      u.gpu_hours_allocated = states[i].alloc_area / kMilliMsPerGpuHour;
      if (states[i].total_area > 0) {
        u.allocated_pct = 100.0 * states[i].alloc_area / states[i].total_area;
      }
      by_name[u.name] = std::move(u);
    }
    std::vector<LabelUtilisation> out;
    out.reserve(by_name.size());
    for (auto& [name, u] : by_name) {
      out.push_back(std::move(u));
    }
    return out;
  };
  m.by_flavor = utilisation(flavor_names_, flavors_);
  m.by_gpu_model = utilisation(model_names_, models_);

  m.gpu_allocation_pct = run_total_area_ > 0 ? 100.0 * run_alloc_area_ / run_total_area_ : 0.0;
  if (frag_seen_) {
    m.frag_pct = run_total_area_ > 0 ? 100.0 * run_frag_area_ / run_total_area_ : 0.0;
  }
  m.gpu_hours_available = run_total_area_ / kMilliMsPerGpuHour;
  m.gpu_hours_allocated = run_alloc_area_ / kMilliMsPerGpuHour;

  // Waits and JCTs, overall and per queue / class (ordered by name through std::map).
  std::vector<std::vector<double>> wait_by_queue(queue_names_.names.size());
  std::vector<std::vector<double>> jct_by_queue(queue_names_.names.size());
  std::vector<std::vector<double>> wait_by_class(class_names_.names.size());
  std::vector<std::vector<double>> jct_by_class(class_names_.names.size());
  m.jobs_submitted = static_cast<int64_t>(jobs_.size());
  for (const JobState& job : jobs_) {
    if (job.first_start_ms >= 0) {
      ++m.jobs_started;
      const double wait = Seconds(job.first_start_ms - job.submit_ms);
      m.wait_samples_s.push_back(wait);
      wait_by_queue[job.queue].push_back(wait);
      wait_by_class[job.job_class].push_back(wait);
    }
    switch (job.status) {
      case JobStatus::kFinished: {
        ++m.jobs_finished;
        const double jct = Seconds(job.end_ms - job.submit_ms);
        m.jct_samples_s.push_back(jct);
        jct_by_queue[job.queue].push_back(jct);
        jct_by_class[job.job_class].push_back(jct);
        break;
      }
      case JobStatus::kFailed:
        ++m.jobs_failed;
        break;
      case JobStatus::kCancelled:
        ++m.jobs_cancelled;
        break;
      case JobStatus::kRunning:
        ++m.jobs_running_at_end;
        break;
      case JobStatus::kPending:
        ++m.jobs_pending_at_end;
        break;
    }
    if (job.first_start_ms < 0 && job.status != JobStatus::kCancelled) {
      ++m.jobs_never_started;
    }
    if (job.failed_at_ms >= 0) {
      ++m.jobs_not_recovered;
    }
  }
  std::sort(m.wait_samples_s.begin(), m.wait_samples_s.end());
  std::sort(m.jct_samples_s.begin(), m.jct_samples_s.end());
  m.wait_s = SummarizeSorted(m.wait_samples_s);
  m.jct_s = SummarizeSorted(m.jct_samples_s);
  auto groups = [](const std::vector<std::string>& names, std::vector<std::vector<double>>& waits,
                   std::vector<std::vector<double>>& jcts) {
    std::map<std::string, GroupStats> by_name;
    for (size_t i = 0; i < names.size(); ++i) {
      by_name[names[i]] =
          GroupStats{names[i], Summarize(std::move(waits[i])), Summarize(std::move(jcts[i]))};
    }
    std::vector<GroupStats> out;
    out.reserve(by_name.size());
    for (auto& [name, stats] : by_name) {
      out.push_back(std::move(stats));
    }
    return out;
  };
  m.by_queue = groups(queue_names_.names, wait_by_queue, jct_by_queue);
  m.by_class = groups(class_names_.names, wait_by_class, jct_by_class);
  if (!jobs_.empty() && last_exit_ms_ >= 0) {
    m.makespan_ms = last_exit_ms_ - jobs_.front().submit_ms;
  }

  m.preemptions = preemptions_;
  m.preemption_gpu_hours_lost = preempted_milli_ms_ / kMilliMsPerGpuHour;
  m.failures = failures_;
  m.failure_gpu_hours_lost = failed_milli_ms_ / kMilliMsPerGpuHour;
  m.recovery_s = Summarize(std::move(recovery_s_));
  std::vector<double> failure_recovery;
  m.failure_events.reserve(failure_events_.size());
  for (FailureState& f : failure_events_) {
    FailureRecord& r = m.failure_events.emplace_back();
    r.t_ms = f.t_ms;
    r.what = std::move(f.what);
    r.jobs_hit = f.jobs_hit;
    r.gpu_hours_lost = f.milli_ms_lost / kMilliMsPerGpuHour;
    if (f.jobs_hit == 0) {
      r.recovered_after_s = 0.0;  // nothing to recover; not in the distribution
    } else if (f.outstanding == 0 && !f.lost_for_good) {
      r.recovered_after_s = Seconds(f.recovered_ms - f.t_ms);
      failure_recovery.push_back(*r.recovered_after_s);
    } else {
      ++m.failure_events_not_recovered;
    }
  }
  m.failure_recovery_s = Summarize(std::move(failure_recovery));

  // Tenants: close each usage integral at the end, then divide by the capacity integrals.
  std::map<std::string, TenantShare> shares;
  bool all_entitled = !tenants_.empty();
  for (size_t i = 0; i < tenants_.size(); ++i) {
    TenantState& t = tenants_[i];
    const auto dt = static_cast<double>(end_ms - t.since_ms);
    t.gpu_area += static_cast<double>(t.gpu_milli) * dt;
    t.cpu_area += static_cast<double>(t.cpu_milli) * dt;
    t.memory_area += static_cast<double>(t.memory_bytes) * dt;
    TenantShare s;
    s.tenant = tenant_names_.names[i];
    s.entitlement = t.entitlement;
    s.jobs = t.jobs;
    s.gpu_hours = t.gpu_area / kMilliMsPerGpuHour;
    if (run_total_area_ > 0) {
      s.gpu_share = t.gpu_area / run_total_area_;
      s.dominant_share = s.gpu_share;
    }
    if (run_cpu_area_ > 0) {
      s.cpu_share = t.cpu_area / run_cpu_area_;
      s.dominant_share = std::max(s.dominant_share, s.cpu_share);
    }
    if (run_memory_area_ > 0) {
      s.memory_share = t.memory_area / run_memory_area_;
      s.dominant_share = std::max(s.dominant_share, s.memory_share);
    }
    all_entitled = all_entitled && t.entitlement > 0;
    shares[s.tenant] = std::move(s);
  }
  std::vector<double> x;
  for (auto& [name, share] : shares) {
    x.push_back(all_entitled ? share.dominant_share / share.entitlement : share.dominant_share);
    m.tenants.push_back(std::move(share));
  }
  m.jain_index = JainIndex(x);
  m.jain_by_entitlement = all_entitled;
  return m;
}

}  // namespace berth::sim
