// TenantMapping: which Kueue LocalQueue (namespace/name) each trace tenant submits to, with
// a default queue for tenants not listed. Built from a CSV file `tenant,namespace,local_queue`
// or from flags `TENANT=NAMESPACE/QUEUE` (the CLI's --tenant-queue, repeatable); tenant `*`
// names the default. Read by queued_trace.h. Plain value type; lookups are O(1) average.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/result.h"

namespace berth::sim {

// A LocalQueue: namespace (a DNS-1123 label) and name (a DNS-1123 subdomain that is also a
// label value, since Kueue finds it through the kueue.x-k8s.io/queue-name label).
struct QueueRef {
  std::string namespace_name;
  std::string local_queue;

  auto operator<=>(const QueueRef&) const = default;
  std::string ToString() const { return namespace_name + "/" + local_queue; }
};

// "NAMESPACE/QUEUE", both parts checked as above. InvalidArgument otherwise.
core::Result<QueueRef> ParseQueueRef(std::string_view text);

class TenantMapping {
 public:
  // Maps `tenant` to `queue`; tenant "*" sets the default. AlreadyExists when the tenant (or
  // the default) was mapped already: two answers for one tenant are a mistake in the file.
  // InvalidArgument for an empty tenant.
  core::Status Add(std::string_view tenant, QueueRef queue);
  // Sets or replaces the default queue (the CLI's --default-queue overrides a file's "*").
  void SetDefault(QueueRef queue) { default_ = std::move(queue); }

  // The queue of `tenant`: its own, else the default; nullptr when neither exists. The
  // pointer stays valid until the mapping is next changed.
  const QueueRef* Find(std::string_view tenant) const;
  const std::optional<QueueRef>& default_queue() const { return default_; }
  size_t size() const { return by_tenant_.size(); }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, QueueRef, Hash, std::equal_to<>> by_tenant_;
  std::optional<QueueRef> default_;
};

// Parses the mapping file: one `tenant,namespace,local_queue` row per line; an optional
// header row with exactly those names; blank lines and lines starting with '#' ignored.
// Errors: "FILE:LINE: column NAME: why" (wrong field count, empty tenant, bad namespace or
// queue name, a tenant mapped twice). Every error stops the read: a mapping is small and
// must be right.
core::Result<TenantMapping> ParseTenantMapping(std::string_view text, std::string_view file);
core::Result<TenantMapping> ReadTenantMappingFile(const std::string& path);

// Adds one flag `TENANT=NAMESPACE/QUEUE` (tenant "*" for the default) to `mapping`.
// InvalidArgument naming the flag text when it is malformed; AlreadyExists as Add.
core::Status AddTenantFlag(std::string_view flag, TenantMapping& mapping);

}  // namespace berth::sim
