// Test helpers: run admission over a KueueSnapshot and look up one workload's decision.
#pragma once

#include <cstdint>

#include "core/diagnostics.h"
#include "queueing/admission.h"
#include "queueing/kueue_builders.h"

namespace berth::testing {

inline queueing::AdmissionResult RunAll(const KueueSnapshot& k, core::Diagnostics* diags = nullptr,
                                        queueing::PlacementOracle* oracle = nullptr) {
  core::Diagnostics local;
  queueing::AdmissionOptions options;
  options.now.unix_s = 1000;
  return queueing::RunAdmission(k.snapshot, options, oracle, diags != nullptr ? *diags : local);
}

inline const queueing::WorkloadDecision& DecisionOf(const queueing::AdmissionResult& r,
                                                    int32_t wl) {
  for (const auto& d : r.decisions) {
    if (d.workload == wl) return d;
  }
  static const queueing::WorkloadDecision kNone;
  return kNone;
}

}  // namespace berth::testing
