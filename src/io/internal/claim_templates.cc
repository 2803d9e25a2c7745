// Why a whole ResourceClaim document is written for a generated claim: writers patch the
// allocation into each claim's document, and the claim should look like what the
// resourceclaim controller creates (owner reference, pod-claim-name annotation, the
// template's metadata and spec as written, in the template's apiVersion so the spec's shape
// matches it).
#include "io/internal/claim_templates.h"

#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <utility>

#include "io/internal/created_json.h"
#include "io/internal/json_fields.h"

namespace berth::io::internal {

namespace {

using OrderedJson = nlohmann::ordered_json;

// The annotation the resourceclaim controller puts on generated claims
// (resourceclaim.PodClaimNameAnnotation).
constexpr const char* kPodClaimNameAnnotation = "resource.kubernetes.io/pod-claim-name";

// The string entries of metadata map `key` ("labels", "annotations") of `md`, in order.
void CopyStringMap(const OrderedJson& md, const char* key, core::Labels* model_out,
                   OrderedJson* json_out) {
  auto it = md.find(key);
  if (it == md.end() || !it->is_object()) return;
  for (const auto& [k, v] : it->items()) {
    if (!v.is_string()) continue;
    model_out->insert_or_assign(k, v.get<std::string>());
    (*json_out)[k] = v;
  }
}

struct Generated {
  model::ResourceClaim claim;
  Document doc;
};

Generated Generate(const model::Pod& pod, const model::PodResourceClaim& ref,
                   const model::ResourceClaimTemplate& tmpl, const Document& tmpl_doc) {
  Generated out;
  model::ResourceClaim& claim = out.claim;
  claim.meta.name = ref.claim_name;
  claim.meta.namespace_ = pod.meta.namespace_;
  claim.meta.creation_timestamp = pod.meta.creation_timestamp;
  claim.spec = tmpl.spec;
  claim.template_name = tmpl.meta.name;
  claim.owner_pod = pod.meta.name;
  claim.cluster = pod.cluster;

  // The template came out of simdjson, so it parses; discard() keeps this exception-free.
  OrderedJson t = OrderedJson::parse(tmpl_doc.json, nullptr, /*allow_exceptions=*/false);
  if (!t.is_object()) t = OrderedJson::object();
  OrderedJson tmpl_spec = OrderedJson::object();
  if (auto it = t.find("spec"); it != t.end() && it->is_object()) tmpl_spec = *it;
  OrderedJson tmpl_md = OrderedJson::object();
  if (auto it = tmpl_spec.find("metadata"); it != tmpl_spec.end() && it->is_object()) {
    tmpl_md = *it;
  }

  OrderedJson md = OrderedJson::object();
  md["name"] = claim.meta.name;
  md["namespace"] = claim.meta.namespace_;
  OrderedJson labels = OrderedJson::object();
  OrderedJson annotations = OrderedJson::object();
  CopyStringMap(tmpl_md, "labels", &claim.meta.labels, &labels);
  CopyStringMap(tmpl_md, "annotations", &claim.meta.annotations, &annotations);
  annotations[kPodClaimNameAnnotation] = ref.name;
  claim.meta.annotations.insert_or_assign(kPodClaimNameAnnotation, ref.name);
  if (!labels.empty()) md["labels"] = std::move(labels);
  md["annotations"] = std::move(annotations);
  md["ownerReferences"] = OrderedJson::array(
      {OwnerRefJson("v1", "Pod", pod.meta.name, pod.meta.uid, /*controller=*/true)});

  OrderedJson doc = OrderedJson::object();
  doc["apiVersion"] = tmpl_doc.api_version;
  doc["kind"] = "ResourceClaim";
  doc["metadata"] = std::move(md);
  auto spec = tmpl_spec.find("spec");
  doc["spec"] = spec != tmpl_spec.end() && spec->is_object() ? *spec : OrderedJson::object();

  out.doc = CreatedDocument(tmpl_doc.file, tmpl_doc.api_version, "ResourceClaim", claim.meta,
                            doc.dump(-1, ' ', false, OrderedJson::error_handler_t::replace));
  return out;
}

}  // namespace

void ResolveClaimTemplates(model::Snapshot* snapshot, DocumentStore* documents,
                           core::Diagnostics& diags) {
  std::unordered_map<std::string, size_t> claims;
  for (size_t i = 0; i < snapshot->resource_claims.size(); ++i) {
    const model::ResourceClaim& c = snapshot->resource_claims[i];
    claims.emplace(ObjectKey(c.cluster, c.meta.namespace_, c.meta.name), i);
  }
  std::unordered_map<std::string, size_t> templates;
  for (size_t i = 0; i < snapshot->resource_claim_templates.size(); ++i) {
    const model::ResourceClaimTemplate& t = snapshot->resource_claim_templates[i];
    templates.emplace(ObjectKey(t.cluster, t.meta.namespace_, t.meta.name), i);
  }
  for (model::Pod& pod : snapshot->pods) {
    for (size_t r = 0; r < pod.resource_claims.size(); ++r) {
      model::PodResourceClaim& ref = pod.resource_claims[r];
      if (ref.template_name.empty()) continue;
      const std::string& ns = pod.meta.namespace_;
      // A claim the status names and the input holds: the pod already has its claim.
      if (!ref.claim_name.empty() && claims.count(ObjectKey(pod.cluster, ns, ref.claim_name)) > 0) {
        continue;
      }
      ref.claim_name = pod.meta.name + "-" + ref.name;
      const std::string claim_key = ObjectKey(pod.cluster, ns, ref.claim_name);
      if (claims.count(claim_key) > 0) continue;
      auto t = templates.find(ObjectKey(pod.cluster, ns, ref.template_name));
      if (t == templates.end()) {
        std::string file = pod.source.valid() ? documents->Get(pod.source).file : "";
        diags.Warn(core::NotFound(
            "ResourceClaimTemplate " + core::Quote(ref.template_name) + " not found in namespace " + ns +
                ": no claim is generated and the pod waits for it",
            core::Location{std::move(file), ObjectLabel("Pod", ns, pod.meta.name),
                           "spec.resourceClaims" + IndexField(r) + ".resourceClaimTemplateName"}));
        continue;
      }
      const model::ResourceClaimTemplate& tmpl = snapshot->resource_claim_templates[t->second];
      // A copy: Add() below may move the document it refers to.
      const Document tmpl_doc = tmpl.source.valid() ? documents->Get(tmpl.source) : Document{};
      Generated g = Generate(pod, ref, tmpl, tmpl_doc);
      g.claim.source = documents->Add(std::move(g.doc));
      claims.emplace(claim_key, snapshot->resource_claims.size());
      snapshot->resource_claims.push_back(std::move(g.claim));
    }
  }
}

}  // namespace berth::io::internal
