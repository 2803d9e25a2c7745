// Test helpers for sim/replay's RunQueueReplay: a one-cluster fleet (one flavor, one
// ClusterQueue "cq" with LocalQueue ml/lq, 8-GPU nodes), a queued trace built from
// (submit, duration, GPUs) triples with one job class per job, and lookups into RunMetrics.
// Header-only; used by tests/sim/replay_*_test.cc.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "queueing/kueue_builders.h"
#include "sim/replay/queue_replay.h"
#include "support/model_builders.h"

namespace berth::sim::replay_test {

inline constexpr const char* kGpu = "nvidia.com/gpu";

// The fleet: quota of `gpu_quota` GPUs (ample CPU and memory) in ClusterQueue "cq", whose
// preemption is `within`; LocalQueue "lq" in namespace "ml".
class FleetBuilder {
 public:
  explicit FleetBuilder(int64_t gpu_quota,
                        model::PreemptionPolicy within = model::PreemptionPolicy::kNever) {
    k_.Flavor("default");
    k_.Add(testing::CqBuilder("cq")
               .Quota("default", "cpu", 10'000'000)
               .Quota("default", "memory", int64_t{1} << 50)
               .Quota("default", kGpu, gpu_quota)
               .WithinClusterQueue(within));
    k_.LocalQueue("lq", "cq", "ml");
  }
  // An 8-GPU node (64 CPUs, 512 GiB); `standby`: out of service until a ScaleUp.
  FleetBuilder& Node(const std::string& name, bool standby = false, int64_t gpus = 8) {
    testing::NodeBuilder n(name);
    n.Cpu(64'000).Memory(512 * testing::kGi).Gpu(gpus).Label("nvidia.com/gpu.product", "H100");
    if (standby) n.Label("sim.berth.dev/standby", "true");
    k_.snapshot.nodes.push_back(n.Build(k_.snapshot.resources));
    return *this;
  }
  model::Snapshot& snapshot() { return k_.snapshot; }
  model::Snapshot Build() const { return k_.snapshot; }

 private:
  testing::KueueSnapshot k_;
};

struct JobSpec {
  int64_t submit_s = 0;
  int64_t duration_s = 0;
  int32_t gpus = 0;
  int32_t priority = 0;
};

// Jobs in the given order (which must be by submit time), all to ml/lq, 1 CPU and 1 GiB each.
inline QueuedTrace Trace(const std::vector<JobSpec>& jobs, const std::string& queue = "lq") {
  QueuedTrace t;
  t.name = "test-trace";
  t.queues = {{"ml", queue}};
  for (size_t i = 0; i < jobs.size(); ++i) {
    TraceJob j;
    j.id = "j" + std::to_string(i);
    j.submit_s = jobs[i].submit_s;
    j.duration_s = jobs[i].duration_s;
    j.gpus = jobs[i].gpus;
    j.cpu_milli = 1000;
    j.memory_bytes = testing::kGi;
    j.priority = jobs[i].priority;
    j.line = static_cast<int64_t>(i) + 2;
    t.jobs.push_back({j, 0});
  }
  return t;
}

// Options giving job i the class "j<i>", so RunMetrics::by_class has one entry per job.
inline QueueReplayOptions OneClassPerJob(size_t jobs) {
  QueueReplayOptions o;
  for (size_t i = 0; i < jobs; ++i) o.job_classes.push_back("j" + std::to_string(i));
  return o;
}

// The stats of job class `name` (a default GroupStats, and a failure, when missing).
inline GroupStats ClassStats(const RunMetrics& m, const std::string& name) {
  for (const GroupStats& g : m.by_class) {
    if (g.name == name) return g;
  }
  ADD_FAILURE() << "no job class " << name;
  return {};
}

// Wait and JCT of the one job of class `name`, in seconds; -1 when it never started/finished.
inline double WaitOf(const RunMetrics& m, const std::string& name) {
  const GroupStats g = ClassStats(m, name);
  return g.wait_s.count == 0 ? -1 : g.wait_s.mean;
}
inline double JctOf(const RunMetrics& m, const std::string& name) {
  const GroupStats g = ClassStats(m, name);
  return g.jct_s.count == 0 ? -1 : g.jct_s.mean;
}

inline QueueReplayResult MustRun(const model::Snapshot& fleet, const QueuedTrace& trace,
                                 const QueueReplayOptions& options) {
  core::Diagnostics diags;
  auto r = RunQueueReplay(fleet, trace, options, diags);
  EXPECT_TRUE(r.has_value()) << r.error().ToString();
  return r.has_value() ? std::move(*r) : QueueReplayResult{};
}

inline ScenarioAction NodeFailureOf(std::vector<std::string> nodes, int64_t at_s,
                                    int64_t recover_after_s, const std::string& line) {
  ScenarioAction a;
  a.kind = ActionKind::kNodeFailure;
  a.node_names = std::move(nodes);
  a.at_ms = at_s * 1000;
  a.recover_after_ms = recover_after_s * 1000;
  a.line = line;
  return a;
}

inline constexpr double kGpuHour = 3600.0;  // GPU-seconds per GPU-hour

}  // namespace berth::sim::replay_test
