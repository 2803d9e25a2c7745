// TokenAuthenticator: bearer tokens in kube-apiserver's --token-auth-file format, one per
// line `token,user,uid,"group1,group2"` (groups optional; blank lines and lines starting
// with '#' skipped). Only the SHA-256 of each token is kept, so a memory dump or a log of
// the table reveals no token; a request's token is hashed and looked up. Immutable once
// built: thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/result.h"
#include "server/auth/user_info.h"

namespace berth::server {

class TokenAuthenticator {
 public:
  // Parses the file's text; errors name the line ("line 3: ..."): a line with fewer than
  // three fields, an empty token or user, a token given twice, an unterminated quote.
  static core::Result<TokenAuthenticator> Parse(std::string_view text);

  // Adds a user by the hex SHA-256 of its token (the hub's generated admin token, whose
  // plain text lives only in the kubeconfig it writes).
  void AddHashed(std::string sha256_hex, UserInfo user);

  // The user of an `Authorization` header value ("Bearer TOKEN"); nullopt for no header,
  // another scheme or an unknown token. The user's groups include system:authenticated.
  std::optional<UserInfo> Authenticate(std::string_view authorization) const;

  size_t size() const { return users_.size(); }

 private:
  std::unordered_map<std::string, UserInfo> users_;  // by hex SHA-256 of the token
};

// The lower-case hex SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);

// `bytes` random bytes from the system's CSPRNG, as lower-case hex (a new admin token).
core::Result<std::string> RandomHex(size_t bytes);

}  // namespace berth::server
