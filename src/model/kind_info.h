// KindInfo: what berth knows about each Kubernetes kind it reads, as plain constant data:
// group, versions, kind, plural resource, scope, verbs, status and scale subresources,
// short names and categories (what a Kubernetes-style API server serves as discovery), whether the kind is a
// workload expanded into pods, and what dispatch needs to ship it in a ManifestWork. One row
// per kind in kind_info.cc. Read by io (whose internal/kind_table.h pairs each row with its
// decoder, pod expansion and status writer), dispatch and the API server. Immutable static
// data: thread-safe, no initialisation order; lookups go through indices built at compile
// time (a hash table by (group, kind), a sorted index by (group, resource)).
//
// Why the row is split across two modules: dispatch and the server may not depend on io
// (DESIGN.md module table) but need the data; the decoders need simdjson, which only io
// may use. So the data lives here and the behaviour in io, joined by (group, kind).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "model/work.h"

namespace berth::model {

enum class Scope { kNamespaced, kCluster };

// API verbs as discovery lists them. A set of them is a bit mask.
enum class Verb : uint16_t {
  kCreate = 1 << 0,
  kDelete = 1 << 1,
  kDeleteCollection = 1 << 2,
  kGet = 1 << 3,
  kList = 1 << 4,
  kPatch = 1 << 5,
  kUpdate = 1 << 6,
  kWatch = 1 << 7,
};

struct VerbSet {
  uint16_t bits = 0;
  constexpr bool Has(Verb v) const { return (bits & static_cast<uint16_t>(v)) != 0; }
};

// Every verb (what apiextensions serves for a CRD, and most built-in kinds).
inline constexpr VerbSet kAllVerbs{0xff};
// Namespaces: no deletecollection (upstream's namespace storage does not offer it).
inline constexpr VerbSet kAllVerbsButDeleteCollection{
    static_cast<uint16_t>(0xff & ~static_cast<uint16_t>(Verb::kDeleteCollection))};

// Every verb in discovery's order (alphabetical, as kube-apiserver prints them).
inline constexpr Verb kVerbOrder[] = {Verb::kCreate, Verb::kDelete, Verb::kDeleteCollection,
                                      Verb::kGet,    Verb::kList,   Verb::kPatch,
                                      Verb::kUpdate, Verb::kWatch};
// "create", "delete", "deletecollection", "get", "list", "patch", "update", "watch".
std::string_view VerbName(Verb verb);

// How Kueue holds an object of this kind until it is admitted.
enum class SuspendField {
  kNone,              // held at its pods (Deployment, StatefulSet, LeaderWorkerSet, Pod)
  kSpecSuspend,       // spec.suspend (Job, JobSet)
  kRunPolicySuspend,  // spec.runPolicy.suspend (kubeflow.org jobs)
};

// A ManifestWork status feedback rule as constant data (model::FeedbackRule is its value).
struct JsonPathInfo {
  std::string_view name{};
  std::string_view path{};  // from the object's root: ".status.readyReplicas"
};
struct FeedbackRuleInfo {
  FeedbackRuleType type = FeedbackRuleType::kWellKnownStatus;
  std::span<const JsonPathInfo> json_paths{};  // type kJsonPaths
};

// What dispatch needs to put objects of the kind into a ManifestWork (ocm.md §3).
struct DispatchInfo {
  SuspendField suspend = SuspendField::kNone;
  // Empty for kinds without known status fields (no manifestConfig is written for them).
  std::span<const FeedbackRuleInfo> feedback_rules{};
};

// The scale subresource (RESOURCE/scale, serving an autoscaling/v1 Scale to `kubectl scale`
// and the HorizontalPodAutoscaler): where the kind keeps the replica count it scales, as
// JSON paths from the object's root. A CRD declares them (subresources.scale); for the
// built-in kinds they are the fields their registry reads.
struct ScaleInfo {
  std::string_view spec_replicas_path{};    // ".spec.replicas"; empty: no scale subresource
  std::string_view status_replicas_path{};  // ".status.replicas"
  // Scale's status.selector: a CRD's string field; a built-in's spec.selector (a
  // LabelSelector the registry formats as text). Empty when the CRD names none.
  std::string_view label_selector_path{};

  constexpr bool served() const { return !spec_replicas_path.empty(); }
};

struct KindInfo {
  std::string_view group{};  // "" for the core group
  // Versions served (discovery) and read, the preferred one first.
  std::span<const std::string_view> versions{};
  // Versions upstream has removed that io still reads from old files (same fields); never
  // served.
  std::span<const std::string_view> read_only_versions{};
  std::string_view kind{};
  // Lower-case plural as the API server names it ("jobs", "clusterqueues"); empty for
  // component configuration kinds (KubeSchedulerConfiguration, Kueue's Configuration), which
  // are files, not API resources, and are not served.
  std::string_view resource{};
  Scope scope = Scope::kNamespaced;
  VerbSet verbs = kAllVerbs;
  bool status_subresource = false;
  ScaleInfo scale{};  // subresources other than status and scale are not modelled
  std::span<const std::string_view> short_names{};  // as upstream's CRD or API defines them
  std::span<const std::string_view> categories{};   // "all" for the built-in workload kinds
  // Pods are made from its pod templates (io expands them; Kueue makes a Workload for it).
  bool workload = false;
  DispatchInfo dispatch{};
  // kube-apiserver serves it only behind an alpha feature gate that is off by default: io
  // reads it from files, the hub's API leaves it out (discovery, routes), as a default
  // cluster does.
  bool gated_off = false;

  constexpr bool namespaced() const { return scope == Scope::kNamespaced; }
  constexpr bool served() const { return !resource.empty(); }
  // Whether `version` ("v1beta2") is one io reads: a served or read-only version.
  bool Reads(std::string_view version) const;
};

// Every kind, in the table's order (grouped by API group). Stable for the process.
std::span<const KindInfo> AllKinds();
// The position of `info` (an element of AllKinds()) in AllKinds().
size_t KindIndex(const KindInfo& info);

// The row for (group, kind), whatever the version; nullptr when berth has none.
// O(1): a hash of the two names and usually one probe; no allocation.
const KindInfo* FindKind(std::string_view group, std::string_view kind);
// The row for `kind` of `api_version` ("batch/v1", "v1") when that version is read;
// nullptr otherwise (an unknown kind, or a version berth does not read).
const KindInfo* FindKindForApiVersion(std::string_view api_version, std::string_view kind);
// The served row whose plural is `resource` in `group` (what /apis/GROUP/VERSION/RESOURCE
// names); nullptr when none. O(log kinds).
const KindInfo* FindResource(std::string_view group, std::string_view resource);

// The group and version of an apiVersion: "batch/v1" -> "batch", "v1"; "v1" -> "", "v1".
std::string_view ApiGroupOf(std::string_view api_version);
std::string_view ApiVersionOf(std::string_view api_version);

}  // namespace berth::model
