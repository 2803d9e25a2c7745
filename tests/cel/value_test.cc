// Value: construction, ownership, maps with CEL key semantics, rendering; Activation.
#include "cel/value.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "cel/activation.h"
#include "cel/environment.h"
#include "cel/semver.h"
#include "core/quantity.h"

namespace berth::cel {
namespace BERTH_UNITY_ID {

// "<prefix><i>"; appending keeps GCC 12's -Wstringop-overflow false positive on
// "k" + std::to_string(i) at -O3 out of the build.
std::string Numbered(std::string prefix, int i) {
  prefix += std::to_string(i);
  return prefix;
}

TEST(ValueTest, Scalars) {
  EXPECT_TRUE(Value().is_null());
  EXPECT_EQ(Value::Null().kind(), ValueKind::kNull);
  EXPECT_TRUE(Value::Bool(true).bool_value());
  EXPECT_EQ(Value::Int(-3).int_value(), -3);
  EXPECT_EQ(Value::Uint(3).uint_value(), 3u);
  EXPECT_EQ(Value::Double(2.5).double_value(), 2.5);
  EXPECT_EQ(Value::Type("int").type_name(), "int");
  Value e = Value::Error("boom");
  EXPECT_TRUE(e.is_error());
  EXPECT_EQ(e.error_message(), "boom");
}

TEST(ValueTest, OwnedAndBorrowedText) {
  std::string host = "gpu.nvidia.com";
  Value borrowed = Value::StringView(host);
  EXPECT_FALSE(borrowed.owns_payload());
  EXPECT_EQ(borrowed.string_value().data(), host.data());  // no copy

  Value owned = Value::String(host);
  EXPECT_TRUE(owned.owns_payload());
  host[0] = 'G';
  EXPECT_EQ(owned.string_value(), "gpu.nvidia.com");
  Value copy = owned;  // shares the payload
  EXPECT_EQ(copy.string_value().data(), owned.string_value().data());

  EXPECT_EQ(Value::Bytes("\x01").bytes_value(), "\x01");
  EXPECT_FALSE(Value::BytesView("x").owns_payload());
  EXPECT_TRUE(Value::Int(1).owns_payload());
}

TEST(ValueTest, QuantityAndSemver) {
  core::Quantity q = core::Quantity::Parse("40Gi").value();
  Value view = Value::QuantityView(&q);
  EXPECT_EQ(&view.quantity_value(), &q);
  Value owned = Value::Quantity(q);
  EXPECT_EQ(owned.quantity_value(), q);
  EXPECT_EQ(owned.DebugString(), R"(quantity("40Gi"))");
  Value v = Value::Semver(Semver::Parse("1.2.3-rc.1").value());
  EXPECT_EQ(v.semver_value().minor(), 2u);
  EXPECT_EQ(v.DebugString(), R"(semver("1.2.3-rc.1"))");
}

TEST(ValueTest, ListsAndMaps) {
  Value list = Value::List({Value::Int(1), Value::String("a")});
  ASSERT_EQ(list.list_value().Size(), 2u);
  EXPECT_EQ(list.list_value().At(1).string_value(), "a");
  EXPECT_EQ(list.DebugString(), R"([1, "a"])");

  Value map = Value::Map({{Value::String("a"), Value::Int(1)}, {Value::Int(2), Value::Bool(true)}});
  const MapValue& m = map.map_value();
  EXPECT_EQ(m.Size(), 2u);
  EXPECT_EQ(m.Find(Value::String("a"))->int_value(), 1);
  EXPECT_FALSE(m.Find(Value::String("b")).has_value());
  // Numeric keys compare by value across int, uint and double.
  EXPECT_TRUE(m.Contains(Value::Uint(2)));
  EXPECT_TRUE(m.Contains(Value::Double(2.0)));
  EXPECT_FALSE(m.Contains(Value::Double(2.5)));
  EXPECT_EQ(m.KeyAt(0).string_value(), "a");
  EXPECT_EQ(map.DebugString(), R"({"a": 1, 2: true})");
}

TEST(ValueTest, MapKeyRules) {
  EXPECT_EQ(Value::Map({{Value::Double(1.0), Value::Int(1)}}).error_message(),
            "unsupported key type");
  EXPECT_EQ(
      Value::Map({{Value::Int(1), Value::Int(1)}, {Value::Uint(1), Value::Int(2)}}).error_message(),
      "Failed with repeated key");
  EXPECT_EQ(Value::Map({{Value::Bool(true), Value::Int(1)}, {Value::Bool(false), Value::Int(2)}})
                .map_value()
                .Size(),
            2u);
}

// Past the linear-scan threshold the map adds a hash index; lookups must agree with it.
TEST(ValueTest, LargeMapsUseTheIndex) {
  std::vector<std::pair<Value, Value>> entries;
  for (int i = 0; i < 100; ++i) {
    entries.emplace_back(Value::String(Numbered("k", i)), Value::Int(i));
    entries.emplace_back(Value::Int(i), Value::Int(-i));
  }
  Value map = Value::Map(std::move(entries));
  ASSERT_FALSE(map.is_error());
  const MapValue& m = map.map_value();
  EXPECT_EQ(m.Size(), 200u);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(m.Find(Value::String(Numbered("k", i)))->int_value(), i);
    EXPECT_EQ(m.Find(Value::Uint(static_cast<uint64_t>(i)))->int_value(), -i);
  }
  EXPECT_FALSE(m.Contains(Value::String("k100")));
  EXPECT_FALSE(m.Contains(Value::Uint(18446744073709551615u)));
  std::vector<std::pair<Value, Value>> dup;
  for (int i = 0; i < 20; ++i) dup.emplace_back(Value::Int(i % 15), Value::Null());
  EXPECT_TRUE(Value::Map(std::move(dup)).is_error());
}

TEST(ValueTest, DebugStrings) {
  EXPECT_EQ(Value::Null().DebugString(), "null");
  EXPECT_EQ(Value::Uint(7).DebugString(), "7u");
  EXPECT_EQ(Value::Double(0.1).DebugString(), "0.1");
  EXPECT_EQ(Value::Double(1e100).DebugString(), "1e+100");
  EXPECT_EQ(Value::Double(-0.0).DebugString(), "-0");
  EXPECT_EQ(Value::String("a\"b\n").DebugString(), R"("a\"b\n")");
  EXPECT_EQ(Value::Bytes("a\xff").DebugString(), R"(b"a\xff")");
  EXPECT_EQ(Value::Error("x").DebugString(), R"(error("x"))");
  EXPECT_STREQ(ValueKindName(ValueKind::kQuantity), "kubernetes.Quantity");
  EXPECT_STREQ(ValueKindName(ValueKind::kNull), "null_type");
}

TEST(ActivationTest, BindsBySlotAndName) {
  Environment env;
  size_t a = env.AddVariable("a").value();
  size_t b = env.AddVariable("b").value();
  Activation act(env);
  EXPECT_EQ(act.Find(a), nullptr);
  act.Bind(a, Value::Int(1));
  ASSERT_NE(act.Find(a), nullptr);
  EXPECT_EQ(act.Find(a)->int_value(), 1);
  EXPECT_TRUE(act.Bind("b", Value::String("x")).ok());
  EXPECT_EQ(act.Find(b)->string_value(), "x");
  core::Status missing = act.Bind("c", Value::Int(0));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code(), core::ErrorCode::kNotFound);
  act.Clear();
  EXPECT_EQ(act.Find(a), nullptr);
  EXPECT_EQ(&act.environment(), &env);
}

TEST(ActivationTest, ManyVariablesSpillToTheHeap) {
  Environment env;
  std::vector<size_t> slots;
  for (int i = 0; i < 10; ++i) slots.push_back(env.AddVariable(Numbered("v", i)).value());
  Activation act(env);
  for (size_t s : slots) act.Bind(s, Value::Int(static_cast<int64_t>(s)));
  for (size_t s : slots) EXPECT_EQ(act.Find(s)->int_value(), static_cast<int64_t>(s));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cel
