#include "engine/guest_binder.h"

#include <algorithm>
#include <set>

#include "engine/admitted_pods.h"

namespace berth::engine {

GuestBinder::GuestBinder(const model::Snapshot& world, binding::Scheduler& scheduler,
                         std::string cluster)
    : world_(world),
      scheduler_(scheduler),
      cluster_(std::move(cluster)),
      guests_(scheduler),
      on_node_(world.nodes.size()) {
  has_nodes_ = std::any_of(world.nodes.begin(), world.nodes.end(),
                           [&](const model::Node& n) { return n.cluster == cluster_; });
}

bool GuestBinder::TryPlace(int32_t workload, const model::Admission& admission,
                           std::string* why) {
  if (!has_nodes_) return true;
  const std::vector<model::Pod> pods =
      GuestPods(world_, workload, admission, cluster_, cluster_);
  if (pods.empty()) return true;
  std::vector<model::PodIndex> slots;
  const GangVerdict gang = guests_.Bind(pods, &slots);
  if (!gang.placed) {
    if (why != nullptr) {
      const std::string_view message = gang.FirstMessage();
      *why = message.empty() ? "pods cannot be bound" : std::string(message);
    }
    return false;
  }
  Placed& placed = placed_[workload];
  placed.pods = std::move(slots);
  for (const model::PodDecision& d : gang.decisions) {
    if (!d.node) continue;
    placed.nodes.push_back(d.node->v);
    ++on_node_[static_cast<size_t>(d.node->v)][workload];
  }
  return true;
}

void GuestBinder::Release(int32_t workload) {
  auto it = placed_.find(workload);
  if (it == placed_.end()) return;
  guests_.Release(it->second.pods);
  std::set<int32_t> nodes;
  for (int32_t node : it->second.nodes) {
    on_node_[static_cast<size_t>(node)].erase(workload);
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
    const int64_t free = std::max<int64_t>(
        0, scheduler_.NodeFree(model::NodeIndex{static_cast<int32_t>(n)}).Get(resource));
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

std::optional<model::PodIndex> GuestBinder::BindFill(int32_t node) {
  // What the scheduler holds free there, none of it below 0.
  model::ResourceVector free = scheduler_.NodeFree(model::NodeIndex{node});
  for (size_t r = 0; r < free.size(); ++r) {
    const model::ResourceId id{static_cast<uint16_t>(r)};
    free.Set(id, std::max<int64_t>(0, free.Get(id)));
  }
  return guests_.BindOne(Blocker(node, free));
}

void GuestBinder::Fill(int32_t node) {
  FillState& f = fills_[node];
  if (f.count++ > 0) return;
  f.pod = BindFill(node);
}

void GuestBinder::Unfill(int32_t node) {
  auto it = fills_.find(node);
  if (it == fills_.end() || --it->second.count > 0) return;
  if (it->second.pod) guests_.Release({*it->second.pod});
  fills_.erase(it);
}

void GuestBinder::Refill(int32_t node) {
  auto it = fills_.find(node);
  if (it == fills_.end()) return;
  if (it->second.pod) guests_.Release({*it->second.pod});
  it->second.pod = BindFill(node);
}

bool GuestBinder::FillGpus(int32_t node, int32_t gpus, model::ResourceId gpu) {
  model::ResourceVector requests;
  requests.Set(gpu, gpus);
  const std::optional<model::PodIndex> slot = guests_.BindOne(Blocker(node, requests));
  if (!slot) return false;
  gpu_fills_[node].push_back({gpus, *slot});
  return true;
}

void GuestBinder::UnfillGpus(int32_t node, int32_t gpus) {
  auto it = gpu_fills_.find(node);
  if (it == gpu_fills_.end()) return;
  auto& list = it->second;
  auto one = std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.first == gpus; });
  if (one == list.end()) return;
  guests_.Release({one->second});
  list.erase(one);
}

}  // namespace berth::engine
