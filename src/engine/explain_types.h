// The stage result types and text helpers that the engine's explanations (plan.h's
// Explanation, explain_workload.h, explain_placement.h) hand to their printers, named in
// engine so that a printer (src/cli) includes engine headers only and never a stage's.
// These are using-declarations, not copies: the types and functions stay the stages' own.
// Header only; no state.
#pragma once

#include "binding/scheduler.h"
#include "placement/placement_scheduler.h"
#include "queueing/admission.h"
#include "queueing/amount_text.h"

namespace berth::engine {

// binding: one node's verdict for a pod (its filters in order, then its score) and the
// first-failing filter's name, reason and message.
using NodeVerdict = binding::NodeVerdict;
using NodeFilterVerdict = binding::FilterVerdict;
using PodExplanation = binding::PodExplanation;

// placement: one cluster's verdict for a Placement, the prioritizers that ran and one
// cluster's score from one of them.
using ClusterVerdict = placement::ClusterVerdict;
using PrioritizerInfo = placement::PrioritizerInfo;
using ScoreTerm = placement::ScoreTerm;

// queueing: an amount as Kueue's messages print it ("500m", "16Gi") and the name of a
// workload's admission outcome.
using queueing::FormatAmount;
using queueing::WorkloadOutcomeName;

// queueing: a workload's admission decision (its outcome, the flavor attempts with each
// resource's fit, the preemption candidates) and its ClusterQueue's state, for diag's
// `berth why`, which reads the same decisions `explain workload` prints.
using WorkloadOutcome = queueing::WorkloadOutcome;
using WorkloadDecision = queueing::WorkloadDecision;
using FlavorAttempt = queueing::FlavorAttempt;
using ResourceFit = queueing::ResourceFit;
using ClusterQueueState = queueing::ClusterQueueState;

}  // namespace berth::engine
