// PrettyPod: a pod's stored document (compact JSON, DocumentStore) printed as
// nlohmann::ordered_json's dump(2) prints it, with a plan's pod patch applied on the way
// (spec.nodeName; the PodScheduled condition), without building a JSON tree. Used by the
// writer for -o json, which otherwise parses and re-serializes every pod; internal to io.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/labels.h"
#include "model/pod.h"

namespace berth::io::internal {

struct PodPatch {
  std::string node;                             // spec.nodeName to set; empty: none
  std::optional<model::PodCondition> condition;  // PodScheduled to write; nullopt: none
  // The pod's planned nodeSelector and tolerations: the document must already hold them
  // (the writer's PatchScheduling would change nothing), else PrettyPod declines.
  const core::Labels* node_selector = nullptr;
  size_t tolerations = 0;
};

// Appends `json` (compact, as DocumentStore keeps it) patched and printed at indentation
// `indent` (the first line unindented, nested lines from indent + 2) to *out, and returns
// true; or returns false, leaving *out as it was, when the document holds anything whose
// dump(2) would not be the text as read (a float, a \u or \/ escape, a key given twice, an
// integer beyond 64 bits) or a patch it does not apply (spec or status.conditions missing,
// a nodeSelector or tolerations to add): the caller then takes the nlohmann path. Linear in
// the document's length.
bool PrettyPod(std::string_view json, const PodPatch& patch, int indent, std::string* out);

}  // namespace berth::io::internal
