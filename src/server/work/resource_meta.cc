// The JSON field order is the Go struct's (api work/v1 types.go ManifestResourceMeta), so a
// status berth writes diffs cleanly against one OCM's agent wrote.
#include "server/work/resource_meta.h"

#include <limits>

namespace berth::server::work {

namespace {

std::string ResourceMetaString(const Json& meta, const char* key) {
  auto it = meta.find(key);
  return it != meta.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

Json ResourceMeta::ToJson() const {
  Json out = Json::object();
  out["ordinal"] = ordinal;
  out["group"] = group;
  out["version"] = version;
  out["kind"] = kind;
  out["resource"] = resource;
  out["name"] = name;
  out["namespace"] = namespace_;
  return out;
}

ResourceMeta ResourceMeta::FromJson(const Json& meta) {
  ResourceMeta out;
  if (!meta.is_object()) return out;
  if (auto it = meta.find("ordinal"); it != meta.end() && it->is_number_integer()) {
    const int64_t v = it->get<int64_t>();
    if (v >= 0 && v <= std::numeric_limits<int32_t>::max()) out.ordinal = static_cast<int32_t>(v);
  }
  out.group = ResourceMetaString(meta, "group");
  out.version = ResourceMetaString(meta, "version");
  out.kind = ResourceMetaString(meta, "kind");
  out.resource = ResourceMetaString(meta, "resource");
  out.name = ResourceMetaString(meta, "name");
  out.namespace_ = ResourceMetaString(meta, "namespace");
  return out;
}

}  // namespace berth::server::work
