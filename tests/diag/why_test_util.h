// Helpers of the why tests: a fixture of tests/fixtures/diag read into a snapshot, and
// berth why's answer for one target of it.
#pragma once

#include <string>

#include "diag/why.h"
#include "model/snapshot.h"

namespace berth::diag::testing {

// tests/fixtures/diag/<name>, read and finished; every diagnostic fails the test.
model::Snapshot ReadWhyFixture(const std::string& name);

// AnswerWhy for `target` (pod/..., workload/...) with default options; a failure fails the
// test and returns an empty answer.
WhyAnswer AnswerFor(const model::Snapshot& snapshot, WhyTargetKind kind, const std::string& name);

}  // namespace berth::diag::testing
