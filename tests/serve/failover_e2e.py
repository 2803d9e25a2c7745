#!/usr/bin/python3
"""Two berth serve hubs on one PostgreSQL 15 (a throwaway server this test starts with initdb
and pg_ctl on 127.0.0.1): one leads, the other stands by serving reads. The leader is stopped
with SIGSTOP past its lease; the standby takes the lease (a new epoch), becomes ready and
admits the next job; the old leader, resumed, finds its lease gone: its writes are refused
(fenced) and it reports not ready.

Usage: failover_e2e.py PATH/TO/berth. Exit 77 (skip) without PostgreSQL 15's binaries or the
postgres system user when run as root. Standard library only; every wait bounded.
"""
import http.client
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hub_harness  # noqa: E402
from hub_harness import check, https_call, port_of, start_hub, stop_hub, wait_for  # noqa: E402

BERTH = sys.argv[1]
PG_BIN = "/usr/lib/postgresql/15/bin"
if not os.access(os.path.join(PG_BIN, "pg_ctl"), os.X_OK):
    print("skipped: needs PostgreSQL 15 (postgresql-15)")
    sys.exit(77)
AS_ROOT = os.geteuid() == 0
if AS_ROOT:
    try:
        PG_USER = pwd.getpwnam("postgres")
    except KeyError:
        print("skipped: running as root needs the postgres system user")
        sys.exit(77)

WORK = tempfile.mkdtemp(prefix="berth-failover-")
LEASE = "3s"
TOKEN = "t-" + os.urandom(8).hex()


def pg(*argv, timeout=60):
    cmd = [os.path.join(PG_BIN, argv[0]), *argv[1:]]
    if AS_ROOT:
        cmd = ["/usr/sbin/runuser", "-u", "postgres", "--", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_pg():
    pgdir = os.path.join(WORK, "pg")
    os.makedirs(pgdir)
    if AS_ROOT:
        os.chown(WORK, PG_USER.pw_uid, PG_USER.pw_gid)
        os.chown(pgdir, PG_USER.pw_uid, PG_USER.pw_gid)
    r = pg("initdb", "-D", pgdir + "/data", "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
    if r.returncode != 0:
        raise SystemExit("initdb failed: " + r.stderr)
    port = free_port()
    r = pg("pg_ctl", "-D", pgdir + "/data", "-l", pgdir + "/server.log", "-o",
           f"-c listen_addresses=127.0.0.1 -p {port} -k {pgdir} -c fsync=off", "-w", "-t", "30", "start")
    if r.returncode != 0:
        raise SystemExit("pg_ctl start failed: " + r.stderr + r.stdout)
    r = pg("createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "berth")
    if r.returncode != 0:
        raise SystemExit("createdb failed: " + r.stderr)
    return pgdir, f"postgres://postgres@127.0.0.1:{port}/berth"


def start(name, url):
    hub, hub_url = start_hub(BERTH, ["--store", url, "--data", os.path.join(WORK, name), "--listen",
                                     "127.0.0.1:0", "--tokens", os.path.join(WORK, "tokens.csv"),
                                     "--lease", LEASE, "--loop-period", "1s"],
                             os.path.join(WORK, name + ".err"))
    return hub, port_of(hub_url)


def call(port, method, path, body=None, timeout=5):
    return https_call(port, TOKEN, method, path, body, timeout)


def wait(cond, seconds):
    return wait_for(cond, seconds, errors=(OSError, http.client.HTTPException, ValueError, KeyError))


def ready(port):
    return call(port, "GET", "/readyz", timeout=2)[0] == 200


QUEUE = [
    ("/apis/kueue.x-k8s.io/v1beta2/resourceflavors",
     {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor", "metadata": {"name": "cpu"}}),
    ("/apis/kueue.x-k8s.io/v1beta2/clusterqueues",
     {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": "cq"},
      "spec": {"namespaceSelector": {}, "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [
          {"name": "cpu", "resources": [{"name": "cpu", "nominalQuota": "8"}]}]}]}}),
    ("/apis/kueue.x-k8s.io/v1beta2/namespaces/default/localqueues",
     {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue", "metadata": {"name": "main"},
      "spec": {"clusterQueue": "cq"}}),
]
WORKLOADS = "/apis/kueue.x-k8s.io/v1beta2/namespaces/default/workloads"


def workload(name):
    return {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload", "metadata": {"name": name},
            "spec": {"queueName": "main", "podSets": [{"name": "main", "count": 1, "template": {"spec": {
                "containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "1"}}}]}}}]}}


def admitted(port, name):
    st, data = call(port, "GET", WORKLOADS + "/" + name)
    return st == 200 and json.loads(data).get("status", {}).get("admission", {}).get("clusterQueue") == "cq"


def main():
    with open(os.path.join(WORK, "tokens.csv"), "w") as f:
        f.write(f'{TOKEN},admin,1,"system:masters"\n')
    pgdir, url = start_pg()
    hubs = []
    try:
        a, port_a = start("a", url)
        hubs.append(a)
        check(wait(lambda: ready(port_a), 15), "hub a leads and is ready")
        b, port_b = start("b", url)
        hubs.append(b)
        time.sleep(1.5)
        check(not ready(port_b), "hub b stands by (not ready) while a's lease is live")
        for path, obj in QUEUE:
            st, data = call(port_a, "POST", path, obj)
            check(st == 201, "create through the leader: " + obj["kind"], data[:300])
        st, _ = call(port_a, "POST", WORKLOADS, workload("w1"))
        check(wait(lambda: admitted(port_a, "w1"), 10), "the leader admits w1")
        st, data = call(port_b, "GET", WORKLOADS + "/w1")
        check(st == 200 and json.loads(data)["status"]["admission"]["clusterQueue"] == "cq",
              "the standby serves reads of the shared store", data[:300])
        st, data = call(port_b, "POST", WORKLOADS, workload("refused"))
        check(st in (429, 503), "a write to the standby is refused", f"{st} {data[:300]}")

        a.send_signal(signal.SIGSTOP)
        t0 = time.time()
        took_over = wait(lambda: ready(port_b), 20)
        check(took_over, f"with a stopped past its lease, b takes over ({time.time() - t0:.1f} s)")
        st, data = call(port_b, "POST", WORKLOADS, workload("w2"))
        check(st == 201, "the new leader accepts writes", data[:300])
        check(wait(lambda: admitted(port_b, "w2"), 10), "the new leader admits w2 as a would")

        a.send_signal(signal.SIGCONT)
        check(wait(lambda: not ready(port_a), 10), "the resumed old leader is not ready")
        st, data = call(port_a, "POST", WORKLOADS, workload("w3"))
        check(st in (429, 503) and (b"not the leader" in data or b"fenced" in data),
              "the old leader's write is refused (fenced)", f"{st} {data[:300]}")
        st, data = call(port_b, "GET", WORKLOADS + "/w3")
        check(st == 404, "nothing of the refused write is stored", st)
        err_path = os.path.join(WORK, "a.err")
        check(wait(lambda: "standby" in open(err_path).read(), 10),
              "the old leader logs that it stands by now", open(err_path).read()[-800:])
    finally:
        for h in hubs:
            stop_hub(h)
        pg("pg_ctl", "-D", pgdir + "/data", "-m", "immediate", "-w", "-t", "30", "stop")


try:
    main()
finally:
    shutil.rmtree(WORK, ignore_errors=True)
sys.exit(hub_harness.exit_code())
