#include "binding/framework/fit_error.h"

#include <algorithm>

namespace berth::binding {

void ReasonHistogram::Add(ReasonId reason, int64_t nodes) {
  if (nodes == 0) return;
  auto i = static_cast<size_t>(reason.v);
  if (counts_.size() <= i) counts_.resize(i + 1, 0);
  counts_[i] += nodes;
}

void ReasonHistogram::SetPreFilterRejection(ReasonId reason, int64_t nodes) {
  prefilter_ = reason;
  prefilter_nodes_ = nodes;
}

void ReasonHistogram::Render(const ReasonTable& reasons, int64_t num_nodes,
                             model::PodDecision* decision) const {
  decision->rejections.clear();
  if (num_nodes == 0) {
    // Upstream returns ErrNoNodesAvailable before any plugin runs.
    decision->message = "no nodes available to schedule pods";
    return;
  }
  // Built by appending: GCC 12 mis-warns (-Wrestrict) on chains of string operator+.
  std::string& m = decision->message;
  m = "0/";
  m += std::to_string(num_nodes);
  m += " nodes are available:";
  if (prefilter_.has_value()) {
    const std::string& text = reasons.Text(*prefilter_);
    m += " ";
    m += text;
    m += ".";
    decision->rejections.push_back(model::Rejection{"binding", reasons.Plugin(*prefilter_), text,
                                                    text, static_cast<int32_t>(prefilter_nodes_)});
    return;
  }
  struct Entry {
    std::string rendered;
    size_t reason;
  };
  std::vector<Entry> entries;
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] == 0) continue;
    std::string rendered = std::to_string(counts_[i]);
    rendered += " ";
    rendered += reasons.Text(ReasonId{static_cast<int32_t>(i)});
    entries.push_back(Entry{std::move(rendered), i});
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.rendered < b.rendered; });
  if (!entries.empty()) {
    m += " ";
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i > 0) m += ", ";
      m += entries[i].rendered;
    }
    m += ".";
  }
  for (const Entry& e : entries) {
    ReasonId id{static_cast<int32_t>(e.reason)};
    decision->rejections.push_back(model::Rejection{"binding", reasons.Plugin(id), reasons.Text(id),
                                                    e.rendered,
                                                    static_cast<int32_t>(counts_[e.reason])});
  }
}

}  // namespace berth::binding
