#include "binding/framework/cluster_state.h"

#include <algorithm>
#include <utility>

#include "binding/framework/ledger_release.h"
#include "binding/plugins/gpu_fraction_placer.h"
#include "core/check.h"
#include "gpu/gpu_inventory.h"
#include "model/resources.h"

namespace berth::binding {

namespace {

std::vector<const model::Node*> OwnNodes(const model::Snapshot& snapshot) {
  std::vector<const model::Node*> out;
  out.reserve(snapshot.nodes.size());
  for (const model::Node& node : snapshot.nodes) out.push_back(&node);
  return out;
}

}  // namespace

ClusterState::ClusterState(const model::Snapshot& snapshot, const ResourceTable& resources)
    : ClusterState(snapshot, resources, OwnNodes(snapshot)) {}

ClusterState::ClusterState(const model::Snapshot& snapshot, const ResourceTable& resources,
                           std::vector<const model::Node*> nodes)
    : width_(resources.size()), nodes_(std::move(nodes)), gpu_fractions_(snapshot) {
  // The fraction ledgers are one per snapshot node: borrowed nodes must not need them.
  BERTH_CHECK(!gpu_fractions_.active() || nodes_.size() == snapshot.nodes.size(),
              "GPU-fraction pods on nodes the snapshot does not hold");
  model::ResourceId gpu;
  if (resources.Find(gpu::kResourceGpu, &gpu)) gpu_ = gpu;
  size_t n = nodes_.size();
  allocatable_.assign(n * width_, 0);
  requested_.assign(n * width_, 0);
  nonzero_cpu_.assign(n, 0);
  nonzero_memory_.assign(n, 0);
  pod_count_.assign(n, 0);
  sigs_.resize(n);
  gpu_kinds_.resize(n);
  host_ports_.resize(n);
  free_devices_.assign(n, kUnboundedDevices);
  version_.assign(n, 0);
  by_name_.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const auto& a = nodes_[i]->allocatable.amounts();
    for (size_t r = 0; r < a.size() && r < width_; ++r) allocatable_[i * width_ + r] = a[r];
    by_name_.push_back(model::NodeIndex{static_cast<int32_t>(i)});
  }
  // Name order decides ties; equal names (invalid input) fall back to snapshot order.
  std::stable_sort(by_name_.begin(), by_name_.end(),
                   [this](model::NodeIndex a, model::NodeIndex b) {
                     return nodes_[idx(a)]->meta.name < nodes_[idx(b)]->meta.name;
                   });
  rank_.assign(n, 0);
  for (size_t r = 0; r < by_name_.size(); ++r) {
    rank_[idx(by_name_[r])] = static_cast<int32_t>(r);
    by_name_map_.emplace(nodes_[idx(by_name_[r])]->meta.name, by_name_[r].v);
  }
}

int64_t ClusterState::GpuKind(const PodInfo& info) const {
  if (info.gpu_fraction.has_value()) return 0;
  if (!gpu_.has_value()) return -1;
  const int64_t whole = info.resources.request(*gpu_);
  return whole > 0 ? whole : -1;
}

std::optional<model::NodeIndex> ClusterState::FindNode(std::string_view name) const {
  auto it = by_name_map_.find(name);
  if (it == by_name_map_.end()) return std::nullopt;
  return model::NodeIndex{it->second};
}

void ClusterState::AddPod(model::PodIndex pod, model::NodeIndex node, const PodInfo& info) {
  size_t i = idx(node);
  int64_t* row = &requested_[i * width_];
  // A GpuFractionPlacer reads the node as the pod found it, before its requests count.
  std::optional<std::vector<int32_t>> placed;
  if (fraction_placer_ != nullptr && info.gpu_fraction.has_value() && gpu_fractions_.active() &&
      gpu_.has_value()) {
    placed = fraction_placer_->Choose(pod, node, info,
                                      allocatable_[i * width_ + gpu_->v] - row[gpu_->v]);
  }
  // Saturating (model::SaturatingAdd): pods bound in the input may ask more than the node
  // holds, and a wrapped sum would make a full node look empty.
  for (size_t r = 0; r < width_; ++r) row[r] = model::SaturatingAdd(row[r], info.resources.requests[r]);
  nonzero_cpu_[i] = model::SaturatingAdd(nonzero_cpu_[i], info.resources.nonzero_cpu);
  nonzero_memory_[i] = model::SaturatingAdd(nonzero_memory_[i], info.resources.nonzero_memory);
  ++pod_count_[i];
  auto& sigs = sigs_[i];
  auto it = std::find_if(sigs.begin(), sigs.end(),
                         [&](const SigCount& s) { return s.sig == info.label_sig; });
  if (it == sigs.end()) {
    sigs.push_back(SigCount{info.label_sig, 1});
  } else {
    ++it->count;
  }
  if (const int64_t kind = GpuKind(info); kind >= 0) {
    auto& kinds = gpu_kinds_[i];
    auto k = std::find_if(kinds.begin(), kinds.end(),
                          [&](const GpuKindCount& c) { return c.kind == kind; });
    if (k == kinds.end()) {
      kinds.push_back(GpuKindCount{kind, 1});
    } else {
      ++k->count;
    }
  }
  if (info.gpu_fraction.has_value() && gpu_fractions_.active() && gpu_.has_value()) {
    gpu::FractionLedger& ledger = gpu_fractions_.mutable_ledger(node);
    int64_t free_whole = allocatable_[i * width_ + gpu_->v] - row[gpu_->v];
    // A bound pod whose fraction fits nowhere (inconsistent input) takes no GPU.
    if (auto choice = placed.has_value() ? placed : ledger.Choose(*info.gpu_fraction, free_whole)) {
      row[gpu_->v] += ledger.Apply(*info.gpu_fraction, *choice, pod);
    }
  }
  if (info.HasAffinityTerms()) affinity_pods_.push_back(PlacedPod{pod, node});
  for (const model::HostPort& p : info.host_ports) {
    host_ports_[i].Add(p.host_ip, p.protocol, p.host_port);
  }
  ++version_[i];
  change_log_.push_back(node.v);
}

void ClusterState::SetFreeDevices(model::NodeIndex node, int32_t free) {
  size_t i = idx(node);
  if (free_devices_[i] == free) return;
  free_devices_[i] = free;
  ++version_[i];
  change_log_.push_back(node.v);
}

void ClusterState::RemovePod(model::PodIndex pod, model::NodeIndex node, const PodInfo& info) {
  size_t i = idx(node);
  // The pod was added here (the caller's bookkeeping says so); a count going negative
  // would mean it was not, and every later decision on the node would be wrong.
  BERTH_CHECK(pod_count_[i] > 0, "RemovePod of a pod that is not on the node");
  int64_t* row = &requested_[i * width_];
  for (size_t r = 0; r < width_; ++r) row[r] = model::SaturatingRemove(row[r], info.resources.requests[r]);
  nonzero_cpu_[i] = model::SaturatingRemove(nonzero_cpu_[i], info.resources.nonzero_cpu);
  nonzero_memory_[i] = model::SaturatingRemove(nonzero_memory_[i], info.resources.nonzero_memory);
  --pod_count_[i];
  auto& sigs = sigs_[i];
  auto it = std::find_if(sigs.begin(), sigs.end(),
                         [&](const SigCount& s) { return s.sig == info.label_sig; });
  BERTH_CHECK(it != sigs.end() && it->count > 0, "RemovePod of a signature not on the node");
  // At zero the entry goes, keeping the others' order: as if the pod had never come.
  if (--it->count == 0) sigs.erase(it);
  if (const int64_t kind = GpuKind(info); kind >= 0) {
    auto& kinds = gpu_kinds_[i];
    auto k = std::find_if(kinds.begin(), kinds.end(),
                          [&](const GpuKindCount& c) { return c.kind == kind; });
    BERTH_CHECK(k != kinds.end() && k->count > 0, "RemovePod of a GPU kind not on the node");
    if (--k->count == 0) kinds.erase(k);
  }
  if (info.gpu_fraction.has_value() && gpu_fractions_.active() && gpu_.has_value()) {
    gpu::FractionLedger& ledger = gpu_fractions_.mutable_ledger(node);
    int32_t released = 0;
    ledger = LedgerWithout(ledger, pod, &released);
    row[gpu_->v] -= released;
  }
  for (const model::HostPort& p : info.host_ports) {
    host_ports_[i].Remove(p.host_ip, p.protocol, p.host_port);
  }
  if (info.HasAffinityTerms()) {
    // Searched from the back: a gang rolls back its newest pods first.
    auto placed = std::find_if(affinity_pods_.rbegin(), affinity_pods_.rend(),
                               [&](const PlacedPod& p) { return p.pod == pod; });
    if (placed != affinity_pods_.rend()) {
      affinity_pods_.erase(std::next(placed).base());
      ++affinity_removals_;
    }
  }
  ++version_[i];
  change_log_.push_back(node.v);
}

}  // namespace berth::binding
