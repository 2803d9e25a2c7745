// What `berth rollout` reads and writes, as pure functions over the objects the hub serves
// (a ManifestWorkReplicaSet and the apps/v1 ControllerRevisions it owns, as JSON): the
// revision history, the rollout's status in kubectl's words, and the patches of undo, pause
// and resume. docs/fleet.md ("Controlled rollback") says what the objects hold. The command
// (rollout_command.h) fetches and sends; everything it decides is here, so tests feed JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "server/kube/kube_client.h"

namespace berth::cli {

using Json = server::kube::Json;

// One cluster's record on a revision (the `rollout.berth.dev/clusters` annotation).
struct RevisionCluster {
  std::string cluster;
  std::string taken_at;
  std::string outcome;  // Progressing, Succeeded, Failed, TimeOut
  std::string outcome_at;
  std::string detail;
};

struct RolloutRevision {
  int64_t number = 0;
  std::string name;
  std::string hash;          // controller.kubernetes.io/hash
  std::string change_cause;  // kubernetes.io/change-cause
  std::string rolled_back;   // rollout.berth.dev/rolled-back: why it was rolled back
  std::vector<RevisionCluster> clusters;
  std::string clusters_problem;  // the annotation did not read as berth writes it
  Json template_json;            // data.spec.manifestWorkTemplate (null when absent)
  bool is_spec = false;          // equal to the MWRS's spec.manifestWorkTemplate
};

// "manifestworkreplicaset.work.open-cluster-management.io/NAME", as kubectl names objects.
std::string RolloutObjectName(const std::string& name);

// The MWRS name of `berth rollout`'s arguments: "TYPE/NAME" or "TYPE NAME", TYPE one of
// manifestworkreplicaset(s), mwrs in any case, with or without ".work.open-cluster-management.io"
// (resource_name.h reads TYPE).
// InvalidArgument naming what is wrong (another kind: berth keeps revisions for MWRS only).
core::Result<std::string> ParseRolloutTarget(const std::vector<std::string>& args);

// The revisions of `list` (a ControllerRevisionList) that `mwrs` owns (controller
// ownerReference of kind ManifestWorkReplicaSet with its name, and its uid when both are
// set), sorted by revision number.
std::vector<RolloutRevision> OwnedRevisions(const Json& mwrs, const Json& list);

// `berth rollout history`: the object's name, then REVISION, CHANGE-CAUSE, CLUSTERS (each
// cluster and its outcome, or counts per outcome past four clusters) and ROLLED-BACK.
std::string HistoryTable(const std::string& name, const std::vector<RolloutRevision>& revisions);

// `berth rollout history --revision N`: one revision in full (clusters with times and
// details, why it was rolled back, the template as YAML). NotFound when there is no such
// revision, worded as kubectl's.
core::Result<std::string> RevisionDetail(const std::string& name,
                                         const std::vector<RolloutRevision>& revisions,
                                         int64_t number);

// The rollout's state, as kubectl's status viewers report it.
struct RolloutState {
  std::string message;  // one line
  bool done = false;    // rolled out: stop waiting, exit 0
  bool failed = false;  // will not finish without a person: stop, exit non-zero
};
RolloutState StatusOf(const Json& mwrs, const std::vector<RolloutRevision>& revisions);

// `berth rollout undo [--to-revision N]`: the JSON patch (json-patch+json) that puts
// revision N's template into the MWRS (N 0: the newest revision whose template is not the
// spec's), with its change cause, dropping `rollout.berth.dev/rolled-back`, guarded by a
// test of the resourceVersion read. nullopt when the spec already holds that template
// (`skipped`). NotFound for an unknown revision; FailedPrecondition when there is nothing
// to go back to.
struct UndoPlan {
  int64_t to_revision = 0;
  std::optional<std::string> patch;  // nullopt: nothing to change
};
core::Result<UndoPlan> PlanUndo(const Json& mwrs, const std::vector<RolloutRevision>& revisions,
                                int64_t to_revision);

// `berth rollout pause|resume`: the merge patch that sets or removes
// `rollout.berth.dev/paused`, or nullopt when the MWRS already is so.
std::optional<std::string> PausePatch(const Json& mwrs, bool pause);

}  // namespace berth::cli
