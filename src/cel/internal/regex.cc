#include "cel/internal/regex.h"

#include <re2/re2.h>

#include <memory>
#include <string>

namespace berth::cel::internal {

Regex::Regex(std::unique_ptr<re2::RE2> re) : re_(std::move(re)) {}
Regex::~Regex() = default;

core::Result<std::unique_ptr<Regex>> Regex::Compile(std::string_view pattern) {
  re2::RE2::Options options;
  options.set_log_errors(false);  // errors come back as values, not on stderr
  auto re = std::make_unique<re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!re->ok()) return core::InvalidArgument("error parsing regexp: " + re->error());
  return std::unique_ptr<Regex>(new Regex(std::move(re)));
}

bool Regex::PartialMatch(std::string_view text) const {
  return re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

}  // namespace berth::cel::internal
