// Fuzz target: the files `berth simulate --scenario FILE` reads: SimulationScenario
// (sim/replay/scenario_file.h) and ModelLoadStudy (sim/modelload/study_file.h); each input
// goes through both readers, as the command tells them apart only by kind. Paths in the file resolve against a folder
// that does not exist, so nothing outside the input is opened.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_support.h"
#include "sim/modelload/study_file.h"
#include "sim/replay/scenario_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(berth::fuzz::AsText(data, size));
  (void)berth::sim::ParseScenario(text, "/nonexistent/fuzz/scenario.yaml");
  (void)berth::sim::modelload::ParseModelLoadStudy(text, "/nonexistent/fuzz/study.yaml");
  return 0;
}
