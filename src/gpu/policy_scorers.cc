// The six paper scorers (berth's is in berth_scorer.cc). Each follows its upstream plugin's
// arithmetic step by step, integer divisions and float-to-integer truncations included, because
// those truncations decide which nodes tie and so where the random tie-breaks fall. Each reads
// both node inputs (node_scorer.h) and calls the one formula of policy_scores.h on what it read:
// on NodeState with OpenB's fixed max spec, as the replay reproduces the paper; on binding's
// KaiNode with the cluster's own max spec, clamped, as plan has always scored.
#include <algorithm>
#include <array>
#include <optional>
#include <utility>
#include <vector>

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

// A pod's GpuClustering kind on the KAI view: 0 for a fraction, k for k whole GPUs.
int64_t KaiKind(const GpuRequest& pod) { return pod.fraction.has_value() ? 0 : pod.whole; }

class RandomScorer final : public NodeScorer {
 public:
  Policy policy() const override { return Policy::kRandom; }
  bool always_uniform() const override { return true; }
  // Upstream's PreScore draws one feasible node uniformly and scores it 100, the rest 0;
  // every node scoring the same here, a uniform pick among the ties is the same draw.
  int64_t Score(const PodSpec&, const NodeState&, double) const override { return 0; }
  int64_t Score(const GpuRequest&, const KaiNode&, const KaiCluster&) const override { return 0; }
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
  int64_t Score(const GpuRequest& pod, const KaiNode& node,
                const KaiCluster& cluster) const override {
    const GpuNodeView v = node.View();
    const int64_t max_cpu_milli = cluster.max_spec.cpu_milli;
    const auto max_cpu = static_cast<double>(max_cpu_milli);
    const auto max_gpu = static_cast<double>(cluster.max_spec.gpu_milli);
    // Each component is at most 1 (nothing exceeds the largest node), so 0 <= dot <= 2.
    const double node_cpu =
        static_cast<double>(std::min(v.cpu_free_milli, max_cpu_milli)) / max_cpu;
    const double node_gpu = static_cast<double>(v.IdleMilli()) / max_gpu;
    const double pod_cpu = static_cast<double>(std::min(pod.cpu_milli, max_cpu_milli)) / max_cpu;
    const double pod_gpu = static_cast<double>(v.RequestMilli(pod)) / max_gpu;
    return ClampedScore(DotProdUnitScore(node_cpu, node_gpu, pod_cpu, pod_gpu));
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
  // On the KAI view a fraction is the "sharing" kind and the band counts against the
  // cluster's largest node.
  int64_t Score(const GpuRequest& pod, const KaiNode& node,
                const KaiCluster& cluster) const override {
    const int64_t max_gpu = cluster.max_spec.gpu_milli;
    const KindsOnNode kinds = node.Kinds(KaiKind(pod));
    return ClusteringScore(std::max<int64_t>(0, max_gpu - node.View().IdleMilli()), max_gpu,
                           kinds.same_kind, kinds.kinds_present);
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
  // On the KAI view the pod's GPUs are where the node's ledger puts its fraction; a
  // whole-GPU pod takes free GPUs only (the view keeps no fully free shared GPU).
  int64_t Score(const GpuRequest& pod, const KaiNode& node, const KaiCluster&) const override {
    const GpuNodeView v = node.View();
    if (v.shared.empty() && v.free_whole == v.gpus) return PackingIdleNodeScore(v.free_whole);
    int64_t free_gpus_taken = 0;
    int64_t free_pct_on_taken = 0;
    if (pod.fraction.has_value()) {
      std::optional<std::vector<int32_t>> choice = node.Choose(pod);
      // Only for a node GpuSharing let through with that filter disabled: nowhere to go.
      if (!choice.has_value()) return 0;
      for (int32_t slot : *choice) {
        if (slot < 0) {
          ++free_gpus_taken;
        } else {
          free_pct_on_taken += v.shared[static_cast<size_t>(slot)].milli_free * 100 / kMilliGpu;
        }
      }
    } else {
      free_gpus_taken = pod.whole;
    }
    return PackingUsedNodeScore(free_gpus_taken, free_pct_on_taken);
  }
  GpuSet ChooseGpus(const PodSpec& pod, const NodeState& node, double,
                    RandomSource&) const override {
    return BestFitGpus(pod, node);
  }
};

class BestFitScorer final : public NodeScorer {
 public:
  Policy policy() const override { return Policy::kBestFit; }
  bool min_max_normalised() const override { return true; }
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
  int64_t Score(const GpuRequest& pod, const KaiNode& node,
                const KaiCluster& cluster) const override {
    const GpuNodeView v = node.View();
    const std::array<int64_t, 2> free = {v.cpu_free_milli, v.IdleMilli()};
    const std::array<int64_t, 2> request = {pod.cpu_milli, v.RequestMilli(pod)};
    const std::array<double, 2> max_spec = {static_cast<double>(cluster.max_spec.cpu_milli),
                                            static_cast<double>(cluster.max_spec.gpu_milli)};
    std::array<int64_t, 2> slack{};
    // A feasible node has room for the request; max(0, ...) only guards inconsistent input.
    for (size_t i = 0; i < 2; ++i) slack[i] = std::max<int64_t>(0, free[i] - request[i]);
    return ClampedScore(BestFitUnitScore(slack, max_spec));
  }
  GpuSet ChooseGpus(const PodSpec& pod, const NodeState& node, double,
                    RandomSource&) const override {
    return BestFitGpus(pod, node);
  }
};

class FgdScorer final : public NodeScorer {
 public:
  // `fragmentation` is null for a scorer that reads only KaiNodes (binding's).
  explicit FgdScorer(const FragmentationModel* fragmentation) {
    if (fragmentation != nullptr) what_if_.emplace(*fragmentation);
  }
  Policy policy() const override { return Policy::kFgd; }
  // sigmoid((F_before - F_after) / 1000) x 100, truncated: the smaller the growth of the
  // node's fragment, the higher; a sharing pod is scored on its best GPU.
  int64_t Score(const PodSpec& pod, const NodeState& node,
                double node_fragment_milli) const override {
    return WhatIf().Evaluate(pod, node, node_fragment_milli, GpuTieRule::kFirst).score;
  }
  // On the KAI view the fraction goes where the node's ledger puts it, and F after is the
  // view's; scores are kept per node until its version moves.
  int64_t Score(const GpuRequest& pod, const KaiNode& node,
                const KaiCluster& cluster) const override {
    if (std::optional<int64_t> memo = KaiMemo(node, pod)) return *memo;
    std::optional<std::vector<int32_t>> choice = node.Choose(pod);
    // Only for a node GpuSharing let through with that filter disabled: nowhere to go.
    if (!choice.has_value()) return 0;
    const double before = node.FragmentMilli();
    const GpuNodeView after = Placed(node.View(), pod, *choice);
    const int64_t score = FgdScore(before, cluster.fragmentation->FragmentMilli(after));
    StoreKaiMemo(node, pod, score);
    return score;
  }
  GpuSet ChooseGpus(const PodSpec& pod, const NodeState& node, double node_fragment_milli,
                    RandomSource&) const override {
    if (pod.IsGpuShare()) {
      return GpuSet::Of(WhatIf().Evaluate(pod, node, node_fragment_milli, GpuTieRule::kFirst).gpu);
    }
    if (pod.num_gpu == 0) return {};
    return FirstFreeGpus(pod, node);
  }

 private:
  // A node's memo keeps the scores of this many distinct requests; a plan rotates among a
  // few pod templates, and an evicted entry only costs one re-evaluation.
  static constexpr size_t kKaiMemoPerNode = 8;
  struct KaiMemoEntry {
    uint32_t version = 0;
    std::vector<std::pair<GpuRequest, int64_t>> scores;
  };

  FgdWhatIf& WhatIf() const {
    BERTH_CHECK(what_if_.has_value(), "FGD scores NodeStates against a fragmentation model");
    return *what_if_;
  }
  std::optional<int64_t> KaiMemo(const KaiNode& node, const GpuRequest& pod) const {
    const auto i = static_cast<size_t>(node.index());
    if (i >= kai_memo_.size() || kai_memo_[i].version != node.version()) return std::nullopt;
    for (const auto& [request, score] : kai_memo_[i].scores) {
      if (request == pod) return score;
    }
    return std::nullopt;
  }
  void StoreKaiMemo(const KaiNode& node, const GpuRequest& pod, int64_t score) const {
    const auto i = static_cast<size_t>(node.index());
    if (i >= kai_memo_.size()) kai_memo_.resize(i + 1);
    KaiMemoEntry& e = kai_memo_[i];
    if (e.version != node.version() || e.scores.size() >= kKaiMemoPerNode) {
      e.scores.clear();
      e.version = node.version();
    }
    e.scores.emplace_back(pod, score);
  }

  // What-if states repeat across nodes and pods; its memo is why this scorer is one per run.
  mutable std::optional<FgdWhatIf> what_if_;
  // FGD's last scores per KaiNode, by node index.
  mutable std::vector<KaiMemoEntry> kai_memo_;
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
      return std::make_unique<FgdScorer>(fragmentation);
    case Policy::kBerth:
      BERTH_CHECK(fragmentation != nullptr && cluster != nullptr,
                  "berth scores against a fragmentation model and the cluster's totals");
      return MakeBerthScorer(*fragmentation, *cluster);
  }
  BERTH_CHECK(false, "a Policy value outside the table");
  return nullptr;
}

}  // namespace berth::gpu
