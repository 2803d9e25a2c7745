#include "sim/trace/reader.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "sim/trace/berth_format.h"
#include "sim/trace/internal/text.h"
#include "sim/trace/philly_reader.h"
#include "sim/trace/pollux_reader.h"

namespace berth::sim {

namespace ti = trace_internal;

core::Result<Trace> ParseTrace(std::string_view text, std::string_view file, TraceFormat format,
                               const TraceReadOptions& options, core::Diagnostics& diags) {
  switch (format) {
    case TraceFormat::kPhilly:
      return ParsePhillyTrace(text, file, options, diags);
    case TraceFormat::kPollux:
      return ParsePolluxTrace(text, file, options, diags);
    case TraceFormat::kBerthCsv:
      return ParseBerthCsv(text, file, options, diags);
    case TraceFormat::kBerthJsonl:
      return ParseBerthJsonl(text, file, options, diags);
  }
  return core::Internal("unhandled trace format");
}

core::Result<std::string> ReadWholeFile(const std::string& path) {
  // One fread of the whole file: a 3.4 MB trace is read in a millisecond, and every reader
  // then works on string_views into it.
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> f(std::fopen(path.c_str(), "rb"));
  if (!f) {
    return core::NotFound(std::string("cannot open: ") + std::strerror(errno), {path, "", ""});
  }
  std::string data;
  char buffer[1 << 16];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), f.get())) > 0) data.append(buffer, n);
  if (std::ferror(f.get())) {
    return core::NotFound(std::string("cannot read: ") + std::strerror(errno), {path, "", ""});
  }
  return data;
}

core::Result<Trace> ReadTraceFile(const std::string& path, TraceFormat format,
                                  const TraceReadOptions& options, core::Diagnostics& diags) {
  BERTH_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path));
  return ParseTrace(text, path, format, options, diags);
}

std::optional<TraceFormat> DetectTraceFormat(std::string_view text) {
  ti::LineCursor lines(text);
  std::string_view line;
  int64_t number = 0;
  while (lines.Next(&line, &number)) {
    if (ti::IsBlank(line)) continue;
    if (line[line.find_first_not_of(" \t")] == '{') return TraceFormat::kBerthJsonl;
    ti::CsvSplitter splitter;
    std::vector<std::string_view> header;
    if (!splitter.Split(line, header).ok()) return std::nullopt;
    auto has = [&header](std::string_view name) {
      for (std::string_view h : header) {
        if (h == name) return true;
      }
      return false;
    };
    if (has("timestamp") && has("num_gpus") && has("cluster")) return TraceFormat::kPhilly;
    if (has("application") && has("num_replicas")) return TraceFormat::kPollux;
    if (has("id") && has("submit")) return TraceFormat::kBerthCsv;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace berth::sim
