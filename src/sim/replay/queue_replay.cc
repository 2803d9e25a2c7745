#include "sim/replay/queue_replay.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <variant>

#include "engine/cluster_sim.h"
#include "engine/invariants.h"
#include "gpu/gpu_inventory.h"
#include "sim/core/event_loop.h"
#include "sim/core/metrics_recorder.h"

namespace berth::sim {
namespace {

constexpr std::string_view kGpuProductLabel = gpu::kLabelGpuProduct;

int64_t FloorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

std::string DefaultClass(int32_t gpus, int32_t max_gpus_per_pod) {
  if (gpus <= 1) return "1-gpu";
  if (gpus <= max_gpus_per_pod) return "2-" + std::to_string(max_gpus_per_pod) + "-gpu";
  return "multi-node";
}

// The GPUs a ClusterQueue is nominally given: its `gpu` quota summed over flavors.
int64_t NominalGpus(const model::ClusterQueue& cq, model::ResourceId gpu) {
  int64_t gpus = 0;
  for (const model::ResourceGroup& g : cq.resource_groups) {
    for (const model::FlavorQuotas& f : g.flavors) {
      for (const model::ResourceQuota& r : f.resources) {
        if (r.resource == gpu) gpus += r.nominal;
      }
    }
  }
  return gpus;
}

// One replay: the world snapshot, the engine's stages over it, the event loop and metrics.
class Replay {
 public:
  Replay(const QueuedTrace& trace, const QueueReplayOptions& options, core::Diagnostics& diags)
      : trace_(trace), options_(options), diags_(diags) {}

  core::Status Prepare(const model::Snapshot& fleet);
  core::Result<QueueReplayResult> Run();
  // The first invariant a step broke (with options_.check_invariants); empty when none.
  const std::string& violation() const { return violation_; }

 private:
  // The latest time this run may reach: kMaxMetricsIntervals intervals, at most kMaxTimeMs.
  int64_t HorizonMs() const {
    return options_.metrics_interval_ms > kMaxTimeMs / kMaxMetricsIntervals
               ? kMaxTimeMs
               : options_.metrics_interval_ms * kMaxMetricsIntervals;
  }

  struct Job {
    int32_t wl = -1;
    JobIndex metrics;
    int32_t attempt = 0;
    int32_t requeues = 0;  // failures that requeued it (Kueue's backoff count)
    int64_t evicted_ms = 0;  // when the last failure evicted it (its requeue timestamp)
    bool submitted = false;
    bool running = false;
    bool waiting = false;  // admitted (holds quota), its pods not bound yet
    int64_t admitted_seq = 0;
    bool gone = false;  // failed for good
    EventHandle completion;
    int64_t gpu_milli = 0;
    std::string flavor, gpu_model;
  };
  struct Pool {
    std::string flavor, gpu_model;
    int64_t gpu_milli = 0;
  };

  core::Status CheckQueues() const;
  // Each tenant's entitled share of the cluster's GPUs: its ClusterQueue's nominal GPU quota
  // over all the cluster's ClusterQueues', split evenly among the tenants submitting there.
  std::vector<std::pair<std::string, double>> Entitlements() const;
  std::string TenantOf(size_t j) const;
  void BuildPools();
  void Handle(const Event& event);
  void Arrive(int32_t j);
  void Complete(int32_t j, int32_t attempt);
  void ApplyChanges(const std::vector<engine::SimChange>& changes, int32_t cycles);
  // Binds the pods of admitted jobs waiting for nodes, in admission order (kube-scheduler's
  // queue with gangs): all of them after capacity came free, else only the new ones. A gang
  // shape that failed is not tried again in the same pass.
  void StartWaiting();
  void Start(int32_t j);
  void Stop(int32_t j);  // the job's attempt ends: pods, capacity and completion event
  // Fails the running jobs with pods on `nodes` (requeued per Kueue's backoff).
  void FailJobsOn(const std::vector<int32_t>& nodes, const std::string& what, bool gpu_only);
  void SetNodeService(int32_t node, bool in_service);
  void DrainWave(int32_t action);
  void RecordCapacity();
  int64_t NodeGpuMilli(int32_t node) const;
  int32_t JobOf(int32_t wl) const { return wl - first_wl_; }

  const QueuedTrace& trace_;
  const QueueReplayOptions& options_;
  core::Diagnostics& diags_;
  model::Snapshot world_;
  int32_t first_wl_ = 0;
  model::ResourceId gpu_;
  std::vector<Job> jobs_;
  std::vector<ResolvedAction> actions_;
  std::vector<int32_t> cluster_nodes_;
  std::unique_ptr<engine::ClusterSim> cluster_;
  std::unique_ptr<engine::SimStepChecker> checker_;  // with options_.check_invariants
  std::string violation_;
  std::unique_ptr<MetricsRecorder> metrics_;
  EventLoop loop_;
  QueueReplayStats stats_;
  // Capacity: GPUs per node (milli), nodes out of service, pools per (flavor, model).
  std::vector<int64_t> node_gpu_milli_;
  std::vector<int32_t> node_pool_;
  std::vector<uint8_t> out_of_service_;   // by node: failed, drained or standby
  std::vector<int32_t> gpus_lost_;        // by node: GPUs failed
  std::vector<Pool> pools_;
  int64_t quota_gpu_milli_ = 0;  // without nodes: the cluster's nominal GPU quota
  int64_t allocated_gpu_milli_ = 0;
  std::map<int32_t, FailureIndex> failure_of_action_;
  std::set<int32_t> draining_;  // actions whose drain waves are still evicting
  // Admitted jobs whose pods wait for nodes, by admission order; the newly admitted ones;
  // whether capacity came free since the last pass.
  std::map<int64_t, int32_t> waiting_;
  std::vector<int32_t> newly_admitted_;
  int64_t admitted_seq_ = 0;
  bool freed_ = false;
};

core::Status Replay::CheckQueues() const {
  std::set<std::pair<std::string, std::string>> local;
  for (const model::LocalQueue& lq : world_.local_queues) {
    if (lq.cluster != options_.shape.cluster) continue;
    local.insert({lq.meta.namespace_, lq.meta.name});
  }
  for (const QueueRef& q : trace_.queues) {
    if (local.count({q.namespace_name, q.local_queue}) == 0) {
      return core::InvalidArgument("the trace's jobs go to LocalQueue " + q.ToString() +
                                   ", which the fleet's cluster \"" + options_.shape.cluster +
                                   "\" does not have (check --tenant-queues)");
    }
  }
  return core::Status();
}

core::Status Replay::Prepare(const model::Snapshot& fleet) {
  // The options come from flags and scenario files the caller parsed; times outside
  // (0, kMaxTimeMs] would stall the loop (a zero interval ticks forever at one instant) or
  // overflow the cycle arithmetic below.
  if (options_.metrics_interval_ms <= 0 || options_.metrics_interval_ms > kMaxTimeMs) {
    return core::InvalidArgument("the metrics interval must be positive and at most " +
                                 std::to_string(kMaxTimeMs / 1000) + "s, not " +
                                 std::to_string(options_.metrics_interval_ms) + "ms");
  }
  if (options_.cycle_interval_ms < 0 || options_.cycle_interval_ms > kMaxTimeMs) {
    return core::InvalidArgument("the cycle interval must be between 0 and " +
                                 std::to_string(kMaxTimeMs / 1000) + "s, not " +
                                 std::to_string(options_.cycle_interval_ms) + "ms");
  }
  if (options_.until_ms < 0) {
    return core::InvalidArgument("the end time must not be negative, not " +
                                 std::to_string(options_.until_ms) + "ms");
  }
  if (options_.until_ms > HorizonMs()) {
    return core::InvalidArgument(
        "the end time " + std::to_string(options_.until_ms / 1000) + "s is more than " +
        std::to_string(kMaxMetricsIntervals) + " metrics intervals of " +
        std::to_string(options_.metrics_interval_ms / 1000) +
        "s: give a longer metrics interval (--interval, spec.metricsInterval) or an earlier end (--until)");
  }
  world_ = fleet;
  for (size_t n = 0; n < world_.nodes.size(); ++n) {
    if (world_.nodes[n].cluster == options_.shape.cluster) {
      cluster_nodes_.push_back(static_cast<int32_t>(n));
    }
  }
  if (core::Status s = CheckQueues(); !s.ok()) return s;
  auto resolved = ResolveActions(options_.actions, world_, options_.shape.cluster);
  if (!resolved) return resolved.error();
  actions_ = std::move(*resolved);
  auto first = AddJobWorkloads(trace_, options_.shape, &world_);
  if (!first) return first.error();
  first_wl_ = *first;
  gpu_ = world_.resources.Intern(options_.shape.gpu_resource);
  jobs_.resize(trace_.jobs.size());
  for (size_t j = 0; j < jobs_.size(); ++j) {
    jobs_[j].wl = first_wl_ + static_cast<int32_t>(j);
    const PodSplit split = SplitJob(trace_.jobs[j].job.gpus, options_.shape.max_gpus_per_pod);
    jobs_[j].gpu_milli = int64_t{1000} * split.count * split.gpus_per_pod;
  }
  if (options_.workload_pods_for_scoring) {
    world_.pods.reserve(world_.pods.size() + trace_.jobs.size());
    for (size_t j = 0; j < trace_.jobs.size(); ++j) {
      const model::Workload& w = world_.kueue_workloads[static_cast<size_t>(first_wl_) + j];
      model::Pod pod = w.pod_sets.front().pod_template;
      pod.meta.name = w.meta.name + "-sample";
      pod.meta.namespace_ = w.meta.namespace_;
      world_.pods.push_back(std::move(pod));
    }
  }
  cluster_ = std::make_unique<engine::ClusterSim>(world_, options_.shape.cluster,
                                                  options_.scheduler_config, diags_);
  if (options_.check_invariants) checker_ = std::make_unique<engine::SimStepChecker>(*cluster_);
  BuildPools();
  return core::Status();
}

int64_t Replay::NodeGpuMilli(int32_t node) const {
  const int64_t gpus = world_.nodes[static_cast<size_t>(node)].allocatable.Get(gpu_);
  return 1000 * std::max<int64_t>(0, gpus - gpus_lost_[static_cast<size_t>(node)]);
}

std::string Replay::TenantOf(size_t j) const {
  const QueuedJob& q = trace_.jobs[j];
  return q.job.tenant.empty() ? trace_.queues[static_cast<size_t>(q.queue)].ToString()
                              : q.job.tenant;
}

std::vector<std::pair<std::string, double>> Replay::Entitlements() const {
  std::map<std::string, int64_t> nominal;  // ClusterQueue -> nominal GPUs
  int64_t total = 0;
  for (const model::ClusterQueue& cq : world_.cluster_queues) {
    if (cq.cluster != options_.shape.cluster) continue;
    const int64_t gpus = NominalGpus(cq, gpu_);
    nominal[cq.meta.name] = gpus;
    total += gpus;
  }
  if (total <= 0) return {};
  std::map<std::pair<std::string, std::string>, std::string> cq_of_lq;
  for (const model::LocalQueue& lq : world_.local_queues) {
    if (lq.cluster == options_.shape.cluster) {
      cq_of_lq[{lq.meta.namespace_, lq.meta.name}] = lq.cluster_queue;
    }
  }
  std::map<std::string, std::set<std::string>> tenants_of_cq;
  std::map<std::string, std::string> cq_of_tenant;
  for (size_t j = 0; j < trace_.jobs.size(); ++j) {
    const QueueRef& q = trace_.queues[static_cast<size_t>(trace_.jobs[j].queue)];
    auto it = cq_of_lq.find({q.namespace_name, q.local_queue});
    if (it == cq_of_lq.end()) continue;
    const std::string tenant = TenantOf(j);
    if (cq_of_tenant.emplace(tenant, it->second).second) tenants_of_cq[it->second].insert(tenant);
  }
  std::vector<std::pair<std::string, double>> out;
  for (const auto& [tenant, cq] : cq_of_tenant) {
    const double share = static_cast<double>(nominal[cq]) / static_cast<double>(total);
    out.push_back({tenant, share / static_cast<double>(tenants_of_cq[cq].size())});
  }
  return out;
}

void Replay::BuildPools() {
  node_gpu_milli_.assign(world_.nodes.size(), 0);
  node_pool_.assign(world_.nodes.size(), -1);
  out_of_service_.assign(world_.nodes.size(), 0);
  gpus_lost_.assign(world_.nodes.size(), 0);
  std::map<std::pair<std::string, std::string>, int32_t> by_labels;
  for (int32_t n : cluster_nodes_) {
    const model::Node& node = world_.nodes[static_cast<size_t>(n)];
    // The node's flavor: the first ResourceFlavor of the cluster whose nodeLabels it has.
    std::string flavor;
    for (const model::ResourceFlavor& f : world_.resource_flavors) {
      if (f.cluster != options_.shape.cluster || f.node_labels.empty()) continue;
      const bool matches = std::all_of(f.node_labels.begin(), f.node_labels.end(),
                                       [&](const auto& kv) {
                                         auto it = node.meta.labels.find(kv.first);
                                         return it != node.meta.labels.end() &&
                                                it->second == kv.second;
                                       });
      if (matches) {
        flavor = f.meta.name;
        break;
      }
    }
    auto model_it = node.meta.labels.find(kGpuProductLabel);
    const std::string model = model_it == node.meta.labels.end() ? "" : model_it->second;
    auto [it, added] = by_labels.emplace(std::make_pair(flavor, model),
                                         static_cast<int32_t>(pools_.size()));
    if (added) pools_.push_back({flavor, model, 0});
    node_pool_[static_cast<size_t>(n)] = it->second;
    auto standby = node.meta.labels.find(kStandbyLabel);
    if (standby != node.meta.labels.end() && standby->second == "true") {
      SetNodeService(n, false);
    }
  }
  if (cluster_nodes_.empty()) {
    // Quota only: the GPUs the cluster's ClusterQueues and Cohorts are nominally given.
    for (const model::ClusterQueue& cq : world_.cluster_queues) {
      if (cq.cluster != options_.shape.cluster) continue;
      quota_gpu_milli_ += 1000 * NominalGpus(cq, gpu_);
    }
  }
}

void Replay::SetNodeService(int32_t node, bool in_service) {
  const size_t n = static_cast<size_t>(node);
  if (!in_service) {
    if (out_of_service_[n]++ == 0) cluster_->binder().Fill(node);
  } else if (out_of_service_[n] > 0 && --out_of_service_[n] == 0) {
    cluster_->binder().Unfill(node);
    freed_ = true;
  }
}

void Replay::RecordCapacity() {
  int64_t total = 0;
  if (cluster_nodes_.empty()) {
    total = quota_gpu_milli_;
  } else {
    for (Pool& p : pools_) p.gpu_milli = 0;
    for (int32_t n : cluster_nodes_) {
      if (out_of_service_[static_cast<size_t>(n)] != 0) continue;
      const int64_t g = NodeGpuMilli(n);
      total += g;
      pools_[static_cast<size_t>(node_pool_[static_cast<size_t>(n)])].gpu_milli += g;
    }
    for (const Pool& p : pools_) {
      metrics_->RecordPoolCapacity(loop_.now_ms(), {p.flavor, p.gpu_model}, p.gpu_milli);
    }
  }
  CapacitySample sample;
  sample.allocated_gpu_milli = allocated_gpu_milli_;
  sample.total_gpu_milli = total;
  metrics_->RecordCapacity(loop_.now_ms(), sample);
}

void Replay::Arrive(int32_t j) {
  Job& job = jobs_[static_cast<size_t>(j)];
  if (job.gone) return;
  if (!job.submitted) {
    job.submitted = true;
    const TraceJob& t = trace_.jobs[static_cast<size_t>(j)].job;
    const QueueRef& q = trace_.queues[static_cast<size_t>(trace_.jobs[static_cast<size_t>(j)].queue)];
    const std::string& cls = options_.job_classes.empty()
                                 ? std::string()
                                 : options_.job_classes[static_cast<size_t>(j)];
    const std::string fallback =
        cls.empty() ? DefaultClass(t.gpus, options_.shape.max_gpus_per_pod) : std::string();
    const std::string tenant = TenantOf(static_cast<size_t>(j));
    JobInfo info;
    info.tenant = tenant;
    const std::string queue = q.ToString();
    info.queue = queue;
    info.job_class = cls.empty() ? std::string_view(fallback) : std::string_view(cls);
    info.gpu_milli = job.gpu_milli;
    info.cpu_milli = t.cpu_milli;
    info.memory_bytes = t.memory_bytes;
    job.metrics = metrics_->RecordSubmitted(loop_.now_ms(), info);
    cluster_->Submit(job.wl);
    return;
  }
  // Back from a failure's backoff: Kueue requeues it ordered by its eviction time
  // (waitForPodsReady requeuingTimestamp: Eviction), not by when the backoff ended.
  core::Timestamp at;
  at.unix_s = options_.shape.start_unix_s + FloorDiv(job.evicted_ms, 1000);
  cluster_->Submit(job.wl, at);
}

void Replay::Stop(int32_t j) {
  Job& job = jobs_[static_cast<size_t>(j)];
  if (job.waiting) {
    waiting_.erase(job.admitted_seq);
    job.waiting = false;
    return;
  }
  job.running = false;
  loop_.Cancel(job.completion);
  allocated_gpu_milli_ -= job.gpu_milli;
  if (cluster_->has_nodes()) {
    cluster_->binder().Release(job.wl);
    freed_ = true;
  }
}

void Replay::Start(int32_t j) {
  Job& job = jobs_[static_cast<size_t>(j)];
  job.running = true;
  ++job.attempt;
  const std::optional<model::Admission>& admission = cluster_->admission(job.wl);
  job.flavor.clear();
  if (admission && !admission->pod_set_assignments.empty()) {
    const auto& flavors = admission->pod_set_assignments.front().flavors;
    auto it = flavors.find(options_.shape.gpu_resource);
    if (it == flavors.end() && !flavors.empty()) it = flavors.begin();
    if (it != flavors.end()) job.flavor = it->second;
  }
  job.gpu_model.clear();
  if (!cluster_->binder().NodesOf(job.wl).empty()) {
    const int32_t node = cluster_->binder().NodesOf(job.wl).front();
    const auto& labels = world_.nodes[static_cast<size_t>(node)].meta.labels;
    auto it = labels.find(kGpuProductLabel);
    if (it != labels.end()) job.gpu_model = it->second;
  }
  metrics_->RecordStarted(loop_.now_ms(), job.metrics, {job.flavor, job.gpu_model});
  allocated_gpu_milli_ += job.gpu_milli;
  const int64_t run_ms = SecondsToMs(trace_.jobs[static_cast<size_t>(j)].job.duration_s);
  job.completion = loop_.ScheduleAfter(run_ms, CompletionEvent{JobIndex{j}, job.attempt});
}

void Replay::StartWaiting() {
  if (waiting_.empty() || (!freed_ && newly_admitted_.empty())) {
    newly_admitted_.clear();
    return;
  }
  std::vector<int32_t> order;
  if (freed_) {
    for (const auto& [seq, j] : waiting_) order.push_back(j);
  } else {
    order = newly_admitted_;
  }
  freed_ = false;
  newly_admitted_.clear();
  std::set<std::string> failed_shapes;
  // What binding could place at best in this pass (free GPUs only shrink during it): a gang
  // that asks for more is not tried.
  const engine::GuestBinder::FreeSummary free = cluster_->binder().Free(gpu_);
  for (int32_t j : order) {
    Job& job = jobs_[static_cast<size_t>(j)];
    if (!job.waiting) continue;
    const std::optional<model::Admission>& admission = cluster_->admission(job.wl);
    if (!admission) continue;
    const TraceJob& t = trace_.jobs[static_cast<size_t>(j)].job;
    const PodSplit split = SplitJob(t.gpus, options_.shape.max_gpus_per_pod);
    if (split.gpus_per_pod > free.max_node || int64_t{split.count} * split.gpus_per_pod > free.total) {
      continue;
    }
    std::string shape = std::to_string(t.gpus) + '/' + std::to_string(t.cpu_milli) + '/' +
                        std::to_string(t.memory_bytes);
    for (const auto& a : admission->pod_set_assignments) {
      for (const auto& [r, f] : a.flavors) shape += '/' + f;
    }
    if (failed_shapes.count(shape) != 0) continue;
    if (!cluster_->Bind(job.wl)) {
      failed_shapes.insert(std::move(shape));
      continue;
    }
    waiting_.erase(job.admitted_seq);
    job.waiting = false;
    Start(j);
  }
}

void Replay::Complete(int32_t j, int32_t attempt) {
  Job& job = jobs_[static_cast<size_t>(j)];
  if (!job.running || job.attempt != attempt) return;
  Stop(j);
  cluster_->Finish(job.wl);
  metrics_->RecordFinished(loop_.now_ms(), job.metrics);
}

void Replay::ApplyChanges(const std::vector<engine::SimChange>& changes, int32_t cycles) {
  stats_.cycles += cycles;
  for (const engine::SimChange& change : changes) {
    const int32_t j = JobOf(change.workload);
    if (j < 0) continue;
    Job& job = jobs_[static_cast<size_t>(j)];
    if (!change.admitted) {
      const bool was_running = job.running;
      Stop(j);
      if (was_running) {
        metrics_->RecordPreempted(loop_.now_ms(), job.metrics);
        ++stats_.preemptions;
      }
      continue;
    }
    ++stats_.admissions;
    if (!cluster_->has_nodes()) {
      Start(j);  // quota only: admitted is running
      continue;
    }
    job.waiting = true;
    job.admitted_seq = ++admitted_seq_;
    waiting_[job.admitted_seq] = j;
    newly_admitted_.push_back(j);
  }
  if (cluster_->has_nodes()) StartWaiting();
}

void Replay::FailJobsOn(const std::vector<int32_t>& nodes, const std::string& what,
                        bool gpu_only) {
  std::set<int32_t> hit;
  for (int32_t n : nodes) {
    for (int32_t wl : cluster_->binder().WorkloadsOn(n)) hit.insert(wl);
  }
  const FailureIndex cause = metrics_->RecordFailureEvent(loop_.now_ms(), what);
  const model::KueueConfig* config = world_.kueue_config ? &*world_.kueue_config : nullptr;
  const model::WaitForPodsReadyConfig backoff =
      config && config->wait_for_pods_ready ? *config->wait_for_pods_ready
                                            : model::WaitForPodsReadyConfig{};
  for (int32_t wl : hit) {
    const int32_t j = JobOf(wl);
    if (j < 0) continue;
    Job& job = jobs_[static_cast<size_t>(j)];
    if (!job.running || (gpu_only && job.gpu_milli == 0)) continue;
    Stop(j);
    cluster_->Finish(wl);
    ++stats_.failures;
    ++job.requeues;
    job.evicted_ms = loop_.now_ms();
    // Kueue's requeuing backoff: base × 2^(n-1), capped, until backoffLimitCount.
    const bool requeued =
        !backoff.backoff_limit_count || job.requeues <= *backoff.backoff_limit_count;
    metrics_->RecordFailed(loop_.now_ms(), job.metrics, requeued, cause);
    if (!requeued) {
      job.gone = true;
      continue;
    }
    int64_t delay_s = backoff.backoff_base_s;
    for (int32_t k = 1; k < job.requeues && delay_s < backoff.backoff_max_s; ++k) delay_s *= 2;
    delay_s = std::min(delay_s, backoff.backoff_max_s);
    loop_.ScheduleAfter(SecondsToMs(delay_s), ArrivalEvent{JobIndex{j}});
  }
}

void Replay::DrainWave(int32_t a) {
  const ResolvedAction& r = actions_[static_cast<size_t>(a)];
  if (draining_.count(a) == 0) return;
  std::vector<int32_t> running;
  std::set<int32_t> seen;
  for (int32_t n : r.nodes) {
    for (int32_t wl : cluster_->binder().WorkloadsOn(n)) {
      if (seen.insert(wl).second) running.push_back(wl);
    }
  }
  if (running.empty()) {
    // Empty: the pool leaves service (its capacity with it) until the uncordon; the service
    // fill takes over from the cordon.
    for (int32_t n : r.nodes) {
      SetNodeService(n, false);
      cluster_->binder().Unfill(n);
    }
    draining_.erase(a);
    return;
  }
  if (r.action.max_unavailable > 0) {
    const size_t wave = std::min(running.size(), static_cast<size_t>(r.action.max_unavailable));
    const FailureIndex cause = metrics_->RecordFailureEvent(
        loop_.now_ms(), "drain " + r.action.line + " (evictions)");
    for (size_t i = 0; i < wave; ++i) {
      const int32_t wl = running[i];
      const int32_t j = JobOf(wl);
      if (j < 0 || !jobs_[static_cast<size_t>(j)].running) continue;
      Stop(j);
      cluster_->Finish(wl);
      // An eviction is not the job's failure: it is requeued at once (no backoff).
      metrics_->RecordFailed(loop_.now_ms(), jobs_[static_cast<size_t>(j)].metrics, true, cause);
      ++stats_.failures;
      cluster_->Submit(wl);
    }
  }
  loop_.ScheduleAfter(r.action.wave_interval_ms, DrainEvent{PoolIndex{a}});
}

void Replay::Handle(const Event& event) {
  std::visit(
      [&](const auto& e) {
        using E = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<E, ArrivalEvent>) {
          Arrive(e.job.v);
        } else if constexpr (std::is_same_v<E, CompletionEvent>) {
          Complete(e.job.v, e.attempt);
        } else if constexpr (std::is_same_v<E, NodeFailureEvent>) {
          // node = the action; every node of it goes down together.
          const ResolvedAction& r = actions_[static_cast<size_t>(e.node.v)];
          FailJobsOn(r.nodes, std::string(ActionKindName(r.action.kind)) + " " + r.action.line,
                     false);
          for (int32_t n : r.nodes) SetNodeService(n, false);
          if (r.action.recover_after_ms > 0) {
            loop_.ScheduleAfter(r.action.recover_after_ms, NodeRecoveryEvent{e.node});
          }
        } else if constexpr (std::is_same_v<E, NodeRecoveryEvent>) {
          for (int32_t n : actions_[static_cast<size_t>(e.node.v)].nodes) SetNodeService(n, true);
        } else if constexpr (std::is_same_v<E, GpuFailureEvent>) {
          const ResolvedAction& r = actions_[static_cast<size_t>(e.node.v)];
          FailJobsOn(r.nodes, std::string("GPU failure ") + r.action.line, true);
          for (int32_t n : r.nodes) {
            // The binding model has no GPU identity: the failed GPUs are held by a blocker
            // pod (the node's GPU jobs failed first, so they are free).
            gpus_lost_[static_cast<size_t>(n)] += r.action.gpus;
            cluster_->binder().FillGpus(n, r.action.gpus, gpu_);
          }
          if (r.action.recover_after_ms > 0) {
            loop_.ScheduleAfter(r.action.recover_after_ms, GpuRecoveryEvent{e.node, r.action.gpus});
          }
        } else if constexpr (std::is_same_v<E, GpuRecoveryEvent>) {
          for (int32_t n : actions_[static_cast<size_t>(e.node.v)].nodes) {
            gpus_lost_[static_cast<size_t>(n)] -= e.gpu;
            cluster_->binder().UnfillGpus(n, e.gpu);
          }
          freed_ = true;
        } else if constexpr (std::is_same_v<E, DrainEvent>) {
          const ResolvedAction& r = actions_[static_cast<size_t>(e.pool.v)];
          if (draining_.insert(e.pool.v).second) {
            // First wave: cordon (nothing new lands), schedule the uncordon.
            for (int32_t n : r.nodes) {
              cluster_->binder().Fill(n);
            }
            if (r.action.duration_ms > 0) {
              loop_.ScheduleAfter(r.action.duration_ms, UncordonEvent{e.pool});
            }
          }
          DrainWave(e.pool.v);
        } else if constexpr (std::is_same_v<E, UncordonEvent>) {
          const ResolvedAction& r = actions_[static_cast<size_t>(e.pool.v)];
          const bool emptied = draining_.erase(e.pool.v) == 0;
          for (int32_t n : r.nodes) {
            if (emptied) {
              SetNodeService(n, true);
            } else {
              cluster_->binder().Unfill(n);  // the cordon
            }
          }
          freed_ = true;
        } else if constexpr (std::is_same_v<E, CapacityChangeEvent>) {
          loop_.ScheduleAfter(e.cold_start_ms, CapacityReadyEvent{e.pool, e.delta_nodes});
        } else if constexpr (std::is_same_v<E, CapacityReadyEvent>) {
          const ResolvedAction& r = actions_[static_cast<size_t>(e.pool.v)];
          int32_t added = 0;
          for (int32_t n : r.nodes) {
            if (added == e.delta_nodes) break;
            const auto& labels = world_.nodes[static_cast<size_t>(n)].meta.labels;
            auto standby = labels.find(kStandbyLabel);
            if (standby == labels.end() || standby->second != "true") continue;
            if (out_of_service_[static_cast<size_t>(n)] == 0) continue;
            SetNodeService(n, true);
            ++added;
          }
        }
      },
      event);
}

core::Result<QueueReplayResult> Replay::Run() {
  const auto wall_start = std::chrono::steady_clock::now();
  MetricsOptions mo;
  mo.interval_ms = options_.metrics_interval_ms;
  mo.entitlements = Entitlements();
  metrics_ = std::make_unique<MetricsRecorder>(mo);
  loop_.queue().Reserve(trace_.jobs.size() * 2 + actions_.size() + 16);
  for (size_t j = 0; j < trace_.jobs.size(); ++j) {
    loop_.ScheduleAt(SecondsToMs(trace_.jobs[j].job.submit_s), ArrivalEvent{JobIndex{static_cast<int32_t>(j)}});
  }
  for (size_t a = 0; a < actions_.size(); ++a) {
    const ScenarioAction& act = actions_[a].action;
    const int32_t idx = static_cast<int32_t>(a);
    switch (act.kind) {
      case ActionKind::kNodeFailure:
        loop_.ScheduleAt(act.at_ms, NodeFailureEvent{NodeIndex{idx}});
        break;
      case ActionKind::kGpuFailure:
        loop_.ScheduleAt(act.at_ms, GpuFailureEvent{NodeIndex{idx}, act.gpus});
        break;
      case ActionKind::kDrain:
        loop_.ScheduleAt(act.at_ms, DrainEvent{PoolIndex{idx}});
        break;
      case ActionKind::kScaleUp: {
        const int32_t n = act.count > 0 ? act.count : static_cast<int32_t>(actions_[a].nodes.size());
        loop_.ScheduleAt(act.at_ms, CapacityChangeEvent{PoolIndex{idx}, n, act.cold_start_ms});
        break;
      }
    }
  }
  RecordCapacity();
  const int64_t until = options_.until_ms > 0 ? options_.until_ms : HorizonMs();
  const int64_t span_ms = std::max<int64_t>(1, trace_.jobs.empty() ? 1 : SecondsToMs(trace_.jobs.back().job.submit_s));
  int64_t next_progress_ms = 0;
  int64_t next_cycle_ms = 0;
  EventQueue::Scheduled ev;
  while (loop_.Next(until, &ev)) {
    ++stats_.events;
    Handle(ev.event);
    const bool batch_done = loop_.queue().empty() || loop_.queue().next_time_ms() != loop_.now_ms();
    if (!batch_done) continue;
    const int64_t now = loop_.now_ms();
    if (options_.cycle_interval_ms > 0) {
      if (now < next_cycle_ms && !loop_.queue().empty()) {
        // Make sure a cycle runs at the next interval boundary even if nothing happens then.
        if (loop_.queue().next_time_ms() > next_cycle_ms) loop_.ScheduleAt(next_cycle_ms, MetricsTickEvent{});
        RecordCapacity();
        continue;
      }
      next_cycle_ms = (now / options_.cycle_interval_ms + 1) * options_.cycle_interval_ms;
    }
    core::Timestamp at;
    at.unix_s = options_.shape.start_unix_s + FloorDiv(now, 1000);
    int32_t cycles = 0;
    std::vector<engine::SimChange> changes = cluster_->Schedule(at, &cycles);
    ApplyChanges(changes, cycles);
    if (checker_) {
      if (std::vector<engine::InvariantViolation> v = checker_->Check(); !v.empty()) {
        violation_ = v.front().ToString() + " (step at " + std::to_string(now) + " ms)";
        break;
      }
    }
    RecordCapacity();
    if (options_.progress && now >= next_progress_ms) {
      options_.progress(std::min(1.0, static_cast<double>(now) / static_cast<double>(span_ms)));
      next_progress_ms = AddMs(now, span_ms / 200 + 1);
    }
  }
  if (options_.until_ms == 0 && !loop_.queue().empty()) {
    return core::OutOfRange(
        "virtual time would pass " + std::to_string(loop_.queue().next_time_ms() / 1000) +
        "s, more than " + std::to_string(kMaxMetricsIntervals) + " metrics intervals of " +
        std::to_string(options_.metrics_interval_ms / 1000) +
        "s: give a longer metrics interval (--interval, spec.metricsInterval) or an earlier end (--until)");
  }
  int64_t end_ms = loop_.now_ms();
  if (options_.until_ms > 0) {
    loop_.AdvanceTo(std::max(loop_.now_ms(), options_.until_ms));
    end_ms = loop_.now_ms();
  }
  for (const Job& job : jobs_) {
    if (job.submitted && !job.running && !job.gone && job.attempt == 0) ++stats_.never_admitted;
  }
  QueueReplayResult out;
  out.report.policy = options_.policy;
  out.report.trace = trace_.name;
  out.report.metrics = metrics_->Finish(end_ms);
  out.report.extra_metrics.push_back({"events", static_cast<double>(stats_.events)});
  out.report.extra_metrics.push_back({"admission_cycles", static_cast<double>(stats_.cycles)});
  out.report.extra_metrics.push_back({"never_admitted", static_cast<double>(stats_.never_admitted)});
  stats_.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  out.stats = stats_;
  if (options_.progress) options_.progress(1.0);
  return out;
}

}  // namespace

core::Result<QueueReplayResult> RunQueueReplay(const model::Snapshot& fleet,
                                               const QueuedTrace& trace,
                                               const QueueReplayOptions& options,
                                               core::Diagnostics& diags) {
  Replay replay(trace, options, diags);
  if (core::Status s = replay.Prepare(fleet); !s.ok()) return s.error();
  core::Result<QueueReplayResult> result = replay.Run();
  // A broken invariant stops the run first; whatever Run made of the cut-short run is moot.
  if (!replay.violation().empty()) return core::Internal(replay.violation());
  return result;
}

}  // namespace berth::sim
