#include "cli/explain_printer.h"

#include <gtest/gtest.h>

#include <sstream>

namespace berth::cli {
namespace BERTH_UNITY_ID {

constexpr int64_t kGi = int64_t{1} << 30;

// A hand-made explanation: the printer's layout is tested without running the scheduler.
struct Fixture {
  model::Snapshot snapshot;
  engine::Explanation explanation;

  Fixture() {
    const model::ResourceId gpu = snapshot.resources.Intern("nvidia.com/gpu");
    for (const char* name : {"gpu-b", "gpu-a", "cpu-1"}) {
      model::Node node;
      node.meta.name = name;
      snapshot.nodes.push_back(node);
    }
    model::Pod pod;
    pod.meta.name = "train-0";
    pod.meta.namespace_ = "ml";
    pod.priority = 1000;
    pod.priority_class_name = "high";
    pod.node_selector["nvidia.com/gpu.product"] = "NVIDIA-H100-80GB-HBM3";
    core::Toleration toleration;
    toleration.key = "nvidia.com/gpu";
    toleration.op = core::TolerationOp::kExists;
    toleration.effect = core::TaintEffect::kNoSchedule;
    pod.tolerations.push_back(toleration);
    model::Container container;
    container.requests.Set(model::kCpu, 1500);
    container.requests.Set(model::kMemory, 16 * kGi);
    container.requests.Set(gpu, 4);
    pod.containers.push_back(container);
    snapshot.pods.push_back(pod);

    explanation.queue_position = 3;
    explanation.queue_length = 7;
    binding::PodExplanation& e = explanation.pod;
    e.pod = model::PodIndex{0};
    binding::NodeVerdict cpu;
    cpu.node = model::NodeIndex{2};
    cpu.filters = {{"TaintToleration", true, ""},
                   {"NodeAffinity", false, "node(s) didn't match Pod's node affinity/selector"}};
    binding::NodeVerdict a;
    a.node = model::NodeIndex{1};
    a.feasible = true;
    a.filters = {{"TaintToleration", true, ""}, {"NodeAffinity", true, ""}};
    a.scores = {{"NodeResourcesFit", 97, 97, 1}, {"TaintToleration", 0, 100, 3}};
    a.total_score = 397;
    binding::NodeVerdict b = a;
    b.node = model::NodeIndex{0};
    e.nodes = {b, a, cpu};  // not in name order: the printer sorts
    e.decision.pod = e.pod;
    e.decision.node = model::NodeIndex{1};
  }
};

TEST(ExplainPrinterTest, FullListsEveryNodeInNameOrder) {
  Fixture f;
  std::ostringstream out;
  PrintExplanation(f.snapshot, f.explanation, ExplainDetail::kFull, out);
  EXPECT_EQ(out.str(),
            "Pod ml/train-0\n"
            "  Priority:       1000 (high)\n"
            "  Requests:       cpu 1500m, memory 16Gi, nvidia.com/gpu 4\n"
            "  Node selector:  nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3\n"
            "  Tolerations:    nvidia.com/gpu:NoSchedule op=Exists\n"
            "  Queue:          3 of 7 pending pods (2 pods ahead of it were scheduled first)\n"
            "\n"
            "Nodes (3, in name order; an infeasible node counts under its first failing filter)\n"
            "\n"
            "  cpu-1: infeasible: node(s) didn't match Pod's node affinity/selector\n"
            "    FILTER           VERDICT\n"
            "    TaintToleration  passed\n"
            "    NodeAffinity     node(s) didn't match Pod's node affinity/selector\n"
            "\n"
            "  gpu-a: feasible, total score 397\n"
            "    FILTER           VERDICT\n"
            "    TaintToleration  passed\n"
            "    NodeAffinity     passed\n"
            "\n"
            "    SCORE             RAW  NORMALIZED  WEIGHT  WEIGHTED\n"
            "    NodeResourcesFit   97          97       1        97\n"
            "    TaintToleration     0         100       3       300\n"
            "    total                                           397\n"
            "\n"
            "  gpu-b: feasible, total score 397\n"
            "    FILTER           VERDICT\n"
            "    TaintToleration  passed\n"
            "    NodeAffinity     passed\n"
            "\n"
            "    SCORE             RAW  NORMALIZED  WEIGHT  WEIGHTED\n"
            "    NodeResourcesFit   97          97       1        97\n"
            "    TaintToleration     0         100       3       300\n"
            "    total                                           397\n"
            "\n"
            "Decision: bound to node gpu-a: highest total score 397 (tied with 1 other node; "
            "ties broken by node name)\n");
}

TEST(ExplainPrinterTest, SummaryGroupsRejections) {
  Fixture f;
  f.explanation.pod.decision.node.reset();
  f.explanation.pod.decision.message = "0/3 nodes are available: ...";
  for (auto& verdict : f.explanation.pod.nodes) {
    if (verdict.feasible) {
      verdict.feasible = false;
      verdict.filters.push_back({"NodeResourcesFit", false, "Insufficient nvidia.com/gpu"});
    }
  }
  std::ostringstream out;
  PrintExplanation(f.snapshot, f.explanation, ExplainDetail::kSummary, out);
  EXPECT_EQ(
      out.str(),
      "Pod ml/train-0\n"
      "  Priority:       1000 (high)\n"
      "  Requests:       cpu 1500m, memory 16Gi, nvidia.com/gpu 4\n"
      "  Node selector:  nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3\n"
      "  Tolerations:    nvidia.com/gpu:NoSchedule op=Exists\n"
      "  Queue:          3 of 7 pending pods (2 pods ahead of it were scheduled first)\n"
      "  Rejected by:\n"
      "    NodeAffinity      node(s) didn't match Pod's node affinity/selector  1 node   cpu-1\n"
      "    NodeResourcesFit  Insufficient nvidia.com/gpu                        2 nodes  "
      "gpu-a, gpu-b\n"
      "  Decision: unschedulable: 0/3 nodes are available: ...\n");
}

TEST(ExplainPrinterTest, ShowsRequiredNodeAffinity) {
  Fixture f;
  model::Pod& pod = f.snapshot.pods[0];
  pod.node_selector.clear();
  pod.tolerations.clear();
  core::NodeSelectorTerm h100;
  h100.match_expressions.push_back(
      {"nvidia.com/gpu.product", core::SelectorOp::kIn, {"NVIDIA-H100-80GB-HBM3", "NVIDIA-H200"}});
  h100.match_expressions.push_back({"nvidia.com/gpu.count", core::SelectorOp::kGt, {"4"}});
  core::NodeSelectorTerm named;
  named.match_fields.push_back({"metadata.name", core::SelectorOp::kIn, {"gpu-a"}});
  pod.node_affinity.required = core::NodeSelector{{h100, named}};
  std::ostringstream out;
  PrintExplanation(f.snapshot, f.explanation, ExplainDetail::kSummary, out);
  EXPECT_NE(out.str().find("  Node affinity:  (nvidia.com/gpu.product In [NVIDIA-H100-80GB-HBM3, "
                           "NVIDIA-H200] and nvidia.com/gpu.count Gt [4]) or (metadata.name In "
                           "[gpu-a])\n  Tolerations:    none\n"),
            std::string::npos)
      << out.str();
  // Feasible nodes and the tie are summarised, not listed filter by filter.
  EXPECT_NE(out.str().find("  Feasible: 2 nodes; best scores: gpu-a 397, gpu-b 397\n"),
            std::string::npos)
      << out.str();
}

TEST(FormatResourcesTest, KubectlUnits) {
  model::ResourceCatalog catalog;
  const model::ResourceId mig = catalog.Intern("nvidia.com/mig-1g.10gb");
  model::ResourceVector v;
  v.Set(model::kCpu, 32000);
  v.Set(model::kMemory, 1536LL * 1024 * 1024);
  v.Set(mig, 2);
  EXPECT_EQ(FormatResources(catalog, v), "cpu 32, memory 1536Mi, nvidia.com/mig-1g.10gb 2");
  EXPECT_EQ(FormatResources(catalog, model::ResourceVector{}), "none");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
