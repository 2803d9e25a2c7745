#include "sim/trace/berth_format.h"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/trace/internal/berth_row.h"
#include "sim/trace/internal/text.h"

namespace berth::sim {

namespace ti = trace_internal;

core::Result<Trace> ParseBerthCsv(std::string_view text, std::string_view file,
                                  const TraceReadOptions& options, core::Diagnostics& diags) {
  BERTH_ASSIGN_OR_RETURN(Trace trace, ti::NewTrace(file, options));
  ti::LineCursor lines(text);
  ti::CsvSplitter splitter;
  BERTH_ASSIGN_OR_RETURN(std::vector<size_t> column_of,
                         ti::ReadHeader(lines, splitter, ti::BerthColumnSpecs(), file));
  ti::BadRows bad(options.skip_bad_rows, diags);
  ti::BerthRowBuilder builder(options);
  auto row = [&](const ti::BerthCells& cells, int64_t number) -> std::optional<core::Error> {
    core::Result<TraceJob> job = builder.Build(cells, file, number);
    if (!job.has_value()) return bad.Reject(std::move(job).error());
    trace.jobs.push_back(std::move(job).value());
    return std::nullopt;
  };
  if (auto stop = ti::ReadCsvRows<ti::BerthCells>(lines, splitter, column_of, file, bad, row)) {
    return std::move(*stop);
  }
  builder.Finish(trace.jobs);
  ti::SortBySubmit(trace.jobs);
  trace.skipped_rows = bad.skipped();
  return trace;
}

namespace {

// The text of one JSON value as a cell, into `storage`; nullopt for null. Numbers keep the
// text a CSV cell would hold ("90", "1.5"), so both formats share one set of cell parsers.
core::Result<std::optional<std::string_view>> JsonCell(const nlohmann::json& value,
                                                       std::string& storage) {
  switch (value.type()) {
    case nlohmann::json::value_t::null:
      return std::optional<std::string_view>();
    case nlohmann::json::value_t::string:
      storage = value.get_ref<const std::string&>();
      break;
    case nlohmann::json::value_t::number_integer:
      storage = std::to_string(value.get<int64_t>());
      break;
    case nlohmann::json::value_t::number_unsigned:
      storage = std::to_string(value.get<uint64_t>());
      break;
    case nlohmann::json::value_t::number_float:
      storage = value.dump();
      break;
    default:
      return core::InvalidArgument(std::string("expected a string or a number, not ") +
                                   value.type_name());
  }
  if (storage.empty()) return std::optional<std::string_view>();
  return std::optional<std::string_view>(storage);
}

// nlohmann's messages start with "[json.exception.parse_error.101] "; the rest is the part
// a person needs ("parse error at line 1, column 7: ...").
std::string JsonMessage(const char* what) {
  std::string_view m = what;
  if (!m.empty() && m.front() == '[') {
    size_t close = m.find("] ");
    if (close != std::string_view::npos) m.remove_prefix(close + 2);
  }
  return "not valid JSON: " + std::string(m);
}

}  // namespace

core::Result<Trace> ParseBerthJsonl(std::string_view text, std::string_view file,
                                    const TraceReadOptions& options, core::Diagnostics& diags) {
  BERTH_ASSIGN_OR_RETURN(Trace trace, ti::NewTrace(file, options));
  ti::LineCursor lines(text);
  ti::BadRows bad(options.skip_bad_rows, diags);
  ti::BerthRowBuilder builder(options);
  std::array<std::string, ti::kBerthColumnCount> storage;
  std::string_view line;
  int64_t number = 0;
  while (lines.Next(&line, &number)) {
    if (ti::IsBlank(line)) continue;
    auto reject = [&](std::string_view column, std::string why) {
      return bad.Reject(ti::RowError(file, number, column, std::move(why)));
    };
    nlohmann::json object;
    try {
      // nlohmann throws on syntax errors; berth code throws nothing, so the exception ends
      // here as this row's error (STYLE.md: caught at the edge).
      object = nlohmann::json::parse(line.begin(), line.end());
    } catch (const nlohmann::json::exception& e) {
      if (auto stop = reject("", JsonMessage(e.what()))) return std::move(*stop);
      continue;
    }
    if (!object.is_object()) {
      if (auto stop =
              reject("", std::string("expected a JSON object, not ") + object.type_name())) {
        return std::move(*stop);
      }
      continue;
    }
    ti::BerthCells cells{};
    std::vector<std::string> unknown;
    std::optional<core::Error> cell_error;
    for (auto it = object.begin(); it != object.end(); ++it) {
      std::optional<ti::BerthColumn> c = ti::FindBerthColumn(it.key());
      if (!c.has_value()) {
        unknown.push_back(it.key());
        continue;
      }
      const size_t i = static_cast<size_t>(*c);
      core::Result<std::optional<std::string_view>> v = JsonCell(it.value(), storage[i]);
      if (!v.has_value()) {
        if (!cell_error.has_value()) {
          cell_error = ti::RowError(file, number, it.key(), v.error().message());
        }
        continue;
      }
      cells[i] = *v;
    }
    if (!unknown.empty()) {
      if (auto stop = reject(
              "", std::string(unknown.size() == 1 ? "unknown key " : "unknown keys ") +
                      ti::QuotedList(unknown) + " (known: " + ti::KnownBerthColumns() + ")")) {
        return std::move(*stop);
      }
      continue;
    }
    if (cell_error.has_value()) {
      if (auto stop = bad.Reject(std::move(*cell_error))) return std::move(*stop);
      continue;
    }
    core::Result<TraceJob> job = builder.Build(cells, file, number);
    if (!job.has_value()) {
      if (auto stop = bad.Reject(std::move(job).error())) return std::move(*stop);
      continue;
    }
    trace.jobs.push_back(std::move(job).value());
  }
  builder.Finish(trace.jobs);
  ti::SortBySubmit(trace.jobs);
  trace.skipped_rows = bad.skipped();
  return trace;
}

}  // namespace berth::sim
