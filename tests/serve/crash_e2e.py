#!/usr/bin/python3
"""kill -9 durability of berth serve: concurrent creates over HTTPS, the hub killed with
SIGKILL mid-way several times and restarted on the same data. After each restart: every
create the hub acknowledged (201) exists exactly once, resourceVersions only increase, and a
watch from a resourceVersion before the kill either resumes (ADDED events for what came
after) or gets 410 Gone. A create whose answer was lost in the kill is retried and gets 201
or 409 AlreadyExists, never a second copy.

Usage: crash_e2e.py PATH/TO/berth [CREATES] [KILLS]. Python standard library only.
"""
import http.client
import json
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hub_harness  # noqa: E402
from hub_harness import check, https_call, port_of, start_hub, stop_hub  # noqa: E402

BERTH = sys.argv[1]
CREATES = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
KILLS = int(sys.argv[3]) if len(sys.argv) > 3 else 4
THREADS = 16
WORK = tempfile.mkdtemp(prefix="berth-crash-e2e-")
DATA = os.path.join(WORK, "data")
PATH = "/apis/kueue.x-k8s.io/v1beta2/namespaces/default/localqueues"


def start():
    hub, url = start_hub(BERTH, ["--data", DATA, "--listen", "127.0.0.1:0", "--no-loop"],
                         os.path.join(WORK, "hub.err"))
    token = re.search(r"token: (\S+)", open(os.path.join(DATA, "kubeconfig")).read()).group(1)
    return hub, port_of(url), token


def request(port, token, method, path, body=None, timeout=10):
    return https_call(port, token, method, path, body, timeout)


def body(name):
    return {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
            "metadata": {"name": name}, "spec": {"clusterQueue": "cq"}}


def list_all(port, token):
    names, cont, rv = {}, "", 0
    while True:
        status, data = request(port, token, "GET", PATH + "?limit=100" + ("&continue=" + cont if cont else ""))
        if status != 200:
            raise RuntimeError(f"list: {status} {data[:200]}")
        page = json.loads(data)
        rv = max(rv, int(page["metadata"]["resourceVersion"]))
        for item in page["items"]:
            n = item["metadata"]["name"]
            names[n] = names.get(n, 0) + 1
        cont = page["metadata"].get("continue", "")
        if not cont:
            return names, rv


def main():
    names = [f"lq-{i:05d}" for i in range(CREATES)]
    acked = {}          # name -> resourceVersion of the 201
    in_doubt = set()    # sent, no answer (the kill)
    lock = threading.Lock()
    todo = list(names)
    hub, port, token = start()
    max_rv_seen = 0
    kill_points = sorted(random.Random(7).sample(range(CREATES // 10, CREATES - CREATES // 10), KILLS))
    round_no = 0
    while todo:
        next_kill = kill_points[round_no] if round_no < len(kill_points) else None
        stop = threading.Event()
        status, data = request(port, token, "GET", PATH + "?limit=1")
        watch_rv = json.loads(data)["metadata"]["resourceVersion"]

        def worker():
            while not stop.is_set():
                with lock:
                    if not todo:
                        return
                    name = todo.pop()
                try:
                    st, data = request(port, token, "POST", PATH, body(name), timeout=5)
                except (OSError, http.client.HTTPException):
                    with lock:
                        in_doubt.add(name)
                    continue
                with lock:
                    if st == 201:
                        acked[name] = int(json.loads(data)["metadata"]["resourceVersion"])
                        in_doubt.discard(name)
                    elif st == 409:
                        # A retry of a create whose answer was lost: it exists once.
                        in_doubt.discard(name)
                        acked.setdefault(name, 0)
                    else:
                        in_doubt.add(name)

        threads = [threading.Thread(target=worker) for _ in range(THREADS)]
        for t in threads:
            t.start()
        killed = False
        while any(t.is_alive() for t in threads):
            with lock:
                n = len(acked)
            if next_kill is not None and n >= next_kill and not killed:
                hub.send_signal(signal.SIGKILL)
                hub.wait()
                killed = True
                stop.set()
            time.sleep(0.005)
        for t in threads:
            t.join()
        if not killed:
            break
        round_no += 1
        with lock:
            todo.extend(sorted(in_doubt))
            in_doubt.clear()
        hub, port, token = start()
        stored, rv = list_all(port, token)
        missing = [n for n in acked if n not in stored]
        dupes = [n for n, c in stored.items() if c != 1]
        check(not missing, f"kill {round_no}: every acknowledged create survived ({len(acked)} acknowledged)",
              missing[:10])
        check(not dupes, f"kill {round_no}: each object exists exactly once ({len(stored)} stored)", dupes[:10])
        top_acked = max(acked.values(), default=0)
        check(rv >= top_acked and rv >= max_rv_seen,
              f"kill {round_no}: resourceVersion did not go back ({rv} >= {max(top_acked, max_rv_seen)})")
        max_rv_seen = rv
        # A watch from before the kill resumes or answers 410.
        conn = http.client.HTTPSConnection("127.0.0.1", port, context=hub_harness.INSECURE_TLS, timeout=5)
        conn.request("GET", PATH + f"?watch=1&resourceVersion={watch_rv}&timeoutSeconds=1",
                     headers={"Authorization": "Bearer " + token})
        resp = conn.getresponse()
        first = resp.readline()
        conn.close()
        event = json.loads(first) if first else {}
        ok = resp.status == 200 and (event.get("type") == "ADDED" or
                                      (event.get("type") == "ERROR" and event["object"].get("code") == 410))
        check(ok, f"kill {round_no}: a watch from resourceVersion {watch_rv} resumes or gets 410", first[:300])
    stored, rv = list_all(port, token)
    check(sorted(stored) == sorted(names) and all(c == 1 for c in stored.values()),
          f"all {CREATES} objects exist exactly once after {round_no} kills", len(stored))
    st, data = request(port, token, "POST", PATH, body("after-all"))
    check(st == 201 and int(json.loads(data)["metadata"]["resourceVersion"]) > rv,
          "a create after the last restart gets a newer resourceVersion")
    stop_hub(hub)


CYCLE_DATA = os.path.join(WORK, "cycle-data")
SETUP = [
    ("/api/v1/nodes", {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "big"}}),
    ("/apis/kueue.x-k8s.io/v1beta2/resourceflavors",
     {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor", "metadata": {"name": "f"}}),
    ("/apis/kueue.x-k8s.io/v1beta2/clusterqueues",
     {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": "cq"},
      "spec": {"namespaceSelector": {}, "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [
          {"name": "f", "resources": [{"name": "cpu", "nominalQuota": "100000"}]}]}]}}),
    ("/apis/kueue.x-k8s.io/v1beta2/namespaces/default/localqueues",
     {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue", "metadata": {"name": "q"},
      "spec": {"clusterQueue": "cq"}}),
]
JOBS = "/apis/batch/v1/namespaces/default/jobs"


def job(name):
    return {"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": name, "labels": {"kueue.x-k8s.io/queue-name": "q"}},
            "spec": {"parallelism": 2, "completions": 2, "suspend": True, "template": {"spec": {
                "restartPolicy": "Never",
                "containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "1"}}}]}}}}


def list_items(port, token, path):
    status, data = request(port, token, "GET", path)
    return json.loads(data)["items"] if status == 200 else None


def cycles_whole(port, token):
    """Every admitted Workload has both its pods bound, and every pod belongs to an admitted
    Workload: what one cycle writes lands together or not at all."""
    workloads = list_items(port, token, "/apis/kueue.x-k8s.io/v1beta2/namespaces/default/workloads")
    pods = list_items(port, token, "/api/v1/namespaces/default/pods")
    admitted = {w["metadata"]["name"][len("job-"):] for w in workloads
                if w.get("status", {}).get("admission")}
    bound = {}
    for p in pods:
        job_name = p["metadata"]["name"].rsplit("-", 1)[0]
        if p.get("spec", {}).get("nodeName"):
            bound[job_name] = bound.get(job_name, 0) + 1
    broken = [j for j in admitted if bound.get(j, 0) != 2] + [j for j in bound if j not in admitted]
    return len(admitted), broken


def cycle_kills():
    """The hub killed while its loop admits jobs: after each restart no cycle is half-written."""
    os.makedirs(CYCLE_DATA, exist_ok=True)

    def start_cycling(extra):
        hub, url = start_hub(BERTH, ["--data", CYCLE_DATA, "--listen", "127.0.0.1:0", *extra],
                             os.path.join(WORK, "cycle-hub.err"))
        token = re.search(r"token: (\S+)", open(os.path.join(CYCLE_DATA, "kubeconfig")).read()).group(1)
        return hub, port_of(url), token

    hub, port, token = start_cycling(["--loop-period", "1s"])
    for path, obj in SETUP:
        request(port, token, "POST", path, obj)
    status_patch = {"status": {"capacity": {"cpu": "100000", "pods": "100000"},
                               "allocatable": {"cpu": "100000", "pods": "100000"}}}
    conn_ok = request(port, token, "PATCH", "/api/v1/nodes/big/status", status_patch)[0]
    check(conn_ok in (200, 201), "the node's capacity is written")
    made = [0]  # jobs the hub acknowledged
    for round_no in range(1, 4):
        # Submissions keep coming while the loop admits them, so the kill lands at any point
        # of a cycle: reading, planning, or committing.
        stop = threading.Event()

        def submit(port=port, token=token):
            while not stop.is_set():
                try:
                    if request(port, token, "POST", JOBS, job(f"j{made[0]:05d}"), timeout=2)[0] == 201:
                        made[0] += 1
                except (OSError, http.client.HTTPException):
                    return

        submitter = threading.Thread(target=submit)
        submitter.start()
        time.sleep(random.Random(round_no).uniform(0.4, 1.2))
        hub.send_signal(signal.SIGKILL)
        hub.wait()
        stop.set()
        submitter.join()
        hub, port, token = start_cycling(["--no-loop"])
        n, broken = cycles_whole(port, token)
        check(not broken, f"cycle kill {round_no}: {n} admitted workloads, every one with its pods "
                          f"bound and no pod without one", broken[:10])
        stop_hub(hub)
        hub, port, token = start_cycling(["--loop-period", "1s"])
    # Left alone, the loop admits what is left.
    done = hub_harness.wait_for(lambda: cycles_whole(port, token)[0] >= made[0], 60)
    n, broken = cycles_whole(port, token)
    check(done and not broken, f"after the kills every job is admitted with its pods ({n} of {made[0]})",
          broken[:10])
    stop_hub(hub)


try:
    main()
    cycle_kills()
finally:
    shutil.rmtree(WORK, ignore_errors=True)
sys.exit(hub_harness.exit_code())
