// The doctor's rule catalogue, one function per area appending its rules (rules/<area>.cc).
// docs/doctor/<id>.md documents each rule; tests/diag/rules_<area>_test.cc tests it.
#pragma once

#include <vector>

#include "diag/doctor_rule.h"

namespace berth::diag::rules {

void AddGpuStackRules(std::vector<Rule>& out);    // device plugin, GFD, MIG, sharing, versions
void AddSchedulingRules(std::vector<Rule>& out);  // taints, selectors, sizes, spread, gangs
void AddKueueRules(std::vector<Rule>& out);
void AddDraRules(std::vector<Rule>& out);
void AddOcmRules(std::vector<Rule>& out);
void AddTenancyRules(std::vector<Rule>& out);     // quotas, network policies, RBAC, privilege
void AddOperationsRules(std::vector<Rule>& out);  // PDBs, cordons, priorities, limits
void AddStorageRules(std::vector<Rule>& out);

}  // namespace berth::diag::rules
