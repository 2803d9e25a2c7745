// Reader: turns files, directories (recursively, *.yaml *.yml *.json in name order) and stdin
// ("-") into a model::Snapshot. Accepts multi-document YAML, JSON, and `kind: List` (what
// `kubectl get -A -o yaml|json` prints). Bad objects go to the Diagnostics sink with file,
// object and field, and reading goes on; unknown kinds are reported once per kind as skipped
// (a warning). The same object (group, kind, namespace, name, cluster) read twice is read
// once: a warning when the copies are byte-identical (`-f DIR -f DIR`), else an error naming
// both places. Not thread-safe; one Reader per planning pass.
#pragma once

#include <cstdint>

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/diagnostics.h"
#include "core/result.h"
#include "io/decode_cache.h"
#include "io/document_store.h"
#include "io/input_limits.h"
#include "model/snapshot.h"

namespace berth::io {

struct Input {
  model::Snapshot snapshot;
  DocumentStore documents;
  size_t objects_read = 0;  // objects that were decoded into the model
};

// Bounds on the pods Finish creates for workloads (defaults: input_limits.h). A workload
// over either is an error on its spec and is not expanded; the rest is read. Tests and,
// later, the hub's per-tenant budgets give smaller ones.
struct ExpansionLimits {
  int64_t pods_per_workload = kMaxPodsPerWorkload;
  int64_t pods = kMaxExpandedPods;
  // Off: workloads are not expanded into the pods they would make; each is tied only to the
  // pods that exist and name it as their owner. A simulated member cluster turns it off,
  // because its own workload controllers create the pods (server/member), as a real
  // cluster's do.
  bool create_missing_pods = true;
};

struct ReadOptions {
  // When non-empty, every object read is treated as living in this member cluster (the
  // CLI's --cluster NAME=PATH); otherwise the berth.dev/cluster annotation or "default".
  std::string cluster;
};

namespace internal {
struct ReaderState;
}  // namespace internal

class Reader {
 public:
  explicit Reader(core::Diagnostics& diags);
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // Reads a file, a directory (recursively) or "-" for stdin. Returns an error only when the
  // path itself cannot be read (NotFound); problems inside documents go to the sink.
  core::Status ReadPath(const std::string& path, const ReadOptions& options = {});
  // Reads one text buffer (YAML or JSON, detected from the first non-space byte).
  void ReadText(std::string_view text, const std::string& file_name,
                const ReadOptions& options = {});

  // Reads `objects` as ReadText would read them as one List (same snapshot, documents and
  // diagnostics, file `file_name`), decoding only the objects whose key is new to `cache` or
  // whose version differs from the one cached; the others are copied from the cache, which
  // afterwards holds exactly these objects. Keys must be unique. Must be the reader's only
  // input (call it on a new Reader, then Finish). The Input's documents view texts `cache`
  // keeps alive through the Input itself. O(objects) copies plus the decodes.
  void ReadCached(std::span<const SourceObject> objects, DecodeCache& cache,
                  const std::string& file_name);

  // Objects decoded so far (Input::objects_read before Finish): callers compare it around a
  // ReadPath to learn whether the path held any object.
  size_t ObjectsRead() const;

  // Completes the snapshot once every file is read: resolves pod priorities from
  // PriorityClasses (a pod naming a missing class is reported and dropped, as the admission
  // plugin rejects it), and expands workloads (Job, Deployment, StatefulSet, JobSet,
  // PyTorchJob, LeaderWorkerSet) into Pods named per DESIGN.md, skipping pods that already
  // exist under that name, and generates the ResourceClaim of every pod reference to a
  // ResourceClaimTemplate (`<pod>-<claim>`, claim_templates.h) unless one of that name
  // exists. Call once; the Reader is spent afterwards.
  Input Finish(const ExpansionLimits& limits = {});

 private:
  core::Diagnostics& diags_;
  // The snapshot being built plus what Finish needs (template texts, which pods set
  // spec.priority, unknown-kind counts) and the reusable simdjson parser.
  std::unique_ptr<internal::ReaderState> state_;
};

}  // namespace berth::io
