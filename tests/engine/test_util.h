// Helpers shared by the engine tests: one-call reading of a YAML fleet.
#pragma once

#include <string>

#include "model/snapshot.h"

namespace berth::engine::testing {

// `yaml` read as one file and finished; every diagnostic (error or warning) fails the test,
// since these fleets are meant to be clean.
model::Snapshot ReadCleanYaml(const std::string& yaml);

}  // namespace berth::engine::testing
