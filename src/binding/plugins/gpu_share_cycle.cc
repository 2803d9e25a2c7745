#include "binding/plugins/gpu_share_cycle.h"

#include <algorithm>

#include "core/selector.h"
#include "gpu/gpu_inventory.h"

namespace berth::binding {

std::vector<std::string> AllowedGpuProducts(const model::Pod& pod) {
  const std::string key(gpu::kLabelGpuProduct);
  std::vector<std::string> out;
  if (auto it = pod.node_selector.find(key); it != pod.node_selector.end()) {
    out.push_back(it->second);
    return out;
  }
  if (!pod.node_affinity.required.has_value() || pod.node_affinity.required->terms.empty()) {
    return out;
  }
  // Terms are ORed: the pod accepts a product when some term does, so every term must
  // restrict the product for the union to be a restriction.
  for (const core::NodeSelectorTerm& term : pod.node_affinity.required->terms) {
    bool restricted = false;
    for (const core::SelectorRequirement& r : term.match_expressions) {
      if (r.key != key || r.op != core::SelectorOp::kIn) continue;
      restricted = true;
      out.insert(out.end(), r.values.begin(), r.values.end());
      break;
    }
    if (!restricted) return {};
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

GpuShareCycle::GpuShareCycle(const model::Snapshot& snapshot, const ResourceTable& resources,
                             const ClusterState& state, const PodInfoStore& pod_infos)
    : snapshot_(snapshot), state_(state), pod_infos_(pod_infos), fragmentation_({}) {
  model::ResourceId gpu;
  if (resources.Find(gpu::kResourceGpu, &gpu)) gpu_ = gpu;
  const auto n = static_cast<size_t>(state.num_nodes());
  node_product_.assign(n, -1);
  for (size_t i = 0; i < n; ++i) {
    const model::NodeIndex node{static_cast<int32_t>(i)};
    const model::Node& object = state.node(node);
    auto label = object.meta.labels.find(gpu::kLabelGpuProduct);
    if (label != object.meta.labels.end()) node_product_[i] = InternProduct(label->second);
    const NodeLoad load = state.load(node);
    max_cpu_milli_ = std::max(max_cpu_milli_, load.allocatable[model::kCpu.v]);
    if (gpu_.has_value()) {
      max_gpu_milli_ = std::max(max_gpu_milli_, load.allocatable[gpu_->v] * gpu::kMilliGpu);
    }
  }
  std::vector<gpu::TypicalGpuPod> pods;
  pods.reserve(snapshot.pods.size());
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    const model::PodIndex index{static_cast<int32_t>(i)};
    const model::Pod& pod = pod_infos.pod(index);
    if (pod.IsTerminal()) continue;
    const PodInfo& info = pod_infos.Get(index);
    // KAI's webhook refuses such a pod: it never runs, so it is no part of the workload.
    if (info.RequestsGpuFraction() && !info.gpu_fraction.has_value()) continue;
    gpu::TypicalGpuPod p;
    p.request = Request(info);
    p.count = 1;
    // A product no node carries still gets an id, which then matches no node.
    for (const std::string& product : AllowedGpuProducts(pod)) {
      p.products.push_back(InternProduct(product));
    }
    std::sort(p.products.begin(), p.products.end());
    pods.push_back(std::move(p));
  }
  fragmentation_ = gpu::GpuFragmentModel(gpu::BuildTypicalGpuPods(pods));
  kai_cluster_.max_spec = gpu::MaxSpec{max_cpu_milli_, max_gpu_milli_};
  kai_cluster_.fragmentation = &fragmentation_;
  fragments_.resize(n);
  scorers_.resize(static_cast<size_t>(gpu::Policy::kBerth) + 1);
}

const gpu::NodeScorer& GpuShareCycle::Scorer(gpu::Policy policy) const {
  if (!gpu::ReadsKaiView(policy)) return node_model().Scorer(policy);
  std::unique_ptr<gpu::NodeScorer>& scorer = scorers_[static_cast<size_t>(policy)];
  // KaiNodes bring their fragmentation model (KaiCluster): the NodeState inputs stay null.
  if (scorer == nullptr) scorer = gpu::MakeScorer(policy, nullptr);
  return *scorer;
}

uint32_t GpuShareCycle::Node::version() const { return cycle_.state_.version(node_); }

gpu::KindsOnNode GpuShareCycle::Node::Kinds(int64_t pod_kind) const {
  gpu::KindsOnNode kinds;
  for (const GpuKindCount& k : cycle_.state_.gpu_kinds(node_)) {
    if (k.count <= 0) continue;
    ++kinds.kinds_present;
    if (k.kind == pod_kind) kinds.same_kind = true;
  }
  return kinds;
}

GpuShareNodeModel& GpuShareCycle::node_model() const {
  if (node_model_ == nullptr) {
    node_model_ = std::make_unique<GpuShareNodeModel>(snapshot_, state_, pod_infos_, gpu_);
  }
  return *node_model_;
}

int32_t GpuShareCycle::InternProduct(const std::string& product) {
  auto [it, inserted] = products_.emplace(product, static_cast<int32_t>(products_.size()));
  return it->second;
}

int32_t GpuShareCycle::FindProduct(const std::string& product) const {
  auto it = products_.find(product);
  return it == products_.end() ? -1 : it->second;
}

gpu::GpuRequest GpuShareCycle::Request(const PodInfo& info) const {
  gpu::GpuRequest r;
  r.cpu_milli = info.resources.request(model::kCpu);
  if (info.gpu_fraction.has_value()) {
    r.fraction = info.gpu_fraction;
  } else if (gpu_.has_value()) {
    r.whole = info.resources.request(*gpu_);
  }
  return r;
}

gpu::GpuNodeView GpuShareCycle::View(model::NodeIndex node) const {
  gpu::GpuNodeView v;
  const NodeLoad load = state_.load(node);
  v.cpu_free_milli =
      std::max<int64_t>(0, load.allocatable[model::kCpu.v] - load.requested[model::kCpu.v]);
  if (gpu_.has_value()) {
    v.gpus = load.allocatable[gpu_->v];
    // requested counts whole-GPU pods and one per GPU reserved for fractions.
    v.free_whole = std::max<int64_t>(0, v.gpus - load.requested[gpu_->v]);
  }
  v.product = node_product_[static_cast<size_t>(node.v)];
  const gpu::FractionBook& book = state_.gpu_fractions();
  if (book.active()) {
    const gpu::FractionLedger& ledger = book.ledger(node);
    v.gpu_memory_mib = ledger.gpu_memory_mib();
    v.shareable = ledger.shareable();
    v.shared.reserve(ledger.shared().size());
    for (const gpu::SharedGpu& g : ledger.shared()) {
      v.shared.push_back(
          gpu::SharedGpuFree{gpu::kMilliGpu - g.milli_used, v.gpu_memory_mib - g.memory_used_mib});
    }
  }
  return v;
}

std::optional<std::vector<int32_t>> GpuShareCycle::Choose(model::NodeIndex node,
                                                          const gpu::GpuRequest& request) const {
  if (!request.fraction.has_value()) return std::vector<int32_t>{};
  const gpu::FractionBook& book = state_.gpu_fractions();
  if (!book.active() || !gpu_.has_value()) return std::nullopt;
  const NodeLoad load = state_.load(node);
  const int64_t free_whole = load.allocatable[gpu_->v] - load.requested[gpu_->v];
  return book.ledger(node).Choose(*request.fraction, free_whole);
}

double GpuShareCycle::NodeFragmentMilli(model::NodeIndex node) const {
  FragmentCache& c = fragments_[static_cast<size_t>(node.v)];
  const uint32_t version = state_.version(node);
  if (!c.valid || c.version != version) {
    c.milli = fragmentation_.FragmentMilli(View(node));
    c.version = version;
    c.valid = true;
  }
  return c.milli;
}

}  // namespace berth::binding
