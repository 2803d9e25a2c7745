// The simulated kubelet: pod start, run, end (durations, exit codes, crash loops, restarts in
// place), the cluster default distribution, bad annotations, node status and pod addresses.
#include "server/member/kubelet.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "member/member_test_util.h"
#include "server/api/json_access.h"
#include "server/member/member_json.h"

namespace berth::server::member {
namespace BERTH_UNITY_ID {

using testing::J;
using testing::kT0;
using testing::MakeNode;
using testing::SimCluster;

// A bare pod bound to `node` with the annotations given.
Json BoundPod(const std::string& name, const std::string& node, Json annotations,
              const std::string& restart_policy = "Never") {
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata",
               {{"name", name},
                {"namespace", "default"},
                {"uid", "uid-" + name},
                {"creationTimestamp", TimeText(kT0)}}},
              {"spec",
               {{"restartPolicy", restart_policy},
                {"containers", Json::array({Json{{"name", "main"}, {"image", "busybox"}}})}}},
              {"status", {{"phase", "Pending"}}}};
  if (!node.empty()) pod["spec"]["nodeName"] = node;
  if (!annotations.empty()) pod["metadata"]["annotations"] = std::move(annotations);
  return pod;
}

std::string Phase(const SimCluster& c, const std::string& pod) {
  return StringAt(c.Get(Kind::kPod, pod), {"status", "phase"});
}

const Json& Container(const SimCluster& c, const std::string& pod) {
  return *MemberAt(c.Get(Kind::kPod, pod), {"status", "containerStatuses"})->begin();
}

TEST(KubeletTest, StartsABoundPodAndEndsItAfterItsDuration) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(BoundPod("p", "n1", {{"berth.dev/simulated-duration", "30s"}}));
  c.Round();
  const Json& pod = c.Get(Kind::kPod, "p");
  EXPECT_EQ(StringAt(pod, {"status", "phase"}), "Running");
  EXPECT_EQ(StringAt(pod, {"status", "startTime"}), TimeText(kT0));
  EXPECT_EQ(StringAt(pod, {"status", "podIP"}), "10.244.0.2");
  EXPECT_EQ(StringAt(pod, {"status", "hostIP"}), "172.18.0.2");
  EXPECT_EQ(StringAt(pod, {"status", "qosClass"}), "BestEffort");
  std::vector<std::string> types;
  for (const Json& cond : pod["status"]["conditions"]) types.push_back(StringAt(cond, {"type"}));
  EXPECT_EQ(types, (std::vector<std::string>{"PodReadyToStartContainers", "Initialized", "Ready",
                                             "ContainersReady", "PodScheduled"}));
  EXPECT_TRUE(ConditionIsTrue(pod, "Ready"));
  EXPECT_EQ(StringAt(*FindCondition(pod, "Ready"), {"lastTransitionTime"}), TimeText(kT0));
  const Json& container = Container(c, "p");
  EXPECT_EQ(StringAt(container, {"state", "running", "startedAt"}), TimeText(kT0));
  EXPECT_TRUE(container["ready"].get<bool>());
  EXPECT_EQ(container["restartCount"], 0);
  EXPECT_EQ(StringAt(container, {"containerID"}).rfind("containerd://", 0), 0u);

  // The node got its CIDR, an address and the kubelet's conditions.
  const Json& node = c.Get(Kind::kNode, "n1", "");
  EXPECT_EQ(StringAt(node, {"spec", "podCIDR"}), "10.244.0.0/24");
  EXPECT_TRUE(ConditionIsTrue(node, "Ready"));
  EXPECT_EQ(StringAt(*FindCondition(node, "Ready"), {"reason"}), "KubeletReady");
  EXPECT_EQ(StringAt(*FindCondition(node, "MemoryPressure"), {"status"}), "False");

  c.Advance(29);
  EXPECT_TRUE(c.Round().changes.empty());
  EXPECT_EQ(Phase(c, "p"), "Running");
  c.Advance(1);
  c.Round();
  EXPECT_EQ(Phase(c, "p"), "Succeeded");
  const Json& done = Container(c, "p");
  EXPECT_EQ(done["state"]["terminated"]["exitCode"], 0);
  EXPECT_EQ(StringAt(done, {"state", "terminated", "reason"}), "Completed");
  EXPECT_EQ(StringAt(done, {"state", "terminated", "finishedAt"}), TimeText(kT0 + 30));
  const Json* ready = FindCondition(c.Get(Kind::kPod, "p"), "Ready");
  EXPECT_EQ(StringAt(*ready, {"status"}), "False");
  EXPECT_EQ(StringAt(*ready, {"reason"}), "PodCompleted");
  // A finished pod stays as it is.
  c.Advance(3600);
  EXPECT_TRUE(c.Round().changes.empty());
}

TEST(KubeletTest, ANonZeroExitCodeFailsThePod) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(BoundPod(
      "p", "n1",
      {{"berth.dev/simulated-duration", "1m30s"}, {"berth.dev/simulated-exit-code", "3"}}));
  c.Round();
  c.Advance(90);
  c.Round();
  EXPECT_EQ(Phase(c, "p"), "Failed");
  EXPECT_EQ(Container(c, "p")["state"]["terminated"]["exitCode"], 3);
  EXPECT_EQ(StringAt(Container(c, "p"), {"state", "terminated", "reason"}), "Error");
}

TEST(KubeletTest, LeavesUnboundAndDeletedPodsAlone) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(BoundPod("unbound", "", Json::object()));
  Json deleting = BoundPod("deleting", "n1", Json::object());
  deleting["metadata"]["deletionTimestamp"] = TimeText(kT0 + 30);
  c.Add(deleting);
  c.Add(BoundPod("lost", "n9", Json::object()));
  const ControllerRound round = c.Round();
  EXPECT_EQ(Phase(c, "unbound"), "Pending");
  EXPECT_EQ(Phase(c, "deleting"), "Pending");
  EXPECT_TRUE(round.diagnostics.empty());
  // A pod bound to a node that does not exist is the pod garbage collector's: failed, deleted.
  const Json& lost = c.Get(Kind::kPod, "lost");
  EXPECT_EQ(StringAt(lost, {"status", "phase"}), "Failed");
  EXPECT_TRUE(IsBeingDeleted(lost));
  EXPECT_EQ(StringAt(*FindCondition(lost, "DisruptionTarget"), {"reason"}), "DeletionByPodGC");
}

TEST(KubeletTest, CrashLoopKeepsThePodRunningButNeverReady) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(BoundPod("p", "n1", {{"berth.dev/simulated-failure", "crashloop"}}, "Always"));
  // The kubelet's back-off: 10 s, 20 s, 40 s, 80 s, 160 s, then 300 s.
  const struct {
    int64_t at;
    int64_t restarts;
  } steps[] = {{0, 0},
               {9, 0},
               {10, 1},
               {29, 1},
               {30, 2},
               {70, 3},
               {150, 4},
               {310, 5},
               {610, 6},
               {910, 7},
               {910 + 300 * 100, 107}};
  for (const auto& step : steps) {
    c.now = kT0 + step.at;
    c.Round();
    const Json& pod = c.Get(Kind::kPod, "p");
    EXPECT_EQ(StringAt(pod, {"status", "phase"}), "Running") << step.at;
    EXPECT_FALSE(ConditionIsTrue(pod, "Ready")) << step.at;
    const Json& container = Container(c, "p");
    EXPECT_EQ(container["restartCount"], step.restarts) << step.at;
    EXPECT_EQ(StringAt(container, {"state", "waiting", "reason"}), "CrashLoopBackOff") << step.at;
    EXPECT_EQ(container["lastState"]["terminated"]["exitCode"], 1) << step.at;
  }
  EXPECT_EQ(StringAt(Container(c, "p"), {"state", "waiting", "message"}),
            "back-off 5m0s restarting failed container=main pod=p_default(uid-p)");
  EXPECT_EQ(StringAt(*FindCondition(c.Get(Kind::kPod, "p"), "Ready"), {"reason"}),
            "ContainersNotReady");
  EXPECT_EQ(StringAt(*FindCondition(c.Get(Kind::kPod, "p"), "Ready"), {"message"}),
            "containers with unready status: [main]");
}

TEST(KubeletTest, CrashLoopUnderRestartPolicyNeverFailsThePod) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(BoundPod("p", "n1", {{"berth.dev/simulated-failure", "crashloop"}}, "Never"));
  c.Round();
  EXPECT_EQ(Phase(c, "p"), "Failed");
  EXPECT_EQ(Container(c, "p")["state"]["terminated"]["exitCode"], 1);
}

TEST(KubeletTest, OnFailureRestartsAFailingContainerInPlace) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(BoundPod("p", "n1",
                 {{"berth.dev/simulated-duration", "10s"}, {"berth.dev/simulated-exit-code", "2"}},
                 "OnFailure"));
  c.Round();
  c.now = kT0 + 15;  // the first run ended at 10 s; the back-off lasts until 20 s
  c.Round();
  EXPECT_EQ(Phase(c, "p"), "Running");
  EXPECT_EQ(Container(c, "p")["restartCount"], 0);
  EXPECT_EQ(StringAt(Container(c, "p"), {"state", "waiting", "reason"}), "CrashLoopBackOff");
  EXPECT_EQ(Container(c, "p")["lastState"]["terminated"]["exitCode"], 2);
  c.now = kT0 + 25;
  c.Round();
  EXPECT_EQ(Container(c, "p")["restartCount"], 1);
  EXPECT_EQ(StringAt(Container(c, "p"), {"state", "running", "startedAt"}), TimeText(kT0 + 20));
  EXPECT_EQ(StringAt(Container(c, "p"), {"lastState", "terminated", "finishedAt"}),
            TimeText(kT0 + 10));
  EXPECT_TRUE(ConditionIsTrue(c.Get(Kind::kPod, "p"), "Ready"));
  EXPECT_EQ(StringAt(*FindCondition(c.Get(Kind::kPod, "p"), "Ready"), {"lastTransitionTime"}),
            TimeText(kT0 + 20));

  // Exit code 0 under OnFailure completes the pod.
  SimCluster ok;
  ok.Add(MakeNode("n1"));
  ok.Add(BoundPod("p", "n1", {{"berth.dev/simulated-duration", "10s"}}, "OnFailure"));
  ok.Round();
  ok.Advance(10);
  ok.Round();
  EXPECT_EQ(Phase(ok, "p"), "Succeeded");
}

TEST(KubeletTest, DefaultDistributionAppliesToPodsThatEnd) {
  SimCluster c;
  c.options.default_duration = *DurationDistribution::Parse("fixed:20s");
  c.Add(MakeNode("n1"));
  c.Add(BoundPod("batch", "n1", Json::object(), "Never"));
  c.Add(BoundPod("server", "n1", Json::object(), "Always"));
  c.Round();
  c.Advance(20);
  c.Round();
  EXPECT_EQ(Phase(c, "batch"), "Succeeded");
  EXPECT_EQ(Phase(c, "server"), "Running");
  c.Advance(86400);
  EXPECT_TRUE(c.Round().changes.empty());
  EXPECT_EQ(Phase(c, "server"), "Running");
  EXPECT_EQ(Container(c, "server")["restartCount"], 0);
}

// The finish time of each of `pods` pods under `dist` and `seed` (seconds after the start).
std::vector<int64_t> FinishTimes(const std::string& dist, uint64_t seed, int pods) {
  SimCluster c;
  c.check_idempotent = false;
  c.options.default_duration = *DurationDistribution::Parse(dist);
  c.options.seed = seed;
  c.Add(MakeNode("n1"));
  auto name = [](int i) {
    std::string n = "p";
    n += std::to_string(i);
    return n;
  };
  for (int i = 0; i < pods; ++i) c.Add(BoundPod(name(i), "n1", Json::object()));
  c.Round();
  c.Advance(200);
  c.Round();
  std::vector<int64_t> out;
  for (int i = 0; i < pods; ++i) {
    const Json& container = Container(c, name(i));
    out.push_back(TimeAt(container, {"state", "terminated", "finishedAt"}).value_or(-1) - kT0);
  }
  return out;
}

TEST(KubeletTest, SampledDurationsDependOnlyOnTheUidAndTheSeed) {
  const std::vector<int64_t> a = FinishTimes("uniform:10s-60s", 7, 8);
  EXPECT_EQ(a, FinishTimes("uniform:10s-60s", 7, 8));
  EXPECT_NE(a, FinishTimes("uniform:10s-60s", 8, 8));
  std::set<int64_t> distinct(a.begin(), a.end());
  EXPECT_GT(distinct.size(), 4u);
  for (int64_t t : a) {
    EXPECT_GE(t, 10);
    EXPECT_LE(t, 60);
  }
}

TEST(KubeletTest, BadAnnotationsAreReportedAndThePodRunsUntilDeleted) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(BoundPod("a", "n1", {{"berth.dev/simulated-duration", "soon"}}));
  c.Add(BoundPod("b", "n1", {{"berth.dev/simulated-duration", "-5s"}}));
  c.Add(
      BoundPod("c", "n1",
               {{"berth.dev/simulated-duration", "5s"}, {"berth.dev/simulated-exit-code", "300"}}));
  c.Add(BoundPod(
      "d", "n1",
      {{"berth.dev/simulated-duration", "5s"}, {"berth.dev/simulated-failure", "explode"}}));
  const ControllerRound round = c.Round();
  ASSERT_EQ(round.diagnostics.size(), 4u);
  EXPECT_EQ(round.diagnostics[0].object, "Pod/default/a");
  EXPECT_EQ(round.diagnostics[0].reason, "InvalidSimulatedDuration");
  EXPECT_EQ(round.diagnostics[0].message,
            "berth.dev/simulated-duration \"soon\": time: invalid duration \"soon\"; the pod runs "
            "until deleted");
  EXPECT_EQ(round.diagnostics[1].message,
            "berth.dev/simulated-duration \"-5s\": a duration may not be negative; the pod runs "
            "until deleted");
  EXPECT_EQ(round.diagnostics[2].reason, "InvalidSimulatedExitCode");
  EXPECT_EQ(round.diagnostics[3].reason, "InvalidSimulatedFailure");
  c.Advance(3600);
  c.Round();
  for (const char* name : {"a", "b", "c", "d"}) EXPECT_EQ(Phase(c, name), "Running") << name;
}

TEST(KubeletTest, PodsGetDistinctAddressesFromTheirNodesCidr) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(MakeNode("n2"));
  for (const char* name : {"a", "b", "c"}) {
    c.Add(BoundPod(name, "n1", {{"berth.dev/simulated-duration", "10s"}}));
  }
  c.Add(BoundPod("d", "n2", Json::object()));
  c.Round();
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "a"), {"status", "podIP"}), "10.244.0.2");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "b"), {"status", "podIP"}), "10.244.0.3");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "c"), {"status", "podIP"}), "10.244.0.4");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "d"), {"status", "podIP"}), "10.244.1.2");
  EXPECT_EQ(StringAt(c.Get(Kind::kNode, "n2", ""), {"spec", "podCIDR"}), "10.244.1.0/24");
  c.Advance(10);
  c.Round();  // a, b, c finished: their addresses are free again
  c.Add(BoundPod("e", "n1", Json::object()));
  c.Round();
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "e"), {"status", "podIP"}), "10.244.0.2");
}

TEST(KubeletTest, NodeCidrsSkipThoseTaken) {
  SimCluster c;
  Json taken = MakeNode("a");
  taken["spec"]["podCIDR"] = "10.244.0.0/24";
  c.Add(taken);
  c.Add(MakeNode("b"));
  Json other = MakeNode("c");
  other["spec"]["podCIDR"] = "192.168.7.0/24";
  c.Add(other);
  c.Add(BoundPod("p", "c", Json::object()));
  c.Round();
  EXPECT_EQ(StringAt(c.Get(Kind::kNode, "b", ""), {"spec", "podCIDR"}), "10.244.1.0/24");
  EXPECT_EQ(StringAt(c.Get(Kind::kNode, "c", ""), {"spec", "podCIDR"}), "192.168.7.0/24");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "p"), {"status", "podIP"}), "192.168.7.2");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::member
