// Labels: a sorted key/value map as Kubernetes metadata.labels holds them. Ordered so that
// printing and hashing are deterministic. Plain value type. Also the apimachinery syntax
// checks for label keys and values (k8s.io/apimachinery/pkg/util/validation), which io,
// selectors and resource names share. The checks are pure functions.
#pragma once

#include <cstddef>
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

// IsDNS1123Label: at most 63 characters of [a-z0-9]([-a-z0-9]*[a-z0-9])? (namespace names).
bool IsDns1123Label(std::string_view s);

// The same checks with the API server's reason: "" when `s` is valid, else apimachinery's
// first message for it ("must be no more than 253 characters", "a lowercase RFC 1123
// subdomain must consist of ..."), for an `Invalid value` error at the field. The length is
// checked first, so a 10 MB value costs one comparison.
std::string Dns1123SubdomainProblem(std::string_view s);
std::string Dns1123LabelProblem(std::string_view s);
std::string QualifiedNameProblem(std::string_view s);  // label keys; annotation keys lowercased
std::string LabelValueProblem(std::string_view s);

// The longest DNS-1123 subdomain, DNS-1123 label, and name part / label value
// (apimachinery's DNS1123SubdomainMaxLength, DNS1123LabelMaxLength, LabelValueMaxLength).
inline constexpr size_t kMaxDnsSubdomainBytes = 253;
inline constexpr size_t kMaxDnsLabelBytes = 63;
inline constexpr size_t kMaxLabelValueBytes = 63;
// metadata.annotations' keys and values together (apimachinery's TotalAnnotationSizeLimitB).
inline constexpr size_t kMaxAnnotationsBytes = 256 * 1024;

}  // namespace berth::core
