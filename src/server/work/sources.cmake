# The work agent's apply logic (work_applier.h: OCM ManifestWork semantics on a member
# cluster), appended to the server module's sources.
list(APPEND BERTH_SERVER_PARTS
  work/applied_record.cc
  work/applied_resource_gc.cc
  work/condition_rules.cc
  work/delete_option.cc
  work/feedback_json_path.cc
  work/manifest_applier.cc
  work/manifest_config.cc
  work/owner_mark.cc
  work/resource_meta.cc
  work/status_feedback.cc
  work/work_applier.cc
  work/work_conditions.cc)
