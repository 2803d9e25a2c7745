// Lexer: CEL source text to tokens (cel-spec langdef.md lexical grammar: identifiers, int,
// uint, double, string and bytes literals with every quoting and escape form, operators,
// // comments). String and bytes tokens carry their decoded value. Internal to src/cel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace berth::cel::internal {

enum class TokenKind : uint8_t {
  kEof,
  kIdent,
  kInt,     // text: digits as written ("123", "0x1f"), without sign
  kUint,    // text: digits as written, without the u suffix
  kDouble,  // text: as written
  kString,  // text: decoded UTF-8
  kBytes,   // text: decoded bytes
  kTrue,
  kFalse,
  kNull,
  kIn,
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kLBrace,
  kRBrace,
  kDot,
  kComma,
  kColon,
  kQuestion,
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kPercent,
  kBang,
  kLess,
  kLessEq,
  kGreater,
  kGreaterEq,
  kEqEq,
  kNotEq,
  kAndAnd,
  kOrOr,
};

// How a token is spelled in messages: "'+'", "identifier", "end of input".
const char* TokenKindName(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::kEof;
  uint32_t offset = 0;  // byte offset of the first character
  uint32_t length = 0;  // bytes of source text
  std::string text;
};

// A problem found while reading the source, at a byte offset.
struct SyntaxIssue {
  size_t offset = 0;
  std::string message;
};

// Tokenizes `source` (valid UTF-8; the caller checks). Appends the tokens, ending with
// kEof, and returns true; or fills `issue` and returns false.
bool Tokenize(std::string_view source, std::vector<Token>* tokens, SyntaxIssue* issue);

// [_a-zA-Z][_a-zA-Z0-9]*
bool IsIdentifier(std::string_view s);
// Words cel-go refuses as identifiers: as break const continue else false for function if
// import in let loop package namespace null return true var void while.
bool IsReservedWord(std::string_view s);

}  // namespace berth::cel::internal
