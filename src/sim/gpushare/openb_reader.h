// The OpenB reader: the Alibaba cluster-trace-gpu-v2023 node list (sn,cpu_milli,memory_mib,
// gpu,model) and pod lists (name,cpu_milli,memory_mib,num_gpu,gpu_milli[,gpu_spec,...]; the
// multigpu* files carry only those first five columns). Columns are found by header name, so
// extra columns (qos, pod_phase, the times) are ignored. Called by the replay's callers (CLI,
// bench, tests). A malformed row is an InvalidArgument naming "file:line", the row's name
// when it has one, and the column; with skip_bad_rows the row is reported to `diags` as a
// warning, counted, and reading goes on. Not thread-safe on a shared GpuModelTable; O(bytes).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostics.h"
#include "core/result.h"
#include "gpu/gpu_model_table.h"
#include "sim/gpushare/openb_trace.h"

namespace berth::sim::gpushare {

struct CsvReadOptions {
  // Report a malformed row and go on, instead of failing on the first one.
  bool skip_bad_rows = false;
};

struct NodeList {
  std::vector<gpu::NodeSpec> nodes;
  int64_t skipped_rows = 0;
};

struct PodList {
  std::vector<gpu::PodSpec> pods;
  int64_t skipped_rows = 0;
};

// `file` names the text in errors. Models met in the `model` and `gpu_spec` columns are
// interned into `models`. `diags` (optional) receives a warning per skipped row.
core::Result<NodeList> ParseOpenbNodes(std::string_view text, std::string_view file,
                                       gpu::GpuModelTable& models, const CsvReadOptions& options,
                                       core::Diagnostics* diags = nullptr);
core::Result<PodList> ParseOpenbPods(std::string_view text, std::string_view file,
                                     gpu::GpuModelTable& models, const CsvReadOptions& options,
                                     core::Diagnostics* diags = nullptr);

// The same on files; a missing or unreadable file is NotFound.
core::Result<NodeList> ReadOpenbNodes(const std::string& path, gpu::GpuModelTable& models,
                                      const CsvReadOptions& options,
                                      core::Diagnostics* diags = nullptr);
core::Result<PodList> ReadOpenbPods(const std::string& path, gpu::GpuModelTable& models,
                                    const CsvReadOptions& options,
                                    core::Diagnostics* diags = nullptr);

// Both lists into one trace; skipped-row counts are added to `skipped_rows` when given.
core::Result<OpenbTrace> ReadOpenbTrace(const std::string& node_path, const std::string& pod_path,
                                        const CsvReadOptions& options,
                                        core::Diagnostics* diags = nullptr,
                                        int64_t* skipped_rows = nullptr);

}  // namespace berth::sim::gpushare
