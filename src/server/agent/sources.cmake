# The hub-agent sync protocol (README.md here).
list(APPEND BERTH_SERVER_PARTS
  agent/agent_hub.cc
  agent/agent_runner.cc
  agent/sync_protocol.cc)
