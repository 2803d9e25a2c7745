// Fuzz target: SimulationScenario files (sim/replay/scenario_file.h), read as
// `berth simulate --scenario FILE` reads them. Paths in the file resolve against a folder
// that does not exist, so nothing outside the input is opened.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_support.h"
#include "sim/replay/scenario_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(berth::fuzz::AsText(data, size));
  (void)berth::sim::ParseScenario(text, "/nonexistent/fuzz/scenario.yaml");
  return 0;
}
