// RbacAuthorizer over Role/ClusterRole/RoleBinding/ClusterRoleBinding objects in a real store:
// rule matching as kube-apiserver's RBAC authorizer (plugin/pkg/auth/authorizer/rbac's
// RuleAllows cases: verbs, groups, resources with subresources, resourceNames), binding scope,
// subject kinds, and a policy change seen on the next request.
#include "server/auth/rbac_authorizer.h"

#include <gtest/gtest.h>

#include "store/sqlite_store.h"
#include "store/temp_dir.h"

namespace berth::server {
namespace BERTH_UNITY_ID {

class RbacAuthorizerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = store::SqliteStore::Open(dir_.Sub("db"));
    ASSERT_TRUE(opened) << opened.error().ToString();
    store_ = std::move(opened).value();
    authorizer_ = std::make_unique<RbacAuthorizer>(*store_);
  }
  void Put(const std::string& kind, const std::string& ns, const std::string& name,
           const std::string& json) {
    auto existing = store_->Get({"rbac.authorization.k8s.io", kind, ns, name});
    store::Mutation m = existing ? store::Mutation::Update({"rbac.authorization.k8s.io", kind, ns, name}, json)
                                 : store::Mutation::Create({"rbac.authorization.k8s.io", kind, ns, name}, json);
    ASSERT_TRUE(store_->Commit({std::move(m)}).has_value());
  }
  bool Can(const UserInfo& user, const std::string& verb, const std::string& group,
           const std::string& resource, const std::string& ns, const std::string& name = "",
           const std::string& subresource = "") {
    return authorizer_->Allowed(user, AuthorizationRequest{verb, group, resource, subresource, ns, name});
  }

  store::testing::TempDir dir_;
  std::unique_ptr<store::SqliteStore> store_;
  std::unique_ptr<RbacAuthorizer> authorizer_;
  UserInfo alice_{"alice", "1", {"dev", std::string(kAuthenticatedGroup)}};
  UserInfo bob_{"bob", "2", {std::string(kAuthenticatedGroup)}};
};

TEST_F(RbacAuthorizerTest, RulesAsUpstreamMatchesThem) {
  Put("Role", "team-a", "r",
      R"({"rules":[{"apiGroups":["kueue.x-k8s.io"],"resources":["workloads","localqueues/status"],"verbs":["get","list"]},)"
      R"({"apiGroups":[""],"resources":["pods"],"resourceNames":["p1"],"verbs":["get","delete"]},)"
      R"({"apiGroups":["batch"],"resources":["*/status"],"verbs":["*"]}]})");
  Put("RoleBinding", "team-a", "b",
      R"({"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"},)"
      R"("subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"alice"}]})");
  struct Case {
    const char* verb;
    const char* group;
    const char* resource;
    const char* ns;
    const char* name;
    const char* sub;
    bool allowed;
  } cases[] = {
      {"get", "kueue.x-k8s.io", "workloads", "team-a", "w", "", true},
      {"list", "kueue.x-k8s.io", "workloads", "team-a", "", "", true},
      {"watch", "kueue.x-k8s.io", "workloads", "team-a", "", "", false},          // verb not granted
      {"list", "kueue.x-k8s.io", "workloads", "team-b", "", "", false},           // other namespace
      {"list", "kueue.x-k8s.io", "workloads", "", "", "", false},                 // every namespace
      {"get", "", "workloads", "team-a", "w", "", false},                         // other group
      {"get", "kueue.x-k8s.io", "workloads", "team-a", "w", "status", false},     // subresource not granted
      {"get", "kueue.x-k8s.io", "localqueues", "team-a", "q", "status", true},    // res/sub
      {"get", "kueue.x-k8s.io", "localqueues", "team-a", "q", "", false},         // only the subresource
      {"get", "", "pods", "team-a", "p1", "", true},                              // resourceNames
      {"get", "", "pods", "team-a", "p2", "", false},
      {"list", "", "pods", "team-a", "", "", false},                              // a list has no name
      {"update", "batch", "jobs", "team-a", "j", "status", true},                 // */status, verb *
      {"update", "batch", "jobs", "team-a", "j", "", false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Can(alice_, c.verb, c.group, c.resource, c.ns, c.name, c.sub), c.allowed)
        << c.verb << " " << c.group << "/" << c.resource << "/" << c.sub << " in " << c.ns << " " << c.name;
  }
  EXPECT_FALSE(Can(bob_, "get", "kueue.x-k8s.io", "workloads", "team-a", "w"));
}

TEST_F(RbacAuthorizerTest, BindingScopesAndSubjects) {
  Put("ClusterRole", "", "viewer",
      R"({"rules":[{"apiGroups":["*"],"resources":["*"],"verbs":["get","list","watch"]}]})");
  // A RoleBinding to a ClusterRole grants it in its namespace only.
  Put("RoleBinding", "team-a", "devs",
      R"({"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"viewer"},)"
      R"("subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"Group","name":"dev"}]})");
  EXPECT_TRUE(Can(alice_, "list", "batch", "jobs", "team-a"));
  EXPECT_FALSE(Can(alice_, "list", "batch", "jobs", "team-b"));
  EXPECT_FALSE(Can(alice_, "list", "batch", "jobs", ""));
  // A ClusterRoleBinding grants it everywhere, cluster-scoped resources included.
  Put("ClusterRoleBinding", "", "sa",
      R"({"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"viewer"},)"
      R"("subjects":[{"kind":"ServiceAccount","name":"agent","namespace":"berth"}]})");
  UserInfo sa{"system:serviceaccount:berth:agent", "3", {std::string(kAuthenticatedGroup)}};
  EXPECT_TRUE(Can(sa, "list", "", "nodes", ""));
  EXPECT_TRUE(Can(sa, "watch", "kueue.x-k8s.io", "workloads", "team-b"));
  EXPECT_FALSE(Can(sa, "delete", "", "nodes", "", "n1"));
  UserInfo other_sa{"system:serviceaccount:other:agent", "4", {std::string(kAuthenticatedGroup)}};
  EXPECT_FALSE(Can(other_sa, "list", "", "nodes", ""));
  // A binding to a role that does not exist grants nothing; system:masters needs no binding.
  Put("RoleBinding", "team-b", "dangling",
      R"({"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"missing"},)"
      R"("subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"bob"}]})");
  EXPECT_FALSE(Can(bob_, "get", "", "pods", "team-b", "p"));
  UserInfo admin{"root", "0", {std::string(kMastersGroup)}};
  EXPECT_TRUE(Can(admin, "delete", "", "namespaces", "", "kube-system"));
}

TEST_F(RbacAuthorizerTest, APolicyChangeIsSeenOnTheNextRequest) {
  EXPECT_FALSE(Can(bob_, "list", "", "pods", "team-a"));
  Put("Role", "team-a", "pods", R"({"rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["list"]}]})");
  Put("RoleBinding", "team-a", "bob",
      R"({"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"pods"},)"
      R"("subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"bob"}]})");
  EXPECT_TRUE(Can(bob_, "list", "", "pods", "team-a"));
  Put("Role", "team-a", "pods", R"({"rules":[]})");
  EXPECT_FALSE(Can(bob_, "list", "", "pods", "team-a"));
  // A write outside RBAC does not make it reload (nothing changed), and still answers.
  ASSERT_TRUE(store_->Commit({store::Mutation::Create({"", "Namespace", "", "x"}, "{}")}).has_value());
  EXPECT_FALSE(Can(bob_, "list", "", "pods", "team-a"));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
