// Merge patch cases from RFC 7386 appendix A; JSON patch cases from RFC 6902 appendix A
// (and its errors), as kube-apiserver applies them.
#include "server/api/patch.h"

#include <gtest/gtest.h>

namespace berth::server {
namespace BERTH_UNITY_ID {

using Json = nlohmann::ordered_json;

Json J(std::string_view text) { return Json::parse(text); }

TEST(PatchTest, MergePatchRfc7386AppendixA) {
  struct Case {
    const char* target;
    const char* patch;
    const char* result;
  };
  const Case cases[] = {
      {R"({"a":"b"})", R"({"a":"c"})", R"({"a":"c"})"},
      {R"({"a":"b"})", R"({"b":"c"})", R"({"a":"b","b":"c"})"},
      {R"({"a":"b"})", R"({"a":null})", R"({})"},
      {R"({"a":"b","b":"c"})", R"({"a":null})", R"({"b":"c"})"},
      {R"({"a":["b"]})", R"({"a":"c"})", R"({"a":"c"})"},
      {R"({"a":"c"})", R"({"a":["b"]})", R"({"a":["b"]})"},
      {R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})", R"({"a":{"b":"d"}})"},
      {R"({"a":[{"b":"c"}]})", R"({"a":[1]})", R"({"a":[1]})"},
      {R"(["a","b"])", R"(["c","d"])", R"(["c","d"])"},
      {R"({"a":"b"})", R"(["c"])", R"(["c"])"},
      {R"({"a":"foo"})", "null", "null"},
      {R"({"a":"foo"})", R"("bar")", R"("bar")"},
      {R"({"e":null})", R"({"a":1})", R"({"e":null,"a":1})"},
      {R"([1,2])", R"({"a":"b","c":null})", R"({"a":"b"})"},
      {R"({})", R"({"a":{"bb":{"ccc":null}}})", R"({"a":{"bb":{}}})"},
  };
  for (const Case& c : cases) {
    auto r = ApplyMergePatch(J(c.target), c.patch);
    ASSERT_TRUE(r.has_value()) << c.patch;
    EXPECT_EQ(*r, J(c.result)) << c.target << " + " << c.patch;
  }
}

TEST(PatchTest, MergePatchKeepsKeyOrderAndRefusesBadBodies) {
  auto r = ApplyMergePatch(J(R"({"kind":"Workload","spec":{"queueName":"a","active":true}})"),
                           R"({"spec":{"active":false}})");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->dump(), R"({"kind":"Workload","spec":{"queueName":"a","active":false}})");
  auto bad = ApplyMergePatch(J("{}"), "{not json");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, 400);
  std::string deep(kMaxPatchDepth + 5, '[');
  deep += std::string(kMaxPatchDepth + 5, ']');
  EXPECT_EQ(ApplyMergePatch(J("{}"), deep).error().code, 400);
}

TEST(PatchTest, JsonPatchRfc6902Examples) {
  struct Case {
    const char* doc;
    const char* patch;
    const char* result;
  };
  const Case cases[] = {
      {R"({"foo":"bar"})", R"([{"op":"add","path":"/baz","value":"qux"}])",
       R"({"foo":"bar","baz":"qux"})"},
      {R"({"foo":["bar","baz"]})", R"([{"op":"add","path":"/foo/1","value":"qux"}])",
       R"({"foo":["bar","qux","baz"]})"},
      {R"({"baz":"qux","foo":"bar"})", R"([{"op":"remove","path":"/baz"}])", R"({"foo":"bar"})"},
      {R"({"foo":["bar","qux","baz"]})", R"([{"op":"remove","path":"/foo/1"}])",
       R"({"foo":["bar","baz"]})"},
      {R"({"baz":"qux","foo":"bar"})", R"([{"op":"replace","path":"/baz","value":"boo"}])",
       R"({"baz":"boo","foo":"bar"})"},
      {R"({"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}})",
       R"([{"op":"move","from":"/foo/waldo","path":"/qux/thud"}])",
       R"({"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}})"},
      {R"({"foo":["all","grass","cows","eat"]})",
       R"([{"op":"move","from":"/foo/1","path":"/foo/3"}])",
       R"({"foo":["all","cows","eat","grass"]})"},
      {R"({"baz":"qux","foo":["a",2,"c"]})",
       R"([{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}])",
       R"({"baz":"qux","foo":["a",2,"c"]})"},
      {R"({"foo":"bar"})", R"([{"op":"add","path":"/child","value":{"grandchild":{}}}])",
       R"({"foo":"bar","child":{"grandchild":{}}})"},
      {R"({"foo":["bar"]})", R"([{"op":"add","path":"/foo/-","value":["abc","def"]}])",
       R"({"foo":["bar",["abc","def"]]})"},
      {R"({"/":9,"~1":10})", R"([{"op":"test","path":"/~01","value":10}])", R"({"/":9,"~1":10})"},
      {R"({"a":{"b":1}})", R"([{"op":"copy","from":"/a","path":"/c"}])",
       R"({"a":{"b":1},"c":{"b":1}})"},
      {R"({"a":1})", R"([{"op":"replace","path":"","value":[1]}])", R"([1])"},
      {R"({"a":1})", R"([{"op":"test","path":"/a","value":1.0}])", R"({"a":1})"},
  };
  for (const Case& c : cases) {
    auto r = ApplyJsonPatch(J(c.doc), c.patch);
    ASSERT_TRUE(r.has_value()) << c.patch << ": " << r.error().details->causes[0].message;
    EXPECT_EQ(*r, J(c.result)) << c.patch;
  }
}

TEST(PatchTest, JsonPatchFailuresAre422AndAtomic) {
  const Json doc = J(R"({"baz":"qux","foo":["a",2,"c"],"spec":{"x":1}})");
  struct Case {
    const char* patch;
    const char* why;
  };
  const Case cases[] = {
      {R"([{"op":"test","path":"/baz","value":"bar"}])", "testing value /baz failed"},
      {R"([{"op":"test","path":"/foo/1","value":"2"}])", "testing value /foo/1 failed"},
      {R"([{"op":"add","path":"/baz/bat","value":"qux"}])", "add operation does not apply"},
      {R"([{"op":"add","path":"/nope/bat","value":"qux"}])", "doc is missing path: /nope/bat"},
      {R"([{"op":"add","path":"/foo/4","value":1}])", "index out of bounds"},
      {R"([{"op":"add","path":"/foo/01","value":1}])", "index out of bounds"},
      {R"([{"op":"remove","path":"/spec/y"}])", "remove operation does not apply"},
      {R"([{"op":"replace","path":"/spec/y","value":1}])", "doc is missing key: /spec/y"},
      {R"([{"op":"move","from":"/spec","path":"/spec/x/y"}])", "into its own child"},
      {R"([{"op":"copy","from":"/none","path":"/x"}])", "missing from path"},
      {R"([{"op":"add","path":"spec","value":1}])", "invalid JSON pointer"},
      {R"([{"op":"replace","path":"/spec/x","value":2},{"op":"test","path":"/baz","value":"no"}])",
       "testing value /baz failed"},
  };
  for (const Case& c : cases) {
    auto r = ApplyJsonPatch(doc, c.patch);
    ASSERT_FALSE(r.has_value()) << c.patch;
    EXPECT_EQ(r.error().code, 422) << c.patch;
    EXPECT_EQ(r.error().reason, "Invalid");
    EXPECT_EQ(r.error().message, "the server rejected our request due to an error in our request");
    EXPECT_NE(r.error().details->causes[0].message.find(c.why), std::string::npos)
        << c.patch << ": " << r.error().details->causes[0].message;
  }
  // The target is untouched (the function works on a copy).
  EXPECT_EQ(doc["spec"]["x"], 1);
}

TEST(PatchTest, JsonPatchMalformedBodiesAre400) {
  const Json doc = J("{}");
  for (const char* bad : {"{", R"({"op":"add"})", R"([1])", R"([{"path":"/a"}])",
                          R"([{"op":"frob","path":"/a"}])", R"([{"op":"add","path":"/a"}])",
                          R"([{"op":"move","path":"/a"}])", R"([{"op":"add","path":1,"value":1}])"}) {
    auto r = ApplyJsonPatch(doc, bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().code, 400) << bad;
  }
  std::string many = "[";
  for (size_t i = 0; i <= kMaxJsonPatchOperations; ++i) {
    many += std::string(i ? "," : "") + R"({"op":"test","path":"","value":{}})";
  }
  many += "]";
  auto r = ApplyJsonPatch(doc, many);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, 413);
  EXPECT_EQ(r.error().message,
            "Request entity too large: The allowed maximum operations in a JSON patch is 10000, "
            "got 10001");
}

TEST(PatchTest, PatchTypes) {
  EXPECT_EQ(PatchTypeOf("application/merge-patch+json", "kueue.x-k8s.io").value(),
            PatchType::kMergePatch);
  EXPECT_EQ(PatchTypeOf("application/json-patch+json; charset=utf-8", "").value(),
            PatchType::kJsonPatch);
  EXPECT_EQ(PatchTypeOf("application/strategic-merge-patch+json", "batch").value(),
            PatchType::kStrategicMergePatch);
  EXPECT_EQ(PatchTypeOf("application/strategic-merge-patch+json", "").value(),
            PatchType::kStrategicMergePatch);
  auto smp = PatchTypeOf("application/strategic-merge-patch+json", "kueue.x-k8s.io");
  ASSERT_FALSE(smp.has_value());
  EXPECT_EQ(smp.error().code, 415);
  EXPECT_EQ(smp.error().reason, "UnsupportedMediaType");
  EXPECT_EQ(smp.error().message,
            "the body of the request was in an unknown format - accepted media types include: "
            "application/json-patch+json, application/merge-patch+json");
  EXPECT_EQ(PatchTypeOf("application/apply-patch+yaml", "kueue.x-k8s.io").error().code, 415);
  EXPECT_EQ(PatchTypeOf("application/apply-patch+yaml", "").error().message,
            "the body of the request was in an unknown format - accepted media types include: "
            "application/json-patch+json, application/merge-patch+json, "
            "application/strategic-merge-patch+json");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
