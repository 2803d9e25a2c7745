// The built-in functions: size, the string functions, matches (RE2), conversions, and the
// Kubernetes quantity and semver libraries (cases from upstream's quantity_test.go and the
// semverlib documentation). Constant calls are folded at compile time; the Runtime tests
// call through dyn variables to exercise run-time overload selection.
#include <gtest/gtest.h>

#include <string>

#include "cel/activation.h"
#include "cel/cel_test_support.h"
#include "cel/environment.h"
#include "cel/program.h"
#include "cel/semver.h"
#include "cel/value.h"
#include "core/quantity.h"

namespace berth::cel {
namespace BERTH_UNITY_ID {

using testing::Outcome;

TEST(SizeTest, AllKindsBothStyles) {
  EXPECT_EQ(Outcome(R"(size("héllo"))"), "5");  // code points, not bytes
  EXPECT_EQ(Outcome(R"("héllo".size())"), "5");
  EXPECT_EQ(Outcome(R"(size(b"\xc3\xa9"))"), "2");
  EXPECT_EQ(Outcome(R"(b"ab".size())"), "2");
  EXPECT_EQ(Outcome("size([1, 2])"), "2");
  EXPECT_EQ(Outcome("[1, 2, 3].size()"), "3");
  EXPECT_EQ(Outcome(R"(size({"a": 1}))"), "1");
  EXPECT_EQ(Outcome(R"({"a": 1, "b": 2}.size())"), "2");
  EXPECT_EQ(Outcome("size(1)"),
            "compile: ERROR: <input>:1:5: found no matching overload for 'size' "
            "applied to '(int)'");
  EXPECT_EQ(Outcome("1.size()"),
            "compile: ERROR: <input>:1:7: found no matching overload for "
            "'size' applied to 'int.()'");
  EXPECT_EQ(Outcome("size()"),
            "compile: ERROR: <input>:1:5: found no matching overload for 'size' "
            "applied to '()'");
}

TEST(StringFunctionsTest, ContainsStartsEnds) {
  EXPECT_EQ(Outcome(R"("hello".contains("ell"))"), "true");
  EXPECT_EQ(Outcome(R"("hello".contains("xyz"))"), "false");
  EXPECT_EQ(Outcome(R"("hello".startsWith("he"))"), "true");
  EXPECT_EQ(Outcome(R"("hello".startsWith("lo"))"), "false");
  EXPECT_EQ(Outcome(R"("hello".endsWith("lo"))"), "true");
  EXPECT_EQ(Outcome(R"("hello".endsWith(""))"), "true");
  EXPECT_EQ(Outcome(R"(contains("a", "b"))"),
            "compile: ERROR: <input>:1:9: found no matching overload for 'contains' applied to "
            "'(string, string)'");
  EXPECT_EQ(Outcome(R"("a".contains(1))"),
            "compile: ERROR: <input>:1:13: found no matching "
            "overload for 'contains' applied to 'string.(int)'");
}

TEST(StringFunctionsTest, Matches) {
  EXPECT_EQ(Outcome(R"("abc123".matches("[0-9]+"))"), "true");  // unanchored
  EXPECT_EQ(Outcome(R"("abc".matches("^[0-9]+$"))"), "false");
  EXPECT_EQ(Outcome(R"(matches("abc", "b"))"), "true");
  EXPECT_EQ(Outcome(R"cel("NVIDIA H100 80GB HBM3".matches("^NVIDIA (A100|H100)"))cel"), "true");
  EXPECT_EQ(Outcome(R"("a".matches("("))"),
            "compile: ERROR: <input>:1:13: error parsing regexp: missing ): (");
}

TEST(StringFunctionsTest, LowerUpperAscii) {
  EXPECT_EQ(Outcome(R"("HeLLo É".lowerAscii())"), R"("hello É")");
  EXPECT_EQ(Outcome(R"("HeLLo é".upperAscii())"), R"("HELLO é")");
}

TEST(ConversionTest, Int) {
  EXPECT_EQ(Outcome(R"(int("42"))"), "42");
  EXPECT_EQ(Outcome(R"(int("-42"))"), "-42");
  EXPECT_EQ(Outcome(R"(int("+7"))"), "7");
  EXPECT_EQ(Outcome(R"(int("4x"))"), "error: type conversion error from 'string' to 'int'");
  EXPECT_EQ(Outcome(R"(int("9223372036854775808"))"),
            "error: type conversion error from 'string' to 'int'");
  EXPECT_EQ(Outcome("int(3.9)"), "3");
  EXPECT_EQ(Outcome("int(-3.9)"), "-3");
  EXPECT_EQ(Outcome("int(1e19)"), "error: integer overflow");
  EXPECT_EQ(Outcome("int(5u)"), "5");
  EXPECT_EQ(Outcome("int(18446744073709551615u)"), "error: integer overflow");
  EXPECT_EQ(Outcome("int(7)"), "7");
  EXPECT_EQ(Outcome("int(true)"),
            "compile: ERROR: <input>:1:4: found no matching overload for 'int' "
            "applied to '(bool)'");
}

TEST(ConversionTest, UintDouble) {
  EXPECT_EQ(Outcome("uint(-1)"), "error: unsigned integer overflow");
  EXPECT_EQ(Outcome("uint(3.5)"), "3u");
  EXPECT_EQ(Outcome("uint(-0.5)"), "error: unsigned integer overflow");
  EXPECT_EQ(Outcome(R"(uint("7"))"), "7u");
  EXPECT_EQ(Outcome(R"(uint("-7"))"), "error: type conversion error from 'string' to 'uint'");
  EXPECT_EQ(Outcome("uint(4)"), "4u");
  EXPECT_EQ(Outcome("double(1)"), "1");
  EXPECT_EQ(Outcome("double(3u)"), "3");
  EXPECT_EQ(Outcome(R"(double("2.5"))"), "2.5");
  EXPECT_EQ(Outcome(R"(double("-1e3"))"), "-1000");
  EXPECT_EQ(Outcome(R"(double("inf"))"), "+Inf");
  EXPECT_EQ(Outcome(R"(double("x"))"), "error: type conversion error from 'string' to 'double'");
}

TEST(ConversionTest, StringBoolBytesDyn) {
  EXPECT_EQ(Outcome("string(1)"), R"("1")");
  EXPECT_EQ(Outcome("string(2u)"), R"("2")");
  EXPECT_EQ(Outcome("string(1.5)"), R"("1.5")");
  EXPECT_EQ(Outcome("string(1e21)"), R"("1e+21")");
  EXPECT_EQ(Outcome("string(0.00001)"), R"("1e-05")");
  EXPECT_EQ(Outcome("string(123456.0)"), R"("123456")");
  EXPECT_EQ(Outcome("string(true)"), R"("true")");
  EXPECT_EQ(Outcome(R"(string("s"))"), R"("s")");
  EXPECT_EQ(Outcome(R"(string(b"abc"))"), R"("abc")");
  EXPECT_EQ(Outcome(R"(string(b"\xff"))"),
            "error: invalid UTF-8 in bytes, cannot convert to string");
  EXPECT_EQ(Outcome(R"(bool("true") && bool("T") && !bool("0"))"), "true");
  EXPECT_EQ(Outcome(R"(bool("yes"))"), "error: type conversion error from 'string' to 'bool'");
  EXPECT_EQ(Outcome(R"(bytes("é"))"), R"(b"\xc3\xa9")");
  EXPECT_EQ(Outcome("dyn(1) + 1"), "2");
  EXPECT_EQ(Outcome(R"(dyn("a") + 1)"),
            "error: no matching overload for '_+_' applied to '(string, int)'");
}

TEST(QuantityLibraryTest, ParseAndValidate) {
  EXPECT_EQ(Outcome(R"(quantity("12Mi") == quantity("12582912"))"), "true");
  EXPECT_EQ(Outcome(R"(quantity("12Mi"))"), R"(quantity("12Mi"))");
  EXPECT_EQ(Outcome(R"(quantity("10Mo"))").rfind("error: invalid quantity \"10Mo\"", 0), 0u);
  EXPECT_EQ(Outcome(R"(isQuantity("20"))"), "true");
  EXPECT_EQ(Outcome(R"(isQuantity("20M"))"), "true");
  EXPECT_EQ(Outcome(R"(isQuantity("20Mi"))"), "true");
  EXPECT_EQ(Outcome(R"(isQuantity("20Mo"))"), "false");
  EXPECT_EQ(Outcome(R"(isQuantity("10Mm"))"), "false");
  EXPECT_EQ(Outcome(R"(isQuantity("200K"))"), "false");
  EXPECT_EQ(Outcome("isQuantity([1, 2, 3])"),
            "compile: ERROR: <input>:1:11: found no matching "
            "overload for 'isQuantity' applied to '(list(int))'");
}

TEST(QuantityLibraryTest, Comparisons) {
  EXPECT_EQ(Outcome(R"(quantity("200M") == quantity("200M"))"), "true");
  EXPECT_EQ(
      Outcome(R"(quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M"))"),
      "true");
  EXPECT_EQ(Outcome(R"(quantity("200M") == quantity("0.3G"))"), "false");
  EXPECT_EQ(Outcome(R"(quantity("50M").isLessThan(quantity("50Mi")))"), "true");
  EXPECT_EQ(Outcome(R"(quantity("100M").isLessThan(quantity("50M")))"), "false");
  EXPECT_EQ(Outcome(R"(quantity("50Mi").isGreaterThan(quantity("50M")))"), "true");
  EXPECT_EQ(Outcome(R"(quantity("50M").isGreaterThan(quantity("100M")))"), "false");
  EXPECT_EQ(Outcome(R"(quantity("200M").compareTo(quantity("0.2G")))"), "0");
  EXPECT_EQ(Outcome(R"(quantity("50M").compareTo(quantity("50Mi")))"), "-1");
  EXPECT_EQ(Outcome(R"(quantity("50Mi").compareTo(quantity("50M")))"), "1");
  EXPECT_EQ(Outcome(R"(quantity("1Ki").compareTo(1))"),
            "compile: ERROR: <input>:1:26: found no matching overload for 'compareTo' applied "
            "to 'kubernetes.Quantity.(int)'");
  EXPECT_EQ(Outcome(R"(quantity("1") < quantity("2"))"),
            "compile: ERROR: <input>:1:15: found no matching overload for '_<_' applied to "
            "'(kubernetes.Quantity, kubernetes.Quantity)'");
}

TEST(QuantityLibraryTest, Arithmetic) {
  EXPECT_EQ(Outcome(R"(quantity("50k").add(quantity("20")) == quantity("50.02k"))"), "true");
  EXPECT_EQ(Outcome(R"(quantity("50k").add(20).isLessThan(quantity("50020")))"), "false");
  EXPECT_EQ(Outcome(R"(quantity("50k").sub(quantity("20")) == quantity("49.98k"))"), "true");
  EXPECT_EQ(Outcome(R"(quantity("50k").sub(20) == quantity("49980"))"), "true");
  EXPECT_EQ(Outcome(R"(quantity("50k").mul(2) == quantity("100000"))"), "true");
  EXPECT_EQ(Outcome(R"(quantity("50k").add(20).sub(quantity("100k")).asInteger())"), "-49980");
  EXPECT_EQ(Outcome(R"(quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger())"),
            "20");
}

TEST(QuantityLibraryTest, Conversions) {
  EXPECT_EQ(Outcome(R"(quantity("50k").asInteger())"), "50000");
  EXPECT_EQ(Outcome(R"(quantity("1.5").asInteger())"), "error: cannot convert value to integer");
  EXPECT_EQ(Outcome(R"(quantity("10E").asInteger())"), "error: cannot convert value to integer");
  EXPECT_EQ(Outcome(R"(quantity("10E").isInteger())"), "false");
  EXPECT_EQ(Outcome(R"(quantity("1.5").isInteger())"), "false");
  EXPECT_EQ(Outcome(R"(quantity("50").isInteger())"), "true");
  EXPECT_EQ(Outcome(R"(quantity("50.703k").asApproximateFloat())"), "50703");
  EXPECT_EQ(Outcome(R"(quantity("500m").asApproximateFloat())"), "0.5");
  EXPECT_EQ(Outcome(R"(quantity("-5").sign())"), "-1");
  EXPECT_EQ(Outcome(R"(sign(quantity("0")))"), "0");
  EXPECT_EQ(Outcome(R"(quantity("2").sign())"), "1");
}

TEST(SemverLibraryTest, PartsAndComparisons) {
  EXPECT_EQ(Outcome(R"(semver("1.2.3").major())"), "1");
  EXPECT_EQ(Outcome(R"(semver("1.2.3").minor())"), "2");
  EXPECT_EQ(Outcome(R"(semver("1.2.3").patch())"), "3");
  EXPECT_EQ(Outcome(R"(semver("1.2.3").compareTo(semver("1.2.3")))"), "0");
  EXPECT_EQ(Outcome(R"(semver("1.2.3").compareTo(semver("2.0.0")))"), "-1");
  EXPECT_EQ(Outcome(R"(semver("1.2.3").compareTo(semver("0.1.2")))"), "1");
  EXPECT_EQ(Outcome(R"(semver("1.0.0-alpha").isLessThan(semver("1.0.0")))"), "true");
  EXPECT_EQ(Outcome(R"(semver("1.2.3").isGreaterThan(semver("1.2.0")))"), "true");
  EXPECT_EQ(Outcome(R"(semver("1.2.3").isGreaterThan(semver("1.2.3")))"), "false");
  EXPECT_EQ(Outcome(R"(semver("1.2.3+build.1") == semver("1.2.3"))"), "true");
  EXPECT_EQ(Outcome(R"(semver("1.2.3") != semver("1.2.4"))"), "true");
  EXPECT_EQ(Outcome(R"(semver("1.2.3"))"), R"(semver("1.2.3"))");
}

TEST(SemverLibraryTest, ValidationAndNormalization) {
  EXPECT_EQ(Outcome(R"(isSemver("1.0.0"))"), "true");
  EXPECT_EQ(Outcome(R"(isSemver("hello"))"), "false");
  EXPECT_EQ(Outcome(R"(isSemver("v1.0"))"), "false");
  EXPECT_EQ(Outcome(R"(isSemver("v1.0", true))"), "true");
  EXPECT_EQ(Outcome(R"(isSemver("v1.0", false))"), "false");
  EXPECT_EQ(Outcome(R"(semver("v1.0.0", true) == semver("1.0.0"))"), "true");
  EXPECT_EQ(Outcome(R"(semver("1.0", true) == semver("1.0.0"))"), "true");
  EXPECT_EQ(Outcome(R"(semver("01.01.01", true).minor())"), "1");
  EXPECT_EQ(Outcome(R"(semver("v1.0.0"))"),
            "error: Invalid character(s) found in major number \"v1\"");
  EXPECT_EQ(Outcome(R"(semver("1.0"))"), "error: No Major.Minor.Patch elements found");
  EXPECT_EQ(Outcome(R"(semver("1.2-rc", true))"),
            "error: short version cannot contain PreRelease/Build meta data");
  EXPECT_EQ(Outcome(R"(semver(1))"),
            "compile: ERROR: <input>:1:7: found no matching overload for "
            "'semver' applied to '(int)'");
}

// The same functions reached through dyn values: overloads picked by run-time kinds.
class RuntimeFunctionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    q_slot_ = env_.AddVariable("q").value();
    v_slot_ = env_.AddVariable("v").value();
    p_slot_ = env_.AddVariable("p").value();
    act_ = std::make_unique<Activation>(env_);
    act_->Bind(q_slot_, Value::QuantityView(&memory_));
    act_->Bind(v_slot_, Value::Semver(Semver::Parse("550.54.15").value()));
    act_->Bind(p_slot_, Value::String("^[a-z]+$"));
  }
  std::string Eval(std::string_view expr) { return Outcome(expr, env_, *act_); }

  core::Quantity memory_ = core::Quantity::Parse("80Gi").value();
  Environment env_;
  size_t q_slot_ = 0;
  size_t v_slot_ = 0;
  size_t p_slot_ = 0;
  std::unique_ptr<Activation> act_;
};

TEST_F(RuntimeFunctionsTest, QuantityAndSemverThroughDyn) {
  EXPECT_EQ(Eval(R"(q.compareTo(quantity("40Gi")))"), "1");
  EXPECT_EQ(Eval(R"(q.isGreaterThan(quantity("40Gi")) && q.isLessThan(quantity("81Gi")))"), "true");
  EXPECT_EQ(Eval("q.asInteger()"), "85899345920");
  EXPECT_EQ(Eval("q.add(1).sub(1) == q"), "true");
  EXPECT_EQ(Eval(R"(v.compareTo(semver("550.0.0")))"), "1");
  EXPECT_EQ(Eval(R"(v.isGreaterThan(semver("550.54.14")))"), "true");
  EXPECT_EQ(Eval("v.major() == 550 && v.minor() == 54 && v.patch() == 15"), "true");
  EXPECT_EQ(Eval("v.compareTo(q)"),
            "error: no matching overload for 'compareTo' applied to "
            "'kubernetes.Semver.(kubernetes.Quantity)'");
  EXPECT_EQ(Eval("q.major()"),
            "error: no matching overload for 'major' applied to 'kubernetes.Quantity.()'");
  EXPECT_EQ(Eval("size(q)"),
            "error: no matching overload for 'size' applied to "
            "'(kubernetes.Quantity)'");
  EXPECT_EQ(Eval("q == quantity('80Gi') && v == semver('550.54.15')"), "true");
  EXPECT_EQ(Eval("type(q) == type(quantity('1'))"), "true");
}

TEST_F(RuntimeFunctionsTest, DynamicRegexPattern) {
  EXPECT_EQ(Eval(R"("abc".matches(p))"), "true");
  EXPECT_EQ(Eval(R"("ab1".matches(p))"), "false");
  act_->Bind(p_slot_, Value::String("("));
  EXPECT_EQ(Eval(R"("abc".matches(p))"), "error: error parsing regexp: missing ): (");
  act_->Bind(p_slot_, Value::Int(1));
  EXPECT_EQ(Eval(R"("abc".matches(p))"),
            "error: no matching overload for 'matches' applied to 'string.(int)'");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cel
