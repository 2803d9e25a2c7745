#include "server/rest/visibility.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/time.h"

namespace berth::server {

namespace {

using Json = nlohmann::ordered_json;
constexpr int64_t kDefaultLimit = 1000;

struct Pending {
  std::string ns;
  std::string name;
  std::string local_queue;
  int64_t priority = 0;
  std::string created;  // RFC 3339: compares in time order
  Json metadata;
};

std::vector<std::string_view> VisibilitySegments(std::string_view path) {
  std::vector<std::string_view> out;
  while (!path.empty()) {
    const size_t slash = path.find('/');
    out.push_back(path.substr(0, slash));
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
  }
  return out;
}

template <typename F>
core::Status ForEach(store::Store& store, const char* kind, F&& f) {
  store::ListOptions options;
  options.group = "kueue.x-k8s.io";
  options.kind = kind;
  options.limit = 5000;
  while (true) {
    auto page = store.List(options);
    if (!page) return page.error();
    for (const store::StoredObject& o : page->items) {
      Json obj = Json::parse(o.json, nullptr, /*allow_exceptions=*/false);
      if (obj.is_object()) f(o, obj);
    }
    if (!page->next) return {};
    options.start_after = page->next;
  }
}

bool Finished(const Json& wl) {
  auto st = wl.find("status");
  if (st == wl.end() || !st->is_object()) return false;
  auto cs = st->find("conditions");
  if (cs == st->end() || !cs->is_array()) return false;
  for (const Json& c : *cs) {
    if (c.is_object() && c.value("type", "") == "Finished" && c.value("status", "") == "True") return true;
  }
  return false;
}

bool Admitted(const Json& wl) {
  auto st = wl.find("status");
  return st != wl.end() && st->is_object() && st->contains("admission") && !(*st)["admission"].is_null();
}

ApiResult<int64_t> IntParam(const QueryParams& query, const char* key, int64_t fallback) {
  auto v = query.Get(key);
  if (!v) return fallback;
  int64_t out = 0;
  if (v->empty() || v->size() > 12 || v->find_first_not_of("0123456789") != std::string_view::npos) {
    return BadRequestError(std::string(key) + " must be a non-negative integer");
  }
  for (char c : *v) out = out * 10 + (c - '0');
  return out;
}

}  // namespace

std::optional<VisibilityRequest> ParseVisibilityPath(std::string_view path) {
  if (!path.starts_with(kVisibilityPrefix)) return std::nullopt;
  const std::vector<std::string_view> s = VisibilitySegments(path.substr(kVisibilityPrefix.size()));
  VisibilityRequest r;
  if (s.empty() || (s[0] != "v1beta1" && s[0] != "v1beta2")) return std::nullopt;
  r.version = std::string(s[0]);
  if (s.size() == 4 && s[1] == "clusterqueues" && !s[2].empty() && s[3] == "pendingworkloads") {
    r.cluster_queue = std::string(s[2]);
    return r;
  }
  if (s.size() == 6 && s[1] == "namespaces" && !s[2].empty() && s[3] == "localqueues" &&
      !s[4].empty() && s[5] == "pendingworkloads") {
    r.ns = std::string(s[2]);
    r.local_queue = std::string(s[4]);
    return r;
  }
  return std::nullopt;
}

ApiResult<Json> PendingWorkloads(store::Store& store, const VisibilityRequest& request,
                                 const QueryParams& query) {
  auto limit = IntParam(query, "limit", kDefaultLimit);
  if (!limit) return limit.error();
  auto offset = IntParam(query, "offset", 0);
  if (!offset) return offset.error();

  std::map<std::pair<std::string, std::string>, std::string> lq_cq;  // (ns, lq) -> cq
  auto st = ForEach(store, "LocalQueue", [&](const store::StoredObject& o, const Json& lq) {
    auto spec = lq.find("spec");
    if (spec != lq.end() && spec->is_object()) lq_cq[{o.key.ns, o.key.name}] = spec->value("clusterQueue", "");
  });
  if (!st.ok()) return InternalApiError(st.error().ToString());
  std::string cq = request.cluster_queue;
  if (cq.empty()) {
    auto it = lq_cq.find({request.ns, request.local_queue});
    if (it == lq_cq.end()) {
      return NotFoundError(GroupResource{"kueue.x-k8s.io", "localqueues"}, request.local_queue);
    }
    cq = it->second;
  }
  std::vector<Pending> pending;
  st = ForEach(store, "Workload", [&](const store::StoredObject& o, const Json& wl) {
    if (Admitted(wl) || Finished(wl)) return;
    auto spec = wl.find("spec");
    if (spec == wl.end() || !spec->is_object()) return;
    const std::string lq = spec->value("queueName", "");
    auto it = lq_cq.find({o.key.ns, lq});
    if (it == lq_cq.end() || it->second != cq) return;
    Pending p;
    p.ns = o.key.ns;
    p.name = o.key.name;
    p.local_queue = lq;
    if (auto pr = spec->find("priority"); pr != spec->end() && pr->is_number_integer()) p.priority = pr->get<int64_t>();
    p.created = core::Timestamp{o.meta.creation_unix_s}.ToString();
    p.metadata = Json{{"name", p.name}, {"namespace", p.ns}, {"uid", o.meta.uid},
                      {"resourceVersion", std::to_string(o.meta.resource_version)},
                      {"creationTimestamp", p.created}};
    pending.push_back(std::move(p));
  });
  if (!st.ok()) return InternalApiError(st.error().ToString());
  std::sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
    if (a.priority != b.priority) return a.priority > b.priority;
    if (a.created != b.created) return a.created < b.created;
    return std::tie(a.ns, a.name) < std::tie(b.ns, b.name);
  });
  Json items = Json::array();
  std::map<std::pair<std::string, std::string>, int64_t> lq_position;
  int64_t position = 0, listed = 0;
  for (const Pending& p : pending) {
    const int64_t in_lq = lq_position[{p.ns, p.local_queue}]++;
    const int64_t in_cq = position++;
    if (!request.local_queue.empty() && (p.ns != request.ns || p.local_queue != request.local_queue)) continue;
    if (listed++ < *offset) continue;
    if (static_cast<int64_t>(items.size()) >= *limit) continue;
    items.push_back(Json{{"metadata", p.metadata},
                         {"priority", p.priority},
                         {"localQueueName", p.local_queue},
                         {"positionInClusterQueue", in_cq},
                         {"positionInLocalQueue", in_lq}});
  }
  return Json{{"kind", "PendingWorkloadsSummary"},
              {"apiVersion", "visibility.kueue.x-k8s.io/" + request.version},
              {"metadata", Json::object()},
              {"items", std::move(items)}};
}

}  // namespace berth::server
