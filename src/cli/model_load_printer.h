// ModelLoadPrinter: the text `berth explain isvc/NAME` prints: the InferenceService's model
// (format, storage URI, size, origin region, the cache name node labels use), where its
// predictor pods went, and the fetch schedule of the model to their nodes (source, start,
// ready) with the time until every replica is ready, the origin bytes and the pull limit;
// the expected ready time of the replicas (no queue wait for pods the plan binds, then the
// load).
// Pure function of its input; thread-compatible.
#pragma once

#include <ostream>

#include "engine/model_load.h"

namespace berth::cli {

void PrintModelLoadExplanation(const engine::ModelLoadExplanation& explanation, std::ostream& out);

// The same as one JSON document (`-o json`): seconds as numbers, sizes in bytes.
void PrintModelLoadExplanationJson(const engine::ModelLoadExplanation& explanation,
                                   std::ostream& out);

}  // namespace berth::cli
