// OCM ManifestWorks as the plan prints them: a given work as read, or the whole
// work.open-cluster-management.io/v1 object for one the engine planned, its manifests
// rendered from the documents of the objects they deliver. Called by writer.cc. Internal to
// io; stateless; linear in the size of the documents rendered.
#pragma once

#include <nlohmann/json.hpp>

#include "io/document_store.h"
#include "model/work.h"

namespace berth::io::internal {

// A given ManifestWork (created false, with a document): its document as read. A created one
// (or one without a document): apiVersion work.open-cluster-management.io/v1, kind
// ManifestWork, metadata {name, namespace, labels and annotations when any}, and spec in
// ManifestWorkSpec's field order: workload.manifests[] (RenderManifest of each patch, then
// each generated Job as GeneratedJobJson prints it),
// deleteOption {propagationPolicy} when set, manifestConfigs[] when any (resourceIdentifier
// {group, resource, name, namespace}, feedbackRules[] {type, jsonPaths[] {name, path} for
// JSONPaths}, updateStrategy {type} when set). A ManifestWorkReplicaSet's work (spec_from
// set): its document as read when it is a given one (else {apiVersion, kind, metadata name
// and namespace}), meta.labels set in metadata.labels, and spec the template spec_from names,
// as written.
nlohmann::ordered_json ManifestWorkJson(const model::ManifestWork& work,
                                        const DocumentStore& documents);

// One manifest: the document of `patch.source` without what the source cluster's API server
// owns (metadata uid, resourceVersion, generation, creationTimestamp, managedFields,
// ownerReferences, the berth.dev/cluster annotation, and status), with the patch applied:
// metadata.labels and annotations merged (the patch wins), the kueue.x-k8s.io/queue-name
// label set or, for "", removed; suspend written where the kind's row of model's table of
// kinds keeps it (DispatchInfo::suspend: spec.suspend for Job, JobSet, RayCluster, RayJob;
// spec.runPolicy.suspend for PyTorchJob, MPIJob); and each TemplatePatch applied to the pod
// template(s) of its pod set, found by the kind's row of io's table of kinds
// (KindRow::pod_templates, pod_templates.h: spec.template of Job, Deployment, StatefulSet;
// a JobSet's replicatedJobs, kubeflow.org replica specs, a LeaderWorkerSet's leader and
// worker templates, a RayCluster's head and worker groups (a RayJob's under
// spec.rayClusterSpec, and its submitter, defaulted when absent), a Volcano Job's tasks; a
// Pod is its own template). A LeaderWorkerSet without a leaderTemplate whose leader patch
// differs from the workers' gets a leaderTemplate copied from the workerTemplate as read
// first. Patching a template: nodeSelector entries merged (the patch wins), tolerations
// appended unless an equal one is there, metadata.annotations merged. Every other field as
// read.
// Programming errors (BERTH_CHECK): a source without a document, a pod set the document
// lacks, suspend for a kind without the field, templates for a kind io does not expand.
nlohmann::ordered_json RenderManifest(const model::ManifestPatch& patch,
                                      const DocumentStore& documents);

}  // namespace berth::io::internal
