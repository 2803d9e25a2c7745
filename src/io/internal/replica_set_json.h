// ManifestWorkReplicaSets and their ControllerRevisions as the plan prints them: an MWRS's
// document as read with its status and berth's rollback annotation patched in; a
// ControllerRevision berth created whole, or a given one with its revision number and
// berth's annotations written. Also the JSON berth keeps in those annotations. Called by
// status_writer.cc; internal to io; stateless; linear in the documents.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/document_store.h"
#include "model/controller_revision.h"
#include "model/work_replica_set.h"

namespace berth::io::internal {

// The MWRS's document (a minimal one when it has none) with, once stepped:
// metadata.annotations[rollout.berth.dev/rolled-back] set from `rolled_back` or removed, and
// status.conditions patched by type (json_patch.h), status.summary and
// status.placementSummary[] replaced, in the Go struct's field order (summary: total,
// progressing, available, degraded, applied, desiredTotal, updated). Everything else as read.
nlohmann::ordered_json PatchedManifestWorkReplicaSet(const model::ManifestWorkReplicaSet& mwrs,
                                                     const DocumentStore& documents);

// A created revision: apiVersion apps/v1, kind ControllerRevision, metadata {name,
// namespace, labels, annotations (berth's, and the change cause), ownerReferences (the
// MWRS, controller)}, data {spec: {manifestWorkTemplate: the template at `template_from`}},
// revision. A given one: its document with `revision` and berth's two annotations written
// (set, or removed when empty).
nlohmann::ordered_json ControllerRevisionJson(const model::ControllerRevision& revision,
                                              const DocumentStore& documents);

// The annotations' text: compact JSON, keys in a fixed order, times RFC 3339, empty fields
// left out.
std::string RollbackAnnotationText(const model::MwrsRollback& rollback);
std::string RevisionClustersText(const std::vector<model::RevisionClusterRecord>& clusters);

// The JSON value at `source.path` in `source.document`'s document; null when absent.
nlohmann::ordered_json WorkSpecJson(const model::WorkSpecSource& source,
                                    const DocumentStore& documents);

}  // namespace berth::io::internal
