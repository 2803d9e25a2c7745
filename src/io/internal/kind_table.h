// io's half of the table of kinds: for each row of model's table (model/kind_info.h: group,
// versions, kind, plural, scope, verbs, status subresource, dispatch rules) the behaviour
// only io can run: the decoder that turns an object into the snapshot, the pod identity a
// workload's expansion gives its pods, the writer that patches berth's decisions into it
// (status_writer.h), and how a workload finds the pods it already owns (ownership.h).
// Read by the reader (one lookup per object), expansion and tests. Internal to io;
// immutable after first use (a function-local static), so thread-safe.
//
// Why two halves: the data must be readable by dispatch and the API server, which may not
// depend on io; the behaviour needs simdjson, which only io may use. Adding a kind is one
// row in model/kind_info.cc, one row here and its decoder, plus its status writer when berth
// writes decisions into it (CONTRIBUTING.md, "add a kind"); the halves are joined by (group, kind), and a model row without an io
// row here (or the reverse) fails tests/io/kind_table_test.cc and the first lookup.
#pragma once

#include <simdjson.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "io/internal/decoders.h"
#include "io/internal/expand.h"
#include "io/internal/ownership.h"
#include "io/internal/pod_templates.h"
#include "model/kind_info.h"
#include "model/object_meta.h"
#include "model/snapshot.h"

namespace berth::io::internal {

// Where a row's decoder puts what it decoded. The reader implements it for the object being
// read (reader.cc).
class DecodeSink {
 public:
  virtual ~DecodeSink() = default;
  virtual model::Snapshot& snapshot() = 0;
  // Records the object's document (file, apiVersion, kind, compact JSON) under `meta`'s name
  // and namespace; the returned reference goes into the decoded object's `source`.
  virtual model::SourceRef Store(const model::ObjectMeta& meta) = 0;
  // The member cluster the object lives in: ReadOptions::cluster, else the berth.dev/cluster
  // annotation, else "default".
  virtual std::string ClusterOf(const model::ObjectMeta& meta) const = 0;
  // Name (and namespace) read leniently, for kinds whose decoder keeps no metadata.
  virtual model::ObjectMeta PeekMeta(bool namespaced) = 0;
  // Side tables Finish reads, parallel to snapshot().pods and snapshot().workloads: call once
  // per pod or workload appended.
  virtual void AddedPod(bool has_priority) = 0;
  virtual void AddedWorkload(std::vector<PodSetSource> sources) = 0;
};

// Decodes `obj` (of a version the row reads, `api_version` in full) into the sink. OK when
// the object was kept; otherwise the error, field relative to the object, and nothing was
// kept (the reader adds file and object and reports it).
using DecodeFn = core::Status (*)(simdjson::dom::object obj, std::string_view api_version,
                                  DecodeSink& sink);

// Which writer patches berth's decisions into objects of the kind: status_writer.h.
struct StatusWriter;

struct KindRow {
  std::string_view group;
  std::string_view kind;
  DecodeFn decode = nullptr;
  // Workloads (model::KindInfo::workload) only: how expansion names and labels their pods.
  PodIdentityFn pod_identity = nullptr;
  // Kinds berth writes decisions into only; null for kinds it reads only. Rows with a writer
  // print in table order (writer.cc), so the table's order is the List's.
  const StatusWriter* status_writer = nullptr;
  // Workloads only: which pods given in the input it already has, so expansion creates
  // only the missing ones (internal/ownership.h); nullptr counts live pods as replicas.
  OwnershipFn ownership = nullptr;
  // Kinds dispatch ships with Kueue's flavor injection (workloads, and Pod): where each pod
  // set's template sits in the document (pod_templates.h), so the manifest gets the
  // nodeSelector and tolerations in every template the admission covered.
  PodTemplatesFn pod_templates = nullptr;
  // Workloads only: whether Kueue has a job integration for the kind, so a queued one (the
  // kueue.x-k8s.io/queue-name label) gets a Kueue Workload. Volcano's Job has none: Kueue
  // ignores its label and Volcano's own PodGroup gangs it.
  bool kueue_integration = true;
  // The templates pod_templates finds are PodSpecs written inline beside the owner's own
  // fields (a KServe predictor: nodeSelector, tolerations, annotations), not
  // PodTemplateSpecs.
  bool inline_pod_spec = false;
};

// A row of both halves.
struct KindEntry {
  const model::KindInfo* info = nullptr;
  const KindRow* row = nullptr;
};

// Every io row, in the table's order.
std::span<const KindRow> KindRows();

// The io row of a model row; nullptr when io has none (checked by tests never to happen).
const KindRow* RowOf(const model::KindInfo& info);

// What the reader decodes `kind` of `api_version` ("batch/v1") with: both halves, or
// {nullptr, nullptr} for a kind or version berth does not read. O(1), no allocation.
KindEntry FindKindEntry(std::string_view api_version, std::string_view kind);

// The io row for (group, kind) in any version; nullptr when none.
const KindRow* FindKindRow(std::string_view group, std::string_view kind);

}  // namespace berth::io::internal
