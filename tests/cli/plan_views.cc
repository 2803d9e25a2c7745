// Parsing is deliberately by the printed layout (table columns found from the header's
// column starts, explain's "Label:  value" rows), so a change in what a form prints shows
// up here as a disagreement rather than being read through the same model.
#include "plan_views.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

namespace berth::cli::testing {
namespace {

using Json = nlohmann::json;

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(' ');
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(' ');
  return s.substr(b, e - b + 1);
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// pod set -> resource -> flavor, printed in one canonical form.
using Flavors = std::map<std::string, std::map<std::string, std::string>>;

std::string Canonical(const Flavors& f) {
  if (f.empty()) return "<none>";
  std::string out;
  for (const auto& [ps, resources] : f) {
    if (!out.empty()) out += ";";
    out += ps + ":";
    bool first = true;
    for (const auto& [r, flavor] : resources) {
      out += (first ? "" : ",") + r + "=" + flavor;
      first = false;
    }
  }
  return out;
}

bool IsTrue(const Json& conditions, const char* type) {
  if (!conditions.is_array()) return false;
  for (const Json& c : conditions) {
    if (c.value("type", "") == type) return c.value("status", "") == "True";
  }
  return false;
}

std::string KeyOf(const Json& meta) {
  std::string ns = meta.value("namespace", "");
  return (ns.empty() ? "default" : ns) + "/" + meta.value("name", "");
}

// A table's rows as column name -> cell, columns found from the header's word starts.
std::vector<std::map<std::string, std::string>> Rows(const std::vector<std::string>& lines,
                                                     size_t header) {
  std::vector<std::pair<std::string, size_t>> columns;
  const std::string& h = lines[header];
  for (size_t i = 0; i < h.size();) {
    if (h[i] == ' ') {
      ++i;
      continue;
    }
    size_t end = h.find("   ", i);  // column names hold at most single spaces
    if (end == std::string::npos) end = h.size();
    columns.emplace_back(h.substr(i, end - i), i);
    i = end;
  }
  std::vector<std::map<std::string, std::string>> rows;
  for (size_t l = header + 1; l < lines.size() && !lines[l].empty(); ++l) {
    std::map<std::string, std::string> row;
    for (size_t c = 0; c < columns.size(); ++c) {
      const size_t from = columns[c].second;
      const size_t to = c + 1 < columns.size() ? columns[c + 1].second : std::string::npos;
      row[columns[c].first] = from < lines[l].size() ? Trim(lines[l].substr(from, to - from)) : "";
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string StateOfTable(const std::string& status) {
  if (status == "Admitted") return "admitted";
  if (status == "QuotaReserved") return "reserved";
  if (status == "Preempted") return "evicted";
  if (status == "Pending" || status == "Inadmissible") return "waiting";
  if (status == "Finished") return "finished";
  return status;
}

std::string StateOfOutcome(const std::string& outcome) {
  if (outcome == "Admitted" || outcome == "AlreadyAdmitted") return "admitted";
  if (outcome == "QuotaReserved") return "reserved";
  if (outcome == "Preempted") return "evicted";
  if (outcome == "Pending" || outcome == "Inadmissible" || outcome == "Inactive") return "waiting";
  if (outcome == "Finished") return "finished";
  return outcome;
}

// "main: cpu,memory=h100 nvidia.com/gpu=a100; worker: cpu=default"
std::string FlavorsOfTable(const std::string& cell) {
  if (cell.empty() || cell == "<none>") return "<none>";
  Flavors f;
  std::istringstream sets(cell);
  for (std::string set; std::getline(sets, set, ';');) {
    set = Trim(set);
    const size_t colon = set.find(':');
    if (colon == std::string::npos) return "unparsed: " + cell;
    const std::string ps = set.substr(0, colon);
    std::istringstream groups(set.substr(colon + 1));
    for (std::string group; groups >> group;) {
      const size_t eq = group.rfind('=');
      if (eq == std::string::npos) return "unparsed: " + cell;
      std::istringstream resources(group.substr(0, eq));
      for (std::string r; std::getline(resources, r, ',');) f[ps][r] = group.substr(eq + 1);
    }
  }
  return Canonical(f);
}

// "Label:   value" in explain's header block.
bool Field(const std::string& line, const std::string& label, std::string* value) {
  const std::string prefix = "  " + label;
  if (line.rfind(prefix, 0) != 0) return false;
  *value = Trim(line.substr(prefix.size()));
  return true;
}

void Compare(const std::string& what, const std::string& a, const std::string& a_view,
             const std::string& b, const std::string& b_view, std::vector<std::string>* out) {
  if (a.empty() || b.empty() || a == b) return;
  out->push_back(what + ": " + a_view + " says " + a + ", " + b_view + " says " + b);
}

// A pod's fact from explain agrees with the plan's when it is the same, or when explain only
// knows the pod was bound in the input (the plan may have kept or deleted it).
bool PodAgrees(const std::string& explained, const std::string& planned) {
  if (explained == planned) return true;
  if (explained.rfind("input-bound:", 0) == 0) {
    return planned == "deleted" || planned == "bound:" + explained.substr(12);
  }
  return false;
}

}  // namespace

PlanView ParseJsonPlan(const std::string& text) {
  PlanView view;
  const Json doc = Json::parse(text, nullptr, false);
  if (!doc.is_object() || !doc.contains("items")) return view;
  for (const Json& item : doc["items"]) {
    const std::string kind = item.value("kind", "");
    const std::string key = KeyOf(item.value("metadata", Json::object()));
    const Json status = item.value("status", Json::object());
    if (kind == "Workload") {
      WorkloadFacts f;
      const Json conditions = status.value("conditions", Json::array());
      if (IsTrue(conditions, "Finished")) {
        f.state = "finished";
      } else if (IsTrue(conditions, "Admitted")) {
        f.state = "admitted";
      } else if (IsTrue(conditions, "Evicted") || IsTrue(conditions, "Preempted")) {
        f.state = "evicted";
      } else if (IsTrue(conditions, "QuotaReserved")) {
        f.state = "reserved";
      } else {
        f.state = "waiting";
      }
      Flavors flavors;
      f.cluster_queue = "<none>";
      if (status.contains("admission")) {
        const Json& a = status["admission"];
        f.cluster_queue = a.value("clusterQueue", "");
        for (const Json& psa : a.value("podSetAssignments", Json::array())) {
          const Json psa_flavors = psa.value("flavors", Json::object());  // items() borrows
          for (const auto& [r, flavor] : psa_flavors.items()) {
            flavors[psa.value("name", "")][r] = flavor.get<std::string>();
          }
        }
      }
      f.flavors = Canonical(flavors);
      view.workloads[key] = f;
    } else if (kind == "Pod") {
      const std::string node = item.value("spec", Json::object()).value("nodeName", "");
      view.pods[key] = node.empty() ? "pending" : "bound:" + node;
    }
  }
  return view;
}

PlanView ParseTablePlan(const std::string& text) {
  PlanView view;
  const std::vector<std::string> lines = Lines(text);
  for (size_t l = 0; l < lines.size(); ++l) {
    const std::string& h = lines[l];
    if (h.rfind("NAMESPACE", 0) != 0) continue;
    const bool pods = h.find("   NODE ") != std::string::npos;
    const bool workloads = h.find("   QUEUE ") != std::string::npos;
    if (!pods && !workloads) continue;
    for (auto& row : Rows(lines, l)) {
      const std::string key = row["NAMESPACE"] + "/" + row["NAME"];
      if (pods) {
        const std::string& s = row["STATUS"];
        view.pods[key] = s == "Bound"     ? "bound:" + row["NODE"]
                         : s == "Pending" ? "pending"
                         : s == "Deleted" ? "deleted"
                         : s == "NotCreated" ? "not-created"
                                          : s;
      } else {
        view.workloads[key] = {StateOfTable(row["STATUS"]), row["CLUSTERQUEUE"],
                               FlavorsOfTable(row["FLAVORS"])};
      }
    }
  }
  return view;
}

PlanView ParseWorkloadExplain(const std::string& key, const std::string& text) {
  PlanView view;
  WorkloadFacts f;
  Flavors flavors;
  std::string queue_cq;
  bool in_pods = false;
  const std::string ns = key.substr(0, key.find('/'));
  for (const std::string& line : Lines(text)) {
    std::string value;
    if (line.rfind("Pods (", 0) == 0) {
      in_pods = true;
      continue;
    }
    if (in_pods) {
      if (line.empty()) {
        in_pods = false;
        continue;
      }
      std::istringstream cells(line);
      std::string name, rest;
      cells >> name;
      std::getline(cells, rest);
      rest = Trim(rest);
      view.pods[ns + "/" + name] = rest.rfind("bound to ", 0) == 0       ? "bound:" + rest.substr(9)
                                   : rest.rfind("unschedulable", 0) == 0 ? "pending"
                                   : rest.rfind("not created", 0) == 0   ? "not-created"
                                                                         : rest;
      continue;
    }
    if (Field(line, "Outcome:", &value)) {
      f.state = StateOfOutcome(value.substr(0, value.find(' ')));
    } else if (Field(line, "Queue:", &value)) {
      const size_t arrow = value.find("-> ClusterQueue ");
      if (arrow != std::string::npos) queue_cq = value.substr(arrow + 16);
    } else if (line.rfind("  Admitted ", 0) == 0) {
      // "  Admitted main:  3 pods, cpu=a100, memory=a100"
      const size_t colon = line.find(':');
      const std::string ps = line.substr(11, colon - 11);
      std::istringstream parts(line.substr(colon + 1));
      for (std::string part; std::getline(parts, part, ',');) {
        part = Trim(part);
        const size_t eq = part.find('=');
        if (eq != std::string::npos) flavors[ps][part.substr(0, eq)] = part.substr(eq + 1);
      }
    }
  }
  if (f.state.empty()) return view;  // not a workload explanation (an error)
  f.flavors = Canonical(flavors);
  // explain names the queue's ClusterQueue even while pending; it is the admission's only
  // when there is one.
  f.cluster_queue = flavors.empty() ? "" : queue_cq;
  view.workloads[key] = f;
  return view;
}

PlanView ParsePodExplain(const std::string& key, const std::string& out, const std::string& err) {
  PlanView view;
  for (const std::string& line : Lines(out)) {
    if (line.rfind("Decision: bound to node ", 0) == 0) {
      const std::string rest = line.substr(24);
      view.pods[key] = "bound:" + rest.substr(0, rest.find(':'));
    } else if (line.rfind("Decision: unschedulable", 0) == 0) {
      view.pods[key] = "pending";
    }
  }
  const std::string bound = "is already bound to node ";
  if (const size_t at = err.find(bound); at != std::string::npos) {
    const std::string rest = err.substr(at + bound.size());
    view.pods[key] = "input-bound:" + rest.substr(0, rest.find_first_of(";\n"));
  }
  return view;
}

std::vector<std::string> Disagreements(const PlanView& json, const PlanView& table,
                                       const std::vector<PlanView>& explains) {
  std::vector<std::string> out;
  for (const auto& [key, t] : table.workloads) {
    auto j = json.workloads.find(key);
    if (j == json.workloads.end()) {
      out.push_back("workload " + key + ": in the table, not in the JSON items");
      continue;
    }
    Compare("workload " + key + " state", j->second.state, "json", t.state, "table", &out);
    Compare("workload " + key + " clusterQueue", j->second.cluster_queue, "json", t.cluster_queue,
            "table", &out);
    Compare("workload " + key + " flavors", j->second.flavors, "json", t.flavors, "table", &out);
  }
  for (const auto& [key, j] : json.workloads) {
    if (!table.workloads.contains(key)) {
      out.push_back("workload " + key + ": in the JSON items, not in the table");
    }
  }
  for (const auto& [key, t] : table.pods) {
    auto j = json.pods.find(key);
    // Absent from the items: deleted by the plan, or never created (admission refused it).
    const std::string planned =
        j != json.pods.end() ? j->second : t == "not-created" ? t : std::string("deleted");
    Compare("pod " + key, planned, "json", t, "table", &out);
  }
  for (const auto& [key, j] : json.pods) {
    if (!table.pods.contains(key))
      out.push_back("pod " + key + ": in the JSON items, not in the table");
  }
  for (const PlanView& e : explains) {
    for (const auto& [key, x] : e.workloads) {
      auto j = json.workloads.find(key);
      if (j == json.workloads.end()) {
        out.push_back("workload " + key + ": explained, not in the JSON items");
        continue;
      }
      Compare("workload " + key + " state", x.state, "explain", j->second.state, "json", &out);
      Compare("workload " + key + " clusterQueue", x.cluster_queue, "explain",
              j->second.cluster_queue, "json", &out);
      Compare("workload " + key + " flavors", x.flavors, "explain", j->second.flavors, "json",
              &out);
    }
    for (const auto& [key, x] : e.pods) {
      auto t = table.pods.find(key);
      const std::string planned = t == table.pods.end() ? "absent" : t->second;
      if (!PodAgrees(x, planned)) {
        out.push_back("pod " + key + ": explain says " + x + ", table says " + planned);
      }
    }
  }
  return out;
}

}  // namespace berth::cli::testing
