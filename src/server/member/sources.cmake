# A simulated member cluster's controllers and kubelet (README.md), compiled into the server
# module (src/server/CMakeLists.txt includes this file).
list(APPEND BERTH_SERVER_PARTS
  member/apply_changes.cc
  member/controller_round.cc
  member/deployment_controller.cc
  member/durations.cc
  member/garbage_collector.cc
  member/job_controller.cc
  member/jobset_controller.cc
  member/kubelet.cc
  member/lws_controller.cc
  member/member_json.cc
  member/member_objects.cc
  member/member_state.cc
  member/naming.cc
  member/node_faults.cc
  member/pod_util.cc
  member/pytorchjob_controller.cc
  member/replicaset_controller.cc
  member/statefulset_controller.cc)
