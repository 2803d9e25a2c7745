// Writer: prints a `v1` List of objects in upstream schema, with berth's decisions patched
// into the documents as they were read: for Pods spec.nodeName and the PodScheduled
// condition in status.conditions. Output is deterministic (same input, same bytes).
#pragma once

#include <ostream>
#include <vector>

#include "io/document_store.h"
#include "model/decision.h"
#include "model/snapshot.h"

namespace berth::io {

enum class OutputFormat { kYaml, kJson, kTable };

// Writes the pods named by `decisions` (in that order), taking their decided state from
// `planned` (node_name and conditions as the engine wrote them).
void WritePlanList(const model::Snapshot& planned, const std::vector<model::PodDecision>& decisions,
                   const DocumentStore& documents, OutputFormat format, std::ostream& out);

}  // namespace berth::io
