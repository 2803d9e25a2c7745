# Topology-aware scheduling (Kueue TAS) tests.
list(APPEND QUEUEING_TEST_SRCS
  topology_snapshot_test.cc
  topology_assigner_test.cc
  topology_scale_test.cc
  tas_admission_test.cc
  upstream_schedule_tas_test.cc)
