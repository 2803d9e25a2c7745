// CanonicalJsonHash: a short, stable hash of a JSON value that does not depend on how it was
// written: object keys sorted, no whitespace, numbers as read (an integer as an integer, any
// other number in its shortest round-trip form, so 1.0 and 1 are one value), strings
// escaped one way. Equal values hash the same whether they came from YAML, JSON or the
// hub's store, so a ManifestWork's spec is compared with a ManifestWorkReplicaSet's template
// by it, and it names an MWRS's ControllerRevisions (`<mwrs>-<hash>`). Internal to io;
// pure; linear in the value's size (plus the sort of each object's keys).
#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>

#include "core/result.h"

namespace berth::io::internal {

// The value's canonical text (what is hashed): for tests and error messages.
std::string CanonicalJson(simdjson::dom::element value);

// 64-bit FNV-1a of CanonicalJson(value), written as kCanonicalHashLength characters of the
// alphabet Kubernetes uses for generated name parts ("bcdfghjklmnpqrstvwxz2456789": no
// vowels, so no words; no 0/1/3 that read like letters).
inline constexpr size_t kCanonicalHashLength = 10;
std::string CanonicalJsonHash(simdjson::dom::element value);

// The same for JSON text (one value): its canonical text, or its hash. InvalidArgument when
// the text is not JSON. For callers without a DOM (tests, tools): simdjson's parser is built
// here, with io's compile options, rather than inlined into them.
core::Result<std::string> CanonicalJsonOfText(std::string_view json);
core::Result<std::string> CanonicalJsonHashOfText(std::string_view json);

}  // namespace berth::io::internal
