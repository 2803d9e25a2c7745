// Why the order matters: kubectl's RESTMapper (and python-kubernetes' dynamic client) resolve
// a bare plural or short name to the first group in discovery order that has it. Two groups of
// the table share plurals ("jobs": batch and batch.volcano.sh; "podgroups" and "pg": two gang
// schedulers), so berth orders groups as kube-apiserver does, or `kubectl get jobs` would
// print Volcano jobs.
#include "server/api/discovery.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "core/ascii.h"
#include "model/kind_info.h"
#include "server/api/media_type.h"

namespace berth::server {
namespace {

using Json = nlohmann::ordered_json;
using model::KindInfo;

constexpr std::string_view kAggregatedV2Type =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
constexpr std::string_view kAggregatedV2Beta1Type =
    "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";

// kube-apiserver's group priorities (pkg/controlplane/apiserver/aggregator.go) for the
// built-in groups berth serves or may serve; every other group is a CRD group at 1000.
int GroupPriority(std::string_view group) {
  struct Entry {
    std::string_view group;
    int priority;
  };
  static constexpr Entry kPriorities[] = {
      {"apps", 17800},           {"events.k8s.io", 17750},
      {"authentication.k8s.io", 17700}, {"authorization.k8s.io", 17600},
      {"autoscaling", 17500},    {"batch", 17400},
      {"certificates.k8s.io", 17300}, {"networking.k8s.io", 17200},
      {"policy", 17100},         {"rbac.authorization.k8s.io", 17000},
      {"storage.k8s.io", 16800}, {"admissionregistration.k8s.io", 16700},
      {"scheduling.k8s.io", 16600}, {"coordination.k8s.io", 16500},
      {"apiextensions.k8s.io", 16400}, {"discovery.k8s.io", 16200},
      {"flowcontrol.apiserver.k8s.io", 16100}, {"resource.k8s.io", 15900},
      {"node.k8s.io", 15300},
  };
  for (const Entry& e : kPriorities) {
    if (e.group == group) return e.priority;
  }
  return 1000;
}

struct ParsedVersion {
  bool kube = false;
  int major = 0;
  int level = 0;  // 2 GA, 1 beta, 0 alpha
  int minor = 0;
};

ParsedVersion ParseVersion(std::string_view v) {
  ParsedVersion p;
  if (v.size() < 2 || v[0] != 'v' || !std::isdigit(static_cast<unsigned char>(v[1]))) return p;
  size_t i = 1;
  int major = 0;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) {
    major = major * 10 + (v[i] - '0');
    if (major > 100000) return p;
    ++i;
  }
  if (v[1] == '0') return p;  // "v0", "v01": not a Kubernetes version
  p.major = major;
  if (i == v.size()) {
    p.kube = true;
    p.level = 2;
    return p;
  }
  std::string_view rest = v.substr(i);
  if (rest.substr(0, 4) == "beta") {
    p.level = 1;
    rest.remove_prefix(4);
  } else if (rest.substr(0, 5) == "alpha") {
    p.level = 0;
    rest.remove_prefix(5);
  } else {
    return p;
  }
  if (rest.empty() || rest[0] == '0') return p;
  int minor = 0;
  for (char c : rest) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return p;
    minor = minor * 10 + (c - '0');
    if (minor > 100000) return p;
  }
  p.minor = minor;
  p.kube = true;
  return p;
}

Json VerbsJson(model::VerbSet verbs) {
  Json out = Json::array();
  for (model::Verb v : model::kVerbOrder) {
    if (verbs.Has(v)) out.push_back(std::string(model::VerbName(v)));
  }
  return out;
}

Json StringsJson(std::span<const std::string_view> items) {
  Json out = Json::array();
  for (std::string_view s : items) out.push_back(std::string(s));
  return out;
}

bool ServedIn(const KindInfo& k, std::string_view version) {
  return k.served() && !k.gated_off &&
         std::find(k.versions.begin(), k.versions.end(), version) != k.versions.end();
}

// The served rows of group/version, sorted by resource name.
std::vector<const KindInfo*> KindsOf(std::string_view group, std::string_view version) {
  std::vector<const KindInfo*> out;
  for (const KindInfo& k : model::AllKinds()) {
    if (k.group == group && ServedIn(k, version)) out.push_back(&k);
  }
  std::sort(out.begin(), out.end(),
            [](const KindInfo* a, const KindInfo* b) { return a->resource < b->resource; });
  return out;
}

Json GroupVersionJson(std::string_view group, std::string_view version) {
  Json gv = Json::object();
  gv["groupVersion"] = std::string(group) + "/" + std::string(version);
  gv["version"] = std::string(version);
  return gv;
}

Json GroupJson(const std::string& group) {
  Json g = Json::object();
  g["name"] = group;
  Json versions = Json::array();
  const std::vector<std::string> served = ServedVersions(group);
  for (const std::string& v : served) versions.push_back(GroupVersionJson(group, v));
  g["versions"] = std::move(versions);
  g["preferredVersion"] = GroupVersionJson(group, served.front());
  return g;
}

Json ResponseKind(std::string_view group, std::string_view version, std::string_view kind) {
  Json rk = Json::object();
  rk["group"] = std::string(group);
  rk["version"] = std::string(version);
  rk["kind"] = std::string(kind);
  return rk;
}

Json SubresourceVerbs() { return Json::array({"get", "patch", "update"}); }

// One APIVersionDiscovery: the resources of group/version in the aggregated shape.
Json AggregatedVersion(std::string_view group, std::string_view version) {
  Json resources = Json::array();
  for (const KindInfo* k : KindsOf(group, version)) {
    Json r = Json::object();
    r["resource"] = std::string(k->resource);
    r["responseKind"] = ResponseKind(group, version, k->kind);
    r["scope"] = k->namespaced() ? "Namespaced" : "Cluster";
    r["singularResource"] = core::AsciiLower(k->kind);
    r["verbs"] = VerbsJson(k->verbs);
    if (!k->short_names.empty()) r["shortNames"] = StringsJson(k->short_names);
    if (!k->categories.empty()) r["categories"] = StringsJson(k->categories);
    Json subs = Json::array();
    if (k->scale.served()) {
      Json s = Json::object();
      s["subresource"] = "scale";
      s["responseKind"] = ResponseKind("autoscaling", "v1", "Scale");
      s["verbs"] = SubresourceVerbs();
      subs.push_back(std::move(s));
    }
    if (k->status_subresource) {
      Json s = Json::object();
      s["subresource"] = "status";
      s["responseKind"] = ResponseKind(group, version, k->kind);
      s["verbs"] = SubresourceVerbs();
      subs.push_back(std::move(s));
    }
    if (!subs.empty()) r["subresources"] = std::move(subs);
    resources.push_back(std::move(r));
  }
  Json v = Json::object();
  v["version"] = std::string(version);
  v["resources"] = std::move(resources);
  v["freshness"] = "Current";
  return v;
}

Json AggregatedGroup(const std::string& group) {
  Json item = Json::object();
  Json meta = Json::object();
  if (!group.empty()) meta["name"] = group;
  meta["creationTimestamp"] = nullptr;
  item["metadata"] = std::move(meta);
  Json versions = Json::array();
  for (const std::string& v : ServedVersions(group)) {
    versions.push_back(AggregatedVersion(group, v));
  }
  item["versions"] = std::move(versions);
  return item;
}

}  // namespace

bool VersionPriorityLess(std::string_view a, std::string_view b) {
  const ParsedVersion pa = ParseVersion(a);
  const ParsedVersion pb = ParseVersion(b);
  if (pa.kube != pb.kube) return pa.kube;
  if (!pa.kube) return a < b;
  if (pa.level != pb.level) return pa.level > pb.level;
  if (pa.major != pb.major) return pa.major > pb.major;
  return pa.minor > pb.minor;
}

std::vector<std::string> ServedVersions(std::string_view group) {
  std::vector<std::string> out;
  for (const KindInfo& k : model::AllKinds()) {
    if (k.group != group || !k.served() || k.gated_off) continue;
    for (std::string_view v : k.versions) {
      if (std::find(out.begin(), out.end(), v) == out.end()) out.emplace_back(v);
    }
  }
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    return VersionPriorityLess(a, b);
  });
  return out;
}

std::vector<std::string> ServedGroups() {
  std::vector<std::string> out;
  for (const KindInfo& k : model::AllKinds()) {
    if (k.group.empty() || !k.served()) continue;
    if (std::find(out.begin(), out.end(), k.group) == out.end()) out.emplace_back(k.group);
  }
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    const int pa = GroupPriority(a);
    const int pb = GroupPriority(b);
    return pa != pb ? pa > pb : a < b;
  });
  return out;
}

bool ServesGroup(std::string_view group) {
  for (const KindInfo& k : model::AllKinds()) {
    if (k.group == group && k.served()) return true;
  }
  return false;
}

bool ServesGroupVersion(std::string_view group, std::string_view version) {
  for (const KindInfo& k : model::AllKinds()) {
    if (k.group == group && ServedIn(k, version)) return true;
  }
  return false;
}

DiscoveryFormat NegotiateDiscovery(std::string_view accept) {
  for (const MediaRange& r : ParseAccept(accept)) {
    if (!r.AcceptsJson()) continue;  // protobuf forms are not served
    const std::string_view g = r.Param("g");
    const std::string_view as = r.Param("as");
    if (g.empty() && as.empty()) return DiscoveryFormat::kLegacy;
    if (g != "apidiscovery.k8s.io" || as != "APIGroupDiscoveryList") continue;
    if (r.Param("v") == "v2") return DiscoveryFormat::kAggregatedV2;
    if (r.Param("v") == "v2beta1") return DiscoveryFormat::kAggregatedV2Beta1;
  }
  return DiscoveryFormat::kLegacy;
}

std::string_view DiscoveryContentType(DiscoveryFormat format) {
  switch (format) {
    case DiscoveryFormat::kAggregatedV2:
      return kAggregatedV2Type;
    case DiscoveryFormat::kAggregatedV2Beta1:
      return kAggregatedV2Beta1Type;
    case DiscoveryFormat::kLegacy:
      break;
  }
  return "application/json";
}

Json CoreApiVersions(std::string_view server_address) {
  Json j = Json::object();
  j["kind"] = "APIVersions";
  j["versions"] = ServedVersions("");
  Json cidr = Json::object();
  cidr["clientCIDR"] = "0.0.0.0/0";
  cidr["serverAddress"] = std::string(server_address);
  j["serverAddressByClientCIDRs"] = Json::array({std::move(cidr)});
  return j;
}

Json ApiGroupList() {
  Json j = Json::object();
  j["kind"] = "APIGroupList";
  j["apiVersion"] = "v1";
  Json groups = Json::array();
  for (const std::string& g : ServedGroups()) groups.push_back(GroupJson(g));
  j["groups"] = std::move(groups);
  return j;
}

ApiResult<Json> ApiGroupDocument(std::string_view group) {
  if (group.empty() || !ServesGroup(group)) return PathNotFoundError();
  Json j = Json::object();
  j["kind"] = "APIGroup";
  j["apiVersion"] = "v1";
  Json g = GroupJson(std::string(group));
  for (auto& [key, value] : g.items()) j[key] = value;
  return j;
}

ApiResult<Json> ApiResourceList(std::string_view group, std::string_view version) {
  if (!ServesGroupVersion(group, version)) return PathNotFoundError();
  Json j = Json::object();
  j["kind"] = "APIResourceList";
  j["apiVersion"] = "v1";
  j["groupVersion"] = group.empty() ? std::string(version)
                                    : std::string(group) + "/" + std::string(version);
  Json resources = Json::array();
  for (const KindInfo* k : KindsOf(group, version)) {
    Json r = Json::object();
    r["name"] = std::string(k->resource);
    r["singularName"] = core::AsciiLower(k->kind);
    r["namespaced"] = k->namespaced();
    r["kind"] = std::string(k->kind);
    r["verbs"] = VerbsJson(k->verbs);
    if (!k->short_names.empty()) r["shortNames"] = StringsJson(k->short_names);
    if (!k->categories.empty()) r["categories"] = StringsJson(k->categories);
    resources.push_back(std::move(r));
    // Subresources follow their resource, in name order ("x/scale" < "x/status").
    if (k->scale.served()) {
      Json s = Json::object();
      s["name"] = std::string(k->resource) + "/scale";
      s["singularName"] = "";
      s["namespaced"] = k->namespaced();
      s["group"] = "autoscaling";
      s["version"] = "v1";
      s["kind"] = "Scale";
      s["verbs"] = SubresourceVerbs();
      resources.push_back(std::move(s));
    }
    if (k->status_subresource) {
      Json s = Json::object();
      s["name"] = std::string(k->resource) + "/status";
      s["singularName"] = "";
      s["namespaced"] = k->namespaced();
      s["kind"] = std::string(k->kind);
      s["verbs"] = SubresourceVerbs();
      resources.push_back(std::move(s));
    }
  }
  j["resources"] = std::move(resources);
  return j;
}

Json AggregatedDiscovery(bool core, DiscoveryFormat format) {
  Json j = Json::object();
  j["kind"] = "APIGroupDiscoveryList";
  j["apiVersion"] = format == DiscoveryFormat::kAggregatedV2Beta1 ? "apidiscovery.k8s.io/v2beta1"
                                                                  : "apidiscovery.k8s.io/v2";
  j["metadata"] = Json::object();
  Json items = Json::array();
  if (core) {
    items.push_back(AggregatedGroup(""));
  } else {
    for (const std::string& g : ServedGroups()) items.push_back(AggregatedGroup(g));
  }
  j["items"] = std::move(items);
  return j;
}

}  // namespace berth::server
