#include "sim/trace/internal/text.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "sim/trace/internal/fields.h"

namespace berth::sim::trace_internal {

LineCursor::LineCursor(std::string_view text) : text_(text) {
  // A UTF-8 byte-order mark, as spreadsheet exports write it, is not part of the header.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (text_.substr(0, kBom.size()) == kBom) pos_ = kBom.size();
}

bool LineCursor::Next(std::string_view* line, int64_t* number) {
  if (pos_ >= text_.size()) return false;
  // memchr is the fastest portable newline scan; it dominates reading a large trace.
  const char* begin = text_.data() + pos_;
  const size_t left = text_.size() - pos_;
  const void* nl = std::memchr(begin, '\n', left);
  size_t len = nl != nullptr ? static_cast<size_t>(static_cast<const char*>(nl) - begin) : left;
  pos_ += len + (nl != nullptr ? 1 : 0);
  if (len > 0 && begin[len - 1] == '\r') --len;
  *line = std::string_view(begin, len);
  *number = ++number_;
  return true;
}

bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

namespace {

std::string_view Trim(std::string_view s) {
  size_t b = 0;
  size_t e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t')) --e;
  return s.substr(b, e - b);
}

}  // namespace

core::Status CsvSplitter::Split(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  // Unescaped text never outgrows the line, so reserving it up front keeps every view into
  // scratch_ valid while later fields are appended.
  scratch_.clear();
  if (scratch_.capacity() < line.size()) scratch_.reserve(line.size());
  size_t pos = 0;
  while (true) {
    size_t start = pos;
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
    if (pos < line.size() && line[pos] == '"') {
      ++pos;
      const size_t out_begin = scratch_.size();
      bool closed = false;
      while (pos < line.size()) {
        char c = line[pos++];
        if (c == '"') {
          if (pos < line.size() && line[pos] == '"') {
            scratch_.push_back('"');
            ++pos;
          } else {
            closed = true;
            break;
          }
        } else {
          scratch_.push_back(c);
        }
      }
      if (!closed) return core::InvalidArgument("unterminated quoted field");
      while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
      if (pos < line.size() && line[pos] != ',') {
        return core::InvalidArgument("unexpected text after a quoted field");
      }
      fields.emplace_back(scratch_.data() + out_begin, scratch_.size() - out_begin);
    } else {
      const void* comma = std::memchr(line.data() + start, ',', line.size() - start);
      pos = comma != nullptr ? static_cast<size_t>(static_cast<const char*>(comma) - line.data())
                             : line.size();
      std::string_view field = Trim(line.substr(start, pos - start));
      if (field.find('"') != std::string_view::npos) {
        return core::InvalidArgument("a quote inside an unquoted field");
      }
      fields.push_back(field);
    }
    if (pos >= line.size()) break;
    ++pos;  // the comma
  }
  return core::OkStatus();
}

core::Error RowError(std::string_view file, int64_t line, std::string_view column,
                     std::string why) {
  core::Location location;
  location.file.reserve(file.size() + 12);
  location.file.append(file);
  location.file += ':';
  location.file += std::to_string(line);
  if (!column.empty()) {
    location.field = "column ";
    location.field.append(column);
  }
  return core::InvalidArgument(std::move(why), std::move(location));
}

std::optional<core::Error> BadRows::Reject(core::Error error) {
  if (!skip_) return error;
  diags_.Warn(std::move(error));
  ++skipped_;
  return std::nullopt;
}

namespace {

std::string KnownList(std::span<const ColumnSpec> known) {
  std::string out;
  for (const ColumnSpec& c : known) {
    if (!out.empty()) out += ", ";
    out.append(c.name);
  }
  return out;
}

}  // namespace

core::Result<std::vector<size_t>> MapHeader(const std::vector<std::string_view>& header,
                                            std::span<const ColumnSpec> known,
                                            std::string_view file, int64_t line) {
  std::vector<size_t> index_of;
  index_of.reserve(header.size());
  std::vector<bool> seen(known.size(), false);
  std::vector<std::string> unknown;
  for (std::string_view name : header) {
    size_t i = 0;
    while (i < known.size() && known[i].name != name) ++i;
    if (i == known.size()) {
      unknown.emplace_back(name);
      continue;
    }
    if (seen[i]) return RowError(file, line, name, "column appears twice in the header");
    seen[i] = true;
    index_of.push_back(i);
  }
  // Every unknown name at once: a header with two typos should need one fix, not two runs.
  if (!unknown.empty()) {
    return RowError(file, line, "",
                    std::string(unknown.size() == 1 ? "unknown column " : "unknown columns ") +
                        QuotedList(unknown) + " (known: " + KnownList(known) + ")");
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i < known.size(); ++i) {
    if (known[i].required && !seen[i]) missing.emplace_back(known[i].name);
  }
  if (!missing.empty()) {
    return RowError(file, line, "",
                    std::string(missing.size() == 1 ? "missing required column "
                                                    : "missing required columns ") +
                        QuotedList(missing));
  }
  return index_of;
}

core::Result<std::vector<size_t>> ReadHeader(LineCursor& lines, CsvSplitter& splitter,
                                             std::span<const ColumnSpec> known,
                                             std::string_view file) {
  std::string_view line;
  int64_t number = 0;
  while (lines.Next(&line, &number)) {
    if (IsBlank(line)) continue;
    std::vector<std::string_view> header;
    if (core::Status s = splitter.Split(line, header); !s.ok()) {
      return RowError(file, number, "", "header: " + s.error().message());
    }
    return MapHeader(header, known, file, number);
  }
  return core::InvalidArgument("empty trace: no header line (want " + KnownList(known) + ")",
                               {std::string(file), "", ""});
}

std::string Quote(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  out.append(text);
  out += '"';
  return out;
}

std::string QuotedList(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ", ";
    out += '"';
    out += name;
    out += '"';
  }
  return out;
}

std::string FileStem(std::string_view path) {
  size_t slash = path.find_last_of('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  size_t dot = base.find_last_of('.');
  if (dot != std::string_view::npos && dot > 0) base = base.substr(0, dot);
  return std::string(base);
}

core::Result<Trace> NewTrace(std::string_view file, const TraceReadOptions& options) {
  BERTH_RETURN_IF_ERROR(ValidateTraceReadOptions(options));
  Trace trace;
  trace.file = std::string(file);
  trace.name = options.name.empty() ? FileStem(file) : options.name;
  return trace;
}

bool SetDefaultShares(const TraceReadOptions& options, TraceJob* job) {
  const int64_t shares = std::max<int64_t>(job->gpus, 1);
  // shares < 2^31 and the per-GPU defaults were validated non-negative, so these products
  // fit unless the defaults are absurd; MulDivCeil says so instead of wrapping.
  core::Result<int64_t> cpu = MulDivCeil(shares, options.cpu_milli_per_gpu, 1);
  core::Result<int64_t> mem = MulDivCeil(shares, options.memory_bytes_per_gpu, 1);
  if (!cpu.has_value() || !mem.has_value()) return false;
  job->cpu_milli = *cpu;
  job->memory_bytes = *mem;
  return true;
}

void SortBySubmit(std::vector<TraceJob>& jobs) {
  auto by_submit = [](const TraceJob& a, const TraceJob& b) { return a.submit_s < b.submit_s; };
  if (std::is_sorted(jobs.begin(), jobs.end(), by_submit)) return;
  std::stable_sort(jobs.begin(), jobs.end(), by_submit);
}

}  // namespace berth::sim::trace_internal
