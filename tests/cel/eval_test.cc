// Evaluation of every operator, literal form and macro, through the public API: Compile,
// Activation, Program. Constant subexpressions are folded at compile time, so the runtime
// paths are also exercised through variables (the Fixture's t, f, zero, one, s, x).
#include <gtest/gtest.h>

#include <atomic>
#include <optional>
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

// Variables declared dyn, so the checker cannot fold or reject what the runtime must handle.
class EvalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"t", "f", "zero", "one", "s", "x"}) {
      ASSERT_TRUE(env_.AddVariable(name).has_value());
    }
    act_ = std::make_unique<Activation>(env_);
    ASSERT_TRUE(act_->Bind("t", Value::Bool(true)).ok());
    ASSERT_TRUE(act_->Bind("f", Value::Bool(false)).ok());
    ASSERT_TRUE(act_->Bind("zero", Value::Int(0)).ok());
    ASSERT_TRUE(act_->Bind("one", Value::Int(1)).ok());
    ASSERT_TRUE(act_->Bind("s", Value::String("a")).ok());
  }

  std::string Eval(std::string_view expr, const CompileOptions& options = {}) {
    return Outcome(expr, env_, *act_, options);
  }

  Environment env_;
  std::unique_ptr<Activation> act_;
};

TEST(LiteralTest, Integers) {
  EXPECT_EQ(Outcome("1"), "1");
  EXPECT_EQ(Outcome("-1"), "-1");
  EXPECT_EQ(Outcome("0x1F"), "31");
  EXPECT_EQ(Outcome("-0x10"), "-16");
  EXPECT_EQ(Outcome("9223372036854775807"), "9223372036854775807");
  EXPECT_EQ(Outcome("-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(Outcome("9223372036854775808"), "compile: ERROR: <input>:1:1: invalid int literal");
  EXPECT_EQ(Outcome("1u"), "1u");
  EXPECT_EQ(Outcome("0xFFu"), "255u");
  EXPECT_EQ(Outcome("18446744073709551615u"), "18446744073709551615u");
  EXPECT_EQ(Outcome("18446744073709551616u"), "compile: ERROR: <input>:1:1: invalid uint literal");
}

TEST(LiteralTest, Doubles) {
  EXPECT_EQ(Outcome("1.5"), "1.5");
  EXPECT_EQ(Outcome(".5"), "0.5");
  EXPECT_EQ(Outcome("1e3"), "1000");
  EXPECT_EQ(Outcome("1.5e-3"), "0.0015");
  EXPECT_EQ(Outcome("-2.5"), "-2.5");
  EXPECT_EQ(Outcome("1e6"), "1e+06");
  EXPECT_EQ(Outcome("2.0"), "2");
}

TEST(LiteralTest, StringsAndEscapes) {
  EXPECT_EQ(Outcome(R"("abc")"), R"("abc")");
  EXPECT_EQ(Outcome(R"('a\'b')"), R"("a'b")");
  EXPECT_EQ(Outcome(R"("\x41\u00e9\U0001F600\101")"),
            "\"A\xc3\xa9\xf0\x9f\x98\x80"
            "A\"");
  EXPECT_EQ(Outcome(R"("tab\there" == 'tab	here')"), "true");
  EXPECT_EQ(Outcome(R"("\a\b\f\n\r\t\v\\\"\'\`\?".size())"), "12");
  EXPECT_EQ(Outcome(R"(size(r"\n"))"), "2");
  EXPECT_EQ(Outcome(R"(R'\d+' == "\\d+")"), "true");
  EXPECT_EQ(Outcome("\"\"\"a\"b\nc\"\"\" == 'a\"b\\nc'"), "true");
  EXPECT_EQ(Outcome("'''it's'''"), R"("it's")");
  EXPECT_EQ(Outcome(R"("\q")"),
            "compile: ERROR: <input>:1:2: Syntax error: invalid escape sequence '\\q'");
  EXPECT_EQ(Outcome(R"("\uD800")"),
            "compile: ERROR: <input>:1:2: Syntax error: invalid unicode code point in escape "
            "sequence");
  EXPECT_EQ(Outcome("\"abc"),
            "compile: ERROR: <input>:1:1: Syntax error: unterminated string literal");
  EXPECT_EQ(Outcome("'a\nb'"),
            "compile: ERROR: <input>:1:1: Syntax error: unterminated string literal");
}

TEST(LiteralTest, Bytes) {
  EXPECT_EQ(Outcome(R"(b"abc")"), R"(b"abc")");
  EXPECT_EQ(Outcome(R"(b"\xff")"), R"(b"\xff")");
  EXPECT_EQ(Outcome(R"(size(b"\xff\377"))"), "2");
  EXPECT_EQ(Outcome(R"(b'\303\251' == bytes("é"))"), "true");
  EXPECT_EQ(Outcome(R"(rb"\x" == b"\\x")"), "true");
  EXPECT_EQ(Outcome(R"(b"\u00e9")"),
            "compile: ERROR: <input>:1:3: Syntax error: \\u escape is not allowed in bytes "
            "literals");
}

TEST(LiteralTest, NullBoolListMap) {
  EXPECT_EQ(Outcome("null"), "null");
  EXPECT_EQ(Outcome("true"), "true");
  EXPECT_EQ(Outcome("false"), "false");
  EXPECT_EQ(Outcome("[1, 2, 3]"), "[1, 2, 3]");
  EXPECT_EQ(Outcome("[1,]"), "[1]");
  EXPECT_EQ(Outcome("[]"), "[]");
  EXPECT_EQ(Outcome(R"({"a": 1, "b": [true]})"), R"({"a": 1, "b": [true]})");
  EXPECT_EQ(Outcome(R"({"a": 1,})"), R"({"a": 1})");
  EXPECT_EQ(Outcome("{}"), "{}");
  EXPECT_EQ(Outcome(R"({"a": 1, "a": 2})"), "error: Failed with repeated key");
  EXPECT_EQ(Outcome("{1: 'x', 1u: 'y'}"), "error: Failed with repeated key");
  EXPECT_EQ(Outcome("{[1]: 2}"),
            "compile: ERROR: <input>:1:2: unsupported map key type: list(int)");
  EXPECT_EQ(Outcome("{1: 'x'}[1u]"), R"("x")");
  EXPECT_EQ(Outcome("{1: 'x'}[1.0]"), R"("x")");
}

TEST(LiteralTest, CommentsAndWhitespace) {
  EXPECT_EQ(Outcome("1 + // one\n  2\t// two"), "3");
  EXPECT_EQ(Outcome("\r\n 1\f"), "1");
}

TEST_F(EvalTest, Arithmetic) {
  EXPECT_EQ(Eval("1 + 2 * 3"), "7");
  EXPECT_EQ(Eval("(1 + 2) * 3"), "9");
  EXPECT_EQ(Eval("7 / 2"), "3");
  EXPECT_EQ(Eval("-7 / 2"), "-3");
  EXPECT_EQ(Eval("7 % 3"), "1");
  EXPECT_EQ(Eval("-7 % 3"), "-1");
  EXPECT_EQ(Eval("10 - 2 - 3"), "5");
  EXPECT_EQ(Eval("2u * 3u + 1u"), "7u");
  EXPECT_EQ(Eval("7u / 2u"), "3u");
  EXPECT_EQ(Eval("7u % 2u"), "1u");
  EXPECT_EQ(Eval("1.5 + 1.0"), "2.5");
  EXPECT_EQ(Eval("1.5 * 2.0 - 0.5"), "2.5");
  EXPECT_EQ(Eval("1.0 / 4.0"), "0.25");
  EXPECT_EQ(Eval("1.0 / 0.0"), "+Inf");
  EXPECT_EQ(Eval("one + one * 3"), "4");
  EXPECT_EQ(Eval("-one"), "-1");
  EXPECT_EQ(Eval("--one"), "1");
  EXPECT_EQ(Eval("- -1"), "1");
  EXPECT_EQ(Eval("-(-1)"), "1");
  EXPECT_EQ(Eval("-2.5 * -2.0"), "5");
}

TEST_F(EvalTest, ArithmeticConcatenation) {
  EXPECT_EQ(Eval(R"("ab" + "cd")"), R"("abcd")");
  EXPECT_EQ(Eval(R"(s + "b" + s)"), R"("aba")");
  EXPECT_EQ(Eval(R"(b"ab" + b"c")"), R"(b"abc")");
  EXPECT_EQ(Eval("[1] + [2, 3]"), "[1, 2, 3]");
  EXPECT_EQ(Eval("[one] + []"), "[1]");
}

TEST_F(EvalTest, IntegerOverflowIsAnError) {
  EXPECT_EQ(Eval("9223372036854775807 + one"), "error: integer overflow");
  EXPECT_EQ(Eval("-9223372036854775808 - one"), "error: integer overflow");
  EXPECT_EQ(Eval("9223372036854775807 * 2"), "error: integer overflow");
  EXPECT_EQ(Eval("-(-9223372036854775808)"), "error: integer overflow");
  EXPECT_EQ(Eval("-9223372036854775808 / -1"), "error: integer overflow");
  EXPECT_EQ(Eval("-9223372036854775808 % -1"), "error: integer overflow");
  EXPECT_EQ(Eval("0u - 1u"), "error: unsigned integer overflow");
  EXPECT_EQ(Eval("18446744073709551615u + 1u"), "error: unsigned integer overflow");
  EXPECT_EQ(Eval("18446744073709551615u * 2u"), "error: unsigned integer overflow");
}

TEST_F(EvalTest, DivisionByZeroIsAnError) {
  EXPECT_EQ(Eval("1 / 0"), "error: division by zero");
  EXPECT_EQ(Eval("one / zero"), "error: division by zero");
  EXPECT_EQ(Eval("1 % zero"), "error: modulus by zero");
  EXPECT_EQ(Eval("1u / 0u"), "error: division by zero");
  EXPECT_EQ(Eval("1u % 0u"), "error: modulus by zero");
}

TEST_F(EvalTest, ArithmeticTypeErrors) {
  EXPECT_EQ(Eval(R"("a" + 1)"),
            "compile: ERROR: <input>:1:5: found no matching overload for "
            "'_+_' applied to '(string, int)'");
  EXPECT_EQ(Eval("1 + 1.0"),
            "compile: ERROR: <input>:1:3: found no matching overload for '_+_' "
            "applied to '(int, double)'");
  EXPECT_EQ(Eval("1.0 % 2.0"),
            "compile: ERROR: <input>:1:5: found no matching overload for "
            "'_%_' applied to '(double, double)'");
  EXPECT_EQ(Eval("-1u"),
            "compile: ERROR: <input>:1:1: found no matching overload for '-_' "
            "applied to '(uint)'");
  EXPECT_EQ(Eval("s + 1"), "error: no matching overload for '_+_' applied to '(string, int)'");
  EXPECT_EQ(Eval("one - s"), "error: no matching overload for '_-_' applied to '(int, string)'");
  EXPECT_EQ(Eval("-s"), "error: no matching overload for '-_' applied to '(string)'");
  EXPECT_EQ(Eval("one + 1.0"), "error: no matching overload for '_+_' applied to '(int, double)'");
}

TEST_F(EvalTest, Relations) {
  EXPECT_EQ(Eval("1 < 2"), "true");
  EXPECT_EQ(Eval("2 <= 2"), "true");
  EXPECT_EQ(Eval("3 > 2"), "true");
  EXPECT_EQ(Eval("2 >= 3"), "false");
  EXPECT_EQ(Eval(R"("a" < "b")"), "true");
  EXPECT_EQ(Eval(R"("b" <= "a")"), "false");
  EXPECT_EQ(Eval(R"(b"a" < b"b")"), "true");
  EXPECT_EQ(Eval("false < true"), "true");
  EXPECT_EQ(Eval("one > zero"), "true");
  EXPECT_EQ(Eval(R"(s >= "a")"), "true");
}

TEST_F(EvalTest, CrossTypeNumericComparisons) {
  EXPECT_EQ(Eval("1 < 2u"), "true");
  EXPECT_EQ(Eval("-1 < 0u"), "true");
  EXPECT_EQ(Eval("18446744073709551615u > 9223372036854775807"), "true");
  EXPECT_EQ(Eval("1 < 1.5"), "true");
  EXPECT_EQ(Eval("2u > 1.5"), "true");
  EXPECT_EQ(Eval("1.0 == 1"), "true");
  EXPECT_EQ(Eval("1u == 1"), "true");
  EXPECT_EQ(Eval("one == 1.0"), "true");
  EXPECT_EQ(Eval("one <= 1u"), "true");
  EXPECT_EQ(Eval("-1.0 < zero"), "true");
  EXPECT_EQ(Eval("0.0 / 0.0 < 1.0"), "error: NaN values cannot be ordered");
  EXPECT_EQ(Eval("0.0 / 0.0 == 0.0 / 0.0"), "false");
}

TEST_F(EvalTest, RelationTypeErrors) {
  EXPECT_EQ(Eval(R"("a" < 1)"),
            "compile: ERROR: <input>:1:5: found no matching overload for "
            "'_<_' applied to '(string, int)'");
  EXPECT_EQ(Eval("[1] < [2]"),
            "compile: ERROR: <input>:1:5: found no matching overload for "
            "'_<_' applied to '(list(int), list(int))'");
  EXPECT_EQ(Eval("s < 1"), "error: no matching overload for '_<_' applied to '(string, int)'");
}

TEST_F(EvalTest, Equality) {
  EXPECT_EQ(Eval("1 == 1"), "true");
  EXPECT_EQ(Eval("1 != 2"), "true");
  EXPECT_EQ(Eval(R"("a" == "a")"), "true");
  EXPECT_EQ(Eval("[1, 2] == [1, 2]"), "true");
  EXPECT_EQ(Eval("[1, 2] == [1.0, 2u]"), "true");
  EXPECT_EQ(Eval("[1, 2] == [1]"), "false");
  EXPECT_EQ(Eval(R"({"a": 1} == {"a": 1})"), "true");
  EXPECT_EQ(Eval(R"({"a": 1} == {"a": 2})"), "false");
  EXPECT_EQ(Eval(R"({"a": 1} != {"b": 1})"), "true");
  EXPECT_EQ(Eval("null == null"), "true");
  EXPECT_EQ(Eval("s == null"), "false");
  EXPECT_EQ(Eval("s == 1"), "false");
  EXPECT_EQ(Eval("s != 1"), "true");
  EXPECT_EQ(Eval(R"(b"a" == b"a")"), "true");
  EXPECT_EQ(Eval(R"("a" == 1)"),
            "compile: ERROR: <input>:1:5: found no matching overload for "
            "'_==_' applied to '(string, int)'");
}

TEST_F(EvalTest, In) {
  EXPECT_EQ(Eval("2 in [1, 2, 3]"), "true");
  EXPECT_EQ(Eval("4 in [1, 2, 3]"), "false");
  EXPECT_EQ(Eval("1u in [1]"), "true");
  EXPECT_EQ(Eval("one in [0, one]"), "true");
  EXPECT_EQ(Eval(R"("a" in {"a": 1})"), "true");
  EXPECT_EQ(Eval(R"("b" in {"a": 1})"), "false");
  EXPECT_EQ(Eval(R"(s in {"a": 1})"), "true");
  EXPECT_EQ(Eval(R"("a" in [1])"),
            "compile: ERROR: <input>:1:5: found no matching overload for "
            "'@in' applied to '(string, list(int))'");
  EXPECT_EQ(Eval("1 in one"), "error: no matching overload for '@in' applied to '(int, int)'");
}

TEST_F(EvalTest, LogicalOperators) {
  EXPECT_EQ(Eval("true && false"), "false");
  EXPECT_EQ(Eval("true && true"), "true");
  EXPECT_EQ(Eval("true || false"), "true");
  EXPECT_EQ(Eval("false || false"), "false");
  EXPECT_EQ(Eval("!true"), "false");
  EXPECT_EQ(Eval("!!true"), "true");
  EXPECT_EQ(Eval("!f"), "true");
  EXPECT_EQ(Eval("t && !f && (f || t)"), "true");
  EXPECT_EQ(Eval("!1"),
            "compile: ERROR: <input>:1:1: found no matching overload for '!_' "
            "applied to '(int)'");
  EXPECT_EQ(Eval("1 && true"),
            "compile: ERROR: <input>:1:3: found no matching overload for "
            "'_&&_' applied to '(int, bool)'");
}

// CEL's && and || are commutative: an error on either side loses to a deciding value on the
// other side, whichever side is evaluated first.
TEST_F(EvalTest, ShortCircuitAbsorbsErrors) {
  EXPECT_EQ(Eval("f && (1 / zero == 1)"), "false");
  EXPECT_EQ(Eval("(1 / zero == 1) && f"), "false");
  EXPECT_EQ(Eval("t || (1 / zero == 1)"), "true");
  EXPECT_EQ(Eval("(1 / zero == 1) || t"), "true");
  EXPECT_EQ(Eval("(1 / zero == 1) && t"), "error: division by zero");
  EXPECT_EQ(Eval("(1 / zero == 1) || f"), "error: division by zero");
  EXPECT_EQ(Eval("(1 / zero == 1) || (one % zero == 1)"), "error: division by zero");
  EXPECT_EQ(Eval("zero || t"), "true");
  EXPECT_EQ(Eval("zero && f"), "false");
  EXPECT_EQ(Eval("zero && t"), "error: no matching overload for '_&&_' applied to '(int, bool)'");
  EXPECT_EQ(Eval("f || s"), "error: no matching overload for '_||_' applied to '(bool, string)'");
  // Folded at compile time, same answers.
  EXPECT_EQ(Eval("false && (1 / 0 == 1)"), "false");
  EXPECT_EQ(Eval("(1 / 0 == 1) || true"), "true");
  EXPECT_EQ(Eval("(1 / 0 == 1) && true"), "error: division by zero");
  // Long chains are balanced trees; the answer does not depend on the shape.
  EXPECT_EQ(Eval("t && t && t && t && t && (1 / zero == 1) && t && f"), "false");
  EXPECT_EQ(Eval("f || f || f || f || (1 / zero == 1) || f || t"), "true");
}

TEST_F(EvalTest, Ternary) {
  EXPECT_EQ(Eval("true ? 1 : 2"), "1");
  EXPECT_EQ(Eval("false ? 1 : 2"), "2");
  EXPECT_EQ(Eval(R"(1 > 2 ? "a" : "b")"), R"("b")");
  EXPECT_EQ(Eval("t ? one : 1 / zero"), "1");
  EXPECT_EQ(Eval("f ? 1 / zero : one"), "1");
  EXPECT_EQ(Eval("t ? (f ? 1 : 2) : 3"), "2");
  EXPECT_EQ(Eval("f ? 1 : t ? 2 : 3"), "2");
  // As in cel-spec's grammar, the middle operand is not a full expression.
  EXPECT_EQ(Eval("t ? f ? 1 : 2 : 3"),
            "compile: ERROR: <input>:1:7: Syntax error: mismatched input '?' expecting ':'");
  EXPECT_EQ(Eval("1 / zero == 0 ? 1 : 2"), "error: division by zero");
  EXPECT_EQ(Eval("zero ? 1 : 2"), "error: no matching overload for '_?_:_' applied to '(int)'");
  EXPECT_EQ(Eval(R"(true ? 1 : "a")"),
            "compile: ERROR: <input>:1:6: found no matching overload "
            "for '_?_:_' applied to '(bool, int, string)'");
  EXPECT_EQ(Eval("1 ? 2 : 3"),
            "compile: ERROR: <input>:1:3: found no matching overload for "
            "'_?_:_' applied to '(int, int, int)'");
}

TEST_F(EvalTest, IndexAndSelect) {
  EXPECT_EQ(Eval("[1, 2, 3][1]"), "2");
  EXPECT_EQ(Eval("[1, 2, 3][one + 1]"), "3");
  EXPECT_EQ(Eval("[1, 2, 3][3]"), "error: index '3' out of range in list size '3'");
  EXPECT_EQ(Eval("[1][-1]"), "error: index '-1' out of range in list size '1'");
  EXPECT_EQ(Eval("[1, 2][dyn(1u)]"), "2");
  EXPECT_EQ(Eval("[1, 2][dyn(1.5)]"), "error: unsupported index value 1.5 in list");
  EXPECT_EQ(Eval("[1, 2][s]"), "error: unsupported index type 'string' in list");
  EXPECT_EQ(Eval(R"({"a": 1}["a"])"), "1");
  EXPECT_EQ(Eval(R"({"a": 1}["b"])"), "error: no such key: b");
  EXPECT_EQ(Eval(R"({"a": 1}[s])"), "1");
  EXPECT_EQ(Eval("{1: 2}[5]"), "error: no such key: 5");
  EXPECT_EQ(Eval(R"({"a": {"b": 5}}.a.b)"), "5");
  EXPECT_EQ(Eval(R"({"a": 1}.b)"), "error: no such key: b");
  EXPECT_EQ(Eval("[1, 2][1u]"),
            "compile: ERROR: <input>:1:7: found no matching overload for "
            "'_[_]' applied to '(list(int), uint)'");
  EXPECT_EQ(Eval(R"("abc"[0])"),
            "compile: ERROR: <input>:1:6: found no matching overload for "
            "'_[_]' applied to '(string, int)'");
  EXPECT_EQ(Eval("one[0]"), "error: no matching overload for '_[_]' applied to '(int, int)'");
  EXPECT_EQ(Eval("one.field"), "error: type 'int' does not support field selection");
  EXPECT_EQ(Eval("1.field"),
            "compile: ERROR: <input>:1:2: type 'int' does not support field selection");
}

TEST_F(EvalTest, Has) {
  EXPECT_EQ(Eval(R"(has({"a": 1}.a))"), "true");
  EXPECT_EQ(Eval(R"(has({"a": 1}.b))"), "false");
  EXPECT_EQ(Eval(R"(has({"a": {"b": 1}}.a.b))"), "true");
  EXPECT_EQ(Eval(R"(has({"a": {"b": 1}}.a.c))"), "false");
  EXPECT_EQ(Eval(R"(has({"a": dyn(1)}.b.c))"), "error: no such key: b");
  EXPECT_EQ(Eval(R"(has({"a": 1}.b.c))"),
            "compile: ERROR: <input>:1:15: type 'int' does not support field selection");
  EXPECT_EQ(Eval("has(one.a)"), "error: type 'int' does not support field selection");
  EXPECT_EQ(Eval("has(x)"), "compile: ERROR: <input>:1:5: invalid argument to has() macro");
  EXPECT_EQ(Eval(R"(has({"a": 1}["a"]))"),
            "compile: ERROR: <input>:1:13: invalid argument to has() macro");
}

TEST_F(EvalTest, AllAndExists) {
  EXPECT_EQ(Eval("[1, 2, 3].all(x, x > 0)"), "true");
  EXPECT_EQ(Eval("[1, 2, 3].all(x, x > 1)"), "false");
  EXPECT_EQ(Eval("[].all(x, x > 0)"), "true");
  EXPECT_EQ(Eval("[1, 2, 3].exists(x, x == 2)"), "true");
  EXPECT_EQ(Eval("[1, 2, 3].exists(x, x > 5)"), "false");
  EXPECT_EQ(Eval("[].exists(x, true)"), "false");
  // Folded at compile time (nothing depends on the iteration variable).
  EXPECT_EQ(Eval("[1, 2].exists(x, true)"), "true");
  EXPECT_EQ(Eval("[1, 2].map(x, 5)"), "[5, 5]");
  EXPECT_EQ(Eval(R"({"a": 1, "b": 2}.all(k, k in ["a", "b"]))"), "true");
  EXPECT_EQ(Eval(R"({"a": 1, "b": 2}.exists(k, k == "b"))"), "true");
}

TEST_F(EvalTest, ExistsOne) {
  EXPECT_EQ(Eval("[1, 2, 3].exists_one(x, x > 2)"), "true");
  EXPECT_EQ(Eval("[1, 2, 3].exists_one(x, x > 1)"), "false");
  EXPECT_EQ(Eval("[1, 2, 3].exists_one(x, x > 5)"), "false");
  EXPECT_EQ(Eval(R"({"a": 1}.exists_one(k, k == "a"))"), "true");
}

TEST_F(EvalTest, MapAndFilter) {
  EXPECT_EQ(Eval("[1, 2, 3].map(x, x * 2)"), "[2, 4, 6]");
  EXPECT_EQ(Eval("[1, 2, 3].map(x, x > 1, x * 10)"), "[20, 30]");
  EXPECT_EQ(Eval("[1, 2, 3].filter(x, x % 2 == 1)"), "[1, 3]");
  EXPECT_EQ(Eval("[].map(x, x)"), "[]");
  EXPECT_EQ(Eval(R"({"a": 1, "b": 2}.map(k, k + "!"))"), R"(["a!", "b!"])");
  EXPECT_EQ(Eval(R"({"a": 1, "b": 2}.filter(k, k == "b"))"), R"(["b"])");
  EXPECT_EQ(Eval("[1, 2, 3].map(x, x * 2).filter(y, y > 2).size()"), "2");
}

TEST_F(EvalTest, MacrosAbsorbOrPropagateErrors) {
  // all: a false anywhere wins over errors; exists: a true anywhere wins.
  EXPECT_EQ(Eval("[0, 1].all(x, 1 / x > 0)"), "error: division by zero");
  EXPECT_EQ(Eval("[0, 1].all(x, 1 / x < 0)"), "false");
  EXPECT_EQ(Eval("[0, 1].exists(x, 1 / x == 1)"), "true");
  EXPECT_EQ(Eval("[0].exists(x, 1 / x == 1)"), "error: division by zero");
  // The others propagate the first error.
  EXPECT_EQ(Eval("[0, 1].exists_one(x, 1 / x == 1)"), "error: division by zero");
  EXPECT_EQ(Eval("[1, 0].map(x, 1 / x)"), "error: division by zero");
  EXPECT_EQ(Eval("[1, 0].filter(x, 1 / x == 1)"), "error: division by zero");
  EXPECT_EQ(Eval("[s].all(x, x)"),
            "error: no matching overload for '_&&_' applied to '(bool, string)'");
  EXPECT_EQ(Eval("[s].filter(x, x)"),
            "error: no matching overload for '_?_:_' applied to '(string)'");
}

TEST_F(EvalTest, NestedAndShadowedComprehensions) {
  EXPECT_EQ(Eval("[1, 2].all(x, [3, 4].exists(y, y > x))"), "true");
  EXPECT_EQ(Eval("[1, 2].map(x, [10, 20].map(y, x * y))"), "[[10, 20], [20, 40]]");
  EXPECT_EQ(Eval("[1].all(x, [2].all(x, x == 2))"), "true");
  EXPECT_EQ(Eval("[1].all(x, [2].all(y, x == 1))"), "true");
  // Outside the comprehension, x is the (unbound) environment variable again.
  EXPECT_EQ(Eval("[1].map(x, x) + [x]"), "error: no such attribute(s): x");
}

TEST_F(EvalTest, MacroCompileErrors) {
  EXPECT_EQ(Eval("[1].all(x, x)"),
            "compile: ERROR: <input>:1:12: found no matching overload "
            "for '_&&_' applied to '(bool, int)'");
  EXPECT_EQ(Eval("[1].all(1, true)"),
            "compile: ERROR: <input>:1:9: argument must be a simple name");
  EXPECT_EQ(Eval("[1].map(1, 1)"), "compile: ERROR: <input>:1:9: argument is not an identifier");
  EXPECT_EQ(Eval("1.all(x, true)"),
            "compile: ERROR: <input>:1:1: expression of type 'int' cannot be range of a "
            "comprehension (must be list, map, or dynamic)");
  EXPECT_EQ(Eval("one.all(x, true)"),
            "error: expression of type 'int' cannot be range of a comprehension (must be list, "
            "map, or dynamic)");
  // Not macros when the arity does not fit: plain (unknown) functions.
  EXPECT_EQ(Eval("[1].all(x)"),
            "compile: ERROR: <input>:1:8: undeclared reference to 'all' (in container '')");
}

TEST_F(EvalTest, CelBind) {
  EXPECT_EQ(Eval("cel.bind(a, 2, a * a)"), "4");
  EXPECT_EQ(Eval(R"(cel.bind(a, "x", cel.bind(b, a + a, b + a)))"), R"("xxx")");
  EXPECT_EQ(Eval("cel.bind(a, [1, 2], a.map(x, x + 1))"), "[2, 3]");
  EXPECT_EQ(Eval("cel.bind(x, 1, [2].all(x, x == 2) && x == 1)"), "true");
  EXPECT_EQ(Eval("cel.bind(a, one, a + a)"), "2");
  // The initializer's error shows only where the variable is used.
  EXPECT_EQ(Eval("cel.bind(a, 1 / zero, 5)"), "5");
  EXPECT_EQ(Eval("cel.bind(a, 1 / zero, a + 1)"), "error: division by zero");
  EXPECT_EQ(Eval("cel.bind(a, 1 / zero, t || a == 1)"), "true");
  EXPECT_EQ(Eval("cel.bind(1, 2, 3)"),
            "compile: ERROR: <input>:1:10: cel.bind() variable names must be simple identifiers");
  EXPECT_EQ(Eval("cel.bind(a, 1, a) + a"),
            "compile: ERROR: <input>:1:21: undeclared reference to 'a' (in container '')");
}

TEST_F(EvalTest, Variables) {
  EXPECT_EQ(Eval("x"), "error: no such attribute(s): x");
  EXPECT_EQ(Eval("f || x"), "error: no such attribute(s): x");
  EXPECT_EQ(Eval("t || x"), "true");
  EXPECT_EQ(Eval("y"),
            "compile: ERROR: <input>:1:1: undeclared reference to 'y' (in container '')");
  act_->Bind(*env_.FindVariable("x"), Value::List({Value::Int(1), Value::Int(2)}));
  EXPECT_EQ(Eval("x.size() == 2 && x[1] == 2"), "true");
  act_->Clear();
  EXPECT_EQ(Eval("t"), "error: no such attribute(s): t");
}

TEST_F(EvalTest, TypeValues) {
  EXPECT_EQ(Eval("type(1) == int"), "true");
  EXPECT_EQ(Eval(R"(type("a") == string)"), "true");
  EXPECT_EQ(Eval("type([]) == list && type({}) == map"), "true");
  EXPECT_EQ(Eval("type(1u) == uint && type(1.0) == double && type(true) == bool"), "true");
  EXPECT_EQ(Eval("type(null) == null_type && type(b'') == bytes"), "true");
  EXPECT_EQ(Eval("type(int) == type"), "true");
  EXPECT_EQ(Eval("type(one) != string"), "true");
  EXPECT_EQ(Eval("int"), "int");
}

TEST_F(EvalTest, CostLimit) {
  CompileOptions limited;
  limited.cost_limit = 50;
  const std::string ten = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]";
  std::string nested = ten + ".map(x, " + ten + ".map(y, x * y)).size()";
  EXPECT_EQ(Eval(nested), "10");
  EXPECT_EQ(Eval(nested, limited), "error: operation cancelled: actual cost limit exceeded");
  // Doubling strings through cel.bind is charged by the bytes built.
  std::string doubling =
      R"(cel.bind(a, "xxxxxxxxxx", cel.bind(b, a + a, cel.bind(c, b + b, c + c))).size())";
  EXPECT_EQ(Eval(doubling), "80");
  EXPECT_EQ(Eval(doubling, limited), "error: operation cancelled: actual cost limit exceeded");

  core::Result<Program> p = Compile(nested, env_, limited);
  ASSERT_TRUE(p.has_value());
  core::Result<Value> r = p->Evaluate(*act_);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), core::ErrorCode::kResourceExhausted);
}

TEST_F(EvalTest, EvaluateReportsRuntimeErrorsAsInvalidArgument) {
  core::Result<Program> p = Compile("one / zero", env_);
  ASSERT_TRUE(p.has_value());
  core::Result<Value> r = p->Evaluate(*act_);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().message(), "division by zero");

  core::Result<Program> q = Compile("one + 1", env_);
  ASSERT_TRUE(q.has_value());
  core::Result<Value> v = q->Evaluate(*act_);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->int_value(), 2);
}

TEST_F(EvalTest, EvaluateBool) {
  core::Result<Program> yes = Compile("one == 1", env_);
  ASSERT_TRUE(yes.has_value());
  core::Result<bool> b = EvaluateBool(*yes, *act_);
  ASSERT_TRUE(b.has_value());
  EXPECT_TRUE(*b);

  core::Result<Program> num = Compile("one", env_);
  ASSERT_TRUE(num.has_value());
  core::Result<bool> nb = EvaluateBool(*num, *act_);
  ASSERT_FALSE(nb.has_value());
  EXPECT_EQ(nb.error().message(), "CEL result of type int could not be converted to bool");

  core::Result<Program> err = Compile("one / zero == 1", env_);
  ASSERT_TRUE(err.has_value());
  core::Result<bool> eb = EvaluateBool(*err, *act_);
  ASSERT_FALSE(eb.has_value());
  EXPECT_EQ(eb.error().message(), "division by zero");
}

// A host map that counts lookups: evaluation reads host data in place, without copying it
// into a CEL map first.
class CountingMap final : public MapValue {
 public:
  size_t Size() const override { return 2; }
  std::optional<Value> Find(const Value& key) const override {
    ++finds_;
    if (key.kind() != ValueKind::kString) return std::nullopt;
    if (key.string_value() == "cpu") return Value::Int(8);
    if (key.string_value() == "arch") return Value::StringView(arch_);
    return std::nullopt;
  }
  Value KeyAt(size_t index) const override {
    return Value::StringView(index == 0 ? "cpu" : "arch");
  }
  int finds() const { return finds_.load(); }

 private:
  std::string arch_ = "arm64";
  mutable std::atomic<int> finds_{0};
};

class HostList final : public ListValue {
 public:
  size_t Size() const override { return 3; }
  Value At(size_t index) const override { return Value::Int(static_cast<int64_t>(index) * 10); }
};

TEST_F(EvalTest, HostProvidedMapsAndLists) {
  CountingMap node;
  HostList list;
  act_->Bind(*env_.FindVariable("x"),
             Value::Map({{Value::String("node"), Value::MapView(&node)},
                         {Value::String("list"), Value::ListView(&list)}}));
  EXPECT_EQ(Eval(R"(x.node.cpu >= 4 && x.node.arch == "arm64")"), "true");
  EXPECT_EQ(node.finds(), 2);
  EXPECT_EQ(Eval(R"("cpu" in x.node && !("gpu" in x.node))"), "true");
  EXPECT_EQ(Eval("x.node.gpu"), "error: no such key: gpu");
  EXPECT_EQ(Eval(R"(x.node.all(k, k in ["cpu", "arch"]))"), "true");
  EXPECT_EQ(Eval("x.list.map(v, v + 1)"), "[1, 11, 21]");
  EXPECT_EQ(Eval("20 in x.list && x.list[2] == 20 && size(x.list) == 3"), "true");
  EXPECT_EQ(Eval(R"(x.node == {"cpu": 8, "arch": "arm64"})"), "true");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cel
