#include "binding/plugins/gpu_share_node_model.h"

#include <algorithm>
#include <span>
#include <string>
#include <utility>

#include "binding/plugins/gpu_share_cycle.h"
#include "gpu/fraction_ledger.h"
#include "gpu/gpu_inventory.h"
#include "gpu/typical_pods.h"

namespace berth::binding {
namespace {

constexpr int64_t kBytesPerMib = int64_t{1024} * 1024;

int64_t FloorMib(int64_t bytes) { return bytes / kBytesPerMib; }
int64_t CeilMib(int64_t bytes) { return (bytes + kBytesPerMib - 1) / kBytesPerMib; }

int32_t ClampGpus(int64_t gpus) {
  return static_cast<int32_t>(std::clamp<int64_t>(gpus, 0, gpu::kMaxGpusPerNode));
}

}  // namespace

GpuShareNodeModel::GpuShareNodeModel(const model::Snapshot& snapshot, const ClusterState& state,
                                     const PodInfoStore& pod_infos,
                                     std::optional<model::ResourceId> gpu)
    : state_(state), pod_infos_(pod_infos), gpu_(gpu) {
  const auto n = static_cast<size_t>(state.num_nodes());
  node_model_.assign(n, gpu::kNoGpuModel);
  specs_.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const model::NodeIndex node{static_cast<int32_t>(i)};
    const model::Node& object = state.node(node);
    const NodeLoad load = state.load(node);
    gpu::NodeSpec spec;
    spec.name = object.meta.name;
    spec.cpu_milli = load.allocatable[model::kCpu.v];
    spec.memory_mib = FloorMib(load.allocatable[model::kMemory.v]);
    spec.num_gpu = gpu_.has_value() ? ClampGpus(load.allocatable[gpu_->v]) : 0;
    auto label = object.meta.labels.find(std::string(gpu::kLabelGpuProduct));
    // More models than a ModelSet holds: the rest count as "no model", which only pods
    // without a product restriction accept.
    if (label != object.meta.labels.end() && spec.num_gpu > 0) {
      if (auto id = models_.Intern(label->second); id.has_value()) spec.model = *id;
    }
    node_model_[i] = spec.model;
    specs_.push_back(std::move(spec));
  }
  // The typical pods: every non-terminal pod the model can express, bound or pending, as
  // GpuShareCycle takes them (the paper's target workload is the whole trace).
  std::vector<gpu::PodSpec> pods;
  pods.reserve(snapshot.pods.size());
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    const model::PodIndex index{static_cast<int32_t>(i)};
    if (pod_infos_.pod(index).IsTerminal()) continue;
    const std::optional<gpu::PodSpec> shape = Shape(pod_infos_.pod(index), pod_infos_.Get(index));
    if (shape.has_value()) pods.push_back(*shape);
  }
  fragmentation_ = std::make_unique<gpu::FragmentationModel>(gpu::BuildTypicalPods(pods));
  cluster_ = std::make_unique<gpu::GpuCluster>(specs_, fragmentation_.get());
  // Nodes whose state already differs from empty (bound pods) are read on the first Sync.
  synced_version_.assign(n, 0);
  for (size_t i = 0; i < n; ++i) SyncNode(model::NodeIndex{static_cast<int32_t>(i)});
  log_pos_ = state.change_log().size();
  scorers_.resize(static_cast<size_t>(gpu::Policy::kBerth) + 1);
}

std::optional<gpu::PodSpec> GpuShareNodeModel::Shape(const model::Pod& pod,
                                                     const PodInfo& info) const {
  gpu::PodSpec shape;
  shape.name = pod.meta.name;
  shape.cpu_milli = info.resources.request(model::kCpu);
  shape.memory_mib = CeilMib(info.resources.request(model::kMemory));
  if (info.RequestsGpuFraction()) {
    if (!info.gpu_fraction.has_value() || info.gpu_fraction->by_memory()) return std::nullopt;
    shape.num_gpu = info.gpu_fraction->num_devices;
    shape.gpu_milli = static_cast<int32_t>(info.gpu_fraction->milli);
  } else if (gpu_.has_value() && info.resources.request(*gpu_) > 0) {
    shape.num_gpu = ClampGpus(info.resources.request(*gpu_));
    shape.gpu_milli = gpu::kMilliPerGpu;
  }
  if (shape.num_gpu > 0) {
    for (const std::string& product : AllowedGpuProducts(pod)) {
      if (!shape.gpu_spec.empty()) shape.gpu_spec += '|';
      shape.gpu_spec += product;
      // A product no node carries: a model id of its own, which no node has.
      auto id = models_.Find(product);
      if (id.has_value()) {
        shape.allowed_models.Add(*id);
      } else {
        shape.allowed_models.Add(gpu::GpuModelId{gpu::kMaxGpuModels - 1});
      }
    }
  }
  return shape;
}

gpu::NodeState GpuShareNodeModel::StateOf(model::NodeIndex node) const {
  const auto i = static_cast<size_t>(node.v);
  gpu::NodeState s = gpu::NodeState::FromSpec(specs_[i]);
  const NodeLoad load = state_.load(node);
  s.cpu_free_milli = load.allocatable[model::kCpu.v] - load.requested[model::kCpu.v];
  s.memory_free_mib =
      FloorMib(load.allocatable[model::kMemory.v] - load.requested[model::kMemory.v]);
  if (s.num_gpu == 0) return s;
  int gpu_index = 0;
  const gpu::FractionBook& book = state_.gpu_fractions();
  if (book.active()) {
    for (const gpu::SharedGpu& g : book.ledger(node).shared()) {
      if (gpu_index == s.num_gpu) break;
      s.gpu_free_milli[gpu_index++] =
          static_cast<int32_t>(std::max<int64_t>(0, gpu::kMilliGpu - g.milli_used));
    }
  }
  // requested counts whole-GPU pods and one GPU per reservation for fractions.
  int64_t free_whole = load.allocatable[gpu_->v] - load.requested[gpu_->v];
  for (; gpu_index < s.num_gpu; ++gpu_index) {
    s.gpu_free_milli[gpu_index] = free_whole-- > 0 ? gpu::kMilliPerGpu : 0;
  }
  return s;
}

void GpuShareNodeModel::SyncNode(model::NodeIndex node) {
  cluster_->SetNode(node.v, StateOf(node));
  synced_version_[static_cast<size_t>(node.v)] = state_.version(node);
}

void GpuShareNodeModel::Sync() {
  // Every change to a node's state bumps its version and logs it, so the nodes named since
  // the last Sync are all that can differ; a node logged twice is read once (its version).
  const std::vector<int32_t>& log = state_.change_log();
  for (; log_pos_ < log.size(); ++log_pos_) {
    const model::NodeIndex node{log[log_pos_]};
    if (synced_version_[static_cast<size_t>(node.v)] != state_.version(node)) SyncNode(node);
  }
}

const gpu::NodeScorer& GpuShareNodeModel::Scorer(gpu::Policy policy) {
  std::unique_ptr<gpu::NodeScorer>& scorer = scorers_[static_cast<size_t>(policy)];
  if (scorer == nullptr) scorer = gpu::MakeScorer(policy, fragmentation_.get(), cluster_.get());
  return *scorer;
}

void GpuShareNodeModel::SetScoredPod(const PodInfo* info, gpu::Policy policy) {
  scored_pod_ = info;
  scored_policy_ = policy;
}

std::optional<std::vector<int32_t>> GpuShareNodeModel::Choose(model::PodIndex pod,
                                                              model::NodeIndex node,
                                                              const PodInfo& info,
                                                              int64_t free_whole) const {
  if (scored_pod_ != &info || !info.gpu_fraction.has_value()) return std::nullopt;
  if (!state_.gpu_fractions().active()) return std::nullopt;
  const std::unique_ptr<gpu::NodeScorer>& scorer = scorers_[static_cast<size_t>(scored_policy_)];
  if (scorer == nullptr) return std::nullopt;
  std::optional<gpu::PodSpec> shape = Shape(pod_infos_.pod(pod), info);
  // Only single-GPU shares: a fraction over several GPUs is placed by the ledger's rule.
  if (!shape.has_value() || !shape->IsGpuShare()) return std::nullopt;
  // The node as the pod's scoring saw it; the cluster mirror is only read here.
  const gpu::NodeState before = StateOf(node);
  if (!gpu::Fits(*shape, before)) return std::nullopt;
  const double fragment = cluster_->fragmentation()->NodeFragmentMilli(before);
  // No policy behind this placer draws at random for a sharing pod's GPU except Random,
  // whose draws binding does not reproduce: it keeps the ledger's rule.
  if (scored_policy_ == gpu::Policy::kRandom) return std::nullopt;
  struct NoDraws final : gpu::RandomSource {
    uint64_t UniformIntByRemainder(uint64_t) override { return 0; }
  } no_draws;
  const gpu::GpuSet gpus = scorer->ChooseGpus(*shape, before, fragment, no_draws);
  const gpu::FractionLedger& ledger = state_.gpu_fractions().ledger(node);
  const std::optional<gpu::GpuPortion> portion = info.gpu_fraction->On(ledger.gpu_memory_mib());
  if (!ledger.shareable() || !portion.has_value()) return std::nullopt;
  const size_t shared = ledger.shared().size();
  for (int g = 0; g < before.num_gpu; ++g) {
    if (!gpus.Contains(g)) continue;
    if (static_cast<size_t>(g) < shared) {
      // The node model knows no GPU memory: a slot short of it is the ledger's to refuse.
      const gpu::SharedGpu& slot = ledger.shared()[static_cast<size_t>(g)];
      if (ledger.gpu_memory_mib() > 0 &&
          slot.memory_used_mib + portion->memory_mib > ledger.gpu_memory_mib()) {
        return std::nullopt;
      }
      return std::vector<int32_t>{g};
    }
    return free_whole > 0 ? std::optional<std::vector<int32_t>>(std::vector<int32_t>{-1})
                          : std::nullopt;
  }
  return std::nullopt;
}

}  // namespace berth::binding
