#include "engine/guest_binder.h"

#include <algorithm>
#include <set>

#include "engine/admitted_pods.h"
#include "queueing/workload_info.h"

namespace berth::engine {

GuestBinder::GuestBinder(const model::Snapshot& world, binding::Scheduler& scheduler,
                         std::string cluster)
    : world_(world),
      scheduler_(scheduler),
      cluster_(std::move(cluster)),
      on_node_(world.nodes.size()),
      used_(world.nodes.size()) {
  // Pods bound in the input take their share of their nodes (for the fill blockers).
  std::unordered_map<std::string, int32_t> by_name;
  for (size_t n = 0; n < world.nodes.size(); ++n) by_name[world.nodes[n].meta.name] = static_cast<int32_t>(n);
  for (const model::Pod& pod : world.pods) {
    if (!pod.IsBound() || pod.IsTerminal()) continue;
    auto it = by_name.find(pod.node_name);
    if (it != by_name.end()) Charge(it->second, pod, +1);
  }
}

model::PodIndex GuestBinder::Slot(const model::Pod& pod) {
  if (spare_.empty()) return scheduler_.AddPod(pod);
  const model::PodIndex slot = spare_.back();
  spare_.pop_back();
  scheduler_.OverridePod(slot, pod);
  return slot;
}

bool GuestBinder::TryPlace(int32_t workload, const model::Admission& admission,
                           std::string* why) {
  const std::vector<model::Pod> pods =
      GuestPods(world_, workload, admission, cluster_, cluster_);
  if (pods.empty()) return true;
  std::vector<model::PodIndex> slots;
  slots.reserve(pods.size());
  for (const model::Pod& pod : pods) slots.push_back(Slot(pod));
  binding::GangOutcome gang = scheduler_.ScheduleGang(slots);
  if (!gang.placed) {
    spare_.insert(spare_.end(), slots.begin(), slots.end());
    if (why != nullptr) {
      *why = "pods cannot be bound";
      for (const model::PodDecision& d : gang.decisions) {
        if (!d.node && !d.message.empty()) {
          *why = d.message;
          break;
        }
      }
    }
    return false;
  }
  Placed& placed = placed_[workload];
  placed.pods = std::move(slots);
  for (const model::PodDecision& d : gang.decisions) {
    if (!d.node) continue;
    const size_t i = static_cast<size_t>(
        std::find(placed.pods.begin(), placed.pods.end(), d.pod) - placed.pods.begin());
    placed.nodes.push_back(d.node->v);
    placed.requests.push_back(pods[i]);
    ++on_node_[static_cast<size_t>(d.node->v)][workload];
    Charge(d.node->v, pods[i], +1);
  }
  return true;
}

void GuestBinder::Release(int32_t workload) {
  auto it = placed_.find(workload);
  if (it == placed_.end()) return;
  for (model::PodIndex p : it->second.pods) scheduler_.Unbind(p);
  spare_.insert(spare_.end(), it->second.pods.begin(), it->second.pods.end());
  std::set<int32_t> nodes;
  for (size_t i = 0; i < it->second.nodes.size(); ++i) {
    const int32_t node = it->second.nodes[i];
    on_node_[static_cast<size_t>(node)].erase(workload);
    Charge(node, it->second.requests[i], -1);
    nodes.insert(node);
  }
  placed_.erase(it);
  // A cordoned node keeps nothing free: its fill grows by what left.
  for (int32_t node : nodes) Refill(node);
}

const std::vector<int32_t>& GuestBinder::NodesOf(int32_t workload) const {
  static const std::vector<int32_t> kNone;
  auto it = placed_.find(workload);
  return it == placed_.end() ? kNone : it->second.nodes;
}

std::vector<int32_t> GuestBinder::WorkloadsOn(int32_t node) const {
  std::vector<int32_t> out;
  for (const auto& [workload, pods] : on_node_[static_cast<size_t>(node)]) out.push_back(workload);
  std::sort(out.begin(), out.end());
  return out;
}

GuestBinder::FreeSummary GuestBinder::Free(model::ResourceId resource) const {
  FreeSummary out;
  for (size_t n = 0; n < world_.nodes.size(); ++n) {
    if (world_.nodes[n].cluster != cluster_) continue;
    const int64_t free =
        std::max<int64_t>(0, world_.nodes[n].allocatable.Get(resource) - used_[n].Get(resource));
    out.max_node = std::max(out.max_node, free);
    out.total += free;
  }
  return out;
}

model::Pod GuestBinder::Blocker(int32_t node, const model::ResourceVector& requests) const {
  const model::Node& n = world_.nodes[static_cast<size_t>(node)];
  model::Pod blocker;
  blocker.meta.name = "sim-blocker-" + n.meta.name;
  blocker.meta.namespace_ = "kube-system";
  blocker.cluster = cluster_;
  model::Container c;
  c.name = "blocker";
  c.requests = requests;
  c.requests.Set(model::kPods, 0);
  c.cpu_request_named = true;
  c.memory_request_named = true;
  blocker.containers.push_back(std::move(c));
  core::SelectorRequirement on_node;
  on_node.key = "metadata.name";
  on_node.op = core::SelectorOp::kIn;
  on_node.values = {n.meta.name};
  core::NodeSelectorTerm term;
  term.match_fields.push_back(std::move(on_node));
  blocker.node_affinity.required = core::NodeSelector{{std::move(term)}};
  core::Toleration all;
  all.op = core::TolerationOp::kExists;
  blocker.tolerations.push_back(all);
  return blocker;
}

void GuestBinder::Charge(int32_t node, const model::Pod& pod, int sign) {
  model::ResourceVector& used = used_[static_cast<size_t>(node)];
  for (const auto& [r, v] : queueing::PodRequests(pod)) used.Set(r, used.Get(r) + sign * v);
}

std::optional<model::PodIndex> GuestBinder::BindFill(int32_t node) {
  const model::Node& n = world_.nodes[static_cast<size_t>(node)];
  model::ResourceVector free = n.allocatable;
  const model::ResourceVector& used = used_[static_cast<size_t>(node)];
  for (size_t r = 0; r < free.size(); ++r) {
    const model::ResourceId id{static_cast<uint16_t>(r)};
    free.Set(id, std::max<int64_t>(0, free.Get(id) - used.Get(id)));
  }
  const model::Pod blocker = Blocker(node, free);
  const model::PodIndex slot = Slot(blocker);
  const model::PodDecision d = scheduler_.ScheduleOne(slot);
  if (!d.node) {
    spare_.push_back(slot);
    return std::nullopt;
  }
  Charge(node, blocker, +1);
  specs_[slot.v] = blocker;
  return slot;
}

void GuestBinder::Fill(int32_t node) {
  FillState& f = fills_[node];
  if (f.count++ > 0) return;
  f.pod = BindFill(node);
}

void GuestBinder::Unfill(int32_t node) {
  auto it = fills_.find(node);
  if (it == fills_.end() || --it->second.count > 0) return;
  if (it->second.pod) Unplace(node, *it->second.pod);
  fills_.erase(it);
}

void GuestBinder::Unplace(int32_t node, model::PodIndex slot) {
  scheduler_.Unbind(slot);
  auto spec = specs_.find(slot.v);
  Charge(node, spec->second, -1);
  specs_.erase(spec);
  spare_.push_back(slot);
}

void GuestBinder::Refill(int32_t node) {
  auto it = fills_.find(node);
  if (it == fills_.end()) return;
  if (it->second.pod) Unplace(node, *it->second.pod);
  it->second.pod = BindFill(node);
}

bool GuestBinder::FillGpus(int32_t node, int32_t gpus, model::ResourceId gpu) {
  model::ResourceVector requests;
  requests.Set(gpu, gpus);
  const model::Pod blocker = Blocker(node, requests);
  const model::PodIndex slot = Slot(blocker);
  const model::PodDecision d = scheduler_.ScheduleOne(slot);
  if (!d.node) {
    spare_.push_back(slot);
    return false;
  }
  Charge(node, blocker, +1);
  specs_[slot.v] = blocker;
  gpu_fills_[node].push_back({gpus, slot});
  return true;
}

void GuestBinder::UnfillGpus(int32_t node, int32_t gpus) {
  auto it = gpu_fills_.find(node);
  if (it == gpu_fills_.end()) return;
  auto& list = it->second;
  auto one = std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.first == gpus; });
  if (one == list.end()) return;
  Unplace(node, one->second);
  list.erase(one);
}

}  // namespace berth::engine
