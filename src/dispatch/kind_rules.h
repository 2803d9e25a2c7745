// What dispatch knows about each kind it puts in a ManifestWork: the API group and plural
// resource that name it in spec.manifestConfigs[].resourceIdentifier, whether Kueue holds it
// by a suspend field, and the status feedback rules the work agent reports back with
// (ocm.md §3), as values read from model's table of kinds. Called by BuildManifestWork.
// Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "model/work.h"

namespace berth::dispatch {

struct KindRules {
  std::string group;     // "" for the core group
  std::string resource;  // lower-case plural ("jobs", "jobsets")
  // Kueue suspends the object itself: spec.suspend (Job, JobSet) or spec.runPolicy.suspend
  // (kubeflow.org jobs). Kinds without one (Deployment, StatefulSet, LeaderWorkerSet, Pod)
  // are held by Kueue at the pods and never get ManifestPatch::suspend.
  bool suspendable = false;
  // Empty for kinds without known status fields: then the manifest gets no manifestConfig.
  std::vector<model::FeedbackRule> feedback_rules;
};

// The rules for `kind` of `api_version` ("batch/v1", "v1", ...), in any version, from the
// kind's row of model's table of kinds (model/kind_info.h: DispatchInfo, resource):
//   Job (batch)                   WellKnownStatus (JobComplete, JobSucceeded) and JSONPaths
//                                 JobFailed (the Failed condition's status)
//   Deployment (apps), Pod ("")   WellKnownStatus
//   StatefulSet (apps)            JSONPaths ReadyReplicas, Replicas, AvailableReplicas
//   JobSet (jobset.x-k8s.io)      JSONPaths TerminalState, Restarts, Completed, Failed
//   PyTorchJob (kubeflow.org)     JSONPaths Succeeded, Failed, Running (conditions)
//   LeaderWorkerSet (leaderworkerset.x-k8s.io)  JSONPaths ReadyReplicas, Replicas, Available
//   InferenceService (serving.kserve.io)        JSONPaths Ready, URL
//   DataLoad (data.fluid.io)                    JSONPaths Phase, Duration
// Other kinds of the table: their plural resource, not suspendable, no rules. A kind not in
// the table: the kind lower-cased plus "s" as resource, not suspendable, no rules.
// O(1) lookup plus the copies of the rules.
KindRules RulesForKind(const std::string& api_version, const std::string& kind);

// The API group of an apiVersion: "batch/v1" -> "batch", "v1" -> "".
std::string GroupOf(const std::string& api_version);

}  // namespace berth::dispatch
