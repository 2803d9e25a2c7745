// NodePorts: upstream's test tables ported (pkg/scheduler/framework/types_test.go
// TestHostPortInfo_AddRemove and TestHostPortInfo_Check; pkg/scheduler/framework/plugins/
// nodeports/node_ports_test.go TestNodePorts and TestGetContainerPorts), each case named
// as upstream names it; then what berth adds: ports freed by Unbind and a failed gang, and
// the index deciding host-port pods as the reference path does.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "binding/framework/host_port_table.h"
#include "binding/framework/label_sig_table.h"
#include "binding/framework/pod_info.h"
#include "binding/framework/resource_table.h"
#include "binding/plugins/node_ports.h"
#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using berth::testing::kGi;
using berth::testing::NodeBuilder;
using berth::testing::PodBuilder;
using berth::testing::SnapshotBuilder;

// upstream hostPortInfoParam: {protocol, ip, port}.
struct PortParam {
  std::string protocol;
  std::string ip;
  int32_t port = 0;
};

// "PROTOCOL/IP/PORT", as upstream's newPod writes a container port.
model::HostPort ParsePort(const std::string& text) {
  const size_t a = text.find('/');
  const size_t b = text.find('/', a + 1);
  model::HostPort p;
  p.protocol = text.substr(0, a);
  p.host_ip = text.substr(a + 1, b - a - 1);
  p.host_port = static_cast<int32_t>(std::atoi(text.substr(b + 1).c_str()));
  p.container_port = p.host_port;
  return p;
}

void GivePorts(model::Pod& pod, const std::vector<std::string>& ports) {
  for (const std::string& port : ports) pod.containers[0].host_ports.push_back(ParsePort(port));
}

struct AddRemoveCase {
  const char* name;
  std::vector<PortParam> added;
  std::vector<PortParam> removed;
  size_t length;
};

TEST(NodePortsTest, HostPortInfoAddRemove) {
  const std::vector<PortParam> eight = {
      {"TCP", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80}, {"TCP", "127.0.0.1", 81},
      {"TCP", "127.0.0.1", 82}, {"TCP", "0.0.0.0", 79},   {"UDP", "0.0.0.0", 80},
      {"TCP", "0.0.0.0", 81},   {"TCP", "0.0.0.0", 82}};
  std::vector<PortParam> normal_add = eight;
  normal_add.push_back({"TCP", "0.0.0.0", 0});
  normal_add.push_back({"TCP", "0.0.0.0", -1});
  const std::vector<AddRemoveCase> cases = {
      {"normal add case", normal_add, {}, 8},
      {"empty ip and protocol add should work",
       {{"", "127.0.0.1", 79},
        {"UDP", "127.0.0.1", 80},
        {"", "127.0.0.1", 81},
        {"", "127.0.0.1", 82},
        {"", "", 79},
        {"UDP", "", 80},
        {"", "", 81},
        {"", "", 82},
        {"", "", 0},
        {"", "", -1}},
       {},
       8},
      {"normal remove case", eight, eight, 0},
      {"empty ip and protocol remove should work",
       eight,
       {{"", "127.0.0.1", 79},
        {"", "127.0.0.1", 81},
        {"", "127.0.0.1", 82},
        {"UDP", "127.0.0.1", 80},
        {"", "", 79},
        {"", "", 81},
        {"", "", 82},
        {"UDP", "", 80}},
       0},
  };
  for (const AddRemoveCase& c : cases) {
    HostPortTable table;
    for (const PortParam& p : c.added) table.Add(p.ip, p.protocol, p.port);
    for (const PortParam& p : c.removed) table.Remove(p.ip, p.protocol, p.port);
    EXPECT_EQ(table.size(), c.length) << c.name;
  }
}

struct CheckCase {
  const char* name;
  std::vector<PortParam> added;
  PortParam check;
  bool expect;
};

TEST(NodePortsTest, HostPortInfoCheck) {
  const std::vector<CheckCase> cases = {
      {"empty check should check 0.0.0.0 and TCP", {{"TCP", "127.0.0.1", 80}}, {"", "", 81}, false},
      {"empty check should check 0.0.0.0 and TCP (conflicted)",
       {{"TCP", "127.0.0.1", 80}},
       {"", "", 80},
       true},
      {"empty port check should pass", {{"TCP", "127.0.0.1", 80}}, {"", "", 0}, false},
      {"0.0.0.0 should check all registered IPs",
       {{"TCP", "127.0.0.1", 80}},
       {"TCP", "0.0.0.0", 80},
       true},
      {"0.0.0.0 with different protocol should be allowed",
       {{"UDP", "127.0.0.1", 80}},
       {"TCP", "0.0.0.0", 80},
       false},
      {"0.0.0.0 with different port should be allowed",
       {{"TCP", "127.0.0.1", 79}, {"TCP", "127.0.0.1", 81}, {"TCP", "127.0.0.1", 82}},
       {"TCP", "0.0.0.0", 80},
       false},
      {"normal ip should check all registered 0.0.0.0",
       {{"TCP", "0.0.0.0", 80}},
       {"TCP", "127.0.0.1", 80},
       true},
      {"normal ip with different port/protocol should be allowed (0.0.0.0)",
       {{"TCP", "0.0.0.0", 79}, {"UDP", "0.0.0.0", 80}, {"TCP", "0.0.0.0", 81}, {"TCP", "0.0.0.0", 82}},
       {"TCP", "127.0.0.1", 80},
       false},
      {"normal ip with different port/protocol should be allowed",
       {{"TCP", "127.0.0.1", 79},
        {"UDP", "127.0.0.1", 80},
        {"TCP", "127.0.0.1", 81},
        {"TCP", "127.0.0.1", 82}},
       {"TCP", "127.0.0.1", 80},
       false},
  };
  for (const CheckCase& c : cases) {
    HostPortTable table;
    for (const PortParam& p : c.added) table.Add(p.ip, p.protocol, p.port);
    EXPECT_EQ(table.CheckConflict(c.check.ip, c.check.protocol, c.check.port), c.expect) << c.name;
  }
}

// berth's table counts users: the port stays used until its last pod goes.
TEST(NodePortsTest, TableCountsUsersOfOnePort) {
  HostPortTable table;
  table.Add("", "", 8080);
  table.Add("0.0.0.0", "TCP", 8080);
  EXPECT_EQ(table.size(), 1u);
  table.Remove("", "TCP", 8080);
  EXPECT_TRUE(table.CheckConflict("10.0.0.1", "TCP", 8080));
  table.Remove("0.0.0.0", "", 8080);
  EXPECT_FALSE(table.CheckConflict("10.0.0.1", "TCP", 8080));
  EXPECT_TRUE(table.empty());
}

struct FilterCase {
  const char* name;
  std::vector<std::string> pod;       // the pending pod's ports
  std::vector<std::string> existing;  // the ports of the pod bound to m1
  bool fits;
};

// Upstream TestNodePorts: one node m1 running a pod with `existing` ports; the pending pod
// fits or gets NodePorts' reason. Both paths (index and reference) give the same answer.
TEST(NodePortsTest, UpstreamNodePortsTable) {
  const std::vector<FilterCase> cases = {
      {"skip filter", {}, {}, true},
      {"other port", {"UDP/127.0.0.1/8080"}, {"UDP/127.0.0.1/9090"}, true},
      {"same udp port", {"UDP/127.0.0.1/8080"}, {"UDP/127.0.0.1/8080"}, false},
      {"same tcp port", {"TCP/127.0.0.1/8080"}, {"TCP/127.0.0.1/8080"}, false},
      {"different host ip", {"TCP/127.0.0.1/8080"}, {"TCP/127.0.0.2/8080"}, true},
      {"different protocol", {"UDP/127.0.0.1/8080"}, {"TCP/127.0.0.1/8080"}, true},
      {"second udp port conflict",
       {"UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"},
       {"UDP/127.0.0.1/8080"},
       false},
      {"first tcp port conflict",
       {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"},
       {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"},
       false},
      {"first tcp port conflict due to 0.0.0.0 hostIP",
       {"TCP/0.0.0.0/8001"},
       {"TCP/127.0.0.1/8001"},
       false},
      {"TCP hostPort conflict due to 0.0.0.0 hostIP",
       {"TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"},
       {"TCP/127.0.0.1/8001"},
       false},
      {"second tcp port conflict to 0.0.0.0 hostIP",
       {"TCP/127.0.0.1/8001"},
       {"TCP/0.0.0.0/8001"},
       false},
      {"second different protocol", {"UDP/127.0.0.1/8001"}, {"TCP/0.0.0.0/8001"}, true},
      {"UDP hostPort conflict due to 0.0.0.0 hostIP",
       {"UDP/127.0.0.1/8001"},
       {"TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"},
       false},
  };
  for (const FilterCase& c : cases) {
    for (const bool use_index : {true, false}) {
      SnapshotBuilder s;
      s.Add(NodeBuilder("m1").Cpu(4000).Memory(8 * kGi));
      s.Add(PodBuilder("existing").NodeName("m1").Container({{"cpu", 100}}));
      s.Add(PodBuilder("pod").Created(1).Container({{"cpu", 100}}));
      model::Snapshot snap = s.Build();
      GivePorts(snap.pods[0], c.existing);
      GivePorts(snap.pods[1], c.pod);
      Scheduler scheduler(snap, model::SchedulerConfig{}, SchedulerOptions(use_index));
      // Explained before the bind: once bound, the pod's own ports are on m1.
      const PodExplanation e = scheduler.Explain(model::PodIndex{1});
      // A pod without host ports is not shown NodePorts (it would skip).
      EXPECT_EQ(FilterReason(e, snap, "m1", "NodePorts"),
                c.pod.empty() ? "<no filter>"
                : c.fits      ? ""
                              : "node(s) didn't have free ports for the requested pod ports")
          << c.name;
      const model::PodDecision d = scheduler.ScheduleOne(model::PodIndex{1});
      EXPECT_EQ(BoundTo(snap, d), c.fits ? "m1" : "") << c.name << " index " << use_index;
      if (!c.fits) {
        EXPECT_EQ(d.message,
                  "0/1 nodes are available: 1 node(s) didn't have free ports for the requested "
                  "pod ports.")
            << c.name;
        ASSERT_EQ(d.rejections.size(), 1u) << c.name;
        EXPECT_EQ(d.rejections[0].plugin, "NodePorts") << c.name;
      }
    }
  }
}

// Upstream TestGetContainerPorts: the host ports of a pod's containers, in order; a port
// without a host port is not one (io keeps only those; the other two pods add theirs).
TEST(NodePortsTest, UpstreamGetContainerPorts) {
  SnapshotBuilder s;
  s.Add(PodBuilder("pod1").Container({{"cpu", 1}}).Container({{"cpu", 1}}).InitContainer({{"cpu", 1}}));
  model::Snapshot snap = s.Build();
  model::Pod& pod1 = snap.pods[0];
  GivePorts(pod1, {"TCP//8001", "TCP//8002"});
  pod1.containers[1].host_ports = {ParsePort("TCP//8003"), ParsePort("TCP//8004")};
  // Init containers' ports are not the pod's host ports (upstream reads spec.containers).
  pod1.init_containers[0].host_ports = {ParsePort("TCP//8005")};
  ResourceTable resources(snap.resources);
  LabelSigTable sigs;
  const PodInfo info = MakePodInfo(pod1, resources, &sigs);
  std::vector<int32_t> ports;
  for (const model::HostPort& p : info.host_ports) ports.push_back(p.host_port);
  EXPECT_EQ(ports, (std::vector<int32_t>{8001, 8002, 8003, 8004}));
}

// Unbind frees the node's ports; a gang that fails gives back the ports of the pods it had
// bound, so the next pod with the same port takes the node.
TEST(NodePortsTest, UnbindAndFailedGangFreeThePorts) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Cpu(4000).Memory(8 * kGi));
  s.Add(PodBuilder("first").Created(1).Container({{"cpu", 100}}));
  s.Add(PodBuilder("second").Created(2).Container({{"cpu", 100}}));
  s.Add(PodBuilder("too-big").Created(3).Container({{"cpu", 8000}}));
  model::Snapshot snap = s.Build();
  GivePorts(snap.pods[0], {"TCP//8080"});
  GivePorts(snap.pods[1], {"TCP/10.0.0.1/8080"});
  Scheduler scheduler(snap, model::SchedulerConfig{});
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(model::PodIndex{0})), "a");
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(model::PodIndex{1})), "");
  scheduler.Unbind(model::PodIndex{0});
  // The gang binds "first" and fails on "too-big": "first" is unbound, its port free.
  const GangOutcome gang = scheduler.ScheduleGang({model::PodIndex{0}, model::PodIndex{2}});
  EXPECT_FALSE(gang.placed);
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(model::PodIndex{1})), "a");
}

// The index decides a host-port pod: the best node when its ports are free there, else the
// next best free node, as the reference path does; a pod no node takes gets
// the reference path's message.
TEST(NodePortsTest, IndexDecidesHostPortPodsAsTheReferencePath) {
  for (const bool use_index : {true, false}) {
    SnapshotBuilder s;
    // n0 is the best node for every pod (LeastAllocated): after the first, the index must
    // pass over it for its port.
    s.Add(NodeBuilder("n0").Cpu(64000).Memory(8 * kGi));
    for (int i = 1; i < 4; ++i) {
      s.Add(NodeBuilder(berth::testing::Indexed("n", i)).Cpu(4000).Memory(8 * kGi));
    }
    for (int i = 0; i < 5; ++i) {
      s.Add(PodBuilder(berth::testing::Indexed("web-", i)).Created(i).Container({{"cpu", 500}}));
    }
    model::Snapshot snap = s.Build();
    for (int i = 0; i < 5; ++i) GivePorts(snap.pods[static_cast<size_t>(i)], {"TCP//80"});
    Scheduler scheduler(snap, model::SchedulerConfig{}, SchedulerOptions(use_index));
    std::vector<std::string> nodes;
    std::string last_message;
    for (int i = 0; i < 5; ++i) {
      const model::PodDecision d = scheduler.ScheduleOne(model::PodIndex{i});
      nodes.push_back(BoundTo(snap, d));
      last_message = d.message;
    }
    EXPECT_EQ(nodes, (std::vector<std::string>{"n0", "n1", "n2", "n3", ""})) << use_index;
    EXPECT_EQ(last_message,
              "0/4 nodes are available: 4 node(s) didn't have free ports for the requested pod "
              "ports.");
    EXPECT_EQ(scheduler.stats().indexed, use_index ? 4 : 0);
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
