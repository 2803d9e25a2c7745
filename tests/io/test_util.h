// Helpers shared by the io tests: fixture paths and one-call reading.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostics.h"
#include "io/reader.h"
#include "model/kind_info.h"
#include "model/pod.h"
#include "model/snapshot.h"

namespace berth::io::testing {

// tests/fixtures/io/<rel>, rooted at $BERTH_SOURCE_DIR when set (ctest sets it), else the
// working directory (the repository root).
std::string FixturePath(const std::string& rel);

// Reads `text` as file `name` and finishes.
Input ReadString(std::string_view text, core::Diagnostics& diags,
                 const std::string& name = "test.yaml");

// The pod named `name` in `ns`, or nullptr.
const model::Pod* FindPod(const model::Snapshot& snap, const std::string& ns,
                          const std::string& name);

std::vector<std::string> PodNames(const model::Snapshot& snap);

// The smallest valid object of kind `k` in `version`: apiVersion, kind, metadata.name (and
// namespace for namespaced kinds), and what the decoders require.
std::string MinimalObject(const model::KindInfo& k, std::string_view version);

// All diagnostics as "file|object|field|message" lines, for failure messages.
std::string Dump(const core::Diagnostics& diags);

// A valid Node named "good", as a YAML document starting with "---", to read after a bad one.
extern const char* const kGoodNodeYaml;

// The rule for one bad object beside a good one: reads `bad_yaml` followed by kGoodNodeYaml
// and expects exactly one error, at `field`, bounded (message and object under 600 bytes, no
// NUL byte), the good Node read, and `objects_read` objects decoded in all (1: the bad one
// was dropped; 2 for an object kept but refused later, as a workload too big to expand).
// Returns the diagnostics.
core::Diagnostics ExpectOneErrorBesideGoodNode(const std::string& bad_yaml,
                                               const std::string& field,
                                               size_t objects_read = 1);

}  // namespace berth::io::testing
