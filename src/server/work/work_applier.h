// The work agent's apply and removal of ManifestWorks (work.open-cluster-management.io/v1) on
// its member cluster, with OCM's work-agent semantics (pkg/work/spoke: manifestcontroller,
// appliedmanifestwork reconciler, statuscontroller, finalizercontroller). ApplyWork is one
// reconcile of a work: apply every manifest by its update strategy (Namespaces and other
// foundations first), record what is applied, delete what a new generation dropped, then read
// every object back for its Available condition, status feedback and condition rules, and
// aggregate the work's conditions. DeleteWork removes what a record holds, honouring the
// work's deleteOption. Neither throws or stops at a refused manifest: each manifest's outcome
// is in the status. Called by `berth agent` on each work it receives, and on a resync;
// thread-compatible (the client is the caller's).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/time.h"
#include "server/kube/kube_client.h"
#include "server/work/applied_record.h"
#include "server/work/status_feedback.h"

namespace berth::server::work {

using Json = nlohmann::ordered_json;

struct ApplyOptions {
  std::string hub_hash;  // HubHash(the hub's address): the owner is "<hub_hash>-<work>"
  std::string agent_id;
  core::Timestamp now;  // the lastTransitionTime of conditions that change
  FeedbackOptions feedback;
  // Attempts at a manifest the server refuses with 409 Conflict (a write raced another),
  // as upstream's retry.RetryOnConflict(DefaultBackoff) makes; a server-side apply conflict
  // is not retried (another field manager owns the field: retrying cannot help).
  int conflict_attempts = 4;
  // Between resyncs: apply nothing and keep the previous record, only read every applied
  // object back for the status, as OCM's status controller does on its own period (the
  // manifest controller re-applies on a change or a resync). WorkApplyResult's
  // missing_objects then says whether a full reconcile is due at once.
  bool refresh_status_only = false;
};

struct WorkApplyResult {
  // The ManifestWork's new status: {conditions, resourceStatus: {manifests}}. Conditions of
  // the work's previous status (the input's .status) keep their transition times unless
  // their status changed; per manifest: Applied, Available, StatusFeedbackSynced and rule
  // conditions, and statusFeedback.values.
  Json status;
  // What is applied now, plus dropped resources whose deletion is still pending.
  AppliedRecord record;
  // Failures worth an early retry: manifests refused or unreachable (not server-side apply
  // conflicts, which only a person can resolve), reads and deletions that failed.
  std::vector<std::string> errors;
  bool pending_deletions = false;  // dropped resources still being deleted
  bool complete = false;           // the work was Complete: nothing applied, status refreshed only
  // refresh_status_only: an object the work applied is gone from the member cluster (read
  // back as 404), so it must be applied again.
  bool missing_objects = false;
};

// One reconcile of `manifest_work` (the hub's object; its .status, when present, is the
// status to update) given what the previous reconcile recorded. InvalidArgument when the
// work has no metadata.name or its spec.workload.manifests is not a list.
core::Result<WorkApplyResult> ApplyWork(kube::Client& client, const Json& manifest_work,
                                        const AppliedRecord& previous, const ApplyOptions& options);

struct WorkDeleteResult {
  // What is still applied: resources whose deletion is pending or failed. The work is gone
  // from the member cluster when this is empty (foreground: call again until then).
  AppliedRecord record;
  std::vector<std::string> errors;
  int deleted = 0;  // objects this call deleted
  bool done() const { return record.resources.empty(); }
};

// Removes the resources `record` holds as spec.deleteOption (null = Foreground) says:
// Foreground deletes every one still carrying this work's owner mark and its recorded uid,
// Orphan deletes nothing, SelectivelyOrphan spares the resources its rules name.
WorkDeleteResult DeleteWork(kube::Client& client, const AppliedRecord& record,
                            const Json& delete_option);

}  // namespace berth::server::work
