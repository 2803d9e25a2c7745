"""The whole loop on one machine (issue 16's first acceptance test): `berth up --demo` starts a
hub, three simulated member clusters (eu-1, us-2, ap-1) and their agents on loopback ports;
a training Job submitted with kubectl to the hub is admitted, placed on the cheapest cluster
that fits (us-2, the spot cluster with its own Kueue), applied there by its agent, run by the
cluster's Job controller and simulated kubelet, reported back through the ManifestWork's
status feedback, and the hub's Workload turns Finished with its ClusterQueue's usage back to
zero; then SIGTERM stops everything cleanly. Every wait is bounded; loopback only. Skips
(77) without kubectl."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hub_harness import check, condition, exit_code, stop_up, wait_until  # noqa: E402


def kubectl(kubeconfig, context, *args, stdin=None, timeout=30):
    r = subprocess.run(["kubectl", "--kubeconfig", kubeconfig, "--context", context, *args],
                       input=stdin, capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout, r.stderr


def get_json(kubeconfig, context, *args):
    rc, out, err = kubectl(kubeconfig, context, "get", *args, "-o", "json")
    if rc != 0:
        return None
    return json.loads(out)






def main():
    berth = sys.argv[1]
    if shutil.which("kubectl") is None:
        print("kubectl not found: skipped")
        return 77
    work = tempfile.mkdtemp(prefix="berth-up-")
    data = os.path.join(work, "data")
    err_path = os.path.join(work, "up.err")
    up = subprocess.Popen([berth, "up", "--demo", "--port", "0", "--data", data,
                           "--sync-period", "1s", "--agent-lease", "5s"],
                          stdout=subprocess.PIPE, stderr=open(err_path, "w"), text=True)
    lines = []
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            line = up.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("Stop with Ctrl-C"):
                break
        printed = "".join(lines)
        if not check("Stop with Ctrl-C" in printed, "berth up prints what to try and keeps running",
                     printed + open(err_path).read()[-2000:]):
            return exit_code()
        threading.Thread(target=lambda: [None for _ in up.stdout], daemon=True).start()
        kubeconfig = os.path.join(data, "kubeconfig")
        for name in ("hub", "eu-1", "us-2", "ap-1"):
            check(re.search(r"^\s+" + re.escape(name) + r"\s+https://127\.0\.0\.1:\d+", printed, re.M)
                  is not None, f"the {name} address is printed", printed)
        rc, out, _ = kubectl(kubeconfig, "hub", "config", "get-contexts", "-o", "name")
        check(sorted(out.split()) == ["ap-1", "eu-1", "hub", "us-2"], "the kubeconfig has the four contexts", out)

        def available():
            mcs = get_json(kubeconfig, "hub", "managedclusters")
            if not mcs:
                return None
            ok = {m["metadata"]["name"] for m in mcs["items"]
                  if (condition(m, "ManagedClusterConditionAvailable") or {}).get("status") == "True"
                  and (condition(m, "ManagedClusterJoined") or {}).get("status") == "True"}
            return ok if ok == {"eu-1", "us-2", "ap-1"} else None
        check(wait_until("the three clusters join and are Available", available, 30) is not None,
              "the fleet is Available")
        def allocatable():
            mc = get_json(kubeconfig, "hub", "managedcluster", "us-2")
            gpus = (mc or {}).get("status", {}).get("allocatable", {}).get("nvidia.com/gpu")
            return mc if gpus == "32" else None
        check(wait_until("us-2's inventory reaches the hub", allocatable, 30) is not None,
              "us-2's allocatable is summed from its agent's Nodes")

        job = os.path.join(data, "try-job.yaml")
        rc, out, err = kubectl(kubeconfig, "hub", "create", "-f", job)
        check(rc == 0, "kubectl create -f try-job.yaml on the hub", out + err)

        def placed():
            w = get_json(kubeconfig, "hub", "workload", "-n", "team-a", "job-finetune-demo")
            return w if w and w.get("status", {}).get("clusterName") else None
        w = wait_until("the hub's Workload is admitted and placed", placed, 30)
        check(w is not None and w["status"]["clusterName"] == "us-2",
              "placed on us-2, the cheapest cluster that fits", (w or {}).get("status"))

        def member_job():
            j = get_json(kubeconfig, "us-2", "job", "-n", "team-a", "finetune-demo")
            return j if j and (condition(j, "Complete") or {}).get("status") == "True" else None
        j = wait_until("the job runs and completes on us-2", member_job, 60)
        check(j is not None and j["status"].get("succeeded") == 2, "us-2's Job succeeded with 2 pods",
              (j or {}).get("status"))
        pods = get_json(kubeconfig, "us-2", "pods", "-n", "team-a")
        phases = sorted(p["status"].get("phase") for p in (pods or {}).get("items", []))
        check(phases == ["Succeeded", "Succeeded"], "its two pods ran on us-2's nodes", phases)
        bound = all(p["spec"].get("nodeName", "").startswith("us-2-") for p in (pods or {}).get("items", []))
        check(bound, "bound by us-2's scheduler to us-2's nodes")

        def finished():
            w = get_json(kubeconfig, "hub", "workload", "-n", "team-a", "job-finetune-demo")
            c = condition(w, "Finished")
            return w if c and c.get("status") == "True" else None
        w = wait_until("the hub's Workload turns Finished", finished, 30)
        check(w is not None and condition(w, "Finished")["reason"] == "Succeeded",
              "Finished with reason Succeeded", (w or {}).get("status"))

        def usage_zero():
            cq = get_json(kubeconfig, "hub", "clusterqueue", "training")
            usage = (cq or {}).get("status", {}).get("flavorsUsage", [])
            totals = [r.get("total") for f in usage for r in f.get("resources", [])]
            return cq if totals and all(t == "0" for t in totals) else None
        check(wait_until("the ClusterQueue's usage returns to zero", usage_zero, 20) is not None,
              "ClusterQueue training uses nothing again")
        works = get_json(kubeconfig, "hub", "manifestworks", "-A")
        check(works is not None and not works["items"], "the finished workload's ManifestWork is removed",
              [i["metadata"]["name"] for i in (works or {}).get("items", [])])
    finally:
        stop_up(up, err_path, work, 3000)
    return exit_code()



if __name__ == "__main__":
    sys.exit(main())
