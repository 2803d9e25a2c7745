// A hand-written scanner: one pass, no backtracking beyond one character of lookahead.
// Escape decoding follows cel-spec: in strings \x, \u, \U and octal escapes name code points
// (encoded as UTF-8); in bytes \x and octal escapes name raw bytes and \u, \U are refused.
#include "cel/internal/lexer.h"

#include <array>
#include <string>
#include <string_view>

#include "cel/internal/text.h"
#include "core/ascii.h"

namespace berth::cel::internal {

namespace {

bool IsIdentStart(char c) { return c == '_' || core::IsAsciiAlpha(c); }
bool IsIdentPart(char c) { return IsIdentStart(c) || core::IsAsciiDigit(c); }

uint32_t HexValue(char c) {
  if (core::IsAsciiDigit(c)) return static_cast<uint32_t>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<uint32_t>(c - 'a' + 10);
  return static_cast<uint32_t>(c - 'A' + 10);
}

class Scanner {
 public:
  Scanner(std::string_view src, std::vector<Token>* out, SyntaxIssue* issue)
      : src_(src), out_(out), issue_(issue) {}

  bool Run() {
    while (true) {
      SkipSpaceAndComments();
      if (pos_ >= src_.size()) {
        Emit(TokenKind::kEof, pos_, "");
        return true;
      }
      if (!Next()) return false;
    }
  }

 private:
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }

  void Emit(TokenKind kind, size_t start, std::string text) {
    out_->push_back(Token{kind, static_cast<uint32_t>(start), static_cast<uint32_t>(pos_ - start),
                          std::move(text)});
  }

  bool Fail(size_t offset, std::string message) {
    issue_->offset = offset;
    issue_->message = std::move(message);
    return false;
  }

  void SkipSpaceAndComments() {
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
        ++pos_;
      } else if (c == '/' && Peek(1) == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  bool Next() {
    const size_t start = pos_;
    const char c = src_[pos_];
    if (core::IsAsciiDigit(c) || (c == '.' && core::IsAsciiDigit(Peek(1)))) return Number();
    if (c == '"' || c == '\'') return StringLiteral(start, false, false);
    if (IsIdentStart(c)) {
      // String prefixes: r, b, and both in either order, any case.
      size_t p = pos_;
      bool raw = false;
      bool bytes = false;
      for (int i = 0; i < 2 && p < src_.size(); ++i) {
        char l = src_[p];
        if ((l == 'r' || l == 'R') && !raw) {
          raw = true;
          ++p;
        } else if ((l == 'b' || l == 'B') && !bytes) {
          bytes = true;
          ++p;
        } else {
          break;
        }
      }
      if ((raw || bytes) && p < src_.size() && (src_[p] == '"' || src_[p] == '\'')) {
        pos_ = p;
        return StringLiteral(start, raw, bytes);
      }
      while (pos_ < src_.size() && IsIdentPart(src_[pos_])) ++pos_;
      std::string_view word = src_.substr(start, pos_ - start);
      if (word == "true") {
        Emit(TokenKind::kTrue, start, "");
      } else if (word == "false") {
        Emit(TokenKind::kFalse, start, "");
      } else if (word == "null") {
        Emit(TokenKind::kNull, start, "");
      } else if (word == "in") {
        Emit(TokenKind::kIn, start, "");
      } else {
        Emit(TokenKind::kIdent, start, std::string(word));
      }
      return true;
    }
    ++pos_;
    switch (c) {
      case '(':
        Emit(TokenKind::kLParen, start, "");
        return true;
      case ')':
        Emit(TokenKind::kRParen, start, "");
        return true;
      case '[':
        Emit(TokenKind::kLBracket, start, "");
        return true;
      case ']':
        Emit(TokenKind::kRBracket, start, "");
        return true;
      case '{':
        Emit(TokenKind::kLBrace, start, "");
        return true;
      case '}':
        Emit(TokenKind::kRBrace, start, "");
        return true;
      case '.':
        Emit(TokenKind::kDot, start, "");
        return true;
      case ',':
        Emit(TokenKind::kComma, start, "");
        return true;
      case ':':
        Emit(TokenKind::kColon, start, "");
        return true;
      case '?':
        Emit(TokenKind::kQuestion, start, "");
        return true;
      case '+':
        Emit(TokenKind::kPlus, start, "");
        return true;
      case '-':
        Emit(TokenKind::kMinus, start, "");
        return true;
      case '*':
        Emit(TokenKind::kStar, start, "");
        return true;
      case '/':
        Emit(TokenKind::kSlash, start, "");
        return true;
      case '%':
        Emit(TokenKind::kPercent, start, "");
        return true;
      case '!':
        if (Peek() == '=') {
          ++pos_;
          Emit(TokenKind::kNotEq, start, "");
        } else {
          Emit(TokenKind::kBang, start, "");
        }
        return true;
      case '<':
        if (Peek() == '=') {
          ++pos_;
          Emit(TokenKind::kLessEq, start, "");
        } else {
          Emit(TokenKind::kLess, start, "");
        }
        return true;
      case '>':
        if (Peek() == '=') {
          ++pos_;
          Emit(TokenKind::kGreaterEq, start, "");
        } else {
          Emit(TokenKind::kGreater, start, "");
        }
        return true;
      case '=':
        if (Peek() == '=') {
          ++pos_;
          Emit(TokenKind::kEqEq, start, "");
          return true;
        }
        break;
      case '&':
        if (Peek() == '&') {
          ++pos_;
          Emit(TokenKind::kAndAnd, start, "");
          return true;
        }
        break;
      case '|':
        if (Peek() == '|') {
          ++pos_;
          Emit(TokenKind::kOrOr, start, "");
          return true;
        }
        break;
      default:
        break;
    }
    // One whole code point in the message, not a lone lead byte.
    size_t len = 1;
    while (start + len < src_.size() &&
           (static_cast<unsigned char>(src_[start + len]) & 0xC0) == 0x80) {
      ++len;
    }
    return Fail(start, "Syntax error: token recognition error at: '" +
                           std::string(src_.substr(start, len)) + "'");
  }

  bool Number() {
    const size_t start = pos_;
    if (Peek() == '0' && (Peek(1) == 'x' || Peek(1) == 'X') && core::IsAsciiHexDigit(Peek(2))) {
      pos_ += 2;
      while (core::IsAsciiHexDigit(Peek())) ++pos_;
      std::string text(src_.substr(start, pos_ - start));
      if (Peek() == 'u' || Peek() == 'U') {
        ++pos_;
        Emit(TokenKind::kUint, start, std::move(text));
      } else {
        Emit(TokenKind::kInt, start, std::move(text));
      }
      return true;
    }
    bool is_double = false;
    while (core::IsAsciiDigit(Peek())) ++pos_;
    if (Peek() == '.' && core::IsAsciiDigit(Peek(1))) {
      is_double = true;
      ++pos_;
      while (core::IsAsciiDigit(Peek())) ++pos_;
    }
    if (Peek() == 'e' || Peek() == 'E') {
      size_t p = 1;
      if (Peek(p) == '+' || Peek(p) == '-') ++p;
      if (core::IsAsciiDigit(Peek(p))) {
        is_double = true;
        pos_ += p;
        while (core::IsAsciiDigit(Peek())) ++pos_;
      }
    }
    std::string text(src_.substr(start, pos_ - start));
    if (is_double) {
      Emit(TokenKind::kDouble, start, std::move(text));
    } else if (Peek() == 'u' || Peek() == 'U') {
      ++pos_;
      Emit(TokenKind::kUint, start, std::move(text));
    } else {
      Emit(TokenKind::kInt, start, std::move(text));
    }
    return true;
  }

  // pos_ is at the opening quote.
  bool StringLiteral(size_t start, bool raw, bool bytes) {
    const char quote = src_[pos_];
    const bool triple = Peek(1) == quote && Peek(2) == quote;
    pos_ += triple ? 3 : 1;
    std::string value;
    while (true) {
      if (pos_ >= src_.size()) return Fail(start, "Syntax error: unterminated string literal");
      char c = src_[pos_];
      if (c == quote) {
        if (!triple) {
          ++pos_;
          break;
        }
        if (Peek(1) == quote && Peek(2) == quote) {
          pos_ += 3;
          break;
        }
      }
      if (!triple && (c == '\n' || c == '\r')) {
        return Fail(start, "Syntax error: unterminated string literal");
      }
      if (c == '\\' && !raw) {
        if (!Escape(bytes, &value)) return false;
        continue;
      }
      value.push_back(c);
      ++pos_;
    }
    Emit(bytes ? TokenKind::kBytes : TokenKind::kString, start, std::move(value));
    return true;
  }

  // pos_ is at the backslash.
  bool Escape(bool bytes, std::string* out) {
    const size_t at = pos_;
    char e = Peek(1);
    pos_ += 2;
    switch (e) {
      case 'a':
        out->push_back('\a');
        return true;
      case 'b':
        out->push_back('\b');
        return true;
      case 'f':
        out->push_back('\f');
        return true;
      case 'n':
        out->push_back('\n');
        return true;
      case 'r':
        out->push_back('\r');
        return true;
      case 't':
        out->push_back('\t');
        return true;
      case 'v':
        out->push_back('\v');
        return true;
      case '\\':
      case '\'':
      case '"':
      case '`':
      case '?':
        out->push_back(e);
        return true;
      case 'x':
      case 'X':
        return Code(at, 2, 16, bytes, out);
      case 'u':
        if (bytes) return Fail(at, "Syntax error: \\u escape is not allowed in bytes literals");
        return Code(at, 4, 16, false, out);
      case 'U':
        if (bytes) return Fail(at, "Syntax error: \\U escape is not allowed in bytes literals");
        return Code(at, 8, 16, false, out);
      default:
        if (e >= '0' && e <= '3') {
          pos_ -= 1;  // the first octal digit is part of the value
          return Code(at, 3, 8, bytes, out);
        }
        return Fail(at, "Syntax error: invalid escape sequence '\\" + std::string(1, e) + "'");
    }
  }

  // Reads `digits` digits in `base` at pos_ and appends the code point (or byte).
  bool Code(size_t at, int digits, uint32_t base, bool bytes, std::string* out) {
    uint32_t v = 0;
    for (int i = 0; i < digits; ++i) {
      char d = Peek();
      bool ok = base == 16 ? core::IsAsciiHexDigit(d) : (d >= '0' && d <= '7');
      if (!ok) return Fail(at, "Syntax error: invalid escape sequence");
      v = v * base + HexValue(d);
      ++pos_;
    }
    if (bytes) {
      out->push_back(static_cast<char>(v));
      return true;
    }
    if ((v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF) {
      return Fail(at, "Syntax error: invalid unicode code point in escape sequence");
    }
    AppendUtf8(v, out);
    return true;
  }

  std::string_view src_;
  std::vector<Token>* out_;
  SyntaxIssue* issue_;
  size_t pos_ = 0;
};

}  // namespace

const char* TokenKindName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEof:
      return "<EOF>";
    case TokenKind::kIdent:
      return "identifier";
    case TokenKind::kInt:
    case TokenKind::kUint:
    case TokenKind::kDouble:
      return "number";
    case TokenKind::kString:
      return "string";
    case TokenKind::kBytes:
      return "bytes";
    case TokenKind::kTrue:
      return "'true'";
    case TokenKind::kFalse:
      return "'false'";
    case TokenKind::kNull:
      return "'null'";
    case TokenKind::kIn:
      return "'in'";
    case TokenKind::kLParen:
      return "'('";
    case TokenKind::kRParen:
      return "')'";
    case TokenKind::kLBracket:
      return "'['";
    case TokenKind::kRBracket:
      return "']'";
    case TokenKind::kLBrace:
      return "'{'";
    case TokenKind::kRBrace:
      return "'}'";
    case TokenKind::kDot:
      return "'.'";
    case TokenKind::kComma:
      return "','";
    case TokenKind::kColon:
      return "':'";
    case TokenKind::kQuestion:
      return "'?'";
    case TokenKind::kPlus:
      return "'+'";
    case TokenKind::kMinus:
      return "'-'";
    case TokenKind::kStar:
      return "'*'";
    case TokenKind::kSlash:
      return "'/'";
    case TokenKind::kPercent:
      return "'%'";
    case TokenKind::kBang:
      return "'!'";
    case TokenKind::kLess:
      return "'<'";
    case TokenKind::kLessEq:
      return "'<='";
    case TokenKind::kGreater:
      return "'>'";
    case TokenKind::kGreaterEq:
      return "'>='";
    case TokenKind::kEqEq:
      return "'=='";
    case TokenKind::kNotEq:
      return "'!='";
    case TokenKind::kAndAnd:
      return "'&&'";
    case TokenKind::kOrOr:
      return "'||'";
  }
  return "?";
}

bool Tokenize(std::string_view source, std::vector<Token>* tokens, SyntaxIssue* issue) {
  return Scanner(source, tokens, issue).Run();
}

bool IsIdentifier(std::string_view s) {
  if (s.empty() || !IsIdentStart(s[0])) return false;
  for (char c : s) {
    if (!IsIdentPart(c)) return false;
  }
  return true;
}

bool IsReservedWord(std::string_view s) {
  static constexpr std::array<std::string_view, 20> kReserved = {
      "as",        "break", "const",  "continue", "else", "false", "for",
      "function",  "if",    "import", "in",       "let",  "loop",  "package",
      "namespace", "null",  "return", "true",     "var",  "void"};
  for (std::string_view r : kReserved) {
    if (r == s) return true;
  }
  return s == "while";
}

}  // namespace berth::cel::internal
