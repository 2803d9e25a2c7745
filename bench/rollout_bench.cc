// berth_rollout_bench: a ManifestWorkReplicaSet rolled out across a fleet, one plan per
// step as the hub runs it (engine::RunPlan, which steps every MWRS after the Placements):
// C clusters (1% labelled rollout=canary), one Placement with a canary decision group and
// the rest in groups of 5%, and an MWRS with ProgressivePerGroup (canary mandatory,
// maxFailures 0) and a health rule. Between steps every work the plan made or changed is
// reported Applied and Available at its generation (what the agents would report) and the
// clock moves a minute. Every run checks its answer: the canary group first, then one group
// per step, until every cluster holds the template and the rollout is Complete, with one
// ControllerRevision. Reports the time of the first step (revision written, canary works
// made), the mean step, and the whole rollout.
// `berth_rollout_bench --scale [--clusters=C]` runs 10,000 clusters once and prints the
// figures of docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/diagnostics.h"
#include "engine/plan.h"
#include "io/reader.h"
#include "model/snapshot.h"

namespace berth::bench {
namespace {

constexpr int64_t kStart = 1'793'000'000;  // 2026-10-26, any fixed time
constexpr int32_t kMaxSteps = 200;

std::string FleetText(int32_t clusters) {
  std::string text;
  text.reserve(static_cast<size_t>(clusters) * 420 + 4096);
  const int32_t canaries = clusters / 100 > 0 ? clusters / 100 : 1;
  for (int32_t c = 0; c < clusters; ++c) {
    text += "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata:\n  name: c-" +
            std::to_string(c) + "\n  labels:\n    cluster.open-cluster-management.io/clusterset: fleet\n";
    if (c < canaries) text += "    rollout: canary\n";
    text +=
        "spec:\n  hubAcceptsClient: true\nstatus:\n  conditions:\n  - {type: ManagedClusterConditionAvailable, "
        "status: 'True', reason: ManagedClusterAvailable, message: ok, lastTransitionTime: '2026-10-01T00:00:00Z'}\n---\n";
  }
  text += R"(apiVersion: v1
kind: Namespace
metadata: {name: serving}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSet
metadata: {name: fleet}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSetBinding
metadata: {name: fleet, namespace: serving}
spec: {clusterSet: fleet}
---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: llm, namespace: serving}
spec:
  clusterSets: [fleet]
  decisionStrategy:
    groupStrategy:
      clustersPerDecisionGroup: 5%
      decisionGroups:
      - groupName: canary
        groupClusterSelector:
          labelSelector:
            matchLabels: {rollout: canary}
---
apiVersion: work.open-cluster-management.io/v1alpha1
kind: ManifestWorkReplicaSet
metadata:
  name: llm-serve
  namespace: serving
  uid: 6f1c2b7e-0000-4000-8000-000000000001
  creationTimestamp: '2026-10-01T00:00:00Z'
  annotations:
    kubernetes.io/change-cause: vllm 0.6.3
    rollout.berth.dev/health: AvailableReplicas >= 1 for 30s
spec:
  placementRefs:
  - name: llm
    rolloutStrategy:
      type: ProgressivePerGroup
      progressivePerGroup:
        mandatoryDecisionGroups:
        - groupName: canary
        minSuccessTime: 30s
        progressDeadline: 10m
        maxFailures: 0
  manifestWorkTemplate:
    workload:
      manifests:
      - apiVersion: apps/v1
        kind: Deployment
        metadata: {name: llm-serve, namespace: serving}
        spec:
          replicas: 2
          selector:
            matchLabels: {app: llm-serve}
          template:
            metadata:
              labels: {app: llm-serve}
            spec:
              containers:
              - name: vllm
                image: vllm/vllm-openai:v0.6.3
    manifestConfigs:
    - resourceIdentifier: {group: apps, resource: deployments, name: llm-serve, namespace: serving}
      feedbackRules:
      - type: WellKnownStatus
)";
  return text;
}

model::Snapshot ReadFleet(int32_t clusters) {
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(FleetText(clusters), "fleet.yaml");
  io::Input input = reader.Finish();
  if (diags.has_errors()) {
    std::fprintf(stderr, "rollout bench: the generated fleet does not read\n");
    std::abort();
  }
  return std::move(input.snapshot);
}

model::Condition Reported(const char* type, int64_t generation, int64_t at) {
  model::Condition c;
  c.type = type;
  c.status = model::ConditionStatus::kTrue;
  c.reason = std::string(type) == "Applied" ? "AppliedManifestWorkComplete" : "ResourcesAvailable";
  c.last_transition_time = core::Timestamp{at};
  c.observed_generation = generation;
  return c;
}

// What the agents report after a step: every work that does not yet say it is Available at
// its generation is applied and available, its Deployment's replicas all available.
void ReportWorks(model::Snapshot& s, int64_t at) {
  for (model::ManifestWork& w : s.manifest_works) {
    if (w.generation <= 0) w.generation = 1;
    bool current = false;
    for (const model::Condition& c : w.conditions) {
      if (c.type == "Available" && c.observed_generation == w.generation) current = true;
    }
    if (current) continue;
    w.conditions = {Reported("Applied", w.generation, at), Reported("Available", w.generation, at)};
    model::ManifestStatus m;
    m.group = "apps";
    m.version = "v1";
    m.kind = "Deployment";
    m.resource = "deployments";
    m.name = "llm-serve";
    m.namespace_ = "serving";
    m.conditions = {Reported("Available", w.generation, at)};
    model::Condition synced = Reported("StatusFeedbackSynced", 0, at);
    synced.reason = "StatusFeedbackSynced";
    m.conditions.push_back(synced);
    m.feedback = {{"AvailableReplicas", "2"}, {"ReadyReplicas", "2"}, {"Replicas", "2"}};
    w.manifest_statuses = {std::move(m)};
  }
}

struct Rollout {
  int32_t steps = 0;
  int32_t canary_works = 0;  // works after the first step
  double first_step_ms = 0;
  double total_ms = 0;
  std::string state;
};

Rollout RollOut(int32_t clusters) {
  model::Snapshot s = ReadFleet(clusters);
  Rollout r;
  int64_t now = kStart;
  const auto begin = std::chrono::steady_clock::now();
  while (r.steps < kMaxSteps) {
    engine::PlanOptions options;
    options.now = core::Timestamp{now};
    const auto t0 = std::chrono::steady_clock::now();
    engine::Plan plan = engine::RunPlan(std::move(s), options);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ++r.steps;
    s = std::move(plan.planned);
    if (r.steps == 1) {
      r.first_step_ms = ms;
      r.canary_works = static_cast<int32_t>(s.manifest_works.size());
    }
    r.state = s.manifest_work_replica_sets.at(0).rollout.state;
    if (r.state == "Complete") break;
    if (r.state != "Progressing") {
      std::fprintf(stderr, "rollout bench: the rollout stopped (%s): %s\n", r.state.c_str(),
                   s.manifest_work_replica_sets[0].rollout.message.c_str());
      std::abort();
    }
    now += 60;
    ReportWorks(s, now);
  }
  r.total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  // The answer: canary first, one work per cluster at the end, one revision, Complete.
  const int32_t canaries = clusters / 100 > 0 ? clusters / 100 : 1;
  if (r.state != "Complete" || r.canary_works != canaries ||
      static_cast<int32_t>(s.manifest_works.size()) != clusters || s.controller_revisions.size() != 1) {
    std::fprintf(stderr,
                 "rollout bench: wrong answer: state %s after %d steps, %d works after the first "
                 "(want %d), %zu works (want %d), %zu revisions\n",
                 r.state.c_str(), r.steps, r.canary_works, canaries, s.manifest_works.size(), clusters,
                 s.controller_revisions.size());
    std::abort();
  }
  return r;
}

void BM_RolloutAcrossClusters(benchmark::State& state) {
  const auto clusters = static_cast<int32_t>(state.range(0));
  Rollout r;
  for (auto _ : state) r = RollOut(clusters);
  state.counters["steps"] = r.steps;
  state.counters["first_step_ms"] = r.first_step_ms;
  state.counters["ms_per_step"] = r.total_ms / r.steps;
}
BENCHMARK(BM_RolloutAcrossClusters)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->Iterations(1);

int Scale(int argc, char** argv) {
  int32_t clusters = 10000;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--clusters=", 11) == 0) clusters = std::atoi(argv[i] + 11);
  }
  const Rollout r = RollOut(clusters);
  std::printf("rollout of one MWRS across %d clusters (ProgressivePerGroup: canary 1%%, groups of 5%%)\n", clusters);
  std::printf("  steps to Complete      %d\n", r.steps);
  std::printf("  first step             %.1f ms (revision written, %d canary works made)\n", r.first_step_ms,
              r.canary_works);
  std::printf("  mean step (whole plan) %.1f ms\n", r.total_ms / r.steps);
  std::printf("  whole rollout          %.1f ms of planning\n", r.total_ms);
  return 0;
}

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--scale") == 0) return berth::bench::Scale(argc, argv);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
