// Simulated node faults through a Node's berth.dev/simulated-fault annotation: node-down
// (conditions Unknown, the unreachable taints, pods failed with NodeLost) and gpu-failed=N
// (allocatable reduced, the pods holding the lost devices failed), healing, bad values.
#include "server/member/node_faults.h"

#include <gtest/gtest.h>

#include <string>

#include "member/member_test_util.h"
#include "server/api/json_access.h"
#include "server/member/member_json.h"

namespace berth::server::member {
namespace BERTH_UNITY_ID {

using testing::kT0;
using testing::MakeNode;
using testing::MakeObject;
using testing::PodTemplate;
using testing::SimCluster;

Json GpuPod(const std::string& name, const std::string& node, int64_t gpus) {
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"namespace", "default"}, {"uid", "uid-" + name}}},
              {"spec",
               {{"nodeName", node},
                {"containers",
                 Json::array({Json{
                     {"name", "main"},
                     {"image", "cuda"},
                     {"resources", {{"limits", {{"nvidia.com/gpu", std::to_string(gpus)}}}}}}})}}},
              {"status", {{"phase", "Pending"}}}};
  return pod;
}

Json WithFault(Json node, const std::string& fault) {
  node["metadata"]["annotations"]["berth.dev/simulated-fault"] = fault;
  return node;
}

TEST(NodeFaultsTest, ParsesTheAnnotation) {
  struct Case {
    const char* text;
    bool down;
    int64_t gpus;
    size_t problems;
  };
  const Case cases[] = {
      {"", false, 0, 0},
      {"node-down", true, 0, 0},
      {"gpu-failed=2", false, 2, 0},
      {"node-down, gpu-failed=3", true, 3, 0},
      {"gpu-failed=2,gpu-failed=1", false, 2, 0},
      {"gpu-failed=0", false, 0, 0},
      {"gpu-failed=-1", false, 0, 1},
      {"gpu-failed=x", false, 0, 1},
      {"gpu-failed=", false, 0, 1},
      {"reboot,node-down", true, 0, 1},
      {"NODE-DOWN", false, 0, 1},
  };
  for (const Case& c : cases) {
    const NodeFault fault = ParseNodeFault(WithFault(MakeNode("n"), c.text));
    EXPECT_EQ(fault.down, c.down) << c.text;
    EXPECT_EQ(fault.gpus_failed, c.gpus) << c.text;
    EXPECT_EQ(fault.problems.size(), c.problems) << c.text;
  }
  EXPECT_FALSE(ParseNodeFault(MakeNode("n")).down);
}

TEST(NodeFaultsTest, NodeDownFailsItsPodsAndTaintsTheNode) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(MakeNode("n2"));
  c.Add(GpuPod("a", "n1", 0));
  c.Add(GpuPod("b", "n2", 0));
  c.Round();
  c.Advance(60);
  c.Add(GpuPod("pending", "n1", 0));  // bound, not started yet
  c.Replace(WithFault(c.Get(Kind::kNode, "n1", ""), "node-down"));
  c.Round();

  const Json& node = c.Get(Kind::kNode, "n1", "");
  for (const char* type : {"Ready", "MemoryPressure", "DiskPressure", "PIDPressure"}) {
    const Json* cond = FindCondition(node, type);
    ASSERT_NE(cond, nullptr) << type;
    EXPECT_EQ(StringAt(*cond, {"status"}), "Unknown") << type;
    EXPECT_EQ(StringAt(*cond, {"reason"}), "NodeStatusUnknown") << type;
    EXPECT_EQ(StringAt(*cond, {"message"}), "Kubelet stopped posting node status.");
  }
  EXPECT_EQ(StringAt(*FindCondition(node, "Ready"), {"lastTransitionTime"}), TimeText(kT0 + 60));
  EXPECT_EQ(node["spec"]["taints"],
            Json::parse(R"([{"key":"node.kubernetes.io/unreachable","effect":"NoSchedule"},
                            {"key":"node.kubernetes.io/unreachable","effect":"NoExecute",
                             "timeAdded":"2026-01-01T00:01:00Z"}])"));
  for (const char* name : {"a", "pending"}) {
    const Json& pod = c.Get(Kind::kPod, name);
    EXPECT_EQ(StringAt(pod, {"status", "phase"}), "Failed") << name;
    EXPECT_EQ(StringAt(pod, {"status", "reason"}), "NodeLost") << name;
    EXPECT_EQ(StringAt(pod, {"status", "message"}),
              std::string("Node n1 which was running pod ") + name + " is unresponsive");
    EXPECT_TRUE(ConditionIsTrue(pod, "DisruptionTarget")) << name;
  }
  const Json& a = c.Get(Kind::kPod, "a");
  EXPECT_EQ(a["status"]["containerStatuses"][0]["state"]["terminated"]["exitCode"], 137);
  EXPECT_EQ(StringAt(a["status"]["containerStatuses"][0], {"state", "terminated", "reason"}),
            "ContainerStatusUnknown");
  EXPECT_FALSE(ConditionIsTrue(a, "Ready"));
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "b"), {"status", "phase"}), "Running");

  // Down stays down; the next round has nothing to do.
  c.Advance(60);
  EXPECT_TRUE(c.Round().changes.empty());

  // Healing: the taints go, the kubelet reports Ready again; failed pods stay failed.
  Json healed = c.Get(Kind::kNode, "n1", "");
  healed["metadata"].erase("annotations");
  c.Replace(healed);
  c.Round();
  const Json& back = c.Get(Kind::kNode, "n1", "");
  EXPECT_EQ(MemberAt(back, {"spec", "taints"}), nullptr);
  EXPECT_TRUE(ConditionIsTrue(back, "Ready"));
  EXPECT_EQ(StringAt(*FindCondition(back, "Ready"), {"reason"}), "KubeletReady");
  EXPECT_EQ(StringAt(*FindCondition(back, "MemoryPressure"), {"status"}), "False");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "a"), {"status", "phase"}), "Failed");
  c.Add(GpuPod("later", "n1", 0));
  c.Round();
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "later"), {"status", "phase"}), "Running");
}

TEST(NodeFaultsTest, AJobReplacesThePodItLostOnAnotherNode) {
  SimCluster c;
  c.options.job_pod_failure_backoff_s = 0;
  c.Add(MakeNode("n1"));
  c.Add(MakeNode("n2"));
  c.Add(MakeObject("batch/v1", "Job", "train",
                   {{"template", PodTemplate("train", Json::object(), "Never")}}));
  c.Round();
  ASSERT_EQ(c.Bind({"n1"}), 1);
  c.Round();
  c.Replace(WithFault(c.Get(Kind::kNode, "n1", ""), "node-down"));
  c.Round();
  const Json& job = c.Get(Kind::kJob, "train");
  EXPECT_EQ(IntAt(job, {"status", "failed"}, 0), 1);
  EXPECT_EQ(IntAt(job, {"status", "active"}, 0), 1);
  // The scheduler keeps off the tainted node.
  EXPECT_EQ(c.Bind({"n1", "n2"}), 1);
  c.Round();
  int running = 0;
  for (const Json* pod : c.PodsOf(c.Get(Kind::kJob, "train"))) {
    if (StringAt(*pod, {"status", "phase"}) == "Running") {
      ++running;
      EXPECT_EQ(StringAt(*pod, {"spec", "nodeName"}), "n2");
    }
  }
  EXPECT_EQ(running, 1);
}

TEST(NodeFaultsTest, GpuFailureTakesTheLastDevicesAndTheirPods) {
  SimCluster c;
  c.Add(MakeNode("n1", 8));
  c.Add(GpuPod("a", "n1", 4));
  c.Round();
  c.Advance(10);
  c.Add(GpuPod("b", "n1", 2));
  c.Round();
  c.Advance(10);
  c.Add(GpuPod("c", "n1", 2));
  c.Add(GpuPod("cpu", "n1", 0));
  c.Round();
  // Devices in start order: a holds 0-3, b 4-5, c 6-7.
  c.Replace(WithFault(c.Get(Kind::kNode, "n1", ""), "gpu-failed=1"));
  c.Round();
  EXPECT_EQ(StringAt(c.Get(Kind::kNode, "n1", ""), {"status", "allocatable", "nvidia.com/gpu"}),
            "7");
  EXPECT_EQ(StringAt(c.Get(Kind::kNode, "n1", ""), {"status", "capacity", "nvidia.com/gpu"}), "8");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "c"), {"status", "phase"}), "Failed");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "c"), {"status", "reason"}), "DeviceFailed");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "c"), {"status", "message"}),
            "nvidia.com/gpu device(s) of node n1 failed (berth.dev/simulated-fault gpu-failed=1)");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "b"), {"status", "phase"}), "Running");

  c.Replace(WithFault(c.Get(Kind::kNode, "n1", ""), "gpu-failed=3"));
  c.Round();
  EXPECT_EQ(StringAt(c.Get(Kind::kNode, "n1", ""), {"status", "allocatable", "nvidia.com/gpu"}),
            "5");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "b"), {"status", "phase"}), "Failed");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "a"), {"status", "phase"}), "Running");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "cpu"), {"status", "phase"}), "Running");

  Json healed = c.Get(Kind::kNode, "n1", "");
  healed["metadata"].erase("annotations");
  c.Replace(healed);
  c.Round();
  EXPECT_EQ(StringAt(c.Get(Kind::kNode, "n1", ""), {"status", "allocatable", "nvidia.com/gpu"}),
            "8");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "b"), {"status", "phase"}), "Failed");
}

TEST(NodeFaultsTest, BadValuesAreReportedAndIgnored) {
  SimCluster c;
  c.Add(WithFault(MakeNode("n1", 4), "gpu-failed=lots"));
  c.Add(WithFault(MakeNode("n2"), "gpu-failed=1"));
  c.Add(GpuPod("a", "n1", 4));
  const ControllerRound round = c.Round();
  ASSERT_EQ(round.diagnostics.size(), 2u);
  EXPECT_EQ(round.diagnostics[0].object, "Node/n1");
  EXPECT_EQ(round.diagnostics[0].reason, "InvalidSimulatedFault");
  EXPECT_EQ(round.diagnostics[0].message,
            "berth.dev/simulated-fault: \"gpu-failed=lots\" is neither node-down nor gpu-failed=N; "
            "ignored");
  EXPECT_EQ(round.diagnostics[1].object, "Node/n2");
  EXPECT_EQ(StringAt(c.Get(Kind::kNode, "n1", ""), {"status", "allocatable", "nvidia.com/gpu"}),
            "4");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "a"), {"status", "phase"}), "Running");
  EXPECT_TRUE(ConditionIsTrue(c.Get(Kind::kNode, "n1", ""), "Ready"));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::member
