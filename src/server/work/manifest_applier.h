// ApplyManifest: one manifest of a ManifestWork applied to the member cluster by its update
// strategy, as OCM's appliers do (pkg/work/spoke/apply): Update (create when absent; else
// merge labels, annotations and ownerReferences into the live object's, keep its finalizers
// and status, and write the manifest only when it differs outside metadata and status),
// CreateOnly (create when absent, never update; only the owner mark is patched),
// ServerSideApply (an apply patch under the config's field manager, forced or not; a
// conflict is the server's 409 message; ignoreFields with jsonPaths and jsonPointers), and
// ReadOnly (no write). Owned resources get the work's owner mark (owner_mark.h); a work that
// orphans them takes it away. Called by ApplyWork for each manifest; thread-compatible (the
// client is the caller's).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "server/kube/kube_client.h"
#include "server/work/manifest_config.h"

namespace berth::server::work {

using Json = nlohmann::ordered_json;

struct ManifestApplyOutcome {
  bool ok = false;
  // The object as the member cluster holds it after the apply (for ReadOnly: the manifest
  // itself, as upstream returns it); null on failure.
  Json object;
  // Why it failed: the API server's Status message, or berth's own sentence when there was no
  // answer or the strategy cannot be carried out. Without upstream's "Failed to apply
  // manifest: " prefix.
  std::string error;
  int http_status = 0;  // the refusing reply's status; 0 when there was none
  // The failure is in processing SSA ignoreFields (reason AppliedManifestSSAIgnoreFieldError).
  bool ignore_field_error = false;
};

// Applies `required` (a manifest with its uid already removed) at `resource` by `config`'s
// strategy, marking it as `owner`'s when `owned` and unmarking it otherwise.
ManifestApplyOutcome ApplyManifest(kube::Client& client, const kube::Resource& resource,
                                   Json required, const ManifestConfig& config,
                                   std::string_view owner, bool owned);

// The annotation OCM's ServerSideApply writes the hash of a manifest with ignoreFields under.
inline constexpr std::string_view kConfigSpecHashAnnotation =
    "open-cluster-management.io/config-spec-hash";

}  // namespace berth::server::work
