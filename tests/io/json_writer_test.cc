// io::JsonWriter: the layout berth's own JSON reports rely on (berth inventory -o json).
#include "io/json_writer.h"

#include <gtest/gtest.h>

#include <limits>
#include <sstream>

namespace berth::io {
namespace BERTH_UNITY_ID {

TEST(JsonWriterTest, IndentsOneMemberPerLineInWrittenOrder) {
  std::ostringstream out;
  JsonWriter w(out);
  w.BeginObject();
  w.Field("name", "n1");
  w.Field("count", int64_t{3});
  w.FieldBool("shared", false);
  w.Key("none");
  w.Null();
  w.Key("items");
  w.BeginArray();
  w.String("a");
  w.BeginObject();
  w.Field("z", int64_t{-1});
  w.EndObject();
  w.EndArray();
  w.Key("empty");
  w.BeginArray();
  w.EndArray();
  w.Key("nothing");
  w.BeginObject();
  w.EndObject();
  w.EndObject();
  w.Finish();
  EXPECT_EQ(out.str(),
            "{\n"
            "  \"name\": \"n1\",\n"
            "  \"count\": 3,\n"
            "  \"shared\": false,\n"
            "  \"none\": null,\n"
            "  \"items\": [\n"
            "    \"a\",\n"
            "    {\n"
            "      \"z\": -1\n"
            "    }\n"
            "  ],\n"
            "  \"empty\": [],\n"
            "  \"nothing\": {}\n"
            "}\n");
}

TEST(JsonWriterTest, EscapesWhatJsonRequires) {
  std::ostringstream out;
  JsonWriter w(out);
  w.String("q\"b\\n\nt\t\x01\x1f é");
  EXPECT_EQ(out.str(), "\"q\\\"b\\\\n\\nt\\t\\u0001\\u001f é\"");
}

TEST(JsonWriterTest, DoublesKeepThreeDecimalsAtMost) {
  std::ostringstream out;
  JsonWriter w(out);
  w.BeginArray();
  w.Double(56.0625);
  w.Double(0.5);
  w.Double(12);
  w.Double(-0.0001);
  w.Double(std::numeric_limits<double>::infinity());
  w.EndArray();
  EXPECT_EQ(out.str(), "[\n  56.062,\n  0.5,\n  12,\n  0,\n  null\n]");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
