// The pod-expansion bounds the targets that Finish a Reader use (reader, object, plan).
// The product's bounds (io::kMaxPodsPerWorkload, io::kMaxExpandedPods) are sized for a
// release build in 2 GiB; under ASan a created pod costs several times more, so a fuzzing
// process (2.5 GB) gets the same check at a tenth of the size: the bound is a parameter of
// the code under test, and what the fuzzer looks for is whether it holds, not how big it
// is. The mutation campaign (scripts/mutation_campaign.py) runs the release binary at the
// real bounds and checks the 2 GiB.
#pragma once

#include "io/reader.h"

namespace berth::fuzz {

inline constexpr io::ExpansionLimits kFuzzExpansionLimits{10'000, 40'000};

}  // namespace berth::fuzz
