// Host functions (Environment::AddFunction): declaration rules, overload narrowing at
// compile time, receiver and global calls, errors, and that calls are never folded.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "cel/activation.h"
#include "cel/cel_test_support.h"
#include "cel/environment.h"
#include "cel/program.h"
#include "cel/value.h"

namespace berth::cel {
namespace BERTH_UNITY_ID {

using testing::Outcome;

// obj.tags(prefix): the list [prefix + "-a", prefix + "-b"], or an error for prefix "bad".
// Counts its calls.
class TagsFunction final : public HostFunction {
 public:
  Value Call(std::span<const Value> args) const override {
    ++calls;
    std::string prefix(args[1].string_value());
    if (prefix == "bad") return Value::Error("no tags for bad");
    return Value::List({Value::String(prefix + "-a"), Value::String(prefix + "-b")});
  }
  mutable std::atomic<int> calls{0};
};

// twice(n): 2n.
class TwiceFunction final : public HostFunction {
 public:
  Value Call(std::span<const Value> args) const override {
    return Value::Int(2 * args[0].int_value());
  }
};

FunctionDecl Decl(std::string name, bool receiver, std::vector<Type> params, Type result,
                  const HostFunction* impl) {
  FunctionDecl d;
  d.name = std::move(name);
  d.receiver = receiver;
  d.params = std::move(params);
  d.result = std::move(result);
  d.impl = impl;
  return d;
}

class HostFunctionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(env_.AddVariable("obj").has_value());
    ASSERT_TRUE(env_.AddVariable("n").has_value());
    ASSERT_TRUE(env_.AddFunction(Decl("tags", true, {Type::Dyn(), Type::String()},
                                      Type::List(Type::String()), &tags_))
                    .ok());
    ASSERT_TRUE(env_.AddFunction(Decl("twice", false, {Type::Int()}, Type::Int(), &twice_)).ok());
    act_ = std::make_unique<Activation>(env_);
    ASSERT_TRUE(act_->Bind("obj", Value::Map({{Value::String("k"), Value::Int(1)}})).ok());
    ASSERT_TRUE(act_->Bind("n", Value::Int(21)).ok());
  }

  std::string Eval(std::string_view expr) { return Outcome(expr, env_, *act_); }

  TagsFunction tags_;
  TwiceFunction twice_;
  Environment env_;
  std::unique_ptr<Activation> act_;
};

TEST_F(HostFunctionTest, ReceiverCallFeedsTheMacros) {
  EXPECT_EQ(Eval("obj.tags('x')"), "[\"x-a\", \"x-b\"]");
  EXPECT_EQ(Eval("obj.tags('x').filter(t, t.endsWith('-b'))"), "[\"x-b\"]");
  EXPECT_EQ(Eval("obj.tags('x').all(t, t.startsWith('x'))"), "true");
  EXPECT_EQ(Eval("obj.tags('x').exists(t, t == 'x-c')"), "false");
  EXPECT_EQ(Eval("size(obj.tags('y'))"), "2");
}

TEST_F(HostFunctionTest, GlobalCall) {
  EXPECT_EQ(Eval("twice(n) == 42"), "true");
  EXPECT_EQ(Eval("twice(twice(n))"), "84");
}

TEST_F(HostFunctionTest, StaticTypesNarrowAndReject) {
  // Wrong style, arity or argument type: cel-go's checker message.
  EXPECT_EQ(Eval("tags(obj, 'x')"),
            "compile: ERROR: <input>:1:5: found no matching overload for 'tags' applied to "
            "'(dyn, string)'");
  EXPECT_EQ(Eval("obj.tags(1)"),
            "compile: ERROR: <input>:1:9: found no matching overload for 'tags' applied to "
            "'dyn.(int)'");
  EXPECT_EQ(Eval("twice('a')"),
            "compile: ERROR: <input>:1:6: found no matching overload for 'twice' applied to "
            "'(string)'");
  // The declared result type is checked downstream.
  EXPECT_EQ(Eval("obj.tags('x') + 1"),
            "compile: ERROR: <input>:1:15: found no matching overload for '_+_' applied to "
            "'(list(string), int)'");
  // Unknown functions stay undeclared.
  EXPECT_EQ(Eval("obj.nosuch('x')"),
            "compile: ERROR: <input>:1:11: undeclared reference to 'nosuch' (in container '')");
}

TEST_F(HostFunctionTest, RuntimeKindsAreCheckedAndErrorsPropagate) {
  ASSERT_TRUE(act_->Bind("n", Value::String("not an int")).ok());
  EXPECT_EQ(Eval("twice(n)"), "error: no matching overload for 'twice' applied to '(string)'");
  EXPECT_EQ(Eval("obj.tags('bad')"), "error: no tags for bad");
  // An error value stops a predicate the way any runtime error does.
  EXPECT_EQ(Eval("obj.tags('bad').all(t, true)"), "error: no tags for bad");
  EXPECT_EQ(Eval("false && obj.tags('bad').all(t, true)"), "false");
  // An argument error reaches neither the host nor the result.
  int before = tags_.calls;
  EXPECT_EQ(Eval("obj.tags(string(1/0))"), "error: division by zero");
  EXPECT_EQ(tags_.calls, before);
}

TEST_F(HostFunctionTest, CallsAreNeverFolded) {
  auto program = Compile("['c'].all(o, o.tags('z').size() == 2)", env_);
  ASSERT_TRUE(program.has_value()) << program.error().message();
  int before = tags_.calls;
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(EvaluateBool(*program, *act_).value());
  EXPECT_EQ(tags_.calls, before + 3);
}

TEST(EnvironmentFunctionTest, DeclarationsAreValidated) {
  TwiceFunction twice;
  Environment env;
  auto add = [&](std::string name, bool receiver, std::vector<Type> params,
                 const HostFunction* impl) {
    core::Status s =
        env.AddFunction(Decl(std::move(name), receiver, std::move(params), Type::Int(), impl));
    return s.ok() ? std::string("ok") : s.error().message();
  };
  EXPECT_EQ(add("twice", false, {Type::Int()}, &twice), "ok");
  EXPECT_EQ(add("twice", false, {Type::Dyn()}, &twice),
            "function \"twice\" is already declared with 1 parameters");
  // Another style or arity is another overload.
  EXPECT_EQ(add("twice", true, {Type::Int()}, &twice), "ok");
  EXPECT_EQ(add("twice", false, {Type::Int(), Type::Int()}, &twice), "ok");
  EXPECT_EQ(add("size", false, {Type::Int()}, &twice), "function \"size\" is a built-in function");
  EXPECT_EQ(add("filter", true, {Type::Dyn(), Type::Dyn()}, &twice),
            "function name \"filter\" is a CEL macro");
  EXPECT_EQ(add("in", false, {Type::Int()}, &twice),
            "function name \"in\" is not a CEL identifier");
  EXPECT_EQ(add("9lives", false, {Type::Int()}, &twice),
            "function name \"9lives\" is not a CEL identifier");
  EXPECT_EQ(add("noimpl", false, {Type::Int()}, nullptr),
            "function \"noimpl\" has no implementation");
  EXPECT_EQ(add("noargs", false, {}, &twice), "function \"noargs\" must take 1 to 3 parameters");
  EXPECT_EQ(env.functions().size(), 3u);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cel
