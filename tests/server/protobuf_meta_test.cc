// The protobuf bodies of typed clients, for objects that are only metadata.
#include "server/api/protobuf_meta.h"

#include <gtest/gtest.h>

#include <string>

namespace berth::server {
namespace BERTH_UNITY_ID {

std::string FromHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return out;
}

// What `kubectl create namespace team-z` (v1.32) sends, captured on the wire: every
// ObjectMeta field written with its zero value, an empty spec, a status with an empty phase.
constexpr const char* kCreateNamespace =
    "6b3873000a0f0a02763112094e616d657370616365121e0a160a067465616d2d7a12001a0022002a00320038"
    "00420012001a020a001a002200";

TEST(ProtobufMetaTest, KubectlCreateNamespace) {
  auto object = MetadataObjectFromProtobuf(FromHex(kCreateNamespace));
  ASSERT_TRUE(object) << object.error().message;
  EXPECT_EQ(object->dump(), R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-z"}})");
}

TEST(ProtobufMetaTest, LabelsAndAnnotations) {
  // metadata {name "x", labels {"a": "b"}, annotations {"k": "v"}}
  const std::string meta = FromHex("0a0178") + FromHex("5a06") + FromHex("0a0161120162") +
                           FromHex("6206") + FromHex("0a016b120176");
  std::string raw = FromHex("0a") + static_cast<char>(meta.size()) + meta;
  const std::string type_meta = FromHex("0a02763112094e616d657370616365");
  std::string body = std::string("k8s\0", 4) + FromHex("0a") + static_cast<char>(type_meta.size()) +
                     type_meta + FromHex("12") + static_cast<char>(raw.size()) + raw;
  auto object = MetadataObjectFromProtobuf(body);
  ASSERT_TRUE(object) << object.error().message;
  EXPECT_EQ(object->at("metadata").dump(), R"({"name":"x","labels":{"a":"b"},"annotations":{"k":"v"}})");
}

TEST(ProtobufMetaTest, AnythingElseIsRefusedNotDropped) {
  // A Namespace whose status carries a phase: a field berth would have to drop.
  std::string bytes = FromHex(kCreateNamespace);
  const size_t status = bytes.find(FromHex("1a020a00"));
  ASSERT_NE(status, std::string::npos);
  std::string with_phase = bytes;
  with_phase.replace(status, 4, FromHex("1a030a0141"));
  // The enclosing raw field's length grows by one.
  const size_t raw_len = bytes.find(FromHex("121e"));
  with_phase[raw_len + 1] = static_cast<char>(0x1f);
  auto refused = MetadataObjectFromProtobuf(with_phase);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, 415);

  EXPECT_EQ(MetadataObjectFromProtobuf("{}").error().code, 415);  // not the envelope
  EXPECT_EQ(MetadataObjectFromProtobuf(std::string("k8s\0\x0a\xff", 6)).error().code, 400);
  EXPECT_EQ(MetadataObjectFromProtobuf(std::string("k8s\0", 4)).error().code, 415);  // no kind
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
