// Fuzz target: the OpenB node and pod lists (sim/gpushare/openb_reader.h), the
// Alibaba GPU-sharing trace the FGD replay reads. The first input byte picks the list (bit
// 0) and skip_bad_rows (bit 1); the rest is the CSV text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/diagnostics.h"
#include "fuzz/fuzz_support.h"
#include "gpu/gpu_model_table.h"
#include "sim/gpushare/openb_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace gs = berth::sim::gpushare;
  if (size < 1) return 0;
  const uint8_t pick = data[0];
  const std::string_view text = berth::fuzz::AsText(data + 1, size - 1);
  berth::gpu::GpuModelTable models;
  berth::core::Diagnostics diags;
  gs::CsvReadOptions options;
  options.skip_bad_rows = (pick & 2) != 0;
  if ((pick & 1) == 0) {
    (void)gs::ParseOpenbNodes(text, "openb_node_list.csv", models, options, &diags);
  } else {
    (void)gs::ParseOpenbPods(text, "openb_pod_list.csv", models, options, &diags);
  }
  return 0;
}
