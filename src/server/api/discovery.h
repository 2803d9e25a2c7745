// Discovery documents built from model's table of kinds (every served row): the legacy forms
// (/api APIVersions, /apis APIGroupList, /apis/GROUP APIGroup, /api/v1 and /apis/GROUP/VERSION
// APIResourceList) and the aggregated forms kubectl 1.32 asks for first
// (apidiscovery.k8s.io/v2 APIGroupDiscoveryList for /api and /apis; v2beta1 too). Groups come
// in kube-apiserver's priority order (the built-in groups by their fixed priorities, then the
// CRD groups alphabetically, as apiextensions registers them at one priority), versions by
// Kubernetes version priority (v1 > v1beta2 > v1beta1 > v1alpha1), resources alphabetically,
// so the RESTMapper of a client resolves "jobs" to batch/v1 as against a real cluster. The
// documents are deterministic: the same bytes on every call. Pure functions of constant data.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/api/api_error.h"

namespace berth::server {

enum class DiscoveryFormat {
  kLegacy,             // application/json: APIVersions / APIGroupList / APIResourceList
  kAggregatedV2,       // application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList
  kAggregatedV2Beta1,  // the same with v=v2beta1
};

// The form an Accept header asks for at /api and /apis: the first media range (in the
// header's order, q=0 skipped) berth serves. Protobuf ranges are skipped; an absent or
// unmatched header gets the legacy form.
DiscoveryFormat NegotiateDiscovery(std::string_view accept);
// The Content-Type to answer with: kubectl reads the aggregated document only when the
// response says so.
std::string_view DiscoveryContentType(DiscoveryFormat format);

// Whether berth serves `group` (any version) / `version` of `group`. O(kinds).
bool ServesGroup(std::string_view group);
bool ServesGroupVersion(std::string_view group, std::string_view version);

// GET /api (legacy): {"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":
// [{"clientCIDR":"0.0.0.0/0","serverAddress":SERVER_ADDRESS}]} (the host:port clients reach).
nlohmann::ordered_json CoreApiVersions(std::string_view server_address);
// GET /apis (legacy APIGroupList), every group with its versions and preferredVersion.
nlohmann::ordered_json ApiGroupList();
// GET /apis/GROUP (APIGroup); 404 when berth serves no kind of the group.
ApiResult<nlohmann::ordered_json> ApiGroupDocument(std::string_view group);
// GET /api/v1 (group "") and /apis/GROUP/VERSION: APIResourceList with, per kind, name,
// singularName, namespaced, kind, verbs, shortNames, categories, and "NAME/status" and
// "NAME/scale" (autoscaling/v1 Scale) entries with verbs get, patch, update. 404 when the
// group/version is not served.
ApiResult<nlohmann::ordered_json> ApiResourceList(std::string_view group,
                                                  std::string_view version);
// GET /api (core == true) or /apis (core == false) in an aggregated format.
nlohmann::ordered_json AggregatedDiscovery(bool core, DiscoveryFormat format);

// Ordering helpers, exposed for tests: Kubernetes version priority (true when `a` sorts
// before `b`: GA before beta before alpha, higher numbers first, unparsable ones last and
// alphabetically) and the groups in discovery order (without the core group).
bool VersionPriorityLess(std::string_view a, std::string_view b);
std::vector<std::string> ServedGroups();
// The served versions of `group` ("" for core), preferred first.
std::vector<std::string> ServedVersions(std::string_view group);

}  // namespace berth::server
