// Labels: a sorted key/value map as Kubernetes metadata.labels holds them. Ordered so that
// printing and hashing are deterministic. Plain value type. Also the apimachinery syntax
// checks for label keys and values (k8s.io/apimachinery/pkg/util/validation), which io,
// selectors and resource names share. The checks are pure functions.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace berth::core {

using Labels = std::map<std::string, std::string, std::less<>>;

// IsDNS1123Subdomain: at most 253 characters of dot-separated lower-case labels, each
// [a-z0-9]([-a-z0-9]*[a-z0-9])?.
bool IsDns1123Subdomain(std::string_view s);

// IsQualifiedName, the shape of a label key: an optional DNS-1123 subdomain prefix and '/',
// then a name of at most 63 characters matching ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9].
bool IsQualifiedName(std::string_view s);

// IsValidLabelValue: empty, or a name part as above (at most 63 characters).
bool IsValidLabelValue(std::string_view s);

}  // namespace berth::core
