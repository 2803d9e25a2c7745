#include "gpu/berth_scorer.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"
#include "gpu/fgd_whatif.h"
#include "gpu/gpu_choice.h"

namespace berth::gpu {
namespace {

constexpr int64_t kPressureSteps = 3;  // levels per unit of pressure
constexpr int64_t kMaxPressureLevel =
    static_cast<int64_t>(ModelPressure::kMaxPressure) * kPressureSteps;
constexpr int64_t kFgdScores = 101;      // FGD scores are 0..100
constexpr int64_t kAlignmentSteps = 10;  // levels 0..10
constexpr int64_t kAlignmentLevels = kAlignmentSteps + 1;

int ModelIndex(GpuModelId model) { return static_cast<uint8_t>(model); }

class BerthScorer final : public NodeScorer {
 public:
  BerthScorer(const FragmentationModel& fragmentation, const GpuCluster& cluster)
      : what_if_(fragmentation),
        cluster_(cluster),
        pressure_(fragmentation.typical_pods(), cluster) {}

  Policy policy() const override { return Policy::kBerth; }
  // Model pressure reads the cluster's free GPUs per model, which only the node model's
  // GpuCluster keeps: binding scores berth's policy on its node model (GpuShareNodeModel).
  int64_t Score(const GpuRequest&, const KaiNode&, const KaiCluster&) const override {
    BERTH_CHECK(false, "berth's policy scores NodeStates only (ReadsKaiView)");
    return 0;
  }

  int64_t Score(const PodSpec& pod, const NodeState& node,
                double node_fragment_milli) const override {
    // A CPU-only pod takes no GPU, so no model's GPUs are at stake: pressure does not apply.
    const int64_t pressure =
        pod.num_gpu > 0 ? PressureLevel(pressure_.Pressure(node.model, cluster_)) : 0;
    const int64_t fgd =
        what_if_.Evaluate(pod, node, node_fragment_milli, GpuTieRule::kTightest).score;
    return BerthNodeScore(pressure, fgd, AlignmentLevel(pod, node));
  }

  GpuSet ChooseGpus(const PodSpec& pod, const NodeState& node, double node_fragment_milli,
                    RandomSource&) const override {
    if (pod.IsGpuShare()) {
      return GpuSet::Of(
          what_if_.Evaluate(pod, node, node_fragment_milli, GpuTieRule::kTightest).gpu);
    }
    if (pod.num_gpu == 0) return {};
    return FirstFreeGpus(pod, node);
  }

 private:
  mutable FgdWhatIf what_if_;  // FGD's memo: why the scorer is one per run
  const GpuCluster& cluster_;
  ModelPressure pressure_;
};

}  // namespace

ModelPressure::ModelPressure(const std::vector<TypicalPod>& typical_pods,
                             const GpuCluster& cluster) {
  std::array<double, kMaxGpuModels> capacity{};
  for (int m = 0; m < kMaxGpuModels; ++m) {
    capacity[m] =
        static_cast<double>(cluster.gpu_capacity_milli(GpuModelId{static_cast<uint8_t>(m)}));
  }
  double demand_total = 0;
  std::array<double, kMaxGpuModels> demand{};
  for (const TypicalPod& pod : typical_pods) {
    const double gpus = pod.frequency * pod.num_gpu * pod.gpu_milli / kMilliPerGpu;
    demand_total += gpus;
    const uint64_t allowed = pod.allowed_models.bits();
    if (allowed == 0 || gpus == 0) continue;  // any model will do: no claim on one
    double allowed_capacity = 0;
    for (int m = 0; m < kMaxGpuModels; ++m) {
      if ((allowed >> m) & 1U) allowed_capacity += capacity[m];
    }
    if (allowed_capacity <= 0) continue;  // it fits nowhere in this cluster
    for (int m = 0; m < kMaxGpuModels; ++m) {
      if ((allowed >> m) & 1U) demand[m] += gpus * capacity[m] / allowed_capacity;
    }
  }
  if (demand_total <= 0) return;
  for (int m = 0; m < kMaxGpuModels; ++m) share_[m] = demand[m] / demand_total;
}

double ModelPressure::share(GpuModelId model) const {
  return model == kNoGpuModel ? 0 : share_[ModelIndex(model)];
}

double ModelPressure::Pressure(GpuModelId model, const GpuCluster& cluster) const {
  const double claimed = share(model);
  if (claimed <= 0) return 0;
  const auto free = static_cast<double>(cluster.gpu_free_milli(model));
  if (free <= 0) return kMaxPressure;
  return std::min(claimed * static_cast<double>(cluster.gpu_idle_milli()) / free, kMaxPressure);
}

int64_t PressureLevel(double pressure) {
  return std::clamp<int64_t>(static_cast<int64_t>(pressure * kPressureSteps), 0, kMaxPressureLevel);
}

double Alignment(const PodSpec& pod, const NodeState& node) {
  const double cpu_capacity = static_cast<double>(node.cpu_capacity_milli);
  const double gpu_capacity = static_cast<double>(node.num_gpu) * kMilliPerGpu;
  const double pod_cpu = cpu_capacity > 0 ? static_cast<double>(pod.cpu_milli) / cpu_capacity : 0;
  const double pod_gpu =
      gpu_capacity > 0 ? static_cast<double>(pod.TotalGpuMilli()) / gpu_capacity : 0;
  const double free_cpu =
      cpu_capacity > 0 ? static_cast<double>(node.cpu_free_milli) / cpu_capacity : 0;
  const double free_gpu =
      gpu_capacity > 0 ? static_cast<double>(node.GpuFreeMilli()) / gpu_capacity : 0;
  const double norms = std::sqrt(pod_cpu * pod_cpu + pod_gpu * pod_gpu) *
                       std::sqrt(free_cpu * free_cpu + free_gpu * free_gpu);
  return norms > 0 ? (pod_cpu * free_cpu + pod_gpu * free_gpu) / norms : 0;
}

int64_t AlignmentLevel(const PodSpec& pod, const NodeState& node) {
  // Whole-GPU pods keep the seeded node order among FGD's ties: for them that first-fit
  // packing is worth more than the alignment (docs/simulate.md).
  if (pod.num_gpu > 0 && !pod.IsGpuShare()) return 0;
  return std::clamp<int64_t>(static_cast<int64_t>(Alignment(pod, node) * kAlignmentSteps), 0,
                             kAlignmentSteps);
}

int64_t BerthNodeScore(int64_t pressure_level, int64_t fgd_score, int64_t alignment_level) {
  BERTH_CHECK(pressure_level >= 0 && pressure_level <= kMaxPressureLevel && fgd_score >= 0 &&
                  fgd_score < kFgdScores && alignment_level >= 0 &&
                  alignment_level < kAlignmentLevels,
              "berth key parts out of range");
  return ((kMaxPressureLevel - pressure_level) * kFgdScores + fgd_score) * kAlignmentLevels +
         alignment_level;
}

std::unique_ptr<NodeScorer> MakeBerthScorer(const FragmentationModel& fragmentation,
                                            const GpuCluster& cluster) {
  return std::make_unique<BerthScorer>(fragmentation, cluster);
}

}  // namespace berth::gpu
