// Compile errors: syntax, resolution and type errors carry cel-go's message and a 1-based
// line:column in code points; hostile input (deep nesting, huge size, bad UTF-8) is refused
// without exhausting the stack.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cel/activation.h"
#include "cel/cel_test_support.h"
#include "cel/environment.h"
#include "cel/program.h"
#include "cel/type.h"
#include "cel/value.h"

namespace berth::cel {
namespace BERTH_UNITY_ID {

using testing::Outcome;

std::string CompileError(std::string_view expr, const Environment& env,
                         const CompileOptions& options = {}) {
  core::Result<Program> p = Compile(expr, env, options);
  if (p.has_value()) return "<compiled>";
  EXPECT_EQ(p.error().code(), core::ErrorCode::kInvalidArgument);
  return p.error().message();
}

std::string CompileError(std::string_view expr, const CompileOptions& options = {}) {
  Environment env;
  return CompileError(expr, env, options);
}

TEST(CompileTest, SyntaxErrorsCarryColumns) {
  EXPECT_EQ(CompileError("1 +"),
            "ERROR: <input>:1:4: Syntax error: mismatched input '<EOF>' expecting an expression");
  EXPECT_EQ(CompileError("(1 + 2"),
            "ERROR: <input>:1:7: Syntax error: mismatched input '<EOF>' expecting ')'");
  EXPECT_EQ(CompileError("1 + )"),
            "ERROR: <input>:1:5: Syntax error: mismatched input ')' expecting an expression");
  EXPECT_EQ(CompileError("1 2"),
            "ERROR: <input>:1:3: Syntax error: mismatched input '2' "
            "expecting <EOF>");
  EXPECT_EQ(CompileError("a = 1"),
            "ERROR: <input>:1:3: Syntax error: token recognition error at: '='");
  EXPECT_EQ(CompileError("1 # 2"),
            "ERROR: <input>:1:3: Syntax error: token recognition error at: '#'");
  EXPECT_EQ(CompileError("a."),
            "ERROR: <input>:1:3: Syntax error: mismatched input '<EOF>' expecting IDENTIFIER");
  EXPECT_EQ(CompileError("[1, 2"),
            "ERROR: <input>:1:6: Syntax error: mismatched input '<EOF>' expecting ']'");
  EXPECT_EQ(CompileError("{1: 2"),
            "ERROR: <input>:1:6: Syntax error: mismatched input '<EOF>' expecting '}'");
  EXPECT_EQ(CompileError("true ? 1"),
            "ERROR: <input>:1:9: Syntax error: mismatched input '<EOF>' expecting ':'");
  EXPECT_EQ(CompileError(""),
            "ERROR: <input>:1:1: Syntax error: mismatched input '<EOF>' expecting an expression");
}

TEST(CompileTest, ColumnsCountCodePointsAndLines) {
  EXPECT_EQ(CompileError("'héllo' + y"),
            "ERROR: <input>:1:11: undeclared reference to 'y' (in container '')");
  EXPECT_EQ(CompileError("1 +\n  2 +\n  zz"),
            "ERROR: <input>:3:3: undeclared reference to 'zz' (in container '')");
}

TEST(CompileTest, ResolutionErrors) {
  Environment env;
  ASSERT_TRUE(env.AddVariable("x", Type::Int()).has_value());
  EXPECT_EQ(CompileError("x + y", env),
            "ERROR: <input>:1:5: undeclared reference to 'y' (in container '')");
  EXPECT_EQ(CompileError("nosuch(1)", env),
            "ERROR: <input>:1:7: undeclared reference to 'nosuch' (in container '')");
  EXPECT_EQ(CompileError("x.nosuch()", env),
            "ERROR: <input>:1:9: undeclared reference to 'nosuch' (in container '')");
  EXPECT_EQ(CompileError("while", env), "ERROR: <input>:1:1: reserved identifier: while");
  EXPECT_EQ(CompileError("x.size()", env),
            "ERROR: <input>:1:7: found no matching overload for 'size' applied to 'int.()'");
  EXPECT_EQ(CompileError("x + 'a'", env),
            "ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'");
}

TEST(CompileTest, ObjectFieldsAreChecked) {
  Environment env;
  ASSERT_TRUE(env.AddVariable("obj", Type::Object("example.Obj", {{"name", Type::String()},
                                                                  {"count", Type::Int()}}))
                  .has_value());
  EXPECT_EQ(CompileError("obj.nosuch == 1", env), "ERROR: <input>:1:4: undefined field 'nosuch'");
  EXPECT_EQ(CompileError("has(obj.nosuch)", env), "ERROR: <input>:1:8: undefined field 'nosuch'");
  EXPECT_EQ(CompileError("obj.name + 1", env),
            "ERROR: <input>:1:10: found no matching overload for '_+_' applied to '(string, int)'");
  EXPECT_EQ(CompileError("obj.count.x", env),
            "ERROR: <input>:1:10: type 'int' does not support field selection");
  EXPECT_EQ(CompileError("obj['name']", env),
            "ERROR: <input>:1:4: found no matching overload for '_[_]' applied to "
            "'(example.Obj, string)'");
  core::Result<Program> ok = Compile("obj.count > 1 && obj.name.startsWith('a')", env);
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(ok->result_type().kind(), TypeKind::kBool);
}

TEST(CompileTest, ResultTypes) {
  Environment env;
  ASSERT_TRUE(env.AddVariable("m", Type::Map(Type::String(), Type::Quantity())).has_value());
  ASSERT_TRUE(env.AddVariable("d").has_value());
  auto type_of = [&](std::string_view expr) {
    core::Result<Program> p = Compile(expr, env);
    return p.has_value() ? p->result_type().ToString() : p.error().message();
  };
  EXPECT_EQ(type_of("1 + 2"), "int");
  EXPECT_EQ(type_of("m.a"), "kubernetes.Quantity");
  EXPECT_EQ(type_of("m['a'].compareTo(quantity('1'))"), "int");
  EXPECT_EQ(type_of("d.x"), "dyn");
  EXPECT_EQ(type_of("d + 1"), "int");
  EXPECT_EQ(type_of("[1, 2]"), "list(int)");
  EXPECT_EQ(type_of("[1, 'a']"), "list(dyn)");
  EXPECT_EQ(type_of("{'a': 1.5}"), "map(string, double)");
  EXPECT_EQ(type_of("[1, 2].map(x, string(x))"), "list(string)");
  EXPECT_EQ(type_of("m.filter(k, k != '')"), "list(string)");
  EXPECT_EQ(type_of("d.all(x, x)"), "bool");
  EXPECT_EQ(type_of("cel.bind(v, 'a', v + v)"), "string");
  EXPECT_EQ(type_of("semver('1.0.0')"), "kubernetes.Semver");
  EXPECT_EQ(type_of("d ? 1 : 2"), "int");
  EXPECT_EQ(type_of("d.compareTo(d)"), "int");
}

TEST(CompileTest, RecursionLimit) {
  std::string deep(300, '(');
  deep += "1";
  deep += std::string(300, ')');
  std::string message = CompileError(deep);
  EXPECT_NE(message.find("expression recursion limit exceeded: 250"), std::string::npos) << message;
  // A long flat chain is a deep tree too...
  std::string chain = "1";
  for (int i = 0; i < 300; ++i) chain += " + 1";
  EXPECT_NE(CompileError(chain).find("expression recursion limit exceeded: 250"),
            std::string::npos);
  // ...except && and ||, which are balanced.
  std::string ands = "true";
  for (int i = 0; i < 2000; ++i) ands += " && true";
  EXPECT_EQ(Outcome(ands), "true");
  // Deeply nested lists, unary operators and member chains.
  std::string lists = std::string(5000, '[') + std::string(5000, ']');
  EXPECT_NE(CompileError(lists).find("recursion limit"), std::string::npos);
  std::string nots = std::string(50000, '!') + "true";  // a loop, not recursion
  EXPECT_EQ(Outcome(nots), "true");
  std::string members = "{'a': 1}";
  for (int i = 0; i < 400; ++i) members += ".a";
  EXPECT_NE(CompileError(members).find("recursion limit"), std::string::npos);
  CompileOptions shallow;
  shallow.max_recursion_depth = 3;
  EXPECT_NE(CompileError("[[[[1]]]]", shallow).find("recursion limit exceeded: 3"),
            std::string::npos);
}

TEST(CompileTest, SizeAndEncodingLimits) {
  CompileOptions small;
  small.max_expression_code_points = 5;
  EXPECT_EQ(CompileError("123456", small),
            "ERROR: <input>: expression code point size exceeds limit: size: 6, limit 5");
  EXPECT_EQ(Outcome("'éé'", small), R"("éé")");  // 4 code points, 6 bytes
  EXPECT_EQ(CompileError("'\xff'"), "ERROR: <input>: expression is not valid UTF-8");
}

TEST(EnvironmentTest, DeclaresVariablesInSlots) {
  Environment env;
  EXPECT_EQ(env.AddVariable("a").value(), 0u);
  EXPECT_EQ(env.AddVariable("b", Type::Int()).value(), 1u);
  EXPECT_EQ(env.FindVariable("b"), 1u);
  EXPECT_FALSE(env.FindVariable("c").has_value());
  EXPECT_EQ(env.variable(1).type.kind(), TypeKind::kInt);
  EXPECT_FALSE(env.AddVariable("a").has_value());
  EXPECT_FALSE(env.AddVariable("1a").has_value());
  EXPECT_FALSE(env.AddVariable("in").has_value());
  EXPECT_FALSE(env.AddVariable("").has_value());
  EXPECT_EQ(env.variable_count(), 2u);
}

TEST(TypeTest, FormatsLikeCelGo) {
  EXPECT_EQ(Type::List(Type::Map(Type::String(), Type::Dyn())).ToString(),
            "list(map(string, dyn))");
  EXPECT_EQ(Type::Null().ToString(), "null");
  EXPECT_EQ(Type::Quantity().ToString(), "kubernetes.Quantity");
  EXPECT_TRUE(Type::List(Type::Int()) == Type::List(Type::Int()));
  EXPECT_FALSE(Type::List(Type::Int()) == Type::List(Type::String()));
  Type obj = Type::Object("o", {{"f", Type::Bool()}});
  ASSERT_NE(obj.FindField("f"), nullptr);
  EXPECT_EQ(obj.FindField("f")->type.kind(), TypeKind::kBool);
  EXPECT_EQ(obj.FindField("g"), nullptr);
  EXPECT_EQ(Type::Int().elem().kind(), TypeKind::kDyn);
}

// Random token soup (seeded, so the run is the same every time): whatever compiles must
// evaluate to a value or an error value, and nothing may crash. Run under the sanitizers.
TEST(CompileTest, SurvivesRandomInput) {
  const std::vector<std::string> tokens = {"1",          "0",         "2u",
                                           "1.5",        "-",         "'a'",
                                           "b'x'",       "true",      "false",
                                           "null",       "x",         "y",
                                           "(",          ")",         "[",
                                           "]",          "{",         "}",
                                           ":",          ",",         ".",
                                           "size",       "all",       "exists",
                                           "exists_one", "map",       "filter",
                                           "+",          "*",         "/",
                                           "%",          "<",         ">=",
                                           "==",         "!=",        "&&",
                                           "||",         "!",         "?",
                                           "in",         "has",       "cel",
                                           "bind",       "quantity",  "semver",
                                           "'1Gi'",      "'1.2.3'",   "matches",
                                           "'[a-z]+'",   "compareTo", "int",
                                           "string",     "dyn",       "type",
                                           "'",          "\"",        "9223372036854775807"};
  Environment env;
  ASSERT_TRUE(env.AddVariable("x").has_value());
  Activation act(env);
  act.Bind(0, Value::Map({{Value::String("a"), Value::List({Value::Int(1), Value::Int(0)})},
                          {Value::String("b"), Value::String("z")}}));
  std::mt19937 rng(20240611);
  int compiled = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string expr;
    int n = 1 + static_cast<int>(rng() % 12);
    for (int k = 0; k < n; ++k) expr += tokens[rng() % tokens.size()] + " ";
    core::Result<Program> p = Compile(expr, env);
    if (!p.has_value()) {
      EXPECT_EQ(p.error().message().rfind("ERROR: <input>", 0), 0u) << expr;
      continue;
    }
    ++compiled;
    Value v = p->EvaluateValue(act);
    if (v.is_error()) {
      EXPECT_FALSE(v.error_message().empty()) << expr;
    }
  }
  EXPECT_GT(compiled, 50);
}

// Random well-formed expressions (seeded): most compile, so this drives the evaluator
// through operator, macro and function combinations the hand-written cases do not list.
std::string RandomExpr(std::mt19937& rng, int depth) {
  auto pick = [&](std::initializer_list<std::string> options) {
    auto it = options.begin();
    std::advance(it, rng() % options.size());
    return *it;
  };
  if (depth <= 0 || rng() % 4 == 0) {
    return pick({"1", "0", "-3", "2u", "1.5", "'a'", "b'x'", "true", "false", "null", "x.a", "x.b",
                 "x['a'][0]", "v", "[1, 2]", "{'k': 1}", "quantity('1Gi')", "semver('1.2.3')",
                 "x"});
  }
  std::string a = RandomExpr(rng, depth - 1);
  std::string b = RandomExpr(rng, depth - 1);
  switch (rng() % 12) {
    case 0:
      return "(" + a + pick({" + ", " - ", " * ", " / ", " % "}) + b + ")";
    case 1:
      return "(" + a + pick({" < ", " <= ", " == ", " != ", " > ", " in "}) + b + ")";
    case 2:
      return "(" + a + pick({" && ", " || "}) + b + ")";
    case 3:
      return pick({"!", "-"}) + "(" + a + ")";
    case 4:
      return "(" + a + " ? " + b + " : " + RandomExpr(rng, depth - 1) + ")";
    case 5:
      return "[" + a + ", " + b + "]";
    case 6:
      return "{" + a + ": " + b + "}";
    case 7:
      return "(" + a + ")." + pick({"all", "exists", "exists_one", "filter"}) + "(v, " + b + ")";
    case 8:
      return "(" + a + ").map(v, " + b + ")";
    case 9:
      return pick({"size", "int", "uint", "double", "string", "type", "dyn", "quantity",
                   "isSemver"}) +
             "(" + a + ")";
    case 10:
      return "(" + a + ")." +
             pick({"size()", "compareTo(" + b + ")", "startsWith(" + b + ")", "matches(" + b + ")",
                   "isGreaterThan(" + b + ")", "add(" + b + ")", "major()"});
    default:
      return "cel.bind(v, " + a + ", " + b + ")";
  }
}

TEST(CompileTest, SurvivesRandomExpressions) {
  Environment env;
  ASSERT_TRUE(env.AddVariable("x").has_value());
  Activation act(env);
  act.Bind(0, Value::Map({{Value::String("a"), Value::List({Value::Int(1), Value::Int(0)})},
                          {Value::String("b"), Value::String("z")}}));
  CompileOptions options;
  options.cost_limit = 100000;
  std::mt19937 rng(7);
  int compiled = 0;
  int values = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string expr = RandomExpr(rng, 1 + static_cast<int>(rng() % 5));
    core::Result<Program> p = Compile(expr, env, options);
    if (!p.has_value()) {
      EXPECT_EQ(p.error().message().rfind("ERROR: <input>", 0), 0u) << expr;
      continue;
    }
    ++compiled;
    Value v = p->EvaluateValue(act);
    if (!v.is_error()) ++values;
    EXPECT_FALSE(v.DebugString().empty()) << expr;
  }
  EXPECT_GT(compiled, 1000);
  EXPECT_GT(values, 300);
}

// The compile-time estimate is an upper bound of the runtime charge when the bound values
// are within max_variable_size: each expression, run with its own estimate as the runtime
// budget, never runs out (random expressions, and comprehension-heavy ones).
uint64_t EstimateOf(const std::string& expr, const Environment& env) {
  CompileOptions zero;
  zero.estimated_cost_limit = 0;
  zero.max_variable_size = 2;
  core::Result<Program> p = Compile(expr, env, zero);
  if (p.has_value()) return 0;
  const std::string& m = p.error().message();
  const size_t at = m.find("estimated cost ");
  if (at == std::string::npos) return UINT64_MAX;  // another compile error
  return std::stoull(m.substr(at + 15));
}

TEST(CompileTest, EstimatedCostBoundsTheRuntimeCost) {
  Environment env;
  ASSERT_TRUE(env.AddVariable("x").has_value());
  Activation act(env);
  act.Bind(0, Value::Map({{Value::String("a"), Value::List({Value::Int(1), Value::Int(0)})},
                          {Value::String("b"), Value::String("z")}}));
  std::vector<std::string> exprs = {
      "x.all(k, x.all(j, x['a'].exists(v, v > 0)))",
      "x['a'].map(v, x['a'].map(w, [v, w])).map(l, l.size()).size()",
      "(x['a'] + x['a']).map(v, x['b'] + x['b']).size()",
      "cel.bind(s, x['b'] + x['b'], cel.bind(t, s + s, t + t)).size()",
      "[[1, 2], [3, 4, 5]].map(l, l.map(v, v * 2)).size()",
      "[1, 2, 3].filter(v, v > 1).map(v, [1, 2].map(w, w)).size()",
      "x.map(k, x['a'].filter(v, true)).exists_one(l, l.size() == 2)",
  };
  std::mt19937 rng(11);
  for (int i = 0; i < 2000; ++i) exprs.push_back(RandomExpr(rng, 1 + static_cast<int>(rng() % 6)));
  int checked = 0;
  for (const std::string& expr : exprs) {
    const uint64_t estimate = EstimateOf(expr, env);
    if (estimate == UINT64_MAX) continue;
    CompileOptions budget;
    budget.cost_limit = estimate;
    core::Result<Program> p = Compile(expr, env, budget);
    ASSERT_TRUE(p.has_value()) << expr;
    core::Result<Value> v = p->Evaluate(act);
    if (!v.has_value()) {
      EXPECT_NE(v.error().code(), core::ErrorCode::kResourceExhausted)
          << expr << " estimated " << estimate;
    }
    ++checked;
  }
  EXPECT_GT(checked, 500);
}

TEST(CompileTest, EstimatedCostLimit) {
  Environment env;
  ASSERT_TRUE(env.AddVariable("x").has_value());
  CompileOptions options;
  options.estimated_cost_limit = 1000;
  options.max_variable_size = 10;
  const std::string ten = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]";
  // 10 x (1 + 10 x 1) = 110.
  EXPECT_EQ(CompileError(ten + ".map(a, " + ten + ".map(b, b)).size() > 0", env, options),
            "<compiled>");
  // 10 x (1 + 10 x (1 + 10)) = 1110.
  EXPECT_EQ(CompileError(ten + ".map(a, " + ten + ".map(b, " + ten + ".map(c, c))).size() > 0",
                         env, options),
            "Forbidden: too complex, exceeds cost limit (estimated cost 1110, limit 1000)");
  // Variables count as max_variable_size elements: 10 x (1 + 10 x (1 + 10)).
  EXPECT_EQ(CompileError("x.all(a, x.all(b, x.all(c, true)))", env, options),
            "Forbidden: too complex, exceeds cost limit (estimated cost 1110, limit 1000)");
  // The + of strings is charged by the bytes it builds: 2 + 4 + ... + 1024 > 1000.
  std::string doubling = "cel.bind(s0, 'x', ";
  std::string closing = ")";
  for (int i = 1; i <= 10; ++i) {
    doubling += "cel.bind(s" + std::to_string(i) + ", s" + std::to_string(i - 1) + " + s" +
                std::to_string(i - 1) + ", ";
    closing += ")";
  }
  doubling += "s10.size() > 0" + closing;
  EXPECT_EQ(CompileError(doubling, env, options),
            "Forbidden: too complex, exceeds cost limit (estimated cost 2046, limit 1000)");
  // Without an estimated limit, the same text compiles (the runtime limit still applies).
  EXPECT_EQ(CompileError(doubling, env, CompileOptions{}), "<compiled>");
  // Type errors come before the cost.
  EXPECT_EQ(CompileError("x.all(a, x.all(b, x.all(c, 1 + 'a')))", env, options).rfind(
                "ERROR: <input>", 0),
            0u);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cel
