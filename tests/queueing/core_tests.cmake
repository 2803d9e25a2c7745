# The admission core's tests, appended to the queueing test binary.
list(APPEND QUEUEING_TEST_SRCS
  admission_test.cc
  apply_decisions_test.cc
  workload_status_test.cc
  flavor_assigner_test.cc
  preemption_test.cc
  quota_tree_test.cc
  queue_setup_test.cc
  quota_probe_test.cc)
# Fair sharing (#4).
list(APPEND QUEUEING_TEST_SRCS fair_sharing_test.cc fair_sharing_preemptor_test.cc)
# Admission Fair Sharing (#4).
list(APPEND QUEUEING_TEST_SRCS admission_fair_sharing_test.cc)
# Kueue's own tables, ported as data (tests/queueing/upstream/*.yaml).
list(APPEND QUEUEING_TEST_SRCS upstream_preemption_test.cc resources_to_reserve_test.cc
  upstream_flavor_assigner_test.cc)
list(APPEND QUEUEING_TEST_SRCS upstream_schedule_test.cc)
# DRA-backed quota (#13): kueue pkg/dra claims_test.go.
list(APPEND QUEUEING_TEST_SRCS dra_quota_test.cc)
