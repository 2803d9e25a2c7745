// MultiKueue's dispatchers as fleet dispatch modes (engine/multikueue_dispatch.h): the
// incremental dispatcher's nominations, ported from Kueue's
// pkg/controller/workloaddispatcher/incrementaldispatcher_test.go
// (TestIncrementalDispatcherNominateWorkers, every case, by its upstream name), and whole
// fleets planned in each mode: best-fit, AllAtOnce and Incremental choosing differently for
// the same input, and what each writes into status.nominatedClusterNames.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "engine/multikueue_dispatch.h"
#include "engine/plan.h"
#include "io/reader.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

using Names = std::vector<std::string>;

// One case of TestIncrementalDispatcherNominateWorkers. The upstream test calls
// nominateWorkers once: while a round runs (a round start recorded less than five minutes
// ago: `advance_round_time` false with nominations already made) nothing changes; else the
// next workers are appended, or ErrNoMoreWorkers leaves the nominations as they were.
struct NominateCase {
  const char* name;  // upstream's
  Names remote_clusters;
  Names nominated;  // status.nominatedClusterNames before
  std::optional<int32_t> step_size;
  std::map<std::string, bool> feature_gates;
  bool ordering_gate_off = false;
  bool want_no_more_workers = false;
  bool advance_round_time = false;
  Names want_nominated;
};

const std::vector<NominateCase>& NominateCases() {
  static const std::vector<NominateCase> kCases = {
      {"one remote", {"A"}, {}, {}, {}, false, false, false, {"A"}},
      {"two remotes", {"B", "A"}, {}, {}, {}, false, false, false, {"B", "A"}},
      {"three remotes", {"C", "B", "A"}, {}, {}, {}, false, false, false, {"C", "B", "A"}},
      {"fifteen remotes",
       {"O", "N", "M", "L", "K", "J", "I", "H", "G", "F", "E", "D", "C", "B", "A"},
       {}, {}, {}, false, false, false, {"O", "N", "M"}},
      {"all already nominated (3)", {"C", "B", "A"}, {"C", "B", "A"}, {}, {}, false, true, true,
       {"C", "B", "A"}},
      {"all already nominated (1)", {"A"}, {"A"}, {}, {}, false, true, true, {"A"}},
      {"round expired, next set nominated", {"F", "E", "D", "C", "B", "A"}, {"F", "E", "D"}, {},
       {}, false, false, true, {"F", "E", "D", "C", "B", "A"}},
      {"round in progress, keep current", {"F", "E", "D", "C", "B", "A"}, {"F", "E", "D"}, {}, {},
       false, false, false, {"F", "E", "D"}},
      {"round expired, nominate all", {"H", "G", "F", "E", "D", "C", "B", "A"},
       {"H", "G", "F", "E", "D", "C"}, {}, {}, false, false, true,
       {"H", "G", "F", "E", "D", "C", "B", "A"}},
      {"no remotes", {}, {}, {}, {}, false, true, false, {}},
      {"stepSize=2, five remotes \xE2\x80\x94 first batch is exactly 2", {"E", "D", "C", "B", "A"},
       {}, 2, {}, false, false, false, {"E", "D"}},
      {"stepSize=2, round expired \xE2\x80\x94 second batch is next 2", {"E", "D", "C", "B", "A"},
       {"E", "D"}, 2, {}, false, false, true, {"E", "D", "C", "B"}},
      {"config gate disabled \xE2\x80\x94 ignores stepSize=10, uses default 3",
       {"G", "F", "E", "D", "C", "B", "A"}, {}, 10,
       {{"MultiKueueIncrementalDispatcherConfig", false}}, false, false, false, {"G", "F", "E"}},
      {"ordering gate off: three remotes nominated alphabetically", {"C", "B", "A"}, {}, {}, {},
       true, false, false, {"A", "B", "C"}},
      {"ordering gate off: first batch of fifteen is alphabetical",
       {"O", "N", "M", "L", "K", "J", "I", "H", "G", "F", "E", "D", "C", "B", "A"}, {}, {}, {},
       true, false, false, {"A", "B", "C"}},
      {"ordering gate off: prior nomination retained, remainder alphabetical",
       {"F", "E", "D", "C", "B", "A"}, {"F", "E", "D"}, {}, {}, true, false, true,
       {"F", "E", "D", "A", "B", "C"}},
      {"ordering gate off: stepSize=2 first batch is alphabetical", {"E", "D", "C", "B", "A"}, {},
       2, {}, true, false, false, {"A", "B"}},
  };
  return kCases;
}

DispatchPolicy IncrementalPolicy(const NominateCase& c) {
  model::Snapshot snapshot;
  model::KueueConfig config;
  config.multikueue_dispatcher = std::string(kIncrementalDispatcher);
  config.multikueue_dispatcher_given = true;
  config.multikueue_incremental_step_size = c.step_size;
  config.feature_gates = c.feature_gates;
  // Unless a case turns it off, the upstream test enables the ordering gate.
  config.feature_gates[std::string(kIncrementalConfigOrderGate)] = !c.ordering_gate_off;
  snapshot.kueue_config = config;
  return ResolveDispatchPolicy(snapshot);
}

TEST(MultiKueueDispatchTest, IncrementalDispatcherNominateWorkers) {
  for (const NominateCase& c : NominateCases()) {
    SCOPED_TRACE(c.name);
    const DispatchPolicy policy = IncrementalPolicy(c);
    ASSERT_EQ(policy.mode, DispatchMode::kIncremental);
    const Names remote_before = c.remote_clusters;
    Names nominated = c.nominated;
    bool no_more_workers = false;
    const bool round_in_progress = !c.advance_round_time && !c.nominated.empty();
    if (!round_in_progress) {
      Names next = NextNominatedWorkers(c.remote_clusters, nominated, policy.step_size,
                                        policy.respect_config_order);
      no_more_workers = next.empty();
      nominated.insert(nominated.end(), next.begin(), next.end());
    }
    EXPECT_EQ(no_more_workers, c.want_no_more_workers);
    EXPECT_EQ(nominated, c.want_nominated);
    // remoteClusters aliases the cached MultiKueueConfig: nominating must not reorder it.
    EXPECT_EQ(c.remote_clusters, remote_before);
  }
}

// IncrementalRounds slices one order; it must equal nominating round after round.
TEST(MultiKueueDispatchTest, RoundsAreTheNominationsRoundAfterRound) {
  for (const NominateCase& c : NominateCases()) {
    SCOPED_TRACE(c.name);
    const DispatchPolicy policy = IncrementalPolicy(c);
    std::vector<Names> want;
    Names nominated;
    for (Names next; !(next = NextNominatedWorkers(c.remote_clusters, nominated, policy.step_size,
                                                   policy.respect_config_order))
                        .empty();) {
      nominated.insert(nominated.end(), next.begin(), next.end());
      want.push_back(next);
    }
    EXPECT_EQ(IncrementalRounds(c.remote_clusters, policy.step_size, policy.respect_config_order),
              want);
  }
}

TEST(MultiKueueDispatchTest, PolicyFollowsTheConfiguration) {
  model::Snapshot snapshot;
  EXPECT_EQ(ResolveDispatchPolicy(snapshot).mode, DispatchMode::kBestFit);
  model::KueueConfig config;  // dispatcherName not given: berth's default, not Kueue's
  snapshot.kueue_config = config;
  EXPECT_EQ(ResolveDispatchPolicy(snapshot).mode, DispatchMode::kBestFit);
  config.multikueue_dispatcher_given = true;
  snapshot.kueue_config = config;
  EXPECT_EQ(ResolveDispatchPolicy(snapshot).mode, DispatchMode::kAllAtOnce);
  config.multikueue_dispatcher = std::string(kIncrementalDispatcher);
  snapshot.kueue_config = config;
  EXPECT_EQ(ResolveDispatchPolicy(snapshot).mode, DispatchMode::kIncremental);
  EXPECT_EQ(ResolveDispatchPolicy(snapshot).step_size, kDefaultIncrementalStepSize);
  config.multikueue_dispatcher = "example.com/my-dispatcher";
  snapshot.kueue_config = config;
  EXPECT_EQ(ResolveDispatchPolicy(snapshot).mode, DispatchMode::kExternal);
  EXPECT_EQ(ResolveDispatchPolicy(snapshot).dispatcher_name, "example.com/my-dispatcher");
}

// ---- whole fleets ----

std::string ManagedCluster(const std::string& name) {
  return "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata: {name: " +
         name + "}\nspec: {hubAcceptsClient: true}\n---\n";
}

std::string GpuNode(const std::string& name) {
  return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name +
         "\n  labels: {kubernetes.io/hostname: " + name +
         "}\nstatus:\n  allocatable: {cpu: \"64\", memory: 512Gi, pods: \"110\", "
         "nvidia.com/gpu: \"8\"}\n---\n";
}

std::string Job(const std::string& name, int pods, int gpus, const std::string& created) {
  return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name +
         "\n  namespace: ml\n  uid: uid-" + name + "\n  creationTimestamp: \"" + created +
         "\"\n  labels: {kueue.x-k8s.io/queue-name: lq}\nspec:\n  parallelism: " +
         std::to_string(pods) + "\n  completions: " + std::to_string(pods) +
         "\n  suspend: true\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n"
         "      - name: main\n        image: x\n        resources:\n          requests: {cpu: \"1\", "
         "memory: 1Gi, nvidia.com/gpu: \"" + std::to_string(gpus) + "\"}\n---\n";
}

// The hub: MultiKueueConfig "mk" listing `clusters` in that order, admission check
// "fleet", ClusterQueue cq with 100 GPUs gated by it, LocalQueue ml/lq; then `extra`.
std::string Hub(const Names& clusters, const std::string& extra) {
  std::string list;
  std::string out;
  for (const std::string& c : clusters) {
    list += (list.empty() ? "" : ", ") + c;
    out += ManagedCluster(c);
  }
  return out +
         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: MultiKueueConfig\nmetadata: {name: mk}\n"
         "spec:\n  clusters: [" + list + "]\n---\n"
         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: AdmissionCheck\nmetadata: {name: fleet}\n"
         "spec:\n  controllerName: kueue.x-k8s.io/multikueue\n"
         "  parameters: {apiGroup: kueue.x-k8s.io, kind: MultiKueueConfig, name: mk}\n---\n"
         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: any}\n---\n"
         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n"
         "  namespaceSelector: {}\n  admissionChecksStrategy:\n    admissionChecks: [{name: fleet}]\n"
         "  resourceGroups:\n  - coveredResources: [cpu, memory, nvidia.com/gpu]\n    flavors:\n"
         "    - name: any\n      resources:\n      - {name: cpu, nominalQuota: \"1000\"}\n"
         "      - {name: memory, nominalQuota: 100Ti}\n      - {name: nvidia.com/gpu, nominalQuota: \"100\"}\n"
         "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq, namespace: ml}\n"
         "spec: {clusterQueue: cq}\n---\n" + extra;
}

std::string Config(const std::string& multikueue, const std::string& gates = "") {
  return "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nmultiKueue:\n" +
         multikueue + (gates.empty() ? "" : "featureGates: {" + gates + "}\n") + "---\n";
}

const Names kRegions = {"us-east", "eu-west", "ap-south", "ca-central"};

Plan PlanFleet(const std::string& hub) {
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(hub, "hub.yaml");
  for (const std::string& c : kRegions) {
    io::ReadOptions options;
    options.cluster = c;
    reader.ReadText(GpuNode(c + "-gpu-0"), c + ".yaml", options);
  }
  io::Input input = reader.Finish();
  for (const auto& d : diags.entries()) ADD_FAILURE() << d.error.ToString();
  return RunPlan(input.snapshot, {});
}

const model::Workload& WorkloadNamed(const Plan& plan, const std::string& name) {
  for (const model::Workload& w : plan.planned.kueue_workloads) {
    if (w.meta.name == name) return w;
  }
  ADD_FAILURE() << "no workload " << name;
  static const model::Workload kNone;
  return kNone;
}

const Dispatch& DispatchOf(const Plan& plan, const std::string& name) {
  for (const auto& [index, d] : plan.dispatches) {
    if (plan.planned.kueue_workloads[static_cast<size_t>(index)].meta.name == name) return d;
  }
  ADD_FAILURE() << "no dispatch for " << name;
  static const Dispatch kNone;
  return kNone;
}

const char* const kAllAtOnce = "  dispatcherName: kueue.x-k8s.io/multikueue-dispatcher-all-at-once\n";
const char* const kIncremental = "  dispatcherName: kueue.x-k8s.io/multikueue-dispatcher-incremental\n";

TEST(MultiKueueDispatchTest, EachModeChoosesItsOwnClusterForAJobEveryClusterFits) {
  const std::string job = Job("train", 1, 4, "2026-01-01T00:00:00Z");
  // best-fit: preference order; no Configuration, or one without dispatcherName.
  EXPECT_EQ(WorkloadNamed(PlanFleet(Hub(kRegions, job)), "job-train").cluster_name, "us-east");
  EXPECT_EQ(WorkloadNamed(PlanFleet(Hub(kRegions, Config("  workerLostTimeout: 5m\n") + job)),
                          "job-train")
                .cluster_name,
            "us-east");
  // AllAtOnce: every copy at once, the first by name admits.
  const Plan all = PlanFleet(Hub(kRegions, Config(kAllAtOnce) + job));
  EXPECT_EQ(WorkloadNamed(all, "job-train").cluster_name, "ap-south");
  EXPECT_EQ(DispatchOf(all, "job-train").mode, DispatchMode::kAllAtOnce);
  EXPECT_EQ(DispatchOf(all, "job-train").rounds_run, 1);
  EXPECT_TRUE(WorkloadNamed(all, "job-train").nominated_cluster_names.empty());
  // Incremental, default step 3: round 1 is us-east, eu-west, ap-south; ap-south by name.
  EXPECT_EQ(WorkloadNamed(PlanFleet(Hub(kRegions, Config(kIncremental) + job)), "job-train")
                .cluster_name,
            "ap-south");
  // Step 2: round 1 is us-east, eu-west; eu-west by name.
  const std::string step2 = std::string(kIncremental) + "  incrementalDispatcherConfig: {stepSize: 2}\n";
  const Plan inc = PlanFleet(Hub(kRegions, Config(step2) + job));
  EXPECT_EQ(WorkloadNamed(inc, "job-train").cluster_name, "eu-west");
  EXPECT_EQ(DispatchOf(inc, "job-train").rounds_run, 1);
  EXPECT_EQ(DispatchOf(inc, "job-train").step_size, 2);
  // Step 1: one cluster per round, so preference order again.
  const std::string step1 = std::string(kIncremental) + "  incrementalDispatcherConfig: {stepSize: 1}\n";
  EXPECT_EQ(WorkloadNamed(PlanFleet(Hub(kRegions, Config(step1) + job)), "job-train").cluster_name,
            "us-east");
  // Ordering gate off: rounds in name order (ap-south, ca-central first).
  EXPECT_EQ(WorkloadNamed(PlanFleet(Hub(kRegions,
                                        Config(step2, "MultiKueueIncrementalDispatcherRespectConfigOrder: false") +
                                            job)),
                          "job-train")
                .cluster_name,
            "ap-south");
}

TEST(MultiKueueDispatchTest, IncrementalMovesToTheNextRoundWhenNoNomineeAdmits) {
  // Two 8-GPU pods fit no single-node cluster; a second node only in ca-central.
  core::Diagnostics diags;
  io::Reader reader(diags);
  const std::string step2 = std::string(kIncremental) + "  incrementalDispatcherConfig: {stepSize: 2}\n";
  reader.ReadText(Hub(kRegions, Config(step2) + Job("wide", 2, 8, "2026-01-01T00:00:00Z")), "hub.yaml");
  for (const std::string& c : kRegions) {
    io::ReadOptions options;
    options.cluster = c;
    std::string nodes = GpuNode(c + "-gpu-0");
    if (c == "ca-central") nodes += GpuNode(c + "-gpu-1");
    reader.ReadText(nodes, c + ".yaml", options);
  }
  io::Input input = reader.Finish();
  ASSERT_FALSE(diags.has_errors());
  const Plan plan = RunPlan(input.snapshot, {});
  const Dispatch& d = DispatchOf(plan, "job-wide");
  EXPECT_EQ(d.cluster, std::optional<std::string>("ca-central"));
  EXPECT_EQ(d.rounds_run, 2);
  ASSERT_EQ(d.attempts.size(), 4u);
  // Round 1 by name (eu-west, us-east), then round 2 (ap-south, ca-central).
  EXPECT_EQ(d.attempts[0].cluster, "eu-west");
  EXPECT_EQ(d.attempts[1].cluster, "us-east");
  EXPECT_EQ(d.attempts[2].cluster, "ap-south");
  EXPECT_EQ(d.attempts[2].round, 2);
  EXPECT_TRUE(d.attempts[3].fits);
}

TEST(MultiKueueDispatchTest, PendingWorkloadsCarryTheNominationsEachModeWrites) {
  const std::string job = Job("huge", 4, 8, "2026-01-01T00:00:00Z");
  const Names best_fit = WorkloadNamed(PlanFleet(Hub(kRegions, job)), "job-huge").nominated_cluster_names;
  EXPECT_EQ(best_fit, kRegions);
  // AllAtOnce: sorted by name, as the workload controller writes them.
  const Plan all = PlanFleet(Hub(kRegions, Config(kAllAtOnce) + job));
  EXPECT_EQ(WorkloadNamed(all, "job-huge").nominated_cluster_names,
            (Names{"ap-south", "ca-central", "eu-west", "us-east"}));
  EXPECT_EQ(WorkloadNamed(all, "job-huge").cluster_name, "");
  // Incremental: every round appended, in the configuration's order.
  const std::string step2 = std::string(kIncremental) + "  incrementalDispatcherConfig: {stepSize: 2}\n";
  const Plan inc = PlanFleet(Hub(kRegions, Config(step2) + job));
  EXPECT_EQ(WorkloadNamed(inc, "job-huge").nominated_cluster_names, kRegions);
  EXPECT_EQ(DispatchOf(inc, "job-huge").rounds_run, 2);
  EXPECT_EQ(DispatchOf(inc, "job-huge").message.rfind("no cluster fits: ", 0), 0u);
}

TEST(MultiKueueDispatchTest, AllAtOnceNominatesOnlyConnectedWorkersIncrementalEveryListedOne) {
  const std::string inactive =
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: MultiKueueCluster\nmetadata: {name: ap-south}\n"
      "spec:\n  clusterSource:\n    kubeConfig: {locationType: Secret, location: ap-south}\n"
      "status:\n  conditions:\n  - {type: Active, status: \"False\", reason: BadConfig, "
      "message: cannot connect, lastTransitionTime: \"2026-01-01T00:00:00Z\"}\n---\n";
  const std::string job = Job("train", 1, 4, "2026-01-01T00:00:00Z");
  const Plan all = PlanFleet(Hub(kRegions, Config(kAllAtOnce) + inactive + job));
  EXPECT_EQ(WorkloadNamed(all, "job-train").cluster_name, "ca-central");
  ASSERT_TRUE(DispatchOf(all, "job-train").rounds != nullptr);
  EXPECT_EQ((*DispatchOf(all, "job-train").rounds)[0], (Names{"ca-central", "eu-west", "us-east"}));
  const Plan inc = PlanFleet(Hub(kRegions, Config(kIncremental) + inactive + job));
  const Dispatch& d = DispatchOf(inc, "job-train");
  EXPECT_EQ(d.cluster, std::optional<std::string>("eu-west"));
  ASSERT_FALSE(d.attempts.empty());
  EXPECT_EQ(d.attempts[0].cluster, "ap-south");
  EXPECT_EQ(d.attempts[0].reason, "MultiKueueCluster ap-south is not active: cannot connect");
}

TEST(MultiKueueDispatchTest, ExternalDispatcherWaitsForItsNominations) {
  const Plan plan = PlanFleet(
      Hub(kRegions, Config("  dispatcherName: example.com/my-dispatcher\n") +
                        Job("train", 1, 4, "2026-01-01T00:00:00Z")));
  const Dispatch& d = DispatchOf(plan, "job-train");
  EXPECT_EQ(d.mode, DispatchMode::kExternal);
  EXPECT_FALSE(d.cluster.has_value());
  EXPECT_EQ(d.message,
            "waiting for MultiKueue dispatcher \"example.com/my-dispatcher\" to nominate worker "
            "clusters in status.nominatedClusterNames");
  EXPECT_TRUE(WorkloadNamed(plan, "job-train").nominated_cluster_names.empty());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
