// A hand-written lexer and recursive-descent parser over apimachinery's selector grammar
// (k8s.io/apimachinery/pkg/labels/selector.go): identifiers are runs of bytes that are not
// whitespace or one of ",=!()<>", so "a.b/c-d" is one token and "a==b" three.
#include "core/selector_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

#include "core/labels.h"

namespace berth::core {
namespace {

enum class Tok {
  kEnd,
  kIdent,
  kComma,
  kEq,       // =
  kDoubleEq, // ==
  kNotEq,    // !=
  kBang,     // !
  kIn,
  kNotIn,
  kOpenPar,
  kClosePar,
  kGt,
  kLt,
};

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;
};

bool IsSpecial(char c) {
  return c == ',' || c == '=' || c == '!' || c == '(' || c == ')' || c == '<' || c == '>';
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Token Next() {
    while (pos_ < s_.size() && IsSpace(s_[pos_])) ++pos_;
    if (pos_ >= s_.size()) return {Tok::kEnd, ""};
    const char c = s_[pos_];
    auto two = [&](char next) { return pos_ + 1 < s_.size() && s_[pos_ + 1] == next; };
    switch (c) {
      case ',':
        ++pos_;
        return {Tok::kComma, ","};
      case '(':
        ++pos_;
        return {Tok::kOpenPar, "("};
      case ')':
        ++pos_;
        return {Tok::kClosePar, ")"};
      case '>':
        ++pos_;
        return {Tok::kGt, ">"};
      case '<':
        ++pos_;
        return {Tok::kLt, "<"};
      case '=':
        if (two('=')) {
          pos_ += 2;
          return {Tok::kDoubleEq, "=="};
        }
        ++pos_;
        return {Tok::kEq, "="};
      case '!':
        if (two('=')) {
          pos_ += 2;
          return {Tok::kNotEq, "!="};
        }
        ++pos_;
        return {Tok::kBang, "!"};
      default:
        break;
    }
    const size_t start = pos_;
    while (pos_ < s_.size() && !IsSpace(s_[pos_]) && !IsSpecial(s_[pos_])) ++pos_;
    std::string word(s_.substr(start, pos_ - start));
    if (word == "in") return {Tok::kIn, word};
    if (word == "notin") return {Tok::kNotIn, word};
    return {Tok::kIdent, word};
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

class Parser {
 public:
  explicit Parser(std::string_view s) : lexer_(s) { Advance(); }

  Result<std::vector<SelectorRequirement>> Parse() {
    std::vector<SelectorRequirement> out;
    if (tok_.kind == Tok::kEnd) return out;
    while (true) {
      BERTH_ASSIGN_OR_RETURN(SelectorRequirement r, ParseRequirement());
      out.push_back(std::move(r));
      if (tok_.kind == Tok::kEnd) break;
      if (tok_.kind != Tok::kComma) return Found("',' or end of string");
      Advance();
      if (tok_.kind == Tok::kEnd) return Found("identifier after ','");
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const SelectorRequirement& a, const SelectorRequirement& b) {
                       return a.key < b.key;
                     });
    return out;
  }

 private:
  void Advance() { tok_ = lexer_.Next(); }

  Error Found(std::string_view expected) const {
    return InvalidArgument("found '" + tok_.text + "', expected: " + std::string(expected));
  }

  Result<std::string> Key() {
    if (tok_.kind != Tok::kIdent) return Found("identifier");
    std::string key = tok_.text;
    const std::string problem = QualifiedNameProblem(key);
    if (!problem.empty()) {
      return InvalidArgument("unable to parse requirement: key: Invalid value: \"" + key +
                             "\": " + problem);
    }
    Advance();
    return key;
  }

  Status CheckValue(const std::string& value) const {
    const std::string problem = LabelValueProblem(value);
    if (!problem.empty()) {
      return InvalidArgument("unable to parse requirement: values[0]: Invalid value: \"" +
                             value + "\": " + problem);
    }
    return OkStatus();
  }

  Result<SelectorRequirement> ParseRequirement() {
    SelectorRequirement r;
    if (tok_.kind == Tok::kBang) {
      Advance();
      BERTH_ASSIGN_OR_RETURN(r.key, Key());
      r.op = SelectorOp::kDoesNotExist;
      return r;
    }
    BERTH_ASSIGN_OR_RETURN(r.key, Key());
    switch (tok_.kind) {
      case Tok::kEnd:
      case Tok::kComma:
        r.op = SelectorOp::kExists;
        return r;
      case Tok::kEq:
      case Tok::kDoubleEq:
      case Tok::kNotEq: {
        r.op = tok_.kind == Tok::kNotEq ? SelectorOp::kNotIn : SelectorOp::kIn;
        Advance();
        std::string value;  // "key=" selects an empty value
        if (tok_.kind == Tok::kIdent || tok_.kind == Tok::kIn || tok_.kind == Tok::kNotIn) {
          value = tok_.text;
          Advance();
        } else if (tok_.kind != Tok::kEnd && tok_.kind != Tok::kComma) {
          return Found("identifier");
        }
        BERTH_RETURN_IF_ERROR(CheckValue(value));
        r.values.push_back(std::move(value));
        return r;
      }
      case Tok::kGt:
      case Tok::kLt: {
        r.op = tok_.kind == Tok::kGt ? SelectorOp::kGt : SelectorOp::kLt;
        Advance();
        if (tok_.kind != Tok::kIdent) return Found("identifier");
        int64_t n = 0;
        const std::string& t = tok_.text;
        auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
        if (ec != std::errc() || ptr != t.data() + t.size()) {
          return InvalidArgument("unable to parse requirement: values[0]: Invalid value: \"" +
                                 t + "\": for 'Gt', 'Lt' operators, the value must be an integer");
        }
        r.values.push_back(t);
        Advance();
        return r;
      }
      case Tok::kIn:
      case Tok::kNotIn: {
        r.op = tok_.kind == Tok::kIn ? SelectorOp::kIn : SelectorOp::kNotIn;
        Advance();
        if (tok_.kind != Tok::kOpenPar) return Found("'('");
        Advance();
        while (tok_.kind != Tok::kClosePar) {
          std::string value;
          if (tok_.kind == Tok::kIdent || tok_.kind == Tok::kIn || tok_.kind == Tok::kNotIn) {
            value = tok_.text;
            Advance();
          } else if (tok_.kind != Tok::kComma) {
            return Found("',', ')' or identifier");
          }
          BERTH_RETURN_IF_ERROR(CheckValue(value));
          r.values.push_back(std::move(value));
          if (tok_.kind == Tok::kComma) {
            Advance();
            if (tok_.kind == Tok::kClosePar) r.values.emplace_back();  // "(a,)": empty value
          } else if (tok_.kind != Tok::kClosePar) {
            return Found("',' or ')'");
          }
        }
        Advance();
        if (r.values.empty()) {
          return InvalidArgument(
              "unable to parse requirement: values: Invalid value: []: for 'in', 'notin' "
              "operators, values set can't be empty");
        }
        std::sort(r.values.begin(), r.values.end());
        r.values.erase(std::unique(r.values.begin(), r.values.end()), r.values.end());
        return r;
      }
      default:
        return Found("'=', '!=', '==', 'in', 'notin', '<', '>' or ','");
    }
  }

  Lexer lexer_;
  Token tok_;
};

}  // namespace

Result<std::vector<SelectorRequirement>> ParseLabelSelectorText(std::string_view text) {
  return Parser(text).Parse();
}

bool MatchesAll(const std::vector<SelectorRequirement>& requirements, const Labels& labels) {
  for (const SelectorRequirement& r : requirements) {
    if (!r.Matches(labels)) return false;
  }
  return true;
}

}  // namespace berth::core
