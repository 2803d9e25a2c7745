// Text helpers of the trace readers: a line cursor, a CSV row splitter and the row-error
// policy (stop at the first bad row, or warn and skip). Used only by src/sim/trace/*.cc.
// Not thread-safe; one instance per read. Cost: one pass over the bytes, no allocation per
// row once the buffers have grown.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "core/result.h"
#include "sim/trace/trace.h"

namespace berth::sim::trace_internal {

// Walks text line by line. Numbers are 1-based; a trailing "\r" is dropped (CRLF files), as
// is a UTF-8 byte-order mark before the first line. A final newline ends the last line and
// does not start an empty one.
class LineCursor {
 public:
  explicit LineCursor(std::string_view text);
  // The next line and its number; false at the end of the text.
  bool Next(std::string_view* line, int64_t* number);

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int64_t number_ = 0;
};

// True when the line holds only spaces and tabs; such lines are skipped by every reader.
bool IsBlank(std::string_view line);

// Splits one CSV line into fields (RFC 4180 quoting: "a,b" and "" for a quote; a quoted
// field cannot span lines). Spaces and tabs around a field are dropped. The views stay valid
// until the next Split. Error: InvalidArgument without a location (the caller adds it).
class CsvSplitter {
 public:
  core::Status Split(std::string_view line, std::vector<std::string_view>& fields);

 private:
  std::string scratch_;  // unescaped quoted fields; reserved per line so views stay valid
};

// The error for a cell: location file "FILE:LINE" and field "column NAME" (no field when
// `column` is empty), so Error::ToString() reads "FILE:LINE: column NAME: why".
core::Error RowError(std::string_view file, int64_t line, std::string_view column,
                     std::string why);

// What a reader does with a bad row: stop with its error, or warn and skip it.
class BadRows {
 public:
  BadRows(bool skip, core::Diagnostics& diags) : skip_(skip), diags_(diags) {}
  // The error to stop with, or nullopt when the row was reported as a warning and is to be
  // dropped (then it is counted in skipped()).
  std::optional<core::Error> Reject(core::Error error);
  int64_t skipped() const { return skipped_; }

 private:
  bool skip_;
  core::Diagnostics& diags_;
  int64_t skipped_ = 0;
};

// A column a CSV format knows.
struct ColumnSpec {
  std::string_view name;
  bool required;
};

// Reads a header row: for each header cell, the index into `known` of the column it names.
// Errors (location "FILE:LINE"): a cell naming no known column (listing every such name
// and the known ones), a column named twice, a required column missing.
core::Result<std::vector<size_t>> MapHeader(const std::vector<std::string_view>& header,
                                            std::span<const ColumnSpec> known,
                                            std::string_view file, int64_t line);

// Reads the header line: the first non-blank line of `lines`, split and mapped as above.
// An empty text is InvalidArgument at `file`.
core::Result<std::vector<size_t>> ReadHeader(LineCursor& lines, CsvSplitter& splitter,
                                             std::span<const ColumnSpec> known,
                                             std::string_view file);

// Reads the data rows after the header (ReadHeader has consumed it): blank lines are
// skipped; a line that does not split, or whose field count differs from the header's, is
// passed to `bad` with its error (column-less); every other row is handed to
// `row(cells, line_number)` with its fields placed by `column_of` (cells[column_of[i]] is
// field i; cells of absent columns and empty fields stay value-initialised). `row` returns
// the error to stop with (what BadRows::Reject returned) or nullopt to go on. Returns the
// error that stopped the read, or nullopt at the end of the text. Cells is a std::array of
// std::string_view or std::optional<std::string_view>, one per known column.
template <typename Cells, typename Row>
std::optional<core::Error> ReadCsvRows(LineCursor& lines, CsvSplitter& splitter,
                                       std::span<const size_t> column_of, std::string_view file,
                                       BadRows& bad, Row&& row) {
  std::vector<std::string_view> fields;
  Cells cells{};
  std::string_view line;
  int64_t number = 0;
  while (lines.Next(&line, &number)) {
    if (IsBlank(line)) continue;
    if (core::Status s = splitter.Split(line, fields); !s.ok()) {
      if (auto stop = bad.Reject(RowError(file, number, "", s.error().message()))) return stop;
      continue;
    }
    if (fields.size() != column_of.size()) {
      if (auto stop =
              bad.Reject(RowError(file, number, "",
                                  std::to_string(fields.size()) + " fields, but the header has " +
                                      std::to_string(column_of.size())))) {
        return stop;
      }
      continue;
    }
    cells.fill({});
    for (size_t i = 0; i < fields.size(); ++i) {
      if (!fields[i].empty()) cells[column_of[i]] = fields[i];
    }
    if (auto stop = row(static_cast<const Cells&>(cells), number)) return stop;
  }
  return std::nullopt;
}

// The first bad cell of a row, if any: its column and why. Readers look at the cells in
// column order and stop at the first bad one, which decides the row's message.
using CellProblem = std::optional<std::pair<size_t, std::string>>;

// Unless `problem` is set already: the first of `columns` whose cell is empty becomes it
// ("required value is missing").
template <typename Cells>
void RequireCells(CellProblem& problem, const Cells& cells, std::initializer_list<size_t> columns) {
  if (problem) return;
  for (size_t c : columns) {
    if (cells[c].empty()) {
      problem.emplace(c, "required value is missing");
      return;
    }
  }
}

// Unless `problem` is set already: `text`, the cell of column `c`, parsed by `parse` (a
// fields.h parser) into *out, or the parser's message as the problem.
template <typename T>
void ParseCell(CellProblem& problem, size_t c, std::string_view text,
               core::Result<T> (*parse)(std::string_view), T* out) {
  if (problem) return;
  core::Result<T> value = parse(text);
  if (value.has_value()) {
    *out = *value;
  } else {
    problem.emplace(c, value.error().message());
  }
}

// A job's CPU and memory where the trace gives only GPUs: the per-GPU defaults of `options`
// times max(gpus, 1). False, and the job unchanged, when a product does not fit int64.
bool SetDefaultShares(const TraceReadOptions& options, TraceJob* job);

// `text` in double quotes. (Built by appending: GCC 12 warns falsely, -Wstringop-overflow, on
// `"\"" + std::string(...)` at -O3.)
std::string Quote(std::string_view text);

// The quoted, comma-separated list of names: "\"a\", \"b\"".
std::string QuotedList(const std::vector<std::string>& names);

// The stem of a path: "dir/philly.csv" -> "philly".
std::string FileStem(std::string_view path);

// The empty trace every reader starts from: options validated (ValidateTraceReadOptions's
// error otherwise), `file` recorded, the name from the options or else the file's stem.
core::Result<Trace> NewTrace(std::string_view file, const TraceReadOptions& options);

// Sorts jobs by (submit_s, line) in place; jobs come in line order, so a stable sort on
// submit_s is enough. O(n) when already sorted.
void SortBySubmit(std::vector<TraceJob>& jobs);

}  // namespace berth::sim::trace_internal
