// VolumeTracker: the PersistentVolumeClaims, PersistentVolumes, StorageClasses and CSINodes
// of one cluster while binding places its pods (upstream's PV/PVC assume cache and the
// volume plugins' per-pod state in one place): which claim each pod volume names, which
// volume each claim is bound to (as read, or chosen by a bind in this plan), which
// WaitForFirstConsumer claims are provisioned on which node, how many placed pods use each
// claim (ReadWriteOncePod), and which CSI volumes each node has attached (NodeVolumeLimits).
// Built by the Scheduler when its snapshot has a pod with a claim volume; the VolumeBinding,
// VolumeRestrictions, VolumeZone and NodeVolumeLimits filters read it, Bind() records a
// placement and Unbind() undoes one. Available volumes are indexed by class, capacity and
// (for local volumes) hostname, so matching a claim on a node never scans every volume.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "binding/framework/cluster_state.h"
#include "binding/scheduler.h"
#include "model/snapshot.h"

namespace berth::binding {

// One claim bound by a bind in this plan: the scheduler's AssumePodVolumes and PreBind.
// Indices are the tracker's own (claim(), volume()); Scheduler maps them to the snapshot's.
using VolumeBindingRecord = PlannedVolumeBinding;

// The claims one pod uses, split as VolumeBinding's PreFilter splits them.
struct PodVolumeClaims {
  std::vector<int32_t> claims;     // distinct, in spec.volumes order
  std::vector<int32_t> bound;      // bound to a volume (as read, or by this plan)
  std::vector<int32_t> delayed;    // unbound, WaitForFirstConsumer: by request, then name
  std::vector<int32_t> immediate;  // unbound, Immediate (or no such class)
  // The first volume naming a claim that does not exist: upstream's NotFound text.
  std::string missing;
  // A claim in phase Lost whose volume does not exist: VolumeBinding's PreFilter text.
  std::string lost;
};

// What VolumeBinding's Filter finds on a node (upstream's FindPodVolumes reasons).
struct VolumeFit {
  bool bound_satisfied = true;    // bound claims' volumes reach the node
  bool unbound_satisfied = true;  // every WaitForFirstConsumer claim matched or provisions
  bool bound_pvs_found = true;    // every bound claim's volume exists
  bool ok() const { return bound_satisfied && unbound_satisfied && bound_pvs_found; }
};

class VolumeTracker {
 public:
  // The storage objects of `cluster` in `snapshot`; pods and nodes through `state` (node
  // names and labels) and `pods` (the pod of an index, as scheduled). Borrows all three.
  VolumeTracker(const model::Snapshot& snapshot, const std::string& cluster,
                const ClusterState& state);

  // Whether the pod has a persistentVolumeClaim volume.
  static bool HasClaimVolumes(const model::Pod& pod);
  // The same, answered from construction's lookups for the snapshot's own pods.
  bool UsesClaims(const model::Pod& pod) const;

  // Cached for the last pod asked until the next Bind or Unbind (each volume filter's
  // PreFilter asks): the reference stays valid until then.
  const PodVolumeClaims& Resolve(const model::Pod& pod) const;

  // VolumeBinding's Filter on `node`. O(claims x candidate volumes of the node).
  VolumeFit Fit(const PodVolumeClaims& claims, model::NodeIndex node) const;
  // VolumeZone: the zone/region labels of the bound claims' volumes admit the node.
  bool ZoneFits(const PodVolumeClaims& claims, model::NodeIndex node) const;
  // VolumeZone's PreFilter rejection text, or "".
  std::string ZoneRejection(const PodVolumeClaims& claims) const;
  // VolumeRestrictions: a ReadWriteOncePod claim of the pod is used by a placed pod.
  bool ReadWriteOncePodConflict(const PodVolumeClaims& claims) const;
  // NodeVolumeLimits: the node's CSINode allows the pod's new CSI volumes.
  bool WithinVolumeLimits(const PodVolumeClaims& claims, model::NodeIndex node) const;

  // Whether no volume filter can reject any node for the pod: no ReadWriteOncePod conflict,
  // bound claims' volumes without node affinity or zone labels, WaitForFirstConsumer claims
  // that name no node and whose class provisions anywhere, and CSI limits that the most
  // attachments any node ever had plus the pod's volumes stay within on every node. A
  // sufficient test, O(claims): the index then decides the pod as if it had no volumes.
  bool AcceptsEveryNode(const PodVolumeClaims& claims) const;

  // The pod is placed on `node`: its unbound WaitForFirstConsumer claims take the volumes
  // Fit matched there (or are provisioned there), its claims count one more user and its
  // CSI volumes are attached to the node. `planned` false: a pod bound in the input (only
  // counted).
  void Bind(model::PodIndex pod, const PodVolumeClaims& claims, model::NodeIndex node,
            bool planned);
  // Undoes Bind: bindings this pod's bind made are released once no placed pod uses the
  // claim (gang rollback restores every value when unbinding newest first).
  void Unbind(model::PodIndex pod, const PodVolumeClaims& claims, model::NodeIndex node);

  // The live bindings in bind order, node names filled in. O(bindings made), so callers
  // ask once per cycle (Scheduler::VolumeBindings caches it until the next bind or unbind).
  std::vector<VolumeBindingRecord> bindings() const;
  const model::PersistentVolumeClaim& claim(int32_t c) const { return *claims_[idx(c)]; }
  const model::PersistentVolume& volume(int32_t v) const { return *volumes_[idx(v)]; }
  int32_t claim_index(int32_t c) const { return claim_index_[idx(c)]; }
  int32_t volume_index(int32_t v) const { return volume_index_[idx(v)]; }

 private:
  static size_t idx(int32_t i) { return static_cast<size_t>(i); }
  // The volume bound to a claim (read or planned), -1 when none, -2 when it names a volume
  // that does not exist.
  int32_t VolumeOf(int32_t claim) const;
  bool IsBound(int32_t claim) const;
  const std::string& ClassOf(int32_t claim) const { return claim_class_[idx(claim)]; }
  const model::StorageClass* FindClass(const std::string& name) const;
  bool IsDelayed(int32_t claim) const;
  // The smallest available volume matching `claim` on `node`, not in `chosen`; -1 if none.
  int32_t FindMatch(int32_t claim, model::NodeIndex node, const std::vector<int32_t>& chosen) const;
  bool Matches(int32_t claim, int32_t volume, model::NodeIndex node,
               const std::vector<int32_t>& chosen) const;
  bool CanProvision(int32_t claim, model::NodeIndex node) const;
  bool AffinityAdmits(const model::PersistentVolume& v, model::NodeIndex node) const;
  // The driver id and volume id of a claim's CSI volume, -1 both when it has none: a bound
  // claim's volume's spec.csi driver and handle, an unbound one's class provisioner.
  std::pair<int32_t, int32_t> CsiVolume(int32_t claim) const;
  int32_t CsiId(std::unordered_map<std::string, int32_t>* ids, const std::string& key);
  // The claim named `name` in namespace `ns` ("" is default), or -1.
  int32_t FindClaim(std::string_view ns, std::string_view name) const;

  const ClusterState& state_;
  std::vector<const model::PersistentVolumeClaim*> claims_;
  std::vector<int32_t> claim_index_;  // into Snapshot::persistent_volume_claims
  std::vector<const model::PersistentVolume*> volumes_;
  std::vector<int32_t> volume_index_;  // into Snapshot::persistent_volumes
  std::unordered_map<std::string, const model::StorageClass*> class_by_name_;
  std::string default_class_;
  std::vector<std::string> claim_class_;  // per claim: GetPersistentVolumeClaimClass
  // CSI volumes and drivers as small ids, per volume (a claim's are in its ClaimFacts).
  std::vector<std::pair<int32_t, int32_t>> volume_csi_;
  // Per node: its CSINode's limits as (driver id, count).
  std::vector<std::vector<std::pair<int32_t, int32_t>>> node_limits_;
  // Claims by a hash of (namespace, name) in an open-addressing table (linear probing,
  // a power of two at least twice the claims): a pod's claims are found without building a
  // key string, touching one slot per probe and the claim itself only on a hash match
  // (FindClaim). Of claims with the same name the first in input order is found.
  struct ClaimSlot {
    uint64_t hash = 0;
    int32_t claim = -1;  // -1: empty
  };
  std::vector<ClaimSlot> claim_slots_;
  std::vector<const model::CSINode*> node_csi_;  // per node: its CSINode, or null
  // Per volume: the claim it is bound to (claimRef as read, or by this plan), -1 when
  // none; a claimRef naming a claim not in the snapshot counts as taken (-2).
  std::vector<int32_t> taken_by_;
  // Available-volume index: per class, volumes by (capacity, name); local volumes (one
  // term pinning kubernetes.io/hostname) under each host they name, the rest in general.
  struct ClassVolumes {
    std::vector<int32_t> general;
    std::unordered_map<std::string, std::vector<int32_t>> by_host;
    // by_host per node index (empty, or one entry per node of the cluster: its host's
    // list, or null). Pointers into by_host, whose values never move.
    std::vector<const std::vector<int32_t>*> by_node;
  };
  std::unordered_map<std::string, ClassVolumes> by_class_;
  // Per claim, what a pod's turn reads of it, in one record: a pod's claims sit anywhere
  // in the claim list, and one cache line per claim costs less than one per array (the
  // volume run's extra time was mostly such misses).
  struct ClaimFacts {
    int32_t named_volume = -1;    // spec.volumeName's volume: -1 none, -2 missing
    int32_t planned_volume = -1;  // chosen by a bind in this plan, or -1
    int32_t planned_node = -1;    // provisioned there by a bind in this plan, or -1
    int32_t users = 0;            // placed pods using the claim
    int32_t prebound = -1;        // a volume whose claimRef names it, or -1
    int32_t csi_driver = -1;      // unbound: its class's provisioner as a CSI driver id
    int32_t csi_volume = -1;      // unbound: the id of the volume it will be given
    bool delayed = false;         // its class binds WaitForFirstConsumer
    bool selected_node = false;   // the selected-node annotation was read
    bool provisions_anywhere = false;  // its class provisions, without allowedTopologies
    bool read_write_once_pod = false;
    const model::StorageClass* sc = nullptr;  // null when the class does not exist
    const ClassVolumes* volumes = nullptr;    // its class's available volumes, or null
  };
  std::vector<ClaimFacts> facts_;
  // Per node: attached CSI volumes (volume id, pods using it) and (driver id, count).
  std::vector<std::vector<std::pair<int32_t, int32_t>>> attached_;
  std::vector<std::vector<std::pair<int32_t, int32_t>>> attached_count_;
  uint64_t version_ = 0;  // bumped by Bind and Unbind
  // Per driver id: the smallest CSINode count over nodes that limit it (INT32_MAX: none),
  // and the most volumes of it any node has had attached (never lowered: a bound).
  std::vector<int32_t> driver_min_limit_;
  std::vector<int32_t> driver_max_attached_;
  // The claims of the snapshot's pods, found at construction in snapshot order (pods and
  // the claims made beside them are walked in memory order, where a pod's own lookup at its
  // turn would miss the cache for the pod, its claim names, the table slot and the claim):
  // for the pod at offset i of Snapshot::pods, pod_claims_[pod_claims_begin_[i] ..
  // pod_claims_begin_[i + 1]) in its claim volumes' order, -1 for a claim that does not
  // exist. Pods the scheduler replaced or added are not in the array and are looked up.
  const model::Pod* snapshot_pods_ = nullptr;
  size_t num_snapshot_pods_ = 0;
  std::vector<int32_t> pod_claims_begin_;
  std::vector<int32_t> pod_claims_;
  // Whether `pod` is the snapshot's own (an element of Snapshot::pods): its offset then.
  std::optional<size_t> SnapshotOffset(const model::Pod& pod) const;
  // The claimName of the pod's n-th persistentVolumeClaim volume.
  static const std::string& NthClaimName(const model::Pod& pod, size_t n);
  // Resolve's scratch: the claims of a pod not in the snapshot array, as looked up.
  mutable std::vector<int32_t> found_;
  mutable const model::Pod* resolved_pod_ = nullptr;
  mutable uint64_t resolved_version_ = 0;
  mutable std::string resolved_name_;
  mutable std::string resolved_namespace_;
  mutable PodVolumeClaims resolved_;
  // What binds planned, in bind order; an Unbind marks its pod's records dead instead of
  // erasing them, and finds them through a chain per pod: no scan of every binding per
  // unbind.
  struct Planned {
    model::PodIndex pod;
    int32_t claim = -1;
    int32_t volume = -1;  // -1: provisioned on `node`
    int32_t node = -1;
    int32_t previous = -1;  // the pod's record before this one, or -1
    bool live = true;
  };
  std::vector<Planned> planned_;
  // Per pod index (grown on demand): its newest record in planned_, or -1. A record stays
  // live after its pod's Unbind while another placed pod uses the claim.
  std::vector<int32_t> pod_newest_;
};

}  // namespace berth::binding
