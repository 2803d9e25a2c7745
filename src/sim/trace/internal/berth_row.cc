#include "sim/trace/internal/berth_row.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "core/time.h"
#include "sim/trace/internal/fields.h"
#include "sim/trace/internal/text.h"

namespace berth::sim::trace_internal {

namespace {

constexpr std::array<std::string_view, kBerthColumnCount> kNames = {
    "id", "submit", "duration", "gpus", "cpu", "memory", "tenant", "gpu_model", "priority"};

constexpr std::array<ColumnSpec, kBerthColumnCount> kSpecs = {{{"id", true},
                                                              {"submit", true},
                                                              {"duration", true},
                                                              {"gpus", true},
                                                              {"cpu", false},
                                                              {"memory", false},
                                                              {"tenant", false},
                                                              {"gpu_model", false},
                                                              {"priority", false}}};

// "2024-05-01T..." : a date, so an absolute time rather than seconds or a duration.
bool LooksLikeDate(std::string_view text) {
  return text.size() >= 10 && text[4] == '-' && text[7] == '-';
}

}  // namespace

std::span<const ColumnSpec> BerthColumnSpecs() { return kSpecs; }

std::optional<BerthColumn> FindBerthColumn(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<BerthColumn>(i);
  }
  return std::nullopt;
}

std::string_view BerthColumnName(BerthColumn column) { return kNames[static_cast<size_t>(column)]; }

bool IsRequired(BerthColumn column) {
  return column == BerthColumn::kId || column == BerthColumn::kSubmit ||
         column == BerthColumn::kDuration || column == BerthColumn::kGpus;
}

std::string KnownBerthColumns() {
  std::string out;
  for (std::string_view name : kNames) {
    if (!out.empty()) out += ", ";
    out.append(name);
  }
  return out;
}

core::Result<TraceJob> BerthRowBuilder::Build(const BerthCells& cells, std::string_view file,
                                              int64_t line) {
  auto cell = [&cells](BerthColumn c) { return cells[static_cast<size_t>(c)]; };
  auto bad = [&](BerthColumn c, std::string why) {
    return RowError(file, line, BerthColumnName(c), std::move(why));
  };
  for (size_t i = 0; i < kBerthColumnCount; ++i) {
    auto c = static_cast<BerthColumn>(i);
    if (IsRequired(c) && !cells[i].has_value()) return bad(c, "required value is missing");
  }

  TraceJob job;
  job.line = line;
  job.id = std::string(*cell(BerthColumn::kId));

  std::string_view submit = *cell(BerthColumn::kSubmit);
  const SubmitKind kind = LooksLikeDate(submit) ? SubmitKind::kAbsolute : SubmitKind::kRelative;
  if (submit_kind_ != SubmitKind::kUnknown && kind != submit_kind_) {
    // Mixing both would need an anchor for the relative ones; a file that does so is
    // almost certainly two exports pasted together.
    return bad(BerthColumn::kSubmit,
               Quote(submit) + " is " +
                   (kind == SubmitKind::kAbsolute ? "a timestamp" : "a relative time") +
                   " but line " + std::to_string(submit_kind_line_) + " set " +
                   (submit_kind_ == SubmitKind::kAbsolute ? "timestamps" : "relative times") +
                   " for this trace");
  }
  if (kind == SubmitKind::kAbsolute) {
    core::Result<core::Timestamp> t = core::Timestamp::Parse(submit);
    if (!t.has_value()) return bad(BerthColumn::kSubmit, t.error().message());
    job.submit_s = t->unix_s;
  } else {
    core::Result<int64_t> s = ParseDuration(submit);
    if (!s.has_value()) return bad(BerthColumn::kSubmit, s.error().message());
    job.submit_s = *s;
  }

  core::Result<int64_t> duration = ParseDuration(*cell(BerthColumn::kDuration));
  if (!duration.has_value()) return bad(BerthColumn::kDuration, duration.error().message());
  job.duration_s = *duration;

  core::Result<int32_t> gpus = ParseCount(*cell(BerthColumn::kGpus));
  if (!gpus.has_value()) return bad(BerthColumn::kGpus, gpus.error().message());
  job.gpus = *gpus;

  const int64_t shares = std::max<int64_t>(job.gpus, 1);
  if (auto cpu = cell(BerthColumn::kCpu)) {
    core::Result<int64_t> milli = ParseCpuMilli(*cpu);
    if (!milli.has_value()) return bad(BerthColumn::kCpu, milli.error().message());
    job.cpu_milli = *milli;
  } else {
    core::Result<int64_t> milli = MulDivCeil(shares, options_.cpu_milli_per_gpu, 1);
    if (!milli.has_value()) return bad(BerthColumn::kGpus, milli.error().message());
    job.cpu_milli = *milli;
  }
  if (auto memory = cell(BerthColumn::kMemory)) {
    core::Result<int64_t> bytes = ParseMemoryBytes(*memory);
    if (!bytes.has_value()) return bad(BerthColumn::kMemory, bytes.error().message());
    job.memory_bytes = *bytes;
  } else {
    core::Result<int64_t> bytes = MulDivCeil(shares, options_.memory_bytes_per_gpu, 1);
    if (!bytes.has_value()) return bad(BerthColumn::kGpus, bytes.error().message());
    job.memory_bytes = *bytes;
  }
  if (auto tenant = cell(BerthColumn::kTenant)) job.tenant = std::string(*tenant);
  if (auto model = cell(BerthColumn::kGpuModel)) job.gpu_model = std::string(*model);
  if (auto priority = cell(BerthColumn::kPriority)) {
    core::Result<int32_t> p = ParseInt32(*priority);
    if (!p.has_value()) return bad(BerthColumn::kPriority, p.error().message());
    job.priority = *p;
  }

  auto [it, inserted] = id_lines_.try_emplace(job.id, line);
  if (!inserted) {
    return bad(BerthColumn::kId, "duplicate id \"" + job.id + "\" (first at line " +
                                     std::to_string(it->second) + ")");
  }
  if (submit_kind_ == SubmitKind::kUnknown) {
    submit_kind_ = kind;
    submit_kind_line_ = line;
  }
  return job;
}

void BerthRowBuilder::Finish(std::vector<TraceJob>& jobs) const {
  if (submit_kind_ != SubmitKind::kAbsolute || jobs.empty()) return;
  int64_t earliest = std::numeric_limits<int64_t>::max();
  for (const TraceJob& job : jobs) earliest = std::min(earliest, job.submit_s);
  for (TraceJob& job : jobs) job.submit_s -= earliest;
}

}  // namespace berth::sim::trace_internal
