// The columns of berth's own trace format and the conversion of one row's cells to a
// TraceJob, shared by the CSV and the JSON Lines readers (berth_format.h). Used only by
// src/sim/trace/*.cc. Not thread-safe; one builder per read. Cost per row: the cell parses
// plus one hash-set insert for the id.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/result.h"
#include "sim/trace/internal/text.h"
#include "sim/trace/trace.h"

namespace berth::sim::trace_internal {

enum class BerthColumn { kId, kSubmit, kDuration, kGpus, kCpu, kMemory, kTenant, kGpuModel, kPriority };
inline constexpr size_t kBerthColumnCount = 9;

// The columns in BerthColumn order, for MapHeader (text.h).
std::span<const ColumnSpec> BerthColumnSpecs();
std::optional<BerthColumn> FindBerthColumn(std::string_view name);
std::string_view BerthColumnName(BerthColumn column);
bool IsRequired(BerthColumn column);
// "id, submit, duration, gpus, cpu, memory, tenant, gpu_model, priority".
std::string KnownBerthColumns();

// One row's cells by column; nullopt for a column the row leaves out (no such CSV column,
// an empty cell, a missing or null JSON key).
using BerthCells = std::array<std::optional<std::string_view>, kBerthColumnCount>;

class BerthRowBuilder {
 public:
  explicit BerthRowBuilder(const TraceReadOptions& options) : options_(options) {}

  // The job of one row, or the first bad cell's error: file "FILE:LINE", field "column NAME".
  // An id is taken only when the whole row is good, so a skipped row does not make a later
  // row with the same id a duplicate.
  core::Result<TraceJob> Build(const BerthCells& cells, std::string_view file, int64_t line);

  // After the last row: absolute submit times (RFC 3339) become seconds after the earliest.
  void Finish(std::vector<TraceJob>& jobs) const;

 private:
  enum class SubmitKind { kUnknown, kRelative, kAbsolute };

  const TraceReadOptions& options_;
  SubmitKind submit_kind_ = SubmitKind::kUnknown;
  int64_t submit_kind_line_ = 0;
  std::unordered_map<std::string, int64_t> id_lines_;
};

}  // namespace berth::sim::trace_internal
