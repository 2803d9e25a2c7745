// The six paper scorers (berth's is in berth_scorer.cc). Each follows its upstream plugin's
// arithmetic step by step, integer divisions and float-to-integer truncations included, because
// those truncations decide which nodes tie and so where the random tie-breaks fall.
#include <algorithm>
#include <array>

#include "gpu/berth_scorer.h"
#include "gpu/fgd_whatif.h"
#include "gpu/gpu_choice.h"
#include "gpu/policy.h"
#include "gpu/policy_scores.h"

namespace berth::gpu {
namespace {

// The "largest node" the FGD plugins normalise by (OpenB's: 128 cores, 8 GPUs).
constexpr double kMaxSpecCpuMilli = 128000;
constexpr int64_t kMaxSpecGpuMilli = 8000;

class RandomScorer final : public NodeScorer {
 public:
  Policy policy() const override { return Policy::kRandom; }
  bool always_uniform() const override { return true; }
  // Upstream's PreScore draws one feasible node uniformly and scores it 100, the rest 0;
  // every node scoring the same here, a uniform pick among the ties is the same draw.
  int64_t Score(const PodSpec&, const NodeState&, double) const override { return 0; }
  GpuSet ChooseGpus(const PodSpec& pod, const NodeState& node, double,
                    RandomSource& rng) const override {
    return RandomFitGpus(pod, node, rng);
  }
};

class DotProdScorer final : public NodeScorer {
 public:
  Policy policy() const override { return Policy::kDotProd; }
  // The "merge" dimension and "max" normalisation of the paper's runs: node vector (free
  // CPU, total free GPU share), pod vector (CPU, total GPU share), both divided by
  // (128 cores, 8 GPUs); score = 1 - dot / 2, scaled to 100 and truncated.
  int64_t Score(const PodSpec& pod, const NodeState& node, double) const override {
    const double node_cpu = static_cast<double>(node.cpu_free_milli) / kMaxSpecCpuMilli;
    const double node_gpu =
        static_cast<double>(node.GpuFreeMilli()) / static_cast<double>(kMaxSpecGpuMilli);
    const double pod_cpu = static_cast<double>(pod.cpu_milli) / kMaxSpecCpuMilli;
    const double pod_gpu =
        static_cast<double>(pod.TotalGpuMilli()) / static_cast<double>(kMaxSpecGpuMilli);
    const double score = DotProdUnitScore(node_cpu, node_gpu, pod_cpu, pod_gpu);
    return static_cast<int64_t>(static_cast<double>(kMaxNodeScore) * score);
  }
  GpuSet ChooseGpus(const PodSpec& pod, const NodeState& node, double,
                    RandomSource&) const override {
    return BestFitGpus(pod, node);
  }
};

class ClusteringScorer final : public NodeScorer {
 public:
  Policy policy() const override { return Policy::kClustering; }
  // Bands of 25: (75,100] only the pod's own kind on the node, (50,75] its kind among others,
  // (25,50] no GPU pods yet, (0,25] other kinds only; inside a band, more allocated GPU
  // (counted against 8 GPUs) scores higher. CPU-only pods score 0 everywhere.
  int64_t Score(const PodSpec& pod, const NodeState& node, double) const override {
    const int tag = AffinityTag(pod);
    if (tag == kNoAffinityTag) return kMinNodeScore;
    return ClusteringScore(kMaxSpecGpuMilli - node.GpuFreeMilli(), kMaxSpecGpuMilli,
                           node.pods_by_tag[tag] > 0, node.tags_present);
  }
  GpuSet ChooseGpus(const PodSpec& pod, const NodeState& node, double,
                    RandomSource&) const override {
    return BestFitGpus(pod, node);
  }
};

class PackingScorer final : public NodeScorer {
 public:
  Policy policy() const override { return Policy::kPacking; }
  int64_t Score(const PodSpec& pod, const NodeState& node, double) const override {
    if (pod.gpu_milli <= 0) return kMinNodeScore;
    const int32_t fully_free = node.FullyFreeGpus();
    if (fully_free == node.num_gpu) return PackingIdleNodeScore(fully_free);
    // The GPUs the pod would take, least free first (a stable sort by free share).
    std::array<int, kMaxGpusPerNode> order{};
    for (int i = 0; i < node.num_gpu; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.begin() + node.num_gpu, [&node](int a, int b) {
      return node.gpu_free_milli[a] < node.gpu_free_milli[b];
    });
    int needed = pod.num_gpu;
    int fully_free_used = 0;
    int64_t free_pct_on_used = 0;
    for (int k = 0; k < node.num_gpu && needed > 0; ++k) {
      const int32_t free = node.gpu_free_milli[order[k]];
      if (pod.gpu_milli > free) continue;
      --needed;
      if (free == kMilliPerGpu) ++fully_free_used;
      free_pct_on_used += int64_t{free} * 100 / kMilliPerGpu;
    }
    return PackingUsedNodeScore(fully_free_used, free_pct_on_used);
  }
  GpuSet ChooseGpus(const PodSpec& pod, const NodeState& node, double,
                    RandomSource&) const override {
    return BestFitGpus(pod, node);
  }
};

class BestFitScorer final : public NodeScorer {
 public:
  Policy policy() const override { return Policy::kBestFit; }
  // 1 - sum over (CPU, GPU) of 0.5 x (free - requested) / (128 cores, 8 GPUs), x 100,
  // truncated. Upstream then min-max normalises the scores, which keeps the same top nodes.
  int64_t Score(const PodSpec& pod, const NodeState& node, double) const override {
    const std::array<int64_t, 2> slack = {node.cpu_free_milli - pod.cpu_milli,
                                          node.GpuFreeMilli() - pod.TotalGpuMilli()};
    const std::array<double, 2> max_spec = {kMaxSpecCpuMilli,
                                            static_cast<double>(kMaxSpecGpuMilli)};
    const double score = BestFitUnitScore(slack, max_spec);
    return static_cast<int64_t>(score * static_cast<double>(kMaxNodeScore));
  }
  GpuSet ChooseGpus(const PodSpec& pod, const NodeState& node, double,
                    RandomSource&) const override {
    return BestFitGpus(pod, node);
  }
};

class FgdScorer final : public NodeScorer {
 public:
  explicit FgdScorer(const FragmentationModel& fragmentation) : what_if_(fragmentation) {}
  Policy policy() const override { return Policy::kFgd; }
  // sigmoid((F_before - F_after) / 1000) x 100, truncated: the smaller the growth of the
  // node's fragment, the higher; a sharing pod is scored on its best GPU.
  int64_t Score(const PodSpec& pod, const NodeState& node,
                double node_fragment_milli) const override {
    return what_if_.Evaluate(pod, node, node_fragment_milli, GpuTieRule::kFirst).score;
  }
  GpuSet ChooseGpus(const PodSpec& pod, const NodeState& node, double node_fragment_milli,
                    RandomSource&) const override {
    if (pod.IsGpuShare()) {
      return GpuSet::Of(what_if_.Evaluate(pod, node, node_fragment_milli, GpuTieRule::kFirst).gpu);
    }
    if (pod.num_gpu == 0) return {};
    return FirstFreeGpus(pod, node);
  }

 private:
  // What-if states repeat across nodes and pods; its memo is why this scorer is one per run.
  mutable FgdWhatIf what_if_;
};

}  // namespace

std::unique_ptr<NodeScorer> MakeScorer(Policy policy, const FragmentationModel* fragmentation,
                                       const GpuCluster* cluster) {
  switch (policy) {
    case Policy::kRandom:
      return std::make_unique<RandomScorer>();
    case Policy::kDotProd:
      return std::make_unique<DotProdScorer>();
    case Policy::kClustering:
      return std::make_unique<ClusteringScorer>();
    case Policy::kPacking:
      return std::make_unique<PackingScorer>();
    case Policy::kBestFit:
      return std::make_unique<BestFitScorer>();
    case Policy::kFgd:
      BERTH_CHECK(fragmentation != nullptr, "FGD scores against a fragmentation model");
      return std::make_unique<FgdScorer>(*fragmentation);
    case Policy::kBerth:
      BERTH_CHECK(fragmentation != nullptr && cluster != nullptr,
                  "berth scores against a fragmentation model and the cluster's totals");
      return MakeBerthScorer(*fragmentation, *cluster);
  }
  BERTH_CHECK(false, "a Policy value outside the table");
  return nullptr;
}

}  // namespace berth::gpu
