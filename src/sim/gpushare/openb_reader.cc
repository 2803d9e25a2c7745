#include "sim/gpushare/openb_reader.h"

#include <array>
#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>

namespace berth::sim::gpushare {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

std::vector<std::string_view> SplitFields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) {
      fields.push_back(Trim(line.substr(start)));
      return fields;
    }
    fields.push_back(Trim(line.substr(start, comma - start)));
    start = comma + 1;
  }
}

// One CSV line with its 1-based line number; blank lines are left out by the caller.
struct Line {
  std::string_view text;
  int64_t number = 0;
};

std::vector<Line> SplitLines(std::string_view text) {
  std::vector<Line> lines;
  int64_t number = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++number;
    std::string_view line = Trim(text.substr(start, end - start));
    if (!line.empty()) lines.push_back({line, number});
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

// Where a row is, for its errors: "file:line", and the row's name once it is known.
struct RowContext {
  std::string_view file;
  int64_t line = 0;
  std::string_view name;

  core::Error Fail(std::string_view column, std::string message) const {
    core::Location location;
    location.file = std::string(file) + ":" + std::to_string(line);
    location.object = std::string(name);
    location.field = std::string(column);
    return core::InvalidArgument(std::move(message), std::move(location));
  }
};

core::Result<int64_t> ParseCount(const RowContext& row, std::string_view column,
                                 std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < 0) {
    return row.Fail(column, "not a non-negative integer: '" + std::string(text) + "'");
  }
  return value;
}

// Column indices by header name; required columns must be present.
template <size_t N>
core::Result<std::array<int, N>> FindColumns(std::string_view file, const Line& header,
                                             const std::array<std::string_view, N>& required) {
  const std::vector<std::string_view> names = SplitFields(header.text);
  std::array<int, N> index{};
  for (size_t i = 0; i < N; ++i) {
    index[i] = -1;
    for (size_t c = 0; c < names.size(); ++c) {
      if (names[c] == required[i]) index[i] = static_cast<int>(c);
    }
    if (index[i] < 0) {
      RowContext row{file, header.number, {}};
      return row.Fail(required[i], "missing column '" + std::string(required[i]) +
                                       "' in the header '" + std::string(header.text) + "'");
    }
  }
  return index;
}

std::optional<int> FindOptionalColumn(const Line& header, std::string_view name) {
  const std::vector<std::string_view> names = SplitFields(header.text);
  for (size_t c = 0; c < names.size(); ++c) {
    if (names[c] == name) return static_cast<int>(c);
  }
  return std::nullopt;
}

core::Result<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return core::NotFound("cannot open the file", core::Location{path, {}, {}});
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return core::NotFound("cannot read the file", core::Location{path, {}, {}});
  return text.str();
}

// Runs `parse_row` over every data row; a failing row fails the whole read unless the
// options say to skip it.
template <typename ParseRow>
core::Result<int64_t> ForEachRow(const std::vector<Line>& lines, size_t header_fields,
                                 std::string_view file, const CsvReadOptions& options,
                                 core::Diagnostics* diags, ParseRow parse_row) {
  int64_t skipped = 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string_view> fields = SplitFields(lines[i].text);
    RowContext row{file, lines[i].number, {}};
    core::Status status =
        fields.size() != header_fields
            ? core::Status(row.Fail({}, "the row has " + std::to_string(fields.size()) +
                                            " fields, the header " + std::to_string(header_fields)))
            : parse_row(row, fields);
    if (status.ok()) continue;
    if (!options.skip_bad_rows) return std::move(status).error();
    ++skipped;
    if (diags != nullptr) diags->Warn(std::move(status).error());
  }
  return skipped;
}

using ColumnIndex = std::array<int, 5>;

constexpr std::array<std::string_view, 5> kNodeColumns = {"sn", "cpu_milli", "memory_mib", "gpu",
                                                          "model"};
constexpr std::array<std::string_view, 5> kPodColumns = {"name", "cpu_milli", "memory_mib",
                                                         "num_gpu", "gpu_milli"};

}  // namespace

core::Result<NodeList> ParseOpenbNodes(std::string_view text, std::string_view file,
                                       gpu::GpuModelTable& models, const CsvReadOptions& options,
                                       core::Diagnostics* diags) {
  const std::vector<Line> lines = SplitLines(text);
  if (lines.empty()) {
    return RowContext{file, 1, {}}.Fail({},
                                        "no header; expected sn,cpu_milli,memory_mib,gpu,model");
  }
  BERTH_ASSIGN_OR_RETURN(const ColumnIndex col, FindColumns(file, lines[0], kNodeColumns));
  const size_t header_fields = SplitFields(lines[0].text).size();
  NodeList out;
  auto parse_row = [&](RowContext& row, const std::vector<std::string_view>& f) -> core::Status {
    gpu::NodeSpec node;
    node.name = std::string(f[col[0]]);
    row.name = f[col[0]];
    if (node.name.empty()) return row.Fail(kNodeColumns[0], "empty node name");
    BERTH_ASSIGN_OR_RETURN(node.cpu_milli, ParseCount(row, kNodeColumns[1], f[col[1]]));
    BERTH_ASSIGN_OR_RETURN(node.memory_mib, ParseCount(row, kNodeColumns[2], f[col[2]]));
    BERTH_ASSIGN_OR_RETURN(const int64_t gpus, ParseCount(row, kNodeColumns[3], f[col[3]]));
    if (gpus > gpu::kMaxGpusPerNode) {
      return row.Fail(kNodeColumns[3], std::to_string(gpus) + " GPUs; at most " +
                                           std::to_string(gpu::kMaxGpusPerNode) + " per node");
    }
    node.num_gpu = static_cast<int32_t>(gpus);
    const std::string_view model = f[col[4]];
    if (!model.empty()) {
      core::Result<gpu::GpuModelId> id = models.Intern(model);
      if (!id.has_value()) return row.Fail(kNodeColumns[4], id.error().message());
      node.model = *id;
    }
    out.nodes.push_back(std::move(node));
    return core::OkStatus();
  };
  BERTH_ASSIGN_OR_RETURN(out.skipped_rows,
                         ForEachRow(lines, header_fields, file, options, diags, parse_row));
  return out;
}

core::Result<PodList> ParseOpenbPods(std::string_view text, std::string_view file,
                                     gpu::GpuModelTable& models, const CsvReadOptions& options,
                                     core::Diagnostics* diags) {
  const std::vector<Line> lines = SplitLines(text);
  if (lines.empty()) {
    return RowContext{file, 1, {}}.Fail(
        {}, "no header; expected name,cpu_milli,memory_mib,num_gpu,gpu_milli[,gpu_spec,...]");
  }
  BERTH_ASSIGN_OR_RETURN(const ColumnIndex col, FindColumns(file, lines[0], kPodColumns));
  const std::optional<int> spec_col = FindOptionalColumn(lines[0], "gpu_spec");
  const size_t header_fields = SplitFields(lines[0].text).size();
  PodList out;
  auto parse_row = [&](RowContext& row, const std::vector<std::string_view>& f) -> core::Status {
    gpu::PodSpec pod;
    pod.name = std::string(f[col[0]]);
    row.name = f[col[0]];
    if (pod.name.empty()) return row.Fail(kPodColumns[0], "empty pod name");
    BERTH_ASSIGN_OR_RETURN(pod.cpu_milli, ParseCount(row, kPodColumns[1], f[col[1]]));
    BERTH_ASSIGN_OR_RETURN(pod.memory_mib, ParseCount(row, kPodColumns[2], f[col[2]]));
    BERTH_ASSIGN_OR_RETURN(const int64_t num_gpu, ParseCount(row, kPodColumns[3], f[col[3]]));
    BERTH_ASSIGN_OR_RETURN(const int64_t gpu_milli, ParseCount(row, kPodColumns[4], f[col[4]]));
    if (num_gpu > gpu::kMaxGpusPerNode) {
      return row.Fail(kPodColumns[3], std::to_string(num_gpu) + " GPUs; at most " +
                                          std::to_string(gpu::kMaxGpusPerNode) + " per pod");
    }
    if (num_gpu == 0 && gpu_milli != 0) {
      return row.Fail(kPodColumns[4], "a pod without GPUs asks for " + std::to_string(gpu_milli) +
                                          " thousandths of one");
    }
    if (num_gpu > 0 && (gpu_milli < 1 || gpu_milli > gpu::kMilliPerGpu)) {
      return row.Fail(kPodColumns[4],
                      "must be 1..1000 thousandths of a GPU, got " + std::to_string(gpu_milli));
    }
    if (num_gpu > 1 && gpu_milli < gpu::kMilliPerGpu) {
      return row.Fail(kPodColumns[4], "only a single-GPU pod may share a GPU; " +
                                          std::to_string(num_gpu) + " GPUs x " +
                                          std::to_string(gpu_milli));
    }
    pod.num_gpu = static_cast<int32_t>(num_gpu);
    pod.gpu_milli = static_cast<int32_t>(gpu_milli);
    // As the upstream converter does, a CPU-only pod's model list is dropped, and empty parts
    // of the '|'-separated list are left out.
    if (spec_col.has_value() && pod.num_gpu > 0) {
      std::string_view spec = f[*spec_col];
      while (!spec.empty()) {
        const size_t bar = spec.find('|');
        const std::string_view part = Trim(spec.substr(0, bar));
        spec = bar == std::string_view::npos ? std::string_view() : spec.substr(bar + 1);
        if (part.empty()) continue;
        core::Result<gpu::GpuModelId> id = models.Intern(part);
        if (!id.has_value()) return row.Fail("gpu_spec", id.error().message());
        if (!pod.gpu_spec.empty()) pod.gpu_spec += '|';
        pod.gpu_spec += part;
        pod.allowed_models.Add(*id);
      }
    }
    out.pods.push_back(std::move(pod));
    return core::OkStatus();
  };
  BERTH_ASSIGN_OR_RETURN(out.skipped_rows,
                         ForEachRow(lines, header_fields, file, options, diags, parse_row));
  return out;
}

core::Result<NodeList> ReadOpenbNodes(const std::string& path, gpu::GpuModelTable& models,
                                      const CsvReadOptions& options, core::Diagnostics* diags) {
  BERTH_ASSIGN_OR_RETURN(const std::string text, ReadWholeFile(path));
  return ParseOpenbNodes(text, path, models, options, diags);
}

core::Result<PodList> ReadOpenbPods(const std::string& path, gpu::GpuModelTable& models,
                                    const CsvReadOptions& options, core::Diagnostics* diags) {
  BERTH_ASSIGN_OR_RETURN(const std::string text, ReadWholeFile(path));
  return ParseOpenbPods(text, path, models, options, diags);
}

core::Result<OpenbTrace> ReadOpenbTrace(const std::string& node_path, const std::string& pod_path,
                                        const CsvReadOptions& options, core::Diagnostics* diags,
                                        int64_t* skipped_rows) {
  OpenbTrace trace;
  BERTH_ASSIGN_OR_RETURN(NodeList nodes, ReadOpenbNodes(node_path, trace.models, options, diags));
  BERTH_ASSIGN_OR_RETURN(PodList pods, ReadOpenbPods(pod_path, trace.models, options, diags));
  trace.nodes = std::move(nodes.nodes);
  trace.pods = std::move(pods.pods);
  if (skipped_rows != nullptr) *skipped_rows += nodes.skipped_rows + pods.skipped_rows;
  return trace;
}

}  // namespace berth::sim::gpushare
