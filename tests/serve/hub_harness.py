"""What the hub's end-to-end tests share: check() with a failure count, and starting and
stopping a real `berth serve` process (its address read from the line it prints, its stderr
kept in a file, every wait bounded). Standard library only."""
import http.client
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import threading
import time

failures = []


def check(cond, what, detail=""):
    """Prints ok/FAIL for one expectation; a failure is counted for exit_code()."""
    if cond:
        print("ok   " + what)
    else:
        text = str(detail)[:2000].replace("\n", "\n     ") if detail else ""
        print("FAIL " + what + ("\n     " + text if text else ""))
        failures.append(what)
    return cond


def exit_code():
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


def start_hub(berth, args, err_path, timeout_s=30):
    """Runs `berth serve ARGS`; returns (process, url) once it prints its address. Its stdout is
    drained afterwards so the hub never blocks on a full pipe."""
    err = open(err_path, "a")
    hub = subprocess.Popen([berth, "serve", *args], stdout=subprocess.PIPE, stderr=err, text=True)
    deadline = time.time() + timeout_s
    url = None
    while time.time() < deadline and url is None:
        line = hub.stdout.readline()
        if not line:
            break
        m = re.search(r"listening on (https?://\S+)", line)
        if m:
            url = m.group(1)
    if url is None:
        hub.kill()
        hub.wait()
        raise SystemExit("berth serve did not start; its stderr:\n" + open(err_path).read()[-2000:])
    threading.Thread(target=lambda: [None for _ in hub.stdout], daemon=True).start()
    return hub, url


def port_of(url):
    return int(url.rsplit(":", 1)[1])


def stop_hub(hub, timeout_s=15):
    """SIGTERM (after SIGCONT, in case it was stopped); SIGKILL past the timeout. Returns the
    exit status, or None when it had to be killed."""
    try:
        hub.send_signal(signal.SIGCONT)
        hub.send_signal(signal.SIGTERM)
        return hub.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        hub.kill()
        hub.wait()
        return None
    except ProcessLookupError:
        return hub.wait()


def wait_for(cond, seconds, interval=0.2, errors=(OSError, ValueError, KeyError)):
    """Polls cond() until it is true or `seconds` pass; exceptions count as not yet."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if cond():
                return True
        except errors:
            pass
        time.sleep(interval)
    return False


# The hub's certificate is self-signed; these tests talk to their own loopback hubs only.
INSECURE_TLS = ssl._create_unverified_context()


def https_call(port, token, method, path, body=None, timeout=10, content_type=None):
    """One request to https://127.0.0.1:PORT with a bearer token and a JSON body (a PATCH is a
    merge patch unless told otherwise); returns (status, body bytes)."""
    if content_type is None:
        content_type = "application/merge-patch+json" if method == "PATCH" else "application/json"
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=INSECURE_TLS, timeout=timeout)
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers={"Authorization": "Bearer " + token, "Content-Type": content_type})
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def wait_until(what, fn, timeout_s):
    """Calls fn() every half second until it returns something true (returned) or timeout_s
    passes (a failed check naming `what`; None). Unlike wait_for, the failure is a check."""
    deadline = time.time() + timeout_s
    last = None
    while time.time() < deadline:
        last = fn()
        if last:
            return last
        time.sleep(0.5)
    check(False, f"{what} within {timeout_s} s", last)
    return None


def condition(obj, ctype):
    """The status condition of `ctype` in a Kubernetes object (dict), or None."""
    for c in (obj or {}).get("status", {}).get("conditions", []) or []:
        if c.get("type") == ctype:
            return c
    return None


def start_process(cmd, err_path, pattern, timeout_s=30):
    """Runs cmd (stderr appended to err_path) until a line of its stdout matches `pattern`;
    returns (process, match). Its stdout is drained afterwards. Raises SystemExit (after
    killing it) when it exits or prints no such line within timeout_s."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=open(err_path, "a"), text=True)
    deadline = time.time() + timeout_s
    found = None
    while time.time() < deadline and found is None:
        line = proc.stdout.readline()
        if not line:
            break
        found = re.search(pattern, line)
    if found is None:
        proc.kill()
        proc.wait()
        raise SystemExit(" ".join(cmd[:3]) + " did not start:\n" + open(err_path).read()[-2000:])
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
    return proc, found


def stop_processes(procs, timeout_s=20):
    """SIGTERM to every process still running (last started first), then waits for each;
    SIGKILL past the timeout."""
    for p in reversed(procs):
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in reversed(procs):
        try:
            p.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def stop_up(up, err_path, work, tail_bytes=4000):
    """Stops a `berth up` process with SIGTERM (checking it exits 0 within 30 s, else kills
    it), prints the tail of its stderr when a check failed, and removes the test's folder."""
    up.send_signal(signal.SIGTERM)
    try:
        rc = up.wait(timeout=30)
        check(rc == 0, "SIGTERM stops berth up with exit 0", rc)
    except subprocess.TimeoutExpired:
        up.kill()
        up.wait()
        check(False, "berth up stops within 30 s of SIGTERM")
    if failures:
        print(open(err_path).read()[-tail_bytes:])
    shutil.rmtree(work, ignore_errors=True)


def kubectl(kubeconfig, *args, context=None, stdin=None, timeout=30):
    """kubectl against KUBECONFIG (and CONTEXT); returns (rc, stdout, stderr)."""
    cmd = ["kubectl", "--kubeconfig", kubeconfig] + (["--context", context] if context else [])
    r = subprocess.run(cmd + list(args), input=stdin, capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout, r.stderr


def get_json(kubeconfig, *args, context=None):
    """`kubectl get ARGS -o json` as a dict, or None when kubectl fails."""
    rc, out, _ = kubectl(kubeconfig, "get", *args, "-o", "json", context=context)
    return json.loads(out) if rc == 0 else None


FLEET_EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "fleet")


class Fleet:
    """A hub (`berth serve` on a SQLite store in WORK/hub, examples/fleet's hub objects but
    its jobs, --auto-accept), simulated member clusters (`berth cluster --simulate --demo`)
    and an agent process for each, all on loopback. Every process it starts is in `procs`;
    stop() ends them all."""

    def __init__(self, berth, work, err_path, clusters=("eu-1", "us-2", "ap-1"), hub_args=(),
                 agent_args=None):
        self.berth, self.work, self.err = berth, work, err_path
        self.procs = []
        try:
            self._start(clusters, hub_args, agent_args)
        except BaseException:
            self.stop()  # what started before a process failed to
            raise

    def _start(self, clusters, hub_args, agent_args):
        berth, work, err_path = self.berth, self.work, self.err
        self.hub_files = os.path.join(work, "hub-files")
        os.makedirs(self.hub_files)
        for name in os.listdir(os.path.join(FLEET_EXAMPLE, "hub")):
            if name != "jobs.yaml":
                shutil.copy(os.path.join(FLEET_EXAMPLE, "hub", name), self.hub_files)
        self.hub_data = os.path.join(work, "hub")
        self.hub_args = list(hub_args)
        self.hub, self.port = self.start_hub("127.0.0.1:0")
        self.kubeconfig = os.path.join(self.hub_data, "kubeconfig")
        self.member = {}
        for name in clusters:
            p, _ = start_process([berth, "cluster", "--simulate", "--demo", name, "--listen", "127.0.0.1:0",
                                  "--data", os.path.join(work, name)], err_path,
                                 r"simulated member cluster on https://")
            self.procs.append(p)
            self.member[name] = os.path.join(work, name, "kubeconfig")
        self.agent_args = agent_args or {}
        self.agents = {name: self.start_agent(name) for name in clusters}

    def start_hub(self, listen):
        """`berth serve` on the fleet's store at LISTEN; returns (process, port)."""
        hub, m = start_process([self.berth, "serve", "--data", self.hub_data, "--listen", listen,
                                "-f", self.hub_files, "--auto-accept", "--agent-lease", "3s",
                                "--sync-period", "1s", "--loop-period", "1s", *self.hub_args],
                               self.err, r"listening on https://127\.0\.0\.1:(\d+)")
        self.procs.append(hub)
        return hub, m.group(1)

    def restart_hub(self):
        """The hub again, on the same store and port (SIGKILL it first to test a crash)."""
        self.hub, _ = self.start_hub("127.0.0.1:" + self.port)

    def start_agent(self, name):
        p, _ = start_process([self.berth, "agent", "--hub-kubeconfig", self.kubeconfig, "--cluster", name,
                              "--kubeconfig", self.member[name], "--state", os.path.join(self.work, name + "-agent"),
                              *self.agent_args.get(name, [])], self.err, r"syncing with")
        self.procs.append(p)
        return p

    def wait_available(self, timeout_s=30):
        """Waits until every cluster is Available with its agent's inventory; a check."""
        def available():
            mcs = get_json(self.kubeconfig, "managedclusters")
            ok = {m["metadata"]["name"] for m in (mcs or {}).get("items", [])
                  if (condition(m, "ManagedClusterConditionAvailable") or {}).get("status") == "True"
                  and m.get("status", {}).get("allocatable")}
            return ok if ok == set(self.member) else None
        return check(wait_until("the clusters join and are Available", available, timeout_s) is not None,
                     "the fleet is Available")

    def stop(self):
        stop_processes(self.procs)
