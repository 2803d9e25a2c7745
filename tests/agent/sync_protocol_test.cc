// The sync messages: what goes out comes back, and every malformed field is named.
#include "server/agent/sync_protocol.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace berth::server::agent {
namespace BERTH_UNITY_ID {

TEST(SyncProtocolTest, RequestRoundTrips) {
  SyncRequest r;
  r.cluster = "eu-1";
  r.agent_id = "a1";
  r.hub_id = "h1";
  r.epoch = 3;
  r.inventory_hash = "abc";
  r.inventory = std::vector<Json>{Json{{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "n1"}}}}};
  r.claims = {{"region.open-cluster-management.io", "eu-west"}};
  r.works = {{"w1", "u1", 2}};
  r.statuses = {{"w1", "u1", 2, 17, Json{{"conditions", Json::array()}}}};
  r.works_version = 812;
  auto back = ParseSyncRequest(EncodeSyncRequest(r));
  ASSERT_TRUE(back) << back.error().ToString();
  EXPECT_EQ(back->cluster, "eu-1");
  EXPECT_EQ(back->epoch, 3);
  ASSERT_TRUE(back->inventory.has_value());
  EXPECT_EQ((*back->inventory)[0]["metadata"]["name"], "n1");
  EXPECT_EQ(back->claims[0].second, "eu-west");
  EXPECT_EQ(back->works[0].generation, 2);
  EXPECT_EQ(back->statuses[0].sequence, 17);
  EXPECT_EQ(back->works_version, 812);
}

TEST(SyncProtocolTest, InventoryAbsentStaysAbsent) {
  SyncRequest r;
  r.cluster = "eu-1";
  auto back = ParseSyncRequest(EncodeSyncRequest(r));
  ASSERT_TRUE(back);
  EXPECT_FALSE(back->inventory.has_value());
}

TEST(SyncProtocolTest, ReplyRoundTrips) {
  SyncReply r;
  r.hub_id = "h1";
  r.epoch = 2;
  r.accepted = true;
  r.apply = {Json{{"kind", "ManifestWork"}, {"metadata", {{"name", "w"}}}}};
  r.remove = {"old", "gone"};
  r.deleted = {"gone"};
  r.works_version = 44;
  r.status_acks = {{"w", 9}};
  r.sync_period_s = 5;
  auto back = ParseSyncReply(EncodeSyncReply(r));
  ASSERT_TRUE(back) << back.error().ToString();
  EXPECT_TRUE(back->accepted);
  EXPECT_EQ(back->apply.size(), 1u);
  EXPECT_EQ(back->remove[0], "old");
  EXPECT_EQ(back->deleted, std::vector<std::string>{"gone"});
  EXPECT_EQ(back->works_version, 44);
  EXPECT_EQ(back->status_acks.at("w"), 9);
  EXPECT_EQ(back->sync_period_s, 5);
}

struct BadRequestCase {
  const char* body;
  const char* field;  // "" when the error has no field
};

TEST(SyncProtocolTest, MalformedRequestsNameTheField) {
  const BadRequestCase cases[] = {
      {"not json", ""},
      {"[1]", ""},
      {"{}", "cluster"},
      {R"({"cluster":7})", "cluster"},
      {R"({"cluster":"c","epoch":"x"})", "epoch"},
      {R"({"cluster":"c","works":{}})", "works"},
      {R"({"cluster":"c","works":[{"generation":1}]})", "works[0].name"},
      {R"({"cluster":"c","works":[{"name":"w","generation":1.5}]})", "works[0].generation"},
      {R"({"cluster":"c","statuses":[{"name":"w","sequence":1}]})", "statuses[0].status"},
      {R"({"cluster":"c","inventory":[1]})", "inventory[0]"},
      {R"({"cluster":"c","claims":[{"value":"v"}]})", "claims[0].name"},
      {R"({"cluster":"c","worksVersion":-1})", "worksVersion"},
  };
  for (const BadRequestCase& c : cases) {
    auto r = ParseSyncRequest(c.body);
    ASSERT_FALSE(r) << c.body;
    EXPECT_EQ(r.error().location().field, c.field) << c.body << ": " << r.error().ToString();
  }
}

TEST(SyncProtocolTest, LimitsAreEnforced) {
  SyncLimits limits;
  limits.max_works = 2;
  limits.max_status_bytes = 64;
  auto many = ParseSyncRequest(R"({"cluster":"c","works":[{"name":"a"},{"name":"b"},{"name":"c"}]})", limits);
  ASSERT_FALSE(many);
  EXPECT_NE(many.error().message().find("at most 2"), std::string::npos);
  const std::string big = R"({"cluster":"c","statuses":[{"name":"w","sequence":1,"status":{"x":")" +
                          std::string(100, 'y') + R"("}}]})";
  auto large = ParseSyncRequest(big, limits);
  ASSERT_FALSE(large);
  EXPECT_EQ(large.error().location().field, "statuses[0].status");
  // A body nested past the bound is refused before it is parsed.
  std::string deep = R"({"cluster":"c","x":)" + std::string(1000, '[') + std::string(1000, ']') + "}";
  EXPECT_FALSE(ParseSyncRequest(deep));
}

TEST(SyncProtocolTest, SyncPaths) {
  EXPECT_EQ(SyncPath("eu-1"), "/apis/agent.berth.dev/v1/clusters/eu-1/sync");
  EXPECT_EQ(SyncPathCluster("/apis/agent.berth.dev/v1/clusters/eu-1/sync"), "eu-1");
  EXPECT_FALSE(SyncPathCluster("/apis/agent.berth.dev/v1/clusters//sync").has_value());
  EXPECT_FALSE(SyncPathCluster("/apis/agent.berth.dev/v1/clusters/a/b/sync").has_value());
  EXPECT_FALSE(SyncPathCluster("/apis/agent.berth.dev/v1/clusters/eu-1").has_value());
  // The prefix's last '/' is also the suffix's first: "sync" alone names no cluster (it was
  // cut past its end, a read out of bounds; fuzz/corpus/agent_sync/crash-sync-path-without-cluster).
  EXPECT_FALSE(SyncPathCluster("/apis/agent.berth.dev/v1/clusters/sync").has_value());
  EXPECT_FALSE(SyncPathCluster("/apis/agent.berth.dev/v1/clusters/ync").has_value());
  EXPECT_EQ(SyncPathCluster("/apis/agent.berth.dev/v1/clusters/x/sync"), "x");
}

// An integer past int64 is refused, never wrapped: 2^64-1 read as an epoch was -1, so a
// hub's reply could look older than any (fuzz/corpus/agent_sync/crash-epoch-past-int64).
TEST(SyncProtocolTest, IntegersPastInt64AreRefused) {
  const BadRequestCase requests[] = {
      {R"({"cluster":"c","epoch":18446744073709551615})", "epoch"},
      {R"({"cluster":"c","epoch":9223372036854775808})", "epoch"},
      {R"({"cluster":"c","works":[{"name":"w","generation":9223372036854775808}]})", "works[0].generation"},
      {R"({"cluster":"c","statuses":[{"name":"w","sequence":18446744073709551615,"status":{}}]})",
       "statuses[0].sequence"},
  };
  for (const BadRequestCase& c : requests) {
    auto r = ParseSyncRequest(c.body);
    ASSERT_FALSE(r) << c.body;
    EXPECT_EQ(r.error().location().field, c.field) << c.body << ": " << r.error().ToString();
    EXPECT_NE(r.error().message().find("64-bit integer"), std::string::npos) << r.error().ToString();
  }
  const BadRequestCase replies[] = {
      {R"({"hubId":"h","epoch":18446744073709551615})", "epoch"},
      {R"({"hubId":"h","statusAcks":{"w":9223372036854775808}})", "statusAcks.w"},
  };
  for (const BadRequestCase& c : replies) {
    auto r = ParseSyncReply(c.body);
    ASSERT_FALSE(r) << c.body;
    EXPECT_EQ(r.error().location().field, c.field) << c.body << ": " << r.error().ToString();
  }
  // The bounds themselves read.
  auto max = ParseSyncRequest(R"({"cluster":"c","epoch":9223372036854775807})");
  ASSERT_TRUE(max);
  EXPECT_EQ(max->epoch, std::numeric_limits<int64_t>::max());
  auto min = ParseSyncRequest(R"({"cluster":"c","epoch":-9223372036854775808})");
  ASSERT_TRUE(min);
  EXPECT_EQ(min->epoch, std::numeric_limits<int64_t>::min());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::agent
