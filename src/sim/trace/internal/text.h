// Text helpers of the trace readers: a line cursor, a CSV row splitter and the row-error
// policy (stop at the first bad row, or warn and skip). Used only by src/sim/trace/*.cc.
// Not thread-safe; one instance per read. Cost: one pass over the bytes, no allocation per
// row once the buffers have grown.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
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

// `text` in double quotes. (Built by appending: GCC 12 warns falsely, -Wstringop-overflow, on
// `"\"" + std::string(...)` at -O3.)
std::string Quote(std::string_view text);

// The quoted, comma-separated list of names: "\"a\", \"b\"".
std::string QuotedList(const std::vector<std::string>& names);

// The stem of a path: "dir/philly.csv" -> "philly".
std::string FileStem(std::string_view path);

// Sorts jobs by (submit_s, line) in place; jobs come in line order, so a stable sort on
// submit_s is enough. O(n) when already sorted.
void SortBySubmit(std::vector<TraceJob>& jobs);

}  // namespace berth::sim::trace_internal
