#!/usr/bin/python3
"""berth serve end to end, with the clients the hub must satisfy unchanged: the machine's
kubectl (v1.32) and Debian's python3-kubernetes, against a real `berth serve` process on
127.0.0.1 (a free port), with a token file of an admin and a tenant.

Usage: serve_e2e.py PATH/TO/berth. Exit 0 on success, 77 (CTest's skip) when kubectl or
python3-kubernetes is missing, 1 with the failed check printed otherwise. Every wait is
bounded; the hub is stopped (SIGTERM, then SIGKILL) whatever happens.
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

BERTH = sys.argv[1]
KUBECTL = shutil.which("kubectl")
try:
    import kubernetes  # noqa: F401  (Debian's python3-kubernetes)
except ImportError:
    kubernetes = None
if KUBECTL is None or kubernetes is None:
    print("skipped: needs kubectl and python3-kubernetes")
    sys.exit(77)
from kubernetes import client, config, watch  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hub_harness  # noqa: E402
from hub_harness import check, stop_hub  # noqa: E402

WORK = tempfile.mkdtemp(prefix="berth-serve-e2e-")
ADMIN_TOKEN = "admin-" + os.urandom(8).hex()
ALICE_TOKEN = "alice-" + os.urandom(8).hex()


def start_hub():
    return hub_harness.start_hub(BERTH, ["--data", os.path.join(WORK, "data"), "--listen", "127.0.0.1:0",
                                         "--tokens", os.path.join(WORK, "tokens.csv")],
                                 os.path.join(WORK, "hub.err"))


def write_kubeconfig(name, url, token):
    ca = base64.b64encode(open(os.path.join(WORK, "data", "tls.crt"), "rb").read()).decode()
    path = os.path.join(WORK, name + ".kubeconfig")
    with open(path, "w") as f:
        f.write(f"""apiVersion: v1
kind: Config
clusters:
- name: hub
  cluster:
    server: {url}
    certificate-authority-data: {ca}
contexts:
- name: hub
  context: {{cluster: hub, user: {name}}}
current-context: hub
users:
- name: {name}
  user: {{token: {token}}}
""")
    return path


def kubectl(kubeconfig, *args, stdin=None, timeout=30):
    env = dict(os.environ, HOME=WORK, KUBECACHEDIR=os.path.join(WORK, "cache"))
    return subprocess.run([KUBECTL, "--kubeconfig", kubeconfig, *args], input=stdin, env=env,
                          capture_output=True, text=True, timeout=timeout)


QUEUES = """
apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: a100}
spec: {nodeLabels: {nvidia.com/gpu.product: A100}}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: research}
spec:
  cohort: all
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu, nvidia.com/gpu]
    flavors:
    - name: a100
      resources:
      - {name: cpu, nominalQuota: 64}
      - {name: nvidia.com/gpu, nominalQuota: 8}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: main, namespace: team-a}
spec: {clusterQueue: research}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: main, namespace: team-b}
spec: {clusterQueue: research}
---
apiVersion: v1
kind: Node
metadata:
  name: gpu-1
  labels: {nvidia.com/gpu.product: A100}
"""
NODE_CAPACITY = {"cpu": "32", "memory": "256Gi", "nvidia.com/gpu": "8", "pods": "110"}

NAMESPACES = """
apiVersion: v1
kind: Namespace
metadata: {name: team-a}
---
apiVersion: v1
kind: Namespace
metadata: {name: team-b}
"""

JOB = """
apiVersion: batch/v1
kind: Job
metadata:
  name: train
  namespace: team-a
  labels: {kueue.x-k8s.io/queue-name: main}
spec:
  parallelism: 2
  completions: 2
  suspend: true
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: busybox
        resources:
          requests: {cpu: "1", nvidia.com/gpu: "1"}
          limits: {nvidia.com/gpu: "1"}
"""

TENANT_RBAC = """
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: submitter, namespace: team-a}
rules:
- apiGroups: ["", batch, kueue.x-k8s.io]
  resources: [jobs, localqueues, workloads, pods]
  verbs: [get, list, watch, create, update, patch, delete]
- apiGroups: [visibility.kueue.x-k8s.io]
  resources: [localqueues/pendingworkloads]
  verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: alice-submits, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: submitter}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}
"""


def main():
    # A token file that does not parse stops the hub before it serves, naming the line.
    with open(os.path.join(WORK, "bad-tokens.csv"), "w") as f:
        f.write("ok,user,1\n\"unclosed,user,2\n")
    r = subprocess.run([BERTH, "serve", "--data", os.path.join(WORK, "bad"), "--listen", "127.0.0.1:0",
                        "--tokens", os.path.join(WORK, "bad-tokens.csv")],
                       capture_output=True, text=True, timeout=30)
    check(r.returncode == 2 and "line 2: unterminated quoted field" in r.stderr,
          "a malformed token file is refused with its line, exit 2", r.stderr)
    with open(os.path.join(WORK, "tokens.csv"), "w") as f:
        f.write(f'{ADMIN_TOKEN},admin,1,"system:masters"\n{ALICE_TOKEN},alice,2\n')
    hub, url = start_hub()
    try:
        admin = write_kubeconfig("admin", url, ADMIN_TOKEN)
        alice = write_kubeconfig("alice", url, ALICE_TOKEN)

        # `kubectl create namespace` sends protobuf (berth reads it for metadata-only objects);
        # a manifest is JSON.
        r = kubectl(admin, "create", "namespace", "team-a")
        check(r.returncode == 0 and "namespace/team-a created" in r.stdout, "kubectl create namespace (protobuf)",
              r.stdout + r.stderr)
        r = kubectl(admin, "create", "-f", "-", stdin=NAMESPACES)
        check(r.returncode != 0 and "AlreadyExists" in r.stderr and "namespace/team-b created" in r.stdout,
              "kubectl create -f of namespaces (one exists already)", r.stdout + r.stderr)
        r = kubectl(admin, "apply", "-f", "-", stdin=QUEUES)
        check(r.returncode == 0 and "clusterqueue.kueue.x-k8s.io/research created" in r.stdout,
              "kubectl apply of flavors, queues and a node", r.stdout + r.stderr)
        r = kubectl(admin, "apply", "-f", "-", stdin=QUEUES)
        check(r.returncode == 0 and "unchanged" in r.stdout, "kubectl apply again: unchanged",
              r.stdout + r.stderr)
        # A node's capacity is status, which kubelet writes (through /status, as here).
        r = kubectl(admin, "patch", "node", "gpu-1", "--subresource=status", "--type=merge", "-p",
                    json.dumps({"status": {"capacity": NODE_CAPACITY, "allocatable": NODE_CAPACITY}}))
        check(r.returncode == 0, "kubectl patch --subresource=status of the node", r.stderr)
        r = kubectl(admin, "apply", "--server-side", "-f", "-", stdin=QUEUES)
        check(r.returncode == 0 and "serverside-applied" in r.stdout, "kubectl apply --server-side",
              r.stdout + r.stderr)
        # Another field manager changing a field kubectl applied: a conflict kubectl reports,
        # until it forces.
        other = ("apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
                 "metadata: {name: main, namespace: team-b}\nspec: {clusterQueue: elsewhere}\n")
        r = kubectl(admin, "apply", "--server-side", "--field-manager=platform", "-f", "-", stdin=other)
        check(r.returncode != 0 and 'Apply failed with 1 conflict: conflict with "kubectl": .spec.clusterQueue'
              in r.stderr, "kubectl apply --server-side by another manager: the conflict", r.stderr)
        r = kubectl(admin, "apply", "--server-side", "--field-manager=platform", "--force-conflicts",
                    "-f", "-", stdin=other.replace("elsewhere", "research"))
        check(r.returncode == 0 and "serverside-applied" in r.stdout, "--force-conflicts takes the field",
              r.stdout + r.stderr)
        r = kubectl(admin, "create", "-f", "-", stdin=JOB)
        check(r.returncode == 0 and "job.batch/train created" in r.stdout, "kubectl create job",
              r.stdout + r.stderr)
        # The scheduling loop admits its Workload and binds its pods within one period (5 s).
        deadline = time.time() + 8
        admitted = bound = ""
        while time.time() < deadline:
            admitted = kubectl(admin, "get", "workloads", "-n", "team-a").stdout
            bound = kubectl(admin, "get", "pods", "-n", "team-a", "-o",
                            "custom-columns=NAME:.metadata.name,NODE:.spec.nodeName").stdout
            if re.search(r"job-train\s+main\s+research\s+True", admitted) and bound.count("gpu-1") == 2:
                break
            time.sleep(0.3)
        check(re.search(r"NAME\s+QUEUE\s+RESERVED IN\s+ADMITTED\s+FINISHED\s+AGE", admitted) is not None
              and re.search(r"job-train\s+main\s+research\s+True", admitted) is not None,
              "the job's Workload is admitted within a loop period (kubectl get workloads)", admitted)
        check(bound.count("gpu-1") == 2, "its pods are bound to the node", bound)
        r = kubectl(admin, "get", "job", "train", "-n", "team-a", "-o", "jsonpath={.spec.suspend}")
        check(r.stdout == "false", "Kueue's job integration: the admitted job is unsuspended", r.stdout + r.stderr)

        r = kubectl(admin, "get", "localqueues", "-A")
        check(r.returncode == 0 and re.search(r"NAMESPACE\s+NAME\s+CLUSTERQUEUE", r.stdout) is not None,
              "kubectl get localqueues prints the upstream columns", r.stdout + r.stderr)
        r = kubectl(admin, "get", "jobs", "-n", "team-a")
        check(r.returncode == 0 and re.search(r"NAME\s+STATUS\s+COMPLETIONS", r.stdout) is not None
              and "train" in r.stdout, "kubectl get jobs", r.stdout + r.stderr)

        # A refused object names its field, and nothing is stored.
        bad = JOB.replace('cpu: "1"', 'cpu: "one"').replace("name: train", "name: bad")
        r = kubectl(admin, "create", "-f", "-", stdin=bad)
        check(r.returncode != 0 and 'The Job "bad" is invalid' in r.stderr and "requests.cpu" in r.stderr,
              "an invalid job is refused naming the field", r.stderr)
        r = kubectl(admin, "get", "job", "bad", "-n", "team-a")
        check(r.returncode != 0 and "NotFound" in r.stderr, "the refused job was not stored", r.stderr)

        # A stale update is 409 Conflict.
        r = kubectl(admin, "get", "job", "train", "-n", "team-a", "-o", "json")
        stale = json.loads(r.stdout)
        kubectl(admin, "label", "job", "train", "-n", "team-a", "step=1")
        stale["metadata"].setdefault("labels", {})["step"] = "2"
        r = kubectl(admin, "replace", "-f", "-", stdin=json.dumps(stale))
        check(r.returncode != 0 and "Conflict" in r.stderr and "has been modified" in r.stderr,
              "kubectl replace with a stale resourceVersion gets 409", r.stderr)

        # get -w streams a change made after it started.
        env = dict(os.environ, HOME=WORK, KUBECACHEDIR=os.path.join(WORK, "cache"))
        w = subprocess.Popen([KUBECTL, "--kubeconfig", admin, "get", "localqueues", "-n", "team-a",
                              "-w", "--request-timeout=0"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        time.sleep(2)
        kubectl(admin, "label", "localqueue", "main", "-n", "team-a", "watched=yes")
        lines = []
        deadline = time.time() + 10
        os.set_blocking(w.stdout.fileno(), False)
        while time.time() < deadline and len([l for l in lines if l.startswith("main")]) < 2:
            chunk = w.stdout.readline()
            if chunk:
                lines.append(chunk)
            else:
                time.sleep(0.1)
        w.kill()
        w.wait()
        check(len([l for l in lines if l.startswith("main")]) >= 2,
              "kubectl get -w prints the row again after a change", "".join(lines))

        # Tenancy: alice may work in team-a only.
        r = kubectl(alice, "get", "jobs", "-n", "team-a")
        check(r.returncode != 0 and "Forbidden" in r.stderr, "alice before any binding: 403", r.stderr)
        r = kubectl(admin, "apply", "-f", "-", stdin=TENANT_RBAC)
        check(r.returncode == 0, "kubectl apply of a Role and RoleBinding", r.stderr)
        r = kubectl(alice, "get", "jobs", "-n", "team-a")
        check(r.returncode == 0 and "train" in r.stdout, "alice lists her namespace's jobs", r.stderr)
        r = kubectl(alice, "get", "localqueues", "-n", "team-b")
        check(r.returncode != 0 and "Forbidden" in r.stderr and 'User "alice" cannot list resource' in r.stderr,
              "alice cannot list another namespace (403), even a same-named LocalQueue", r.stderr)
        r = kubectl(alice, "get", "jobs", "-A")
        check(r.returncode != 0 and "Forbidden" in r.stderr, "alice cannot list every namespace", r.stderr)
        r = kubectl(alice, "get", "clusterqueues")
        check(r.returncode != 0 and "Forbidden" in r.stderr, "alice cannot list ClusterQueues", r.stderr)

        # Kueue's visibility API: a job too big for the quota waits in team-b's queue "main"
        # (the same name as team-a's); alice's LocalQueue view never shows it.
        big = JOB.replace("team-a", "team-b").replace("name: train", "name: huge").replace(
            'nvidia.com/gpu: "1"}', 'nvidia.com/gpu: "50"}').replace('{nvidia.com/gpu: "1"}', '{nvidia.com/gpu: "50"}')
        r = kubectl(admin, "create", "-f", "-", stdin=big)
        check(r.returncode == 0, "a job bigger than the quota is created", r.stderr)
        view = "/apis/visibility.kueue.x-k8s.io/v1beta1/clusterqueues/research/pendingworkloads"
        summary = {}
        deadline = time.time() + 8
        while time.time() < deadline:
            r = kubectl(admin, "get", "--raw", view)
            summary = json.loads(r.stdout) if r.returncode == 0 else {}
            if summary.get("items"):
                break
            time.sleep(0.3)
        items = summary.get("items", [])
        check(len(items) == 1 and items[0]["metadata"]["name"] == "job-huge"
              and items[0]["positionInClusterQueue"] == 0 and items[0]["localQueueName"] == "main",
              "admin: the ClusterQueue view lists the pending workload at position 0", summary)
        r = kubectl(alice, "get", "--raw",
                    "/apis/visibility.kueue.x-k8s.io/v1beta1/namespaces/team-a/localqueues/main/pendingworkloads")
        check(r.returncode == 0 and json.loads(r.stdout)["items"] == [],
              "alice: her LocalQueue view does not show team-b's workload", r.stdout + r.stderr)
        r = kubectl(alice, "get", "--raw",
                    "/apis/visibility.kueue.x-k8s.io/v1beta1/namespaces/team-b/localqueues/main/pendingworkloads")
        check(r.returncode != 0 and "Forbidden" in r.stderr, "alice: team-b's LocalQueue view is 403", r.stderr)
        r = kubectl(alice, "get", "--raw", view)
        check(r.returncode != 0 and "Forbidden" in r.stderr, "alice: the ClusterQueue view is 403", r.stderr)

        # Debian's python3-kubernetes: CoreV1Api and CustomObjectsApi, list, create, watch.
        config.load_kube_config(config_file=alice)
        co = client.CustomObjectsApi()
        lqs = co.list_namespaced_custom_object("kueue.x-k8s.io", "v1beta2", "team-a", "localqueues")
        check([i["metadata"]["name"] for i in lqs["items"]] == ["main"], "python: list localqueues")
        rv = lqs["metadata"]["resourceVersion"]
        made = co.create_namespaced_custom_object("kueue.x-k8s.io", "v1beta2", "team-a", "localqueues", {
            "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
            "metadata": {"name": "py"}, "spec": {"clusterQueue": "research"}})
        check(made["metadata"]["name"] == "py" and made["metadata"]["uid"], "python: create")
        seen = [ev["object"]["metadata"]["name"] for ev in watch.Watch().stream(
            co.list_namespaced_custom_object, "kueue.x-k8s.io", "v1beta2", "team-a", "localqueues",
            resource_version=rv, timeout_seconds=2)]
        check("py" in seen, "python: watch from a resourceVersion sees the create", str(seen))
        try:
            co.list_namespaced_custom_object("kueue.x-k8s.io", "v1beta2", "team-b", "localqueues")
            check(False, "python: another namespace is 403")
        except client.exceptions.ApiException as e:
            check(e.status == 403, "python: another namespace is 403", str(e.status))
        core = client.CoreV1Api()
        pods = core.list_namespaced_pod("team-a")
        check(sorted(p.spec.node_name for p in pods.items) == ["gpu-1", "gpu-1"],
              "python: CoreV1Api list pods (bound)", str([p.metadata.name for p in pods.items]))
        try:
            core.list_node()
            check(False, "python: nodes are 403 for alice")
        except client.exceptions.ApiException as e:
            check(e.status == 403, "python: nodes are 403 for alice", str(e.status))

        # Kueue's metrics, by Kueue's names, for the admitted job.
        r = subprocess.run(["curl", "-sk", "-H", "Authorization: Bearer " + ADMIN_TOKEN, url + "/metrics"],
                           capture_output=True, text=True)
        check('kueue_admitted_workloads_total{cluster_queue="research"' in r.stdout
              and 'kueue_cluster_queue_nominal_quota{cohort="all",cluster_queue="research",flavor="a100",'
                  'resource="nvidia.com/gpu",replica_role="standalone"} 8' in r.stdout
              and "berth_cycle_duration_seconds_bucket" in r.stdout,
              "/metrics has Kueue's series and the loop's", r.stdout[:2000])

        # No token: 401.
        r = subprocess.run(["curl", "-sk", url + "/api/v1/namespaces"], capture_output=True, text=True)
        check('"code":401' in r.stdout, "no token: 401", r.stdout)
    finally:
        rc = stop_hub(hub)
    check(rc == 0, "SIGTERM drains and exits 0", str(rc))

    # A restart serves what was stored.
    hub, url = start_hub()
    try:
        admin = write_kubeconfig("admin", url, ADMIN_TOKEN)
        r = kubectl(admin, "get", "localqueues", "-n", "team-a", "-o", "name")
        check(r.returncode == 0 and "localqueue.kueue.x-k8s.io/py" in r.stdout,
              "after a restart the objects are there", r.stdout + r.stderr)
    finally:
        stop_hub(hub)


try:
    main()
finally:
    shutil.rmtree(WORK, ignore_errors=True)
sys.exit(hub_harness.exit_code())
