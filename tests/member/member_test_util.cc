#include "member/member_test_util.h"

#include <sstream>
#include <utility>

#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/pod_util.h"

namespace berth::server::member::testing {

Json J(std::string_view text) { return Json::parse(text); }

Json MakeNode(const std::string& name, int64_t gpus) {
  Json node = {{"apiVersion", "v1"},
               {"kind", "Node"},
               {"metadata", {{"name", name}, {"uid", "uid-node-" + name}}},
               {"spec", Json::object()},
               {"status",
                {{"capacity", {{"cpu", "32"}, {"memory", "256Gi"}}},
                 {"allocatable", {{"cpu", "32"}, {"memory", "256Gi"}}}}}};
  if (gpus > 0) {
    node["status"]["capacity"]["nvidia.com/gpu"] = std::to_string(gpus);
    node["status"]["allocatable"]["nvidia.com/gpu"] = std::to_string(gpus);
  }
  return node;
}

Json MakeObject(std::string_view api_version, std::string_view kind, const std::string& name,
                Json spec) {
  return Json{{"apiVersion", std::string(api_version)},
              {"kind", std::string(kind)},
              {"metadata",
               {{"name", name},
                {"namespace", "default"},
                {"uid", "uid-" + name},
                {"generation", 1},
                {"creationTimestamp", TimeText(kT0)}}},
              {"spec", std::move(spec)}};
}

Json PodTemplate(const std::string& app, Json annotations, const std::string& restart_policy) {
  Json tmpl = {
      {"metadata", {{"labels", {{"app", app}}}}},
      {"spec", {{"containers", Json::array({Json{{"name", "main"}, {"image", "busybox"}}})}}}};
  if (!annotations.empty()) tmpl["metadata"]["annotations"] = std::move(annotations);
  if (!restart_policy.empty()) tmpl["spec"]["restartPolicy"] = restart_policy;
  return tmpl;
}

std::vector<const Change*> ChangesOf(const ControllerRound& round, Change::Op op, Kind kind) {
  std::vector<const Change*> out;
  for (const Change& c : round.changes) {
    if (c.op == op && KindOf(c.object) == kind) out.push_back(&c);
  }
  return out;
}

std::string Describe(const std::vector<Change>& changes) {
  std::ostringstream out;
  for (const Change& c : changes) {
    const std::optional<ObjectKey> key = KeyOf(c.object);
    out << OpName(c.op) << " " << (key ? KeyText(*key) : std::string("?")) << "\n";
  }
  return out.str();
}

SimCluster::SimCluster(int64_t t) : now(t) {}

void SimCluster::Add(Json object) { view_.Add(std::move(object)); }

void SimCluster::Replace(Json object) { view_.Add(std::move(object)); }

void SimCluster::Remove(Kind kind, const std::string& ns, const std::string& name) {
  std::vector<Json> kept;
  for (const auto& [key, object] : view_.objects()) {
    if (!(key.kind == kind && key.ns == ns && key.name == name)) kept.push_back(object);
  }
  view_ = MemberView(std::move(kept));
}

ControllerRound SimCluster::Round() {
  ControllerOptions opts = options;
  opts.now_unix_s = now;
  ControllerRound round = RunControllers(view_, opts);
  EXPECT_TRUE(round.settled) << Describe(round.changes);
  view_ = ApplyChanges(view_, round.changes);
  // A deleted Job, ReplicaSet or other non-pod object leaves the store at once; its name (or
  // its absence) is new state the next round may act on, as upstream's next sync after the
  // delete event does. Only rounds that deleted none must be a fixed point of the next.
  bool removed = false;
  for (const Change& c : round.changes) {
    if (c.op == Change::Op::kDelete && KindOf(c.object) != Kind::kPod) removed = true;
  }
  if (check_idempotent && !removed) {
    const ControllerRound again = RunControllers(view_, opts);
    EXPECT_TRUE(again.changes.empty())
        << "a second round changed:\n"
        << Describe(again.changes)
        << (again.changes.empty() ? "" : again.changes[0].object.dump(2));
  }
  return round;
}

int SimCluster::Bind(const std::vector<std::string>& nodes) {
  std::vector<std::string> usable;
  for (const std::string& n : nodes) {
    const Json* node = Find(Kind::kNode, "", n);
    bool tainted = false;
    if (node != nullptr) {
      const Json* taints = MemberAt(*node, {"spec", "taints"});
      if (taints != nullptr && taints->is_array()) {
        for (const Json& t : *taints) {
          if (StringAt(t, {"key"}) == "node.kubernetes.io/unreachable") tainted = true;
        }
      }
    }
    if (!tainted) usable.push_back(n);
  }
  if (usable.empty()) return 0;
  std::vector<Json> bound;
  size_t next = 0;
  for (const auto& [key, object] : view_.objects()) {
    if (key.kind != Kind::kPod || !PodIsActive(object) ||
        !StringAt(object, {"spec", "nodeName"}).empty()) {
      continue;
    }
    Json pod = object;
    pod["spec"]["nodeName"] = usable[next++ % usable.size()];
    Json& conditions = EnsureArray(EnsureObject(pod, "status"), "conditions");
    conditions.push_back(Json{{"type", "PodScheduled"},
                              {"status", "True"},
                              {"lastProbeTime", nullptr},
                              {"lastTransitionTime", TimeText(now)}});
    bound.push_back(std::move(pod));
  }
  for (Json& pod : bound) view_.Add(std::move(pod));
  return static_cast<int>(bound.size());
}

void SimCluster::Advance(int64_t seconds) {
  now += seconds;
  view_ = FinishDeletions(view_, now);
}

void SimCluster::Run(int steps, int64_t step_s, const std::vector<std::string>& nodes) {
  for (int i = 0; i < steps; ++i) {
    Round();
    Bind(nodes);
    Advance(step_s);
  }
}

const Json* SimCluster::Find(Kind kind, const std::string& ns, const std::string& name) const {
  return view_.Find(ObjectKey{kind, InfoOf(kind).namespaced ? ns : "", name});
}

const Json& SimCluster::Get(Kind kind, const std::string& name, const std::string& ns) const {
  static const Json kEmpty = Json::object();
  const Json* found = Find(kind, ns, name);
  EXPECT_NE(found, nullptr) << InfoOf(kind).name << " " << name << " not found";
  return found != nullptr ? *found : kEmpty;
}

std::vector<const Json*> SimCluster::List(Kind kind) const {
  std::vector<const Json*> out;
  for (const auto& [key, object] : view_.objects()) {
    if (key.kind == kind) out.push_back(&object);
  }
  return out;
}

std::vector<const Json*> SimCluster::OwnedBy(Kind kind, const Json& owner) const {
  std::vector<const Json*> out;
  for (const Json* o : List(kind)) {
    if (ControllerUidOf(*o) == UidOf(owner)) out.push_back(o);
  }
  return out;
}

std::vector<const Json*> SimCluster::PodsOf(const Json& owner) const {
  return OwnedBy(Kind::kPod, owner);
}

}  // namespace berth::server::member::testing
