// FederatedLearnings as the plan prints them, and the Jobs berth makes for them: the
// FederatedLearning's document as read with the status the engine decided patched in, and a
// model::GeneratedJob as a whole batch/v1 Job for the ManifestWorks that carry it. Called by
// status_writer.cc and manifest_work_json.cc. Internal to io; stateless; linear in the size
// of the document.
#pragma once

#include <nlohmann/json.hpp>

#include "io/document_store.h"
#include "model/federated_learning.h"
#include "model/generated_job.h"

namespace berth::io::internal {

// The document with status written from `fl.status` (left as read when nullopt): phase and
// message (upstream's), listeners as read, then berth's serverCluster (when set), clients[]
// {clusterName, state, reason, message, dataConfig; empty strings left out}, currentRound,
// roundStartTime (when set), roundLosses[] {round, loss} (when any) and conditions patched
// by type as meta.SetStatusCondition does (json_patch.h), followed by the status fields berth
// does not own as read. Every field outside status comes back as read. A FederatedLearning
// without a document gets a minimal v1alpha1 one.
nlohmann::ordered_json PatchedFederatedLearning(const model::FederatedLearning& fl,
                                                const DocumentStore& documents);

// apiVersion batch/v1, kind Job, metadata {name, namespace, labels when any}, spec.template
// {metadata.labels when any, spec {restartPolicy Never, containers [{name, image, args when
// any, resources {requests, limits} when any (canonical quantities), volumeMounts when any}],
// volumes when any (persistentVolumeClaim.claimName or hostPath.path)}}.
nlohmann::ordered_json GeneratedJobJson(const model::GeneratedJob& job);

}  // namespace berth::io::internal
