// The StatefulSet controller of a simulated member cluster (apps/v1), after upstream's
// pkg/controller/statefulset/stateful_set_control.go: pods "<name>-<ordinal>" (from
// spec.ordinals.start) with hostname, subdomain (serviceName) and the controller-revision-hash,
// statefulset.kubernetes.io/pod-name and apps.kubernetes.io/pod-index labels; OrderedReady
// (one pod at a time, each waiting for its predecessors to be Running and Ready; scale down
// from the highest ordinal) or Parallel; failed pods deleted and recreated; RollingUpdate
// (from the highest ordinal down to the partition, one pod at a time, each waiting for the
// last to be healthy) or OnDelete; status replicas, readyReplicas, availableReplicas
// (minReadySeconds), currentReplicas, updatedReplicas, currentRevision, updateRevision.
// Revisions are "<name>-<template hash>"; no ControllerRevision objects are written (a pod
// below the partition that must be recreated takes its template from a sibling of the same
// revision, else the update revision's; README.md), nor PersistentVolumeClaims.
#pragma once

#include "server/member/controller_options.h"
#include "server/member/member_state.h"

namespace berth::server::member {

inline constexpr char kControllerRevisionHashLabel[] = "controller-revision-hash";

void RunStatefulSetController(MemberState& state, const ControllerOptions& options);

}  // namespace berth::server::member
