// Every filter plugin, passing and failing, with upstream's reason texts, read through
// Explain (which runs every filter on every node).
#include <gtest/gtest.h>

#include "binding/framework/plugin_names.h"
#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using core::SelectorOp;
using core::TaintEffect;
using core::TolerationOp;
using testing::AffinityTerm;
using testing::ExprTerm;
using testing::kGi;
using testing::NameTerm;
using testing::NodeBuilder;
using testing::PodBuilder;
using testing::Req;
using testing::SnapshotBuilder;
using testing::Spread;

NodeBuilder Big(std::string name) {
  return NodeBuilder(std::move(name)).Cpu(8000).Memory(32 * kGi);
}

struct Fixture {
  model::Snapshot snapshot;
  model::PodIndex pod;
  PodExplanation Explain() const {
    Scheduler scheduler(snapshot, model::SchedulerConfig{});
    return scheduler.Explain(pod);
  }
  std::string Reason(std::string_view node, std::string_view plugin) const {
    return FilterReason(Explain(), snapshot, node, plugin);
  }
};

Fixture With(SnapshotBuilder s, const PodBuilder& pod) {
  model::PodIndex i = s.NextPod();
  s.Add(pod);
  return Fixture{s.Build(), i};
}

TEST(NodeUnschedulableTest, CordonedNodeRejectsUnlessTolerated) {
  SnapshotBuilder s;
  s.Add(Big("cordoned").Unschedulable()).Add(Big("open"));
  Fixture plain = With(s, PodBuilder("p"));
  EXPECT_EQ(plain.Reason("cordoned", kNodeUnschedulable), "node(s) were unschedulable");
  EXPECT_EQ(plain.Reason("open", kNodeUnschedulable), "");
  Fixture tolerant =
      With(s, PodBuilder("p").Toleration("node.kubernetes.io/unschedulable", TolerationOp::kExists,
                                         "", TaintEffect::kNoSchedule));
  EXPECT_EQ(tolerant.Reason("cordoned", kNodeUnschedulable), "");
}

TEST(NodeNameTest, OnlyTheNamedNode) {
  SnapshotBuilder s;
  s.Add(Big("a")).Add(Big("b"));
  Fixture f = With(s, PodBuilder("p").NodeName("b"));
  EXPECT_EQ(f.Reason("a", kNodeName), "node(s) didn't match the requested node name");
  EXPECT_EQ(f.Reason("b", kNodeName), "");
}

TEST(TaintTolerationFilterTest, HardTaintsNeedTolerations) {
  SnapshotBuilder s;
  s.Add(Big("gpu").Taint("nvidia.com/gpu", "present"))
      .Add(Big("evict").Taint("maintenance", "", TaintEffect::kNoExecute))
      .Add(Big("soft").Taint("spot", "true", TaintEffect::kPreferNoSchedule))
      .Add(Big("clean"));
  Fixture f = With(s, PodBuilder("p"));
  EXPECT_EQ(f.Reason("gpu", kTaintToleration),
            "node(s) had untolerated taint {nvidia.com/gpu: present}");
  EXPECT_EQ(f.Reason("evict", kTaintToleration), "node(s) had untolerated taint {maintenance: }");
  EXPECT_EQ(f.Reason("soft", kTaintToleration), "");
  EXPECT_EQ(f.Reason("clean", kTaintToleration), "");
  Fixture tolerant = With(s, PodBuilder("p").Toleration("nvidia.com/gpu", TolerationOp::kExists));
  EXPECT_EQ(tolerant.Reason("gpu", kTaintToleration), "");
  Fixture wrong_value =
      With(s, PodBuilder("p").Toleration("nvidia.com/gpu", TolerationOp::kEqual, "absent"));
  EXPECT_NE(wrong_value.Reason("gpu", kTaintToleration), "");
}

TEST(NodeAffinityFilterTest, NodeSelectorAndRequiredTerms) {
  SnapshotBuilder s;
  s.Add(Big("a100").Label("gpu", "a100").Label("zone", "z1"))
      .Add(Big("h100").Label("gpu", "h100").Label("zone", "z2"))
      .Add(Big("cpu"));
  const std::string kReason = "node(s) didn't match Pod's node affinity/selector";
  Fixture selector = With(s, PodBuilder("p").NodeSelector("gpu", "h100"));
  EXPECT_EQ(selector.Reason("a100", kNodeAffinity), kReason);
  EXPECT_EQ(selector.Reason("h100", kNodeAffinity), "");
  EXPECT_EQ(selector.Reason("cpu", kNodeAffinity), kReason);
  // Terms are ORed; requirements within a term ANDed.
  Fixture terms =
      With(s, PodBuilder("p")
                  .RequiredNodeAffinity(ExprTerm({Req("gpu", SelectorOp::kIn, {"a100"}),
                                                  Req("zone", SelectorOp::kIn, {"z2"})}))
                  .RequiredNodeAffinity(ExprTerm({Req("gpu", SelectorOp::kDoesNotExist)})));
  EXPECT_EQ(terms.Reason("a100", kNodeAffinity), kReason);
  EXPECT_EQ(terms.Reason("h100", kNodeAffinity), kReason);
  EXPECT_EQ(terms.Reason("cpu", kNodeAffinity), "");
}

TEST(NodeAffinityFilterTest, MatchFieldsNarrowTheNodesInPreFilter) {
  SnapshotBuilder s;
  s.Add(Big("a")).Add(Big("b")).Add(Big("c").Cpu(10));
  // Terms are ORed, so the PreFilter's node set is {c, zz}; zz does not exist. (The API
  // allows one value per matchFields requirement.)
  Fixture f = With(s, PodBuilder("p")
                          .Container({{"cpu", 100}})
                          .RequiredNodeAffinity(NameTerm({"c"}))
                          .RequiredNodeAffinity(NameTerm({"zz"})));
  PodExplanation e = f.Explain();
  EXPECT_EQ(FilterReason(e, f.snapshot, "a", kNodeAffinity),
            "node(s) didn't match Pod's node affinity/selector");
  EXPECT_EQ(e.decision.message,
            "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) "
            "[NodeAffinity].");
}

TEST(NodeAffinityFilterTest, ConflictingMatchFieldsRejectInPreFilter) {
  SnapshotBuilder s;
  s.Add(Big("a")).Add(Big("b"));
  core::NodeSelectorTerm both = NameTerm({"a"});
  both.match_fields.push_back(Req("metadata.name", SelectorOp::kIn, {"b"}));
  Fixture f = With(s, PodBuilder("p").RequiredNodeAffinity(both));
  PodExplanation e = f.Explain();
  EXPECT_FALSE(e.decision.node.has_value());
  EXPECT_EQ(e.decision.message, "0/2 nodes are available: pod affinity terms conflict.");
  ASSERT_EQ(e.decision.rejections.size(), 1u);
  EXPECT_EQ(e.decision.rejections[0].plugin, "NodeAffinity");
  EXPECT_EQ(e.decision.rejections[0].count, 2);
}

TEST(NodeResourcesFitFilterTest, EveryShortfallIsAReason) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("small").Cpu(1000).Memory(1 * kGi))
      .Add(NodeBuilder("gpu").Cpu(8000).Memory(64 * kGi).Gpu(8))
      .Add(NodeBuilder("full").Cpu(8000).Memory(64 * kGi).Gpu(8).Pods(1))
      .Add(PodBuilder("running").NodeName("full"));
  Fixture f = With(
      s, PodBuilder("p").Container({{"cpu", 2000}, {"memory", 2 * kGi}, {"nvidia.com/gpu", 2}}));
  EXPECT_EQ(f.Reason("small", kNodeResourcesFit),
            "Insufficient cpu, Insufficient memory, Insufficient nvidia.com/gpu");
  EXPECT_EQ(f.Reason("gpu", kNodeResourcesFit), "");
  EXPECT_EQ(f.Reason("full", kNodeResourcesFit), "Too many pods");
}

TEST(NodeResourcesFitFilterTest, PlacedPodsConsumeCapacity) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n").Cpu(4000).Memory(8 * kGi).Gpu(8))
      .Add(PodBuilder("a").NodeName("n").Container({{"nvidia.com/gpu", 6}}))
      .Add(PodBuilder("done")
               .NodeName("n")
               .Phase(model::PodPhase::kSucceeded)
               .Container({{"nvidia.com/gpu", 2}}));
  Fixture three = With(s, PodBuilder("p").Container({{"nvidia.com/gpu", 3}}));
  EXPECT_EQ(three.Reason("n", kNodeResourcesFit), "Insufficient nvidia.com/gpu");
  // The succeeded pod holds nothing, so two still fit.
  Fixture two = With(s, PodBuilder("p").Container({{"nvidia.com/gpu", 2}}));
  EXPECT_EQ(two.Reason("n", kNodeResourcesFit), "");
}

TEST(NodeResourcesFitFilterTest, ZeroRequestsOfUnknownResourcesPass) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n").Cpu(4000).Memory(8 * kGi));
  Fixture zero = With(s, PodBuilder("p").Container({{"example.com/fpga", 0}}));
  EXPECT_EQ(zero.Reason("n", kNodeResourcesFit), "");
  Fixture one = With(s, PodBuilder("p").Container({{"example.com/fpga", 1}}));
  EXPECT_EQ(one.Reason("n", kNodeResourcesFit), "Insufficient example.com/fpga");
}

// Zones z1 (nodes a, b) and z2 (node c); existing matching pods: a 2, b 1, c 0.
SnapshotBuilder SpreadCluster() {
  SnapshotBuilder s;
  s.Add(Big("a").Label("zone", "z1"))
      .Add(Big("b").Label("zone", "z1"))
      .Add(Big("c").Label("zone", "z2"));
  s.Add(Big("nozone").NoLabel("zone"));
  for (auto [name, node] : {std::pair{"x1", "a"}, {"x2", "a"}, {"x3", "b"}}) {
    s.Add(PodBuilder(name).Label("app", "web").NodeName(node));
  }
  s.Add(PodBuilder("other-ns", "elsewhere").Label("app", "web").NodeName("c"));
  return s;
}

TEST(PodTopologySpreadFilterTest, SkewAgainstTheGlobalMinimum) {
  const std::string kSkew = "node(s) didn't match pod topology spread constraints";
  // Zone counts z1 = 3, z2 = 0 (the pod in another namespace does not count).
  Fixture zone = With(
      SpreadCluster(),
      PodBuilder("p").Label("app", "web").SpreadConstraint(Spread("zone", 1, {{"app", "web"}})));
  EXPECT_EQ(zone.Reason("a", kPodTopologySpread), kSkew);
  EXPECT_EQ(zone.Reason("c", kPodTopologySpread), "");
  EXPECT_EQ(zone.Reason("nozone", kPodTopologySpread),
            "node(s) didn't match pod topology spread constraints (missing required label)");
  // Hostname domains: a 2, b 1, c 0, nozone 0; maxSkew 2 admits b (1+1-0) but not a (2+1-0).
  Fixture host = With(SpreadCluster(),
                      PodBuilder("p")
                          .Label("app", "web")
                          .SpreadConstraint(Spread("kubernetes.io/hostname", 2, {{"app", "web"}})));
  EXPECT_EQ(host.Reason("a", kPodTopologySpread), kSkew);
  EXPECT_EQ(host.Reason("b", kPodTopologySpread), "");
  // A pod its own selector does not match adds nothing to the skew: 2 + 0 - 0 <= 2.
  Fixture other =
      With(SpreadCluster(),
           PodBuilder("p")
               .Label("app", "db")
               .SpreadConstraint(Spread("kubernetes.io/hostname", 2, {{"app", "web"}})));
  EXPECT_EQ(other.Reason("a", kPodTopologySpread), "");
}

TEST(PodTopologySpreadFilterTest, MinDomainsMakesTheMinimumZero) {
  // One zone only (z1 nodes); counts z1 = 3. Without minDomains the minimum is 3 and
  // 3 + 1 - 3 <= 1 passes; with minDomains 2 the minimum is 0 and it fails.
  SnapshotBuilder s;
  s.Add(Big("a").Label("zone", "z1")).Add(Big("b").Label("zone", "z1"));
  for (auto [name, node] : {std::pair{"x1", "a"}, {"x2", "a"}, {"x3", "b"}}) {
    s.Add(PodBuilder(name).Label("app", "web").NodeName(node));
  }
  model::TopologySpreadConstraint c = Spread("zone", 1, {{"app", "web"}});
  Fixture plain = With(s, PodBuilder("p").Label("app", "web").SpreadConstraint(c));
  EXPECT_EQ(plain.Reason("a", kPodTopologySpread), "");
  c.min_domains = 2;
  Fixture min = With(s, PodBuilder("p").Label("app", "web").SpreadConstraint(c));
  EXPECT_NE(min.Reason("a", kPodTopologySpread), "");
}

TEST(PodTopologySpreadFilterTest, NodeInclusionPolicies) {
  // z2's only node is tainted. With nodeTaintsPolicy Honor the tainted node's domain is not
  // counted, so the minimum comes from z1 alone.
  SnapshotBuilder s;
  s.Add(Big("a").Label("zone", "z1")).Add(Big("t").Label("zone", "z2").Taint("dedicated", "x"));
  s.Add(PodBuilder("x1").Label("app", "web").NodeName("a"));
  model::TopologySpreadConstraint c = Spread("zone", 1, {{"app", "web"}});
  Fixture ignore = With(s, PodBuilder("p").Label("app", "web").SpreadConstraint(c));
  EXPECT_NE(ignore.Reason("a", kPodTopologySpread), "");  // 1 + 1 - 0 > 1
  c.node_taints_policy = model::NodeInclusionPolicy::kHonor;
  Fixture honor = With(s, PodBuilder("p").Label("app", "web").SpreadConstraint(c));
  EXPECT_EQ(honor.Reason("a", kPodTopologySpread), "");  // 1 + 1 - 1 <= 1
}

TEST(PodTopologySpreadFilterTest, MatchLabelKeysNarrowTheSelector) {
  SnapshotBuilder s;
  s.Add(Big("a").Label("zone", "z1")).Add(Big("b").Label("zone", "z2"));
  s.Add(PodBuilder("old").Label("app", "web").Label("rev", "1").NodeName("a"));
  model::TopologySpreadConstraint c = Spread("zone", 1, {{"app", "web"}});
  Fixture plain =
      With(s, PodBuilder("p").Label("app", "web").Label("rev", "2").SpreadConstraint(c));
  EXPECT_NE(plain.Reason("a", kPodTopologySpread), "");
  c.match_label_keys = {"rev"};
  Fixture keyed =
      With(s, PodBuilder("p").Label("app", "web").Label("rev", "2").SpreadConstraint(c));
  EXPECT_EQ(keyed.Reason("a", kPodTopologySpread), "");
}

SnapshotBuilder AffinityCluster() {
  SnapshotBuilder s;
  s.Add(Big("a").Label("zone", "z1"))
      .Add(Big("b").Label("zone", "z1"))
      .Add(Big("c").Label("zone", "z2"));
  s.Add(PodBuilder("cache").Label("app", "cache").NodeName("a"));
  return s;
}

TEST(InterPodAffinityFilterTest, RequiredAffinityFollowsTheDomain) {
  Fixture f = With(AffinityCluster(),
                   PodBuilder("p").PodAffinity(AffinityTerm({{"app", "cache"}}, "zone")));
  EXPECT_EQ(f.Reason("b", kInterPodAffinity), "");
  EXPECT_EQ(f.Reason("c", kInterPodAffinity), "node(s) didn't match pod affinity rules");
  Fixture host =
      With(AffinityCluster(),
           PodBuilder("p").PodAffinity(AffinityTerm({{"app", "cache"}}, "kubernetes.io/hostname")));
  EXPECT_EQ(host.Reason("a", kInterPodAffinity), "");
  EXPECT_EQ(host.Reason("b", kInterPodAffinity), "node(s) didn't match pod affinity rules");
}

TEST(InterPodAffinityFilterTest, FirstPodOfASelfAffineGroupMayGoAnywhere) {
  Fixture f =
      With(AffinityCluster(),
           PodBuilder("p").Label("app", "new").PodAffinity(AffinityTerm({{"app", "new"}}, "zone")));
  EXPECT_EQ(f.Reason("c", kInterPodAffinity), "");
  Fixture not_self =
      With(AffinityCluster(), PodBuilder("p").PodAffinity(AffinityTerm({{"app", "new"}}, "zone")));
  EXPECT_EQ(not_self.Reason("c", kInterPodAffinity), "node(s) didn't match pod affinity rules");
}

TEST(InterPodAffinityFilterTest, RequiredAntiAffinity) {
  Fixture f = With(AffinityCluster(),
                   PodBuilder("p").PodAntiAffinity(AffinityTerm({{"app", "cache"}}, "zone")));
  EXPECT_EQ(f.Reason("b", kInterPodAffinity), "node(s) didn't match pod anti-affinity rules");
  EXPECT_EQ(f.Reason("c", kInterPodAffinity), "");
}

TEST(InterPodAffinityFilterTest, ExistingPodsAntiAffinity) {
  SnapshotBuilder s = AffinityCluster();
  s.Add(PodBuilder("loner")
            .Label("app", "loner")
            .NodeName("c")
            .PodAntiAffinity(AffinityTerm({{"app", "web"}}, "zone")));
  Fixture web = With(s, PodBuilder("p").Label("app", "web"));
  EXPECT_EQ(web.Reason("c", kInterPodAffinity),
            "node(s) didn't satisfy existing pods anti-affinity rules");
  EXPECT_EQ(web.Reason("a", kInterPodAffinity), "");
  Fixture other = With(s, PodBuilder("p").Label("app", "db"));
  EXPECT_EQ(other.Reason("c", kInterPodAffinity), "");
}

TEST(InterPodAffinityFilterTest, NamespaceSelectorsAndLists) {
  SnapshotBuilder s;
  s.Namespace("team-a", {{"team", "a"}}).Namespace("team-b", {{"team", "b"}});
  s.Add(Big("a").Label("zone", "z1")).Add(Big("b").Label("zone", "z2"));
  s.Add(PodBuilder("cache", "team-a").Label("app", "cache").NodeName("a"));
  model::PodAffinityTerm own_ns = AffinityTerm({{"app", "cache"}}, "zone");
  Fixture same = With(s, PodBuilder("p", "team-b").PodAffinity(own_ns));
  EXPECT_NE(same.Reason("a", kInterPodAffinity), "");  // its own namespace has no cache
  model::PodAffinityTerm by_selector = own_ns;
  by_selector.namespace_selector = testing::MatchLabels({{"team", "a"}});
  Fixture sel = With(s, PodBuilder("p", "team-b").PodAffinity(by_selector));
  EXPECT_EQ(sel.Reason("a", kInterPodAffinity), "");
  EXPECT_NE(sel.Reason("b", kInterPodAffinity), "");
  model::PodAffinityTerm all = own_ns;
  all.namespace_selector = core::LabelSelector{};
  Fixture any = With(s, PodBuilder("p", "team-b").PodAffinity(all));
  EXPECT_EQ(any.Reason("a", kInterPodAffinity), "");
  model::PodAffinityTerm listed = own_ns;
  listed.namespaces = {"team-a"};
  Fixture list = With(s, PodBuilder("p", "team-b").PodAffinity(listed));
  EXPECT_EQ(list.Reason("a", kInterPodAffinity), "");
}

TEST(FilterOrderTest, UpstreamReportsTheFirstFailingFilterOnly) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n").Cpu(100).Memory(kGi).Taint("gpu", "true").Unschedulable());
  Fixture f = With(s, PodBuilder("p").Container({{"cpu", 1000}}));
  PodExplanation e = f.Explain();
  // Explain shows every filter's verdict...
  EXPECT_EQ(FilterReason(e, f.snapshot, "n", kTaintToleration),
            "node(s) had untolerated taint {gpu: true}");
  EXPECT_EQ(FilterReason(e, f.snapshot, "n", kNodeResourcesFit), "Insufficient cpu");
  // ...the message only the first failure, as the framework stops there.
  EXPECT_EQ(e.decision.message, "0/1 nodes are available: 1 node(s) were unschedulable.");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
