// berth_preemption_bench: kube-scheduler's DefaultPreemption at scale. A cluster of N nodes
// (default 10,000) full of running low-priority pods (default 100,000, ten per node, five
// priorities, a PodDisruptionBudget over a fifth of them) takes a wave of W high-priority
// pods (default 1,000) that only fit by preemption: each is tried (ScheduleOne), preempts
// (Scheduler::Preempt), its victims are unbound and it binds on the nominated node, as a
// settled `berth plan` does. Prints decisions/s and peak RSS after checking the answer: every
// preemptor bound where it was nominated, every victim of strictly lower priority and on
// that node, no more victims than the preemptor needs.
// `berth_preemption_bench [--nodes=N] [--pods-per-node=K] [--wave=W]`.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "model/scheduler_config.h"
#include "model/snapshot.h"
#include "bench_util.h"

namespace berth::bench {
namespace {

constexpr int64_t kNodeCpuMilli = 8000;
constexpr int64_t kNodeMemory = 64LL << 30;
constexpr int64_t kVictimCpuMilli = 800;      // ten fill a node's cpu
constexpr int64_t kPreemptorCpuMilli = 1600;  // needs two victims' room
constexpr int32_t kPreemptorPriority = 1000;

std::string Padded(const char* prefix, int64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%06lld", prefix, static_cast<long long>(i));
  return buf;
}

model::Pod MakePod(std::string name, int64_t cpu_milli, int32_t priority) {
  model::Pod pod;
  pod.meta.name = std::move(name);
  pod.meta.namespace_ = "bench";
  pod.priority = priority;
  model::Container c;
  c.name = "main";
  c.requests.Set(model::kCpu, cpu_milli);
  c.requests.Set(model::kMemory, 1LL << 30);
  pod.containers.push_back(std::move(c));
  return pod;
}

model::Snapshot MakeCluster(int64_t nodes, int64_t per_node, int64_t wave) {
  model::Snapshot snap;
  snap.nodes.reserve(static_cast<size_t>(nodes));
  for (int64_t n = 0; n < nodes; ++n) {
    model::Node node;
    node.meta.name = Padded("node-", n);
    node.meta.labels = {{"kubernetes.io/hostname", node.meta.name}};
    node.allocatable.Set(model::kCpu, kNodeCpuMilli);
    node.allocatable.Set(model::kMemory, kNodeMemory);
    node.allocatable.Set(model::kPods, 110);
    node.capacity = node.allocatable;
    snap.nodes.push_back(std::move(node));
  }
  snap.pods.reserve(static_cast<size_t>(nodes * per_node + wave));
  for (int64_t i = 0; i < nodes * per_node; ++i) {
    model::Pod pod = MakePod(Padded("run-", i), kVictimCpuMilli, static_cast<int32_t>(i % 5) * 10);
    pod.node_name = snap.nodes[static_cast<size_t>(i / per_node)].meta.name;
    pod.phase = model::PodPhase::kRunning;
    pod.start_time = core::Timestamp{1'700'000'000 + i};
    pod.meta.labels = {{"app", i % 5 == 1 ? "guarded" : "batch"}};
    snap.pods.push_back(std::move(pod));
  }
  for (int64_t w = 0; w < wave; ++w) {
    model::Pod pod = MakePod(Padded("urgent-", w), kPreemptorCpuMilli, kPreemptorPriority);
    pod.meta.creation_timestamp = core::Timestamp{1'800'000'000 + w};
    snap.pods.push_back(std::move(pod));
  }
  // A budget over the priority-10 pods that allows no disruption: victims avoid them.
  model::PodDisruptionBudget pdb;
  pdb.meta.name = "guarded";
  pdb.meta.namespace_ = "bench";
  pdb.selector = core::LabelSelector{};
  pdb.selector->match_labels["app"] = "guarded";
  pdb.disruptions_allowed = 0;
  snap.pod_disruption_budgets.push_back(std::move(pdb));
  return snap;
}

int Run(int argc, char** argv) {
  const int64_t nodes = Flag(argc, argv, "--nodes", 10000);
  const int64_t per_node = Flag(argc, argv, "--pods-per-node", 10);
  const int64_t wave = Flag(argc, argv, "--wave", 1000);
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const model::Snapshot snap = MakeCluster(nodes, per_node, wave);
  binding::Scheduler scheduler(snap, model::SchedulerConfig{});
  const std::vector<model::PodIndex> queue = scheduler.QueueOrder();
  const auto t1 = Clock::now();
  int64_t victims = 0;
  int64_t candidates = 0;
  std::string failure;
  for (model::PodIndex pod : queue) {
    model::PodDecision d = scheduler.ScheduleOne(pod);
    if (d.node) {
      failure = snap.pod(pod).meta.name + " fit without preemption";
      break;
    }
    binding::PreemptionOutcome o = scheduler.Preempt(pod);
    if (!o.node) {
      failure = snap.pod(pod).meta.name + " found no preemption: " + o.message;
      break;
    }
    int64_t freed = 0;
    for (model::PodIndex v : o.victims) {
      const model::Pod& victim = snap.pod(v);
      if (victim.priority >= kPreemptorPriority ||
          victim.node_name != snap.node(*o.node).meta.name) {
        failure = victim.meta.name + " is not a valid victim";
        break;
      }
      freed += kVictimCpuMilli;
      scheduler.Unbind(v);
    }
    if (!failure.empty()) break;
    // Minimal: one victim fewer would not have made room.
    if (freed - kVictimCpuMilli >= kPreemptorCpuMilli) {
      failure = snap.pod(pod).meta.name + " preempted more pods than it needs";
      break;
    }
    d = scheduler.ScheduleOnNominated(pod, *o.node);
    if (d.node != o.node) {
      failure = snap.pod(pod).meta.name + " did not bind on its nominated node";
      break;
    }
    victims += static_cast<int64_t>(o.victims.size());
    candidates += o.candidates;
  }
  const auto t2 = Clock::now();
  if (!failure.empty()) {
    std::printf("CHECK FAILED: %s\n", failure.c_str());
    return 1;
  }
  const double setup_s = std::chrono::duration<double>(t1 - t0).count();
  const double wave_s = std::chrono::duration<double>(t2 - t1).count();
  std::printf("cluster:   %lld nodes, %lld running pods, built in %.2f s\n",
              static_cast<long long>(nodes), static_cast<long long>(nodes * per_node), setup_s);
  std::printf(
      "wave:      %zu preemptors in %.3f s = %.0f preemption decisions/s (%lld victims, %.0f "
      "candidate nodes per decision)\n",
      queue.size(), wave_s, static_cast<double>(queue.size()) / wave_s,
      static_cast<long long>(victims),
      queue.empty() ? 0.0 : static_cast<double>(candidates) / static_cast<double>(queue.size()));
  std::printf("peak RSS:  %.0f MiB\n", PeakRssMiB());
  std::printf(
      "check:     every preemptor bound on its nominated node; every victim of lower "
      "priority, on that node, no more victims than it needs\n");
  return 0;
}

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) { return berth::bench::Run(argc, argv); }
