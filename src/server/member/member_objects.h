// MemberView: the objects of a simulated member cluster that its controllers and kubelet read
// (`berth cluster --simulate`): Nodes, Pods, Jobs, JobSets, Deployments, ReplicaSets,
// StatefulSets, PyTorchJobs and LeaderWorkerSets, as the API serves them (JSON). The lead's
// loop fills one per round from its store and hands it to RunControllers (controller_round.h).
// Objects of other kinds are skipped, so the whole store may be passed. A plain value;
// thread-compatible.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace berth::server::member {

using Json = nlohmann::ordered_json;

// The kinds the simulated cluster's controllers read or write. The view must hold every
// object of these kinds the cluster has: the garbage collector deletes dependents whose owner
// (of one of these kinds) is absent.
enum class Kind {
  kNode,
  kPod,
  kJob,
  kJobSet,
  kDeployment,
  kReplicaSet,
  kStatefulSet,
  kPyTorchJob,
  kLeaderWorkerSet,
};

struct KindInfo {
  Kind kind;
  std::string_view api_version;  // the version the controllers write ("apps/v1")
  std::string_view name;         // "Deployment"
  bool namespaced;
};

const KindInfo& InfoOf(Kind kind);
// Every kind, in the order above.
const std::vector<Kind>& AllMemberKinds();
// The kind of `object` by its apiVersion's group and its kind ("batch/v1" Job; any version of
// the group is accepted); nullopt for every other kind.
std::optional<Kind> KindOf(const Json& object);
// The kind an ownerReference names (its apiVersion and kind), as KindOf.
std::optional<Kind> KindOfRef(std::string_view api_version, std::string_view kind);

// Identity of an object in the cluster. `ns` is "" for Nodes.
struct ObjectKey {
  Kind kind = Kind::kPod;
  std::string ns;
  std::string name;

  auto operator<=>(const ObjectKey&) const = default;
  bool operator==(const ObjectKey&) const = default;
};

// "Pod/ns/name", "Node/name": how diagnostics name an object.
std::string KeyText(const ObjectKey& key);
// The key of an object of a known kind; nullopt for other kinds and nameless objects.
std::optional<ObjectKey> KeyOf(const Json& object);

class MemberView {
 public:
  MemberView() = default;
  explicit MemberView(std::vector<Json> objects);

  // Keeps `object` when it is of a known kind and named (a later object with the same key
  // replaces an earlier one); otherwise counts it in skipped().
  void Add(Json object);

  // Keyed by kind, namespace and name: iteration is in that order, so rounds are deterministic.
  const std::map<ObjectKey, Json>& objects() const { return objects_; }
  const Json* Find(const ObjectKey& key) const;
  size_t skipped() const { return skipped_; }

 private:
  std::map<ObjectKey, Json> objects_;
  size_t skipped_ = 0;
};

}  // namespace berth::server::member
