// Pods as the plan prints them: the document as read with kube-scheduler's decision
// patched in (spec.nodeName, the PodScheduled condition) and the nodeSelector and
// tolerations Kueue injects into admitted pods; as a tree, or straight from the stored text
// when internal/json_pretty.h can print it. Called by the pod row's status writer
// (status_writer.h). Internal to io; stateless; linear in the document.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "io/document_store.h"
#include "model/decision.h"
#include "model/snapshot.h"

namespace berth::io::internal {

// The pod `d` names, its decided state taken from `planned` (node_name and conditions as the
// engine wrote them): spec.nodeName when bound (pod.node_name, else d.node), the planned
// nodeSelector entries and extra tolerations, and the PodScheduled condition replaced in
// place or appended (the planned pod's, else True / False+Unschedulable with d.message; a
// skipped pod's conditions are left as read). A pod without a document is a minimal v1 Pod.
nlohmann::ordered_json PatchedPod(const model::Snapshot& planned, const model::PodDecision& d,
                                  const DocumentStore& documents);

// The same pod appended to *out as PatchedPod(...).dump(2) would print it at indentation
// `indent` (internal/json_pretty.h), printed from its stored text; false, *out unchanged,
// when the pod has no document or the pretty printer declines it.
bool PrettyPatchedPod(const model::Snapshot& planned, const model::PodDecision& d,
                      const DocumentStore& documents, int indent, std::string* out);

}  // namespace berth::io::internal
