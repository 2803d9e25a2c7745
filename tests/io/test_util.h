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

}  // namespace berth::io::testing
