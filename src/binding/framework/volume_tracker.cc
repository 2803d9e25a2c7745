// Semantics follow kube-scheduler's volume binder (pkg/scheduler/framework/plugins/
// volumebinding/binder.go) and the PV controller's FindMatchingVolume: a claim is bound when
// it names a volume; an unbound claim whose class binds WaitForFirstConsumer is matched per
// node against the available volumes of its class (capacity at least the request, same
// volume mode, the claim's access modes, its selector, the volume's node affinity; the
// smallest wins, ties to the name that sorts first, where upstream takes its cache's
// order), else provisioned when the class's provisioner and allowedTopologies allow it;
// any other unbound claim is an unbound immediate claim. Planned bindings are kept per
// claim so later pods see them, and released on Unbind when no placed pod uses the claim.
#include "binding/framework/volume_tracker.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <span>
#include <string_view>

#include "core/check.h"

namespace berth::binding {
namespace {

constexpr std::string_view kBetaClassAnnotation = "volume.beta.kubernetes.io/storage-class";
constexpr std::string_view kHostnameLabel = "kubernetes.io/hostname";
constexpr std::string_view kNoProvisioner = "kubernetes.io/no-provisioner";

std::string_view NamespaceOf(std::string_view ns) { return ns.empty() ? "default" : ns; }

uint64_t ClaimHash(std::string_view ns, std::string_view name) {
  const uint64_t a = std::hash<std::string_view>{}(NamespaceOf(ns));
  const uint64_t b = std::hash<std::string_view>{}(name);
  return a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
}

bool HasMode(const std::vector<std::string>& modes, std::string_view mode) {
  return std::find(modes.begin(), modes.end(), mode) != modes.end();
}

// The hostnames a local volume's affinity pins it to: one term whose requirements include
// kubernetes.io/hostname In [...]; empty for any other affinity (the general list).
std::vector<std::string> PinnedHosts(const model::PersistentVolume& v) {
  if (!v.node_affinity.has_value() || v.node_affinity->terms.size() != 1) return {};
  for (const core::SelectorRequirement& r : v.node_affinity->terms.front().match_expressions) {
    if (r.key == kHostnameLabel && r.op == core::SelectorOp::kIn) return r.values;
  }
  return {};
}

// Upstream's topology labels for VolumeZone, GA and beta.
constexpr std::string_view kZoneKeys[] = {
    "topology.kubernetes.io/zone", "topology.kubernetes.io/region",
    "failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region"};

std::string_view GaKey(std::string_view key) {
  if (key == "failure-domain.beta.kubernetes.io/zone") return "topology.kubernetes.io/zone";
  if (key == "failure-domain.beta.kubernetes.io/region") return "topology.kubernetes.io/region";
  return key;
}

}  // namespace

VolumeTracker::VolumeTracker(const model::Snapshot& snapshot, const std::string& cluster,
                             const ClusterState& state)
    : state_(state) {
  for (size_t i = 0; i < snapshot.persistent_volume_claims.size(); ++i) {
    const model::PersistentVolumeClaim& c = snapshot.persistent_volume_claims[i];
    if (c.cluster != cluster) continue;
    claims_.push_back(&c);
    claim_index_.push_back(static_cast<int32_t>(i));
  }
  size_t slots = 16;
  while (slots < 2 * claims_.size()) slots *= 2;
  claim_slots_.assign(slots, ClaimSlot{});
  for (size_t c = 0; c < claims_.size(); ++c) {
    const uint64_t h = ClaimHash(claims_[c]->meta.namespace_, claims_[c]->meta.name);
    // Appended after every slot its probe passes, so FindClaim meets earlier claims first.
    for (size_t at = h & (slots - 1);; at = (at + 1) & (slots - 1)) {
      if (claim_slots_[at].claim >= 0) continue;
      claim_slots_[at] = ClaimSlot{h, static_cast<int32_t>(c)};
      break;
    }
  }
  for (size_t i = 0; i < snapshot.persistent_volumes.size(); ++i) {
    const model::PersistentVolume& v = snapshot.persistent_volumes[i];
    if (v.cluster != cluster) continue;
    volumes_.push_back(&v);
    volume_index_.push_back(static_cast<int32_t>(i));
  }
  const model::StorageClass* default_sc = nullptr;
  for (const model::StorageClass& sc : snapshot.storage_classes) {
    if (sc.cluster != cluster) continue;
    class_by_name_.emplace(sc.meta.name, &sc);
    // Several defaults: the DefaultStorageClass admission (GetDefaultClass) takes the newest
    // by creationTimestamp, ties to the name that sorts first.
    if (!sc.is_default) continue;
    if (default_sc == nullptr ||
        sc.meta.creation_timestamp > default_sc->meta.creation_timestamp ||
        (sc.meta.creation_timestamp == default_sc->meta.creation_timestamp &&
         sc.meta.name < default_sc->meta.name)) {
      default_sc = &sc;
    }
  }
  if (default_sc != nullptr) default_class_ = default_sc->meta.name;
  // Volumes by name, for the claims that name one (none while every claim waits for its
  // first consumer): views into the volumes, which outlive this constructor.
  std::unordered_map<std::string_view, int32_t> volume_by_name;
  const bool names_volumes = std::any_of(claims_.begin(), claims_.end(), [](const auto* c) {
    return !c->volume_name.empty();
  });
  for (size_t v = 0; v < volumes_.size() && names_volumes; ++v) {
    volume_by_name.emplace(volumes_[v]->meta.name, static_cast<int32_t>(v));
  }
  facts_.resize(claims_.size());
  for (size_t c = 0; c < claims_.size(); ++c) {
    const model::PersistentVolumeClaim& claim = *claims_[c];
    ClaimFacts& f = facts_[c];
    f.selected_node = !claim.selected_node.empty();
    f.read_write_once_pod = HasMode(claim.access_modes, "ReadWriteOncePod");
    if (claim.volume_name.empty()) continue;
    auto it = volume_by_name.find(claim.volume_name);
    f.named_volume = it == volume_by_name.end() ? -2 : it->second;
  }
  std::unordered_map<std::string_view, const model::CSINode*> csi_by_name;
  for (const model::CSINode& n : snapshot.csi_nodes) {
    if (n.cluster == cluster) csi_by_name.emplace(n.meta.name, &n);
  }
  node_csi_.assign(static_cast<size_t>(state.num_nodes()), nullptr);
  for (int32_t n = 0; n < state.num_nodes() && !csi_by_name.empty(); ++n) {
    auto it = csi_by_name.find(state.node(model::NodeIndex{n}).meta.name);
    if (it != csi_by_name.end()) node_csi_[idx(n)] = it->second;
  }
  // GetPersistentVolumeClaimClass: the beta annotation, then spec.storageClassName; an
  // absent storageClassName is the default class (the DefaultStorageClass admission sets it).
  const std::string beta_class_key(kBetaClassAnnotation);
  for (size_t c = 0; c < claims_.size(); ++c) {
    const model::PersistentVolumeClaim& claim = *claims_[c];
    auto it = claim.meta.annotations.find(beta_class_key);
    if (it != claim.meta.annotations.end()) {
      claim_class_.push_back(it->second);
    } else {
      claim_class_.push_back(claim.storage_class_name.value_or(default_class_));
    }
    ClaimFacts& f = facts_[c];
    f.sc = claim_class_.back().empty() ? nullptr : FindClass(claim_class_.back());
    f.delayed = f.sc != nullptr && f.sc->volume_binding_mode == "WaitForFirstConsumer";
    f.provisions_anywhere = f.sc != nullptr && f.sc->provisioner != kNoProvisioner &&
                            !f.sc->allowed_topologies.has_value();
  }
  // CSI volumes and drivers get small ids, so NodeVolumeLimits compares integers.
  std::unordered_map<std::string, int32_t> volume_ids;
  std::unordered_map<std::string, int32_t> driver_ids;
  for (const model::PersistentVolume* v : volumes_) {
    if (v->csi_driver.empty()) {
      volume_csi_.emplace_back(-1, -1);
      continue;
    }
    volume_csi_.emplace_back(CsiId(&driver_ids, v->csi_driver),
                             CsiId(&volume_ids, v->csi_driver + '\0' + v->csi_volume_handle));
  }
  // Not bound yet: the class's provisioner will create the claim's own volume, which no
  // other claim or volume can share, so each gets a fresh id after the volumes'.
  auto next_volume_id = static_cast<int32_t>(volume_ids.size());
  std::unordered_map<const model::StorageClass*, int32_t> class_driver;
  for (size_t c = 0; c < claims_.size(); ++c) {
    const model::StorageClass* sc = facts_[c].sc;
    if (sc == nullptr || sc->provisioner == kNoProvisioner) {
      continue;
    }
    auto driver = class_driver.find(sc);
    if (driver == class_driver.end()) {
      driver = class_driver.emplace(sc, CsiId(&driver_ids, sc->provisioner)).first;
    }
    facts_[c].csi_driver = driver->second;
    facts_[c].csi_volume = next_volume_id++;
  }
  node_limits_.resize(static_cast<size_t>(state.num_nodes()));
  for (int32_t n = 0; n < state.num_nodes(); ++n) {
    const model::CSINode* csi = node_csi_[idx(n)];
    if (csi == nullptr) continue;
    for (const model::CSINodeDriver& d : csi->drivers) {
      if (!d.allocatable_count.has_value()) continue;
      // A driver no claim or volume uses cannot be exceeded.
      auto it = driver_ids.find(d.name);
      if (it != driver_ids.end())
        node_limits_[idx(n)].emplace_back(it->second, *d.allocatable_count);
    }
  }
  driver_min_limit_.assign(driver_ids.size(), std::numeric_limits<int32_t>::max());
  driver_max_attached_.assign(driver_ids.size(), 0);
  for (const auto& limits : node_limits_) {
    for (const auto& [driver, count] : limits) {
      driver_min_limit_[idx(driver)] = std::min(driver_min_limit_[idx(driver)], count);
    }
  }
  taken_by_.assign(volumes_.size(), -1);
  for (size_t v = 0; v < volumes_.size(); ++v) {
    const model::PersistentVolume& pv = *volumes_[v];
    if (pv.claim_name.empty()) continue;
    const int32_t claim = FindClaim(pv.claim_namespace, pv.claim_name);
    if (claim < 0) {
      taken_by_[v] = -2;
      continue;
    }
    const model::PersistentVolumeClaim& c = *claims_[idx(claim)];
    if (!pv.claim_uid.empty() && !c.meta.uid.empty() && pv.claim_uid != c.meta.uid) {
      taken_by_[v] = -2;  // bound to an earlier claim of that name
      continue;
    }
    taken_by_[v] = claim;
    if (c.volume_name.empty()) facts_[idx(claim)].prebound = static_cast<int32_t>(v);
  }
  for (size_t v = 0; v < volumes_.size(); ++v) {
    const model::PersistentVolume& pv = *volumes_[v];
    if (taken_by_[v] != -1) continue;
    if (!pv.phase.empty() && pv.phase != "Available") continue;
    auto cls = pv.meta.annotations.find(beta_class_key);
    const std::string& class_name =
        cls != pv.meta.annotations.end() ? cls->second : pv.storage_class_name;
    ClassVolumes& entry = by_class_[class_name];
    std::vector<std::string> hosts = PinnedHosts(pv);
    if (hosts.empty()) {
      entry.general.push_back(static_cast<int32_t>(v));
    } else {
      for (const std::string& h : hosts) entry.by_host[h].push_back(static_cast<int32_t>(v));
    }
  }
  auto by_size = [this](int32_t a, int32_t b) {
    const model::PersistentVolume& x = *volumes_[idx(a)];
    const model::PersistentVolume& y = *volumes_[idx(b)];
    if (x.capacity.milli() != y.capacity.milli()) return x.capacity.milli() < y.capacity.milli();
    return x.meta.name < y.meta.name;
  };
  for (auto& [name, entry] : by_class_) {
    std::sort(entry.general.begin(), entry.general.end(), by_size);
    for (auto& [host, list] : entry.by_host) std::sort(list.begin(), list.end(), by_size);
  }
  // Local volumes by node index: the nodes whose hostname label a pinned host names (a node
  // without it cannot match the pin).
  std::unordered_map<std::string_view, std::vector<int32_t>> nodes_by_host;
  for (int32_t n = 0; n < state.num_nodes(); ++n) {
    const core::Labels& labels = state.node(model::NodeIndex{n}).meta.labels;
    auto host = labels.find(std::string(kHostnameLabel));
    if (host != labels.end()) nodes_by_host[host->second].push_back(n);
  }
  for (auto& [name, entry] : by_class_) {
    if (entry.by_host.empty()) continue;
    entry.by_node.assign(static_cast<size_t>(state.num_nodes()), nullptr);
    for (auto& [host, list] : entry.by_host) {
      auto nodes = nodes_by_host.find(host);
      if (nodes == nodes_by_host.end()) continue;
      for (int32_t n : nodes->second) entry.by_node[idx(n)] = &list;
    }
  }
  for (size_t c = 0; c < claims_.size(); ++c) {
    auto it = by_class_.find(claim_class_[c]);
    facts_[c].volumes = it == by_class_.end() ? nullptr : &it->second;
  }
  snapshot_pods_ = snapshot.pods.data();
  num_snapshot_pods_ = snapshot.pods.size();
  pod_claims_begin_.reserve(num_snapshot_pods_ + 1);
  pod_claims_begin_.push_back(0);
  for (const model::Pod& pod : snapshot.pods) {
    for (const model::PodVolume& v : pod.volumes) {
      if (!v.claim_name.empty()) pod_claims_.push_back(FindClaim(pod.meta.namespace_, v.claim_name));
    }
    pod_claims_begin_.push_back(static_cast<int32_t>(pod_claims_.size()));
  }
  planned_.reserve(claims_.size());
  attached_.resize(static_cast<size_t>(state.num_nodes()));
  attached_count_.resize(static_cast<size_t>(state.num_nodes()));
}

int32_t VolumeTracker::CsiId(std::unordered_map<std::string, int32_t>* ids,
                             const std::string& key) {
  return ids->emplace(key, static_cast<int32_t>(ids->size())).first->second;
}

bool VolumeTracker::UsesClaims(const model::Pod& pod) const {
  const std::optional<size_t> offset = SnapshotOffset(pod);
  if (!offset.has_value()) return HasClaimVolumes(pod);
  return pod_claims_begin_[*offset + 1] > pod_claims_begin_[*offset];
}

const std::string& VolumeTracker::NthClaimName(const model::Pod& pod, size_t n) {
  for (const model::PodVolume& v : pod.volumes) {
    if (v.claim_name.empty()) continue;
    if (n-- == 0) return v.claim_name;
  }
  BERTH_CHECK(false, "NthClaimName past the pod's claim volumes");
  return pod.volumes.front().claim_name;
}

bool VolumeTracker::HasClaimVolumes(const model::Pod& pod) {
  return std::any_of(pod.volumes.begin(), pod.volumes.end(),
                     [](const model::PodVolume& v) { return !v.claim_name.empty(); });
}

const model::StorageClass* VolumeTracker::FindClass(const std::string& name) const {
  auto it = class_by_name_.find(name);
  return it == class_by_name_.end() ? nullptr : it->second;
}

bool VolumeTracker::IsDelayed(int32_t claim) const { return facts_[idx(claim)].delayed; }

int32_t VolumeTracker::VolumeOf(int32_t claim) const {
  if (facts_[idx(claim)].planned_volume >= 0) return facts_[idx(claim)].planned_volume;
  return facts_[idx(claim)].named_volume;
}

int32_t VolumeTracker::FindClaim(std::string_view ns, std::string_view name) const {
  const uint64_t h = ClaimHash(ns, name);
  const size_t mask = claim_slots_.size() - 1;
  for (size_t at = h & mask;; at = (at + 1) & mask) {
    const ClaimSlot& slot = claim_slots_[at];
    if (slot.claim < 0) return -1;
    if (slot.hash != h) continue;
    const model::PersistentVolumeClaim& claim = *claims_[idx(slot.claim)];
    if (claim.meta.name == name && NamespaceOf(claim.meta.namespace_) == NamespaceOf(ns)) {
      return slot.claim;
    }
  }
}

bool VolumeTracker::IsBound(int32_t claim) const { return VolumeOf(claim) != -1; }

std::optional<size_t> VolumeTracker::SnapshotOffset(const model::Pod& pod) const {
  // std::less: a total order even for pointers into different arrays.
  const std::less<const model::Pod*> before;
  if (before(&pod, snapshot_pods_) || !before(&pod, snapshot_pods_ + num_snapshot_pods_)) {
    return std::nullopt;
  }
  return static_cast<size_t>(&pod - snapshot_pods_);
}

const PodVolumeClaims& VolumeTracker::Resolve(const model::Pod& pod) const {
  const std::optional<size_t> offset = SnapshotOffset(pod);
  if (resolved_pod_ == &pod && resolved_version_ == version_) {
    // A snapshot pod's address is its own for the tracker's life; another address could be
    // a different pod's after the scheduler's pod store replaced one.
    if (offset.has_value() ||
        (resolved_name_ == pod.meta.name && resolved_namespace_ == pod.meta.namespace_)) {
      return resolved_;
    }
  }
  resolved_pod_ = &pod;
  if (!offset.has_value()) {
    resolved_name_ = pod.meta.name;
    resolved_namespace_ = pod.meta.namespace_;
  }
  resolved_version_ = version_;
  PodVolumeClaims& out = resolved_;
  out.claims.clear();
  out.bound.clear();
  out.delayed.clear();
  out.immediate.clear();
  out.missing.clear();
  out.lost.clear();
  // A snapshot pod's claims were found at construction: its volumes are read again only
  // to name a claim that does not exist.
  std::span<const int32_t> found;
  if (offset.has_value()) {
    found = std::span<const int32_t>(pod_claims_).subspan(
        idx(pod_claims_begin_[*offset]),
        idx(pod_claims_begin_[*offset + 1] - pod_claims_begin_[*offset]));
  } else {
    found_.clear();
    for (const model::PodVolume& v : pod.volumes) {
      if (!v.claim_name.empty()) found_.push_back(FindClaim(pod.meta.namespace_, v.claim_name));
    }
    found = found_;
  }
  for (size_t i = 0; i < found.size(); ++i) {
    const int32_t c = found[i];
    if (c < 0) {
      if (out.missing.empty()) {
        out.missing = "persistentvolumeclaim \"" + NthClaimName(pod, i) + "\" not found";
      }
      continue;
    }
    if (std::find(out.claims.begin(), out.claims.end(), c) != out.claims.end()) continue;
    out.claims.push_back(c);
    const model::PersistentVolumeClaim& claim = *claims_[idx(c)];
    const int32_t volume = VolumeOf(c);
    if (volume == -2 && claim.phase == "Lost" && out.lost.empty()) {
      out.lost = "persistentvolumeclaim \"" + claim.meta.name +
                 "\" bound to non-existent persistentvolume \"" + claim.volume_name + "\"";
    }
    if (volume != -1) {
      out.bound.push_back(c);
    } else if (IsDelayed(c)) {
      out.delayed.push_back(c);
    } else {
      out.immediate.push_back(c);
    }
  }
  // findMatchingVolumes takes the claims smallest request first, so a small claim does not
  // take the only volume a larger one fits.
  std::stable_sort(out.delayed.begin(), out.delayed.end(), [this](int32_t a, int32_t b) {
    return claims_[idx(a)]->storage_request.milli() < claims_[idx(b)]->storage_request.milli();
  });
  return out;
}

bool VolumeTracker::AffinityAdmits(const model::PersistentVolume& v, model::NodeIndex node) const {
  if (!v.node_affinity.has_value()) return true;
  const model::Node& n = state_.node(node);
  return v.node_affinity->Matches(n.meta.labels, n.meta.name);
}

bool VolumeTracker::Matches(int32_t claim, int32_t volume, model::NodeIndex node,
                            const std::vector<int32_t>& chosen) const {
  if (taken_by_[idx(volume)] != -1) return false;
  if (std::find(chosen.begin(), chosen.end(), volume) != chosen.end()) return false;
  const model::PersistentVolumeClaim& c = *claims_[idx(claim)];
  const model::PersistentVolume& v = *volumes_[idx(volume)];
  if (v.capacity.milli() < c.storage_request.milli()) return false;
  if (v.volume_mode != c.volume_mode) return false;
  if (!AffinityAdmits(v, node)) return false;
  for (const std::string& mode : c.access_modes) {
    if (!HasMode(v.access_modes, mode)) return false;
  }
  if (c.selector.has_value() && !c.selector->Matches(v.meta.labels)) return false;
  return true;
}

int32_t VolumeTracker::FindMatch(int32_t claim, model::NodeIndex node,
                                 const std::vector<int32_t>& chosen) const {
  // A volume pre-bound to the claim (its claimRef names it) is the claim's, if it reaches
  // the node; otherwise the claim matches nothing (FindMatchingVolume returns nil).
  if (int32_t pre = facts_[idx(claim)].prebound; pre >= 0) {
    const bool free = std::find(chosen.begin(), chosen.end(), pre) == chosen.end() &&
                      facts_[idx(claim)].planned_volume < 0;
    return free && AffinityAdmits(*volumes_[idx(pre)], node) ? pre : -1;
  }
  const model::PersistentVolumeClaim& c = *claims_[idx(claim)];
  const ClassVolumes* cls = facts_[idx(claim)].volumes;
  if (cls == nullptr) return -1;
  auto first_fit = [&](const std::vector<int32_t>& list) -> int32_t {
    auto it = std::lower_bound(
        list.begin(), list.end(), c.storage_request.milli(),
        [this](int32_t v, core::Int128 need) { return volumes_[idx(v)]->capacity.milli() < need; });
    for (; it != list.end(); ++it) {
      if (Matches(claim, *it, node, chosen)) return *it;
    }
    return -1;
  };
  int32_t best = first_fit(cls->general);
  if (!cls->by_node.empty() && cls->by_node[idx(node.v)] != nullptr) {
    const int32_t l = first_fit(*cls->by_node[idx(node.v)]);
    if (l >= 0) {
      if (best < 0) {
        best = l;
      } else {
        const model::PersistentVolume& a = *volumes_[idx(l)];
        const model::PersistentVolume& b = *volumes_[idx(best)];
        if (a.capacity.milli() < b.capacity.milli() ||
            (a.capacity.milli() == b.capacity.milli() && a.meta.name < b.meta.name)) {
          best = l;
        }
      }
    }
  }
  return best;
}

bool VolumeTracker::CanProvision(int32_t claim, model::NodeIndex node) const {
  const model::StorageClass* sc = facts_[idx(claim)].sc;
  if (sc == nullptr || sc->provisioner == kNoProvisioner) return false;
  if (!sc->allowed_topologies.has_value()) return true;
  const model::Node& n = state_.node(node);
  return sc->allowed_topologies->Matches(n.meta.labels, n.meta.name);
}

VolumeFit VolumeTracker::Fit(const PodVolumeClaims& claims, model::NodeIndex node) const {
  VolumeFit fit;
  for (int32_t c : claims.bound) {
    const int32_t v = VolumeOf(c);
    if (v < 0) {
      fit.bound_pvs_found = false;
      break;
    }
    if (!AffinityAdmits(*volumes_[idx(v)], node)) fit.bound_satisfied = false;
  }
  if (!fit.bound_pvs_found) fit.bound_satisfied = true;  // checkBoundClaims stops there
  std::vector<int32_t> chosen;
  for (int32_t c : claims.delayed) {
    // Being provisioned for the node the first consumer went to (in this plan, or as read).
    const int32_t planned = facts_[idx(c)].planned_node;
    if (planned >= 0 || facts_[idx(c)].selected_node) {
      if (planned >= 0 ? planned != node.v
                       : claims_[idx(c)]->selected_node != state_.node(node).meta.name) {
        fit.unbound_satisfied = false;
        return fit;
      }
      continue;
    }
    const int32_t v = FindMatch(c, node, chosen);
    if (v >= 0) {
      chosen.push_back(v);
    } else if (!CanProvision(c, node)) {
      fit.unbound_satisfied = false;
    }
  }
  return fit;
}

std::string VolumeTracker::ZoneRejection(const PodVolumeClaims& claims) const {
  for (int32_t c : claims.claims) {
    const int32_t v = VolumeOf(c);
    if (v >= 0) continue;
    // A WaitForFirstConsumer claim of an existing class (the common case) is read in its
    // facts alone.
    if (v == -1 && facts_[idx(c)].delayed) continue;
    const model::PersistentVolumeClaim& claim = *claims_[idx(c)];
    if (v == -2) return "persistentvolume \"" + claim.volume_name + "\" not found";
    const std::string& name = ClassOf(c);
    if (name.empty()) return "PersistentVolumeClaim had no pv name and storageClass name";
    const model::StorageClass* sc = facts_[idx(c)].sc;
    if (sc == nullptr) return "storageclasses.storage.k8s.io \"" + name + "\" not found";
    if (sc->volume_binding_mode == "WaitForFirstConsumer") continue;
    return "PersistentVolume had no name";
  }
  return "";
}

bool VolumeTracker::ZoneFits(const PodVolumeClaims& claims, model::NodeIndex node) const {
  const core::Labels& labels = state_.node(node).meta.labels;
  bool constrained = false;
  for (std::string_view key : kZoneKeys) {
    if (labels.find(std::string(key)) != labels.end()) constrained = true;
  }
  if (!constrained) return true;
  for (int32_t c : claims.claims) {
    const int32_t v = VolumeOf(c);
    if (v < 0) continue;
    const model::PersistentVolume& pv = *volumes_[idx(v)];
    for (std::string_view key : kZoneKeys) {
      auto it = pv.meta.labels.find(std::string(key));
      if (it == pv.meta.labels.end()) continue;
      auto have = labels.find(std::string(key));
      if (have == labels.end()) have = labels.find(std::string(GaKey(key)));
      if (have == labels.end()) return false;
      // A volume label may name several zones joined by "__" (LabelZonesToSet).
      bool any = false;
      std::string_view values = it->second;
      while (true) {
        const size_t cut = values.find("__");
        if (values.substr(0, cut) == have->second) any = true;
        if (cut == std::string_view::npos) break;
        values.remove_prefix(cut + 2);
      }
      if (!any) return false;
    }
  }
  return true;
}

bool VolumeTracker::ReadWriteOncePodConflict(const PodVolumeClaims& claims) const {
  for (int32_t c : claims.claims) {
    if (facts_[idx(c)].read_write_once_pod && facts_[idx(c)].users > 0) {
      return true;
    }
  }
  return false;
}

std::pair<int32_t, int32_t> VolumeTracker::CsiVolume(int32_t claim) const {
  const int32_t v = VolumeOf(claim);
  if (v >= 0) return volume_csi_[idx(v)];
  if (v == -1) return {facts_[idx(claim)].csi_driver, facts_[idx(claim)].csi_volume};
  return {-1, -1};
}

bool VolumeTracker::WithinVolumeLimits(const PodVolumeClaims& claims, model::NodeIndex node) const {
  const auto& limits = node_limits_[idx(node.v)];
  if (limits.empty()) return true;
  const auto& attached = attached_[idx(node.v)];
  const auto& counts = attached_count_[idx(node.v)];
  auto find = [](const std::vector<std::pair<int32_t, int32_t>>& list, int32_t id) {
    return std::find_if(list.begin(), list.end(), [id](const auto& e) { return e.first == id; });
  };
  // A pod has few claims: per driver, the volumes not attached to the node yet.
  std::vector<std::pair<int32_t, int32_t>> fresh;
  std::vector<int32_t> seen;
  for (int32_t c : claims.claims) {
    const std::pair<int32_t, int32_t> volume = CsiVolume(c);
    if (volume.first < 0 || find(attached, volume.second) != attached.end()) continue;
    if (std::find(seen.begin(), seen.end(), volume.second) != seen.end()) continue;
    seen.push_back(volume.second);
    auto it = std::find_if(fresh.begin(), fresh.end(),
                           [&](const auto& e) { return e.first == volume.first; });
    if (it == fresh.end()) {
      fresh.emplace_back(volume.first, 1);
    } else {
      ++it->second;
    }
  }
  for (const auto& [driver, count] : fresh) {
    auto limit = find(limits, driver);
    if (limit == limits.end()) continue;
    auto have = find(counts, driver);
    const int32_t on_node = have == counts.end() ? 0 : have->second;
    if (on_node + count > limit->second) return false;
  }
  return true;
}

bool VolumeTracker::AcceptsEveryNode(const PodVolumeClaims& claims) const {
  if (ReadWriteOncePodConflict(claims)) return false;
  for (int32_t c : claims.bound) {
    const int32_t v = VolumeOf(c);
    if (v < 0) return false;
    const model::PersistentVolume& pv = *volumes_[idx(v)];
    if (pv.node_affinity.has_value()) return false;
    for (std::string_view key : kZoneKeys) {
      if (pv.meta.labels.count(std::string(key)) != 0) return false;
    }
  }
  for (int32_t c : claims.delayed) {
    const ClaimFacts& f = facts_[idx(c)];
    if (f.planned_node >= 0 || f.selected_node || !f.provisions_anywhere) return false;
  }
  // Per driver, the pod's volumes of it (a pod has few claims: counted in place, as this
  // runs once per pod and should not allocate).
  const std::vector<int32_t>& all = claims.claims;
  for (size_t i = 0; i < all.size(); ++i) {
    const int32_t driver = CsiVolume(all[i]).first;
    if (driver < 0) continue;
    bool counted = false;
    for (size_t j = 0; j < i && !counted; ++j) counted = CsiVolume(all[j]).first == driver;
    if (counted) continue;
    int64_t count = 0;
    for (size_t j = i; j < all.size(); ++j) count += CsiVolume(all[j]).first == driver ? 1 : 0;
    if (driver_max_attached_[idx(driver)] + count > driver_min_limit_[idx(driver)]) return false;
  }
  return true;
}

void VolumeTracker::Bind(model::PodIndex pod, const PodVolumeClaims& claims, model::NodeIndex node,
                         bool planned) {
  ++version_;
  if (planned) {
    std::vector<int32_t> chosen;
    if (pod_newest_.size() <= idx(pod.v)) pod_newest_.resize(idx(pod.v) + 1, -1);
    for (int32_t c : claims.delayed) {
      if (facts_[idx(c)].planned_node >= 0 || facts_[idx(c)].selected_node) continue;
      const int32_t v = FindMatch(c, node, chosen);
      if (v >= 0) {
        // Taken at once: FindMatch skips taken volumes as it skips chosen ones, so the
        // pod's later claims match as Fit matched them.
        chosen.push_back(v);
        taken_by_[idx(v)] = c;
        facts_[idx(c)].planned_volume = v;
      } else {
        facts_[idx(c)].planned_node = node.v;
      }
      planned_.push_back(Planned{
          .pod = pod, .claim = c, .volume = v, .node = node.v, .previous = pod_newest_[idx(pod.v)]});
      pod_newest_[idx(pod.v)] = static_cast<int32_t>(planned_.size() - 1);
    }
  }
  for (int32_t c : claims.claims) {
    ++facts_[idx(c)].users;
    const std::pair<int32_t, int32_t> volume = CsiVolume(c);
    if (volume.first < 0) continue;
    auto& refs = attached_[idx(node.v)];
    auto it = std::find_if(refs.begin(), refs.end(),
                           [&](const auto& e) { return e.first == volume.second; });
    if (it != refs.end()) {
      ++it->second;
      continue;
    }
    refs.emplace_back(volume.second, 1);
    auto& counts = attached_count_[idx(node.v)];
    auto count = std::find_if(counts.begin(), counts.end(),
                              [&](const auto& e) { return e.first == volume.first; });
    if (count == counts.end()) {
      count = counts.insert(counts.end(), {volume.first, 1});
    } else {
      ++count->second;
    }
    int32_t& most = driver_max_attached_[idx(volume.first)];
    most = std::max(most, count->second);
  }
}

void VolumeTracker::Unbind(model::PodIndex pod, const PodVolumeClaims& claims,
                           model::NodeIndex node) {
  ++version_;
  for (int32_t c : claims.claims) {
    --facts_[idx(c)].users;
    const std::pair<int32_t, int32_t> volume = CsiVolume(c);
    if (volume.first < 0) continue;
    auto& refs = attached_[idx(node.v)];
    auto it = std::find_if(refs.begin(), refs.end(),
                           [&](const auto& e) { return e.first == volume.second; });
    if (it == refs.end() || --it->second > 0) continue;
    refs.erase(it);
    auto& counts = attached_count_[idx(node.v)];
    auto count = std::find_if(counts.begin(), counts.end(),
                              [&](const auto& e) { return e.first == volume.first; });
    if (count != counts.end() && --count->second == 0) counts.erase(count);
  }
  // Release what this pod's bind planned once no placed pod uses the claim any more.
  if (pod_newest_.size() <= idx(pod.v)) return;
  for (int32_t at = pod_newest_[idx(pod.v)]; at >= 0; at = planned_[idx(at)].previous) {
    Planned& r = planned_[idx(at)];
    if (!r.live || facts_[idx(r.claim)].users > 0) continue;
    if (r.volume >= 0) {
      taken_by_[idx(r.volume)] = -1;
      facts_[idx(r.claim)].planned_volume = -1;
    } else {
      facts_[idx(r.claim)].planned_node = -1;
    }
    r.live = false;
  }
}

std::vector<VolumeBindingRecord> VolumeTracker::bindings() const {
  std::vector<VolumeBindingRecord> out;
  for (const Planned& p : planned_) {
    if (!p.live) continue;
    out.push_back(VolumeBindingRecord{.pod = p.pod,
                                      .claim = p.claim,
                                      .volume = p.volume,
                                      .node = state_.node(model::NodeIndex{p.node}).meta.name});
  }
  return out;
}

}  // namespace berth::binding
