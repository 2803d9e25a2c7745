"""An agent killed and restarted, with real processes on loopback (issue 16's fault test): a hub
(`berth serve --auto-accept`, examples/fleet's hub objects, Kueue's workerLostTimeout 3s), two
simulated member clusters (`berth cluster --simulate --demo us-2|eu-1`) and an agent process
for each. A Job runs on us-2 (the cheapest); us-2's agent is killed -9: us-2 turns
Available=Unknown with the unreachable taint once its lease lapses, and the Workload is
requeued and dispatched to eu-1, where the job runs; the agent restarted converges: us-2's
copy is removed, the job exists only on eu-1, and us-2 is Available again. Every wait is
bounded; loopback only. Skips (77) without kubectl."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hub_harness import check, condition, exit_code, failures, wait_until  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FLEET = os.path.join(HERE, "..", "..", "examples", "fleet")

JOB = """apiVersion: batch/v1
kind: Job
metadata:
  name: finetune
  namespace: team-a
  labels: {kueue.x-k8s.io/queue-name: training}
spec:
  parallelism: 1
  completions: 1
  suspend: true
  template:
    metadata:
      annotations: {berth.dev/simulated-duration: 10m}
    spec:
      restartPolicy: Never
      containers:
      - name: trainer
        image: registry.example.com/llm-trainer:1.4
        resources:
          requests: {cpu: "8", memory: 32Gi, nvidia.com/gpu: "2"}
          limits: {nvidia.com/gpu: "2"}
"""

KUEUE_CONFIG = """apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
multiKueue:
  workerLostTimeout: 3s
"""


def start(cmd, err_path, pattern, timeout_s=30):
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=open(err_path, "a"), text=True)
    deadline = time.time() + timeout_s
    found = None
    while time.time() < deadline and found is None:
        line = proc.stdout.readline()
        if not line:
            break
        m = re.search(pattern, line)
        if m:
            found = m
    if found is None:
        proc.kill()
        proc.wait()
        raise SystemExit(" ".join(cmd[:3]) + " did not start:\n" + open(err_path).read()[-2000:])
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
    return proc, found


def kubectl(kubeconfig, *args, stdin=None):
    r = subprocess.run(["kubectl", "--kubeconfig", kubeconfig, *args], input=stdin,
                       capture_output=True, text=True, timeout=30)
    return r.returncode, r.stdout, r.stderr


def get(kubeconfig, *args):
    rc, out, _ = kubectl(kubeconfig, "get", *args, "-o", "json")
    return json.loads(out) if rc == 0 else None






def main():
    berth = sys.argv[1]
    if shutil.which("kubectl") is None:
        print("kubectl not found: skipped")
        return 77
    work = tempfile.mkdtemp(prefix="berth-agent-loss-")
    procs = []
    err = os.path.join(work, "stderr.log")
    try:
        hub_files = os.path.join(work, "hub-files")
        os.makedirs(hub_files)
        for name in os.listdir(os.path.join(FLEET, "hub")):
            if name != "jobs.yaml":
                shutil.copy(os.path.join(FLEET, "hub", name), hub_files)
        with open(os.path.join(hub_files, "kueue-config.yaml"), "w") as f:
            f.write(KUEUE_CONFIG)
        hub, _ = start([berth, "serve", "--data", os.path.join(work, "hub"), "--listen", "127.0.0.1:0",
                        "-f", hub_files, "--auto-accept", "--agent-lease", "3s", "--sync-period", "1s",
                        "--loop-period", "1s"], err, r"listening on (https://\S+)")
        procs.append(hub)
        hub_kc = os.path.join(work, "hub", "kubeconfig")
        clusters = {}
        for name in ("us-2", "eu-1"):
            p, _ = start([berth, "cluster", "--simulate", "--demo", name, "--listen", "127.0.0.1:0",
                          "--data", os.path.join(work, name)], err, r"simulated member cluster on (https://\S+)")
            procs.append(p)
            clusters[name] = os.path.join(work, name, "kubeconfig")

        def agent(name):
            p, _ = start([berth, "agent", "--hub-kubeconfig", hub_kc, "--cluster", name,
                          "--kubeconfig", clusters[name], "--state", os.path.join(work, name + "-agent"),
                          "--orphan-grace", "0s"], err, r"syncing with")
            procs.append(p)
            return p
        agents = {name: agent(name) for name in clusters}

        def available(name):
            def f():
                mc = get(hub_kc, "managedcluster", name)
                c = condition(mc, "ManagedClusterConditionAvailable")
                ok = c and c["status"] == "True" and mc.get("status", {}).get("allocatable")
                return mc if ok else None
            return f
        for name in clusters:
            wait_until(f"{name} joins with its inventory", available(name), 30)

        rc, out, e = kubectl(hub_kc, "create", "-f", "-", stdin=JOB)
        check(rc == 0, "the job is submitted to the hub", out + e)

        def on(cluster):
            def f():
                w = get(hub_kc, "workload", "-n", "team-a", "job-finetune")
                return w if w and w.get("status", {}).get("clusterName") == cluster else None
            return f

        def running_on(cluster):
            def f():
                pods = get(clusters[cluster], "pods", "-n", "team-a")
                running = [p for p in (pods or {}).get("items", []) if p["status"].get("phase") == "Running"]
                return running or None
            return f
        check(wait_until("the workload is placed on us-2", on("us-2"), 30) is not None, "placed on us-2 first")
        check(wait_until("its pod runs on us-2", running_on("us-2"), 30) is not None, "running on us-2")

        # us-2's agent dies.
        agents["us-2"].send_signal(signal.SIGKILL)
        agents["us-2"].wait()
        killed = time.time()

        def lost():
            mc = get(hub_kc, "managedcluster", "us-2")
            c = condition(mc, "ManagedClusterConditionAvailable")
            taints = [t["key"] for t in (mc or {}).get("spec", {}).get("taints", []) or []]
            return mc if c and c["status"] == "Unknown" and \
                "cluster.open-cluster-management.io/unreachable" in taints else None
        mc = wait_until("us-2 turns Unknown and tainted", lost, 20)
        check(mc is not None, "us-2 is Available=Unknown with the unreachable taint after the lease")
        if mc:
            print(f"     after {time.time() - killed:.1f} s (lease 3 s)")
        check(wait_until("the workload is re-dispatched to eu-1", on("eu-1"), 30) is not None,
              "re-dispatched to eu-1 after workerLostTimeout")
        print(f"     re-dispatched {time.time() - killed:.1f} s after the agent died")
        check(wait_until("the job runs on eu-1", running_on("eu-1"), 30) is not None, "the job runs on eu-1")
        # While us-2 is cut off its copy may still run: the hub cannot reach it.

        # The agent comes back with its state: it learns its work is gone and removes it.
        agents["us-2"] = agent("us-2")
        check(wait_until("us-2 is Available again", available("us-2"), 20) is not None, "us-2 is Available again")

        def removed():
            jobs = get(clusters["us-2"], "jobs", "-n", "team-a")
            return jobs if jobs is not None and not jobs["items"] else None
        check(wait_until("us-2's copy of the job is removed", removed, 20) is not None,
              "the original is removed on reconnect")
        eu_jobs = get(clusters["eu-1"], "jobs", "-n", "team-a")
        check(eu_jobs is not None and [j["metadata"]["name"] for j in eu_jobs["items"]] == ["finetune"],
              "the job exists only on eu-1", eu_jobs)
        w = get(hub_kc, "workload", "-n", "team-a", "job-finetune")
        check(w is not None and w["status"].get("clusterName") == "eu-1", "the hub still places it on eu-1",
              (w or {}).get("status"))
        mc = get(hub_kc, "managedcluster", "us-2")
        check(not (mc or {}).get("spec", {}).get("taints"), "us-2's taint is removed", (mc or {}).get("spec"))
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in reversed(procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if failures:
            print(open(err).read()[-4000:])
        shutil.rmtree(work, ignore_errors=True)
    return exit_code()


if __name__ == "__main__":
    sys.exit(main())
