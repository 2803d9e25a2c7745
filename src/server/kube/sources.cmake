# The Kubernetes API client (kube_client.h), appended to the server module's sources.
list(APPEND BERTH_SERVER_PARTS
  kube/kube_client.cc
  kube/in_process_transport.cc
  kube/http_transport.cc
  kube/kubeconfig.cc)
list(APPEND BERTH_SERVER_PARTS kube/reflector.cc)
