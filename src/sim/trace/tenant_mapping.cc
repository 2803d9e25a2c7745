#include "sim/trace/tenant_mapping.h"

#include <utility>
#include <vector>

#include "core/labels.h"
#include "sim/trace/internal/text.h"
#include "sim/trace/reader.h"

namespace berth::sim {

namespace ti = trace_internal;

namespace {

constexpr std::string_view kDefaultTenant = "*";

std::optional<std::string> NamespaceProblem(std::string_view ns) {
  if (ns.empty()) return "namespace is empty";
  // A namespace name is a DNS-1123 label: a subdomain without dots, at most 63 characters.
  if (ns.size() > 63 || ns.find('.') != std::string_view::npos || !core::IsDns1123Subdomain(ns)) {
    return "namespace \"" + std::string(ns) +
           "\" is not a DNS-1123 label (lower-case letters, digits and '-', at most 63)";
  }
  return std::nullopt;
}

std::optional<std::string> QueueProblem(std::string_view queue) {
  if (queue.empty()) return "local queue is empty";
  if (!core::IsDns1123Subdomain(queue) || !core::IsValidLabelValue(queue)) {
    return "local queue \"" + std::string(queue) +
           "\" is not a valid LocalQueue name (a DNS-1123 subdomain of at most 63 characters)";
  }
  return std::nullopt;
}

}  // namespace

core::Result<QueueRef> ParseQueueRef(std::string_view text) {
  size_t slash = text.find('/');
  if (slash == std::string_view::npos) {
    return core::InvalidArgument(ti::Quote(text) + " is not NAMESPACE/QUEUE");
  }
  QueueRef ref{std::string(text.substr(0, slash)), std::string(text.substr(slash + 1))};
  if (auto p = NamespaceProblem(ref.namespace_name)) return core::InvalidArgument(*p);
  if (auto p = QueueProblem(ref.local_queue)) return core::InvalidArgument(*p);
  return ref;
}

core::Status TenantMapping::Add(std::string_view tenant, QueueRef queue) {
  if (tenant.empty()) return core::InvalidArgument("tenant is empty");
  if (tenant == kDefaultTenant) {
    if (default_.has_value()) {
      return core::Error(core::ErrorCode::kAlreadyExists,
                         "the default queue (tenant \"*\") is already " + default_->ToString());
    }
    default_ = std::move(queue);
    return core::OkStatus();
  }
  auto [it, inserted] = by_tenant_.try_emplace(std::string(tenant), std::move(queue));
  if (!inserted) {
    return core::Error(core::ErrorCode::kAlreadyExists, "tenant \"" + std::string(tenant) +
                                                            "\" is already mapped to " +
                                                            it->second.ToString());
  }
  return core::OkStatus();
}

const QueueRef* TenantMapping::Find(std::string_view tenant) const {
  auto it = by_tenant_.find(tenant);
  if (it != by_tenant_.end()) return &it->second;
  return default_.has_value() ? &*default_ : nullptr;
}

core::Result<TenantMapping> ParseTenantMapping(std::string_view text, std::string_view file) {
  TenantMapping mapping;
  ti::LineCursor lines(text);
  ti::CsvSplitter splitter;
  std::vector<std::string_view> fields;
  std::string_view line;
  int64_t number = 0;
  bool first = true;
  while (lines.Next(&line, &number)) {
    if (ti::IsBlank(line)) continue;
    if (line[line.find_first_not_of(" \t")] == '#') continue;
    if (core::Status s = splitter.Split(line, fields); !s.ok()) {
      return ti::RowError(file, number, "", s.error().message());
    }
    if (fields.size() != 3) {
      return ti::RowError(file, number, "",
                          std::to_string(fields.size()) +
                              " fields, want 3: tenant,namespace,local_queue");
    }
    const bool header = first && fields[0] == "tenant" && fields[1] == "namespace" &&
                        fields[2] == "local_queue";
    first = false;
    if (header) continue;
    if (fields[0].empty()) return ti::RowError(file, number, "tenant", "tenant is empty");
    if (auto p = NamespaceProblem(fields[1])) return ti::RowError(file, number, "namespace", *p);
    if (auto p = QueueProblem(fields[2])) return ti::RowError(file, number, "local_queue", *p);
    core::Status added =
        mapping.Add(fields[0], QueueRef{std::string(fields[1]), std::string(fields[2])});
    if (!added.ok()) {
      core::Error error = ti::RowError(file, number, "tenant", added.error().message());
      return core::Error(added.error().code(), error.message(), error.location());
    }
  }
  return mapping;
}

core::Result<TenantMapping> ReadTenantMappingFile(const std::string& path) {
  BERTH_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path));
  return ParseTenantMapping(text, path);
}

core::Status AddTenantFlag(std::string_view flag, TenantMapping& mapping) {
  size_t eq = flag.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return core::InvalidArgument(ti::Quote(flag) +
                                 " is not TENANT=NAMESPACE/QUEUE (tenant * for the default)");
  }
  core::Result<QueueRef> queue = ParseQueueRef(flag.substr(eq + 1));
  if (!queue.has_value()) {
    return core::InvalidArgument(ti::Quote(flag) + ": " + queue.error().message());
  }
  core::Status added = mapping.Add(flag.substr(0, eq), std::move(queue).value());
  if (!added.ok()) {
    return core::Error(added.error().code(),
                       ti::Quote(flag) + ": " + added.error().message());
  }
  return core::OkStatus();
}

}  // namespace berth::sim
