// apps/v1 ControllerRevision: an immutable snapshot of a controller's template, numbered by
// `revision`, as StatefulSet and DaemonSet keep their history (and `kubectl rollout
// history` lists). berth keeps a ManifestWorkReplicaSet's revision history this way: one
// ControllerRevision per template, named `<mwrs>-<template hash>` in the MWRS's namespace,
// owned by it, `data` = {"spec": {"manifestWorkTemplate": ...}} (a patch that restores the
// template, as a StatefulSet's revision is a patch of its spec), and berth's record of the
// clusters that took it in an annotation. Plain data owned by Snapshot: io reads and prints
// it, the engine's replica-set stage keeps it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/time.h"
#include "model/object_meta.h"
#include "model/work.h"

namespace berth::model {

// The label controllers put on their ControllerRevisions: the template hash.
inline constexpr const char* kControllerRevisionHashLabel = "controller.kubernetes.io/hash";
// berth's record of the clusters that took a revision and how it went there (JSON array of
// RevisionClusterRecord), and the reason berth rolled it back (on a revision judged bad).
inline constexpr const char* kRevisionClustersAnnotation = "rollout.berth.dev/clusters";
inline constexpr const char* kRevisionRolledBackAnnotation = "rollout.berth.dev/rolled-back";

// One status feedback value as berth saw it change: `value` from `at` on.
struct FeedbackRecord {
  std::string name;
  std::string value;
  core::Timestamp at;
};

// One cluster a revision reached (dispatch::RevisionCluster, kept across plans).
struct RevisionClusterRecord {
  std::string cluster;
  core::Timestamp taken_at;
  std::string outcome = "Progressing";  // Progressing, Succeeded, Failed, TimeOut
  core::Timestamp outcome_at;
  std::string detail;                    // what was wrong, for people
  std::vector<FeedbackRecord> feedback;  // oldest first, a few per name
};

struct ControllerRevision {
  ObjectMeta meta;
  int64_t revision = 0;
  // The controller ownerReference: kind, name and uid ("" when none).
  std::string owner_kind;
  std::string owner_name;
  std::string owner_uid;
  // data.spec.manifestWorkTemplate: its canonical hash, or "" when data holds none (a
  // StatefulSet's revision read from a member cluster).
  std::string template_hash;
  std::vector<ManifestMeta> template_manifests;  // the template's manifests' identities
  std::vector<RevisionClusterRecord> clusters;   // kRevisionClustersAnnotation
  std::string rolled_back_reason;                // kRevisionRolledBackAnnotation
  // Set by the plan. created: printed whole, `data` from `template_from`; changed: the
  // document as read with revision and berth's annotations written.
  bool created = false;
  bool changed = false;
  std::optional<WorkSpecSource> template_from;
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
