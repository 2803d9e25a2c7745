#!/usr/bin/python3
"""The hub's dashboard (/ui) in Debian's headless Chromium, against a real `berth serve --demo`
on 127.0.0.1 (a free port).

The demo holds nodes, pods and the hub layer's queues (examples/demo-hub, whose jobs take the
free A100s) but no OCM objects; the test adds its own ResourceFlavors, ClusterQueues,
LocalQueues, Workloads (one too big to ever fit, so it
stays pending with a reason), two ManagedClusters and a Placement through the API, waits for
the hub's scheduling loop to decide them, and then checks:
  - /ui, /ui/app.js, /ui/style.css are served without a token, with no-cache and the CSP;
  - the DOM Chromium renders from /ui/#token=T: the heat map (the demo's A100 and H100 models
    with the used/total GPUs the API implies), the ClusterQueues, the pending workload with its
    position and reason, the Placement's decision, the "live" status, and no token in the page;
  - a wrong token ends in the "unauthorized" status and the token form;
  - a change made through the API while the page watches reaches the page (Workloads created
    during a second Chromium run show up, and the page counts streamed changes);
  - a screenshot is written and is not trivially small.

Usage: dashboard_test.py PATH/TO/berth. Exit 0 on success, 77 (CTest's skip) without Chromium,
1 with the failed checks printed otherwise. Every wait is bounded; the hub is stopped with
SIGTERM (then SIGKILL) and the temporary directory removed whatever happens.
"""
import html
import json
import os
import re
import shutil
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hub_harness  # noqa: E402
from hub_harness import check, stop_hub  # noqa: E402

BERTH = sys.argv[1]
CHROMIUM = os.environ.get("BERTH_CHROMIUM") or next(
    (p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome",
                                            "google-chrome-stable")) if p), None)
if CHROMIUM is None:
    print("skipped: needs chromium (Debian package `chromium`)")
    sys.exit(77)

WORK = tempfile.mkdtemp(prefix="berth-dashboard-")
# The hub's certificate is self-signed; the test talks to its own loopback hub only.
TLS = ssl._create_unverified_context()
KUEUE = "/apis/kueue.x-k8s.io/v1beta2"
OCM_V1 = "/apis/cluster.open-cluster-management.io/v1"
OCM_V1BETA1 = "/apis/cluster.open-cluster-management.io/v1beta1"
OCM_V1BETA2 = "/apis/cluster.open-cluster-management.io/v1beta2"
A100 = "NVIDIA-A100-SXM4-80GB"  # examples/demo-fleet/11-nodes-a100.yaml
H100 = "NVIDIA-H100-80GB-HBM3"  # examples/demo-fleet/12-nodes-h100.yaml


class Hub:
    def __init__(self, url, token):
        self.url, self.token = url, token

    def call(self, method, path, body=None, token=True, content_type="application/json"):
        """(status, headers, body bytes) of one request; HTTP errors are returned, not raised."""
        headers = {"Content-Type": content_type}
        if token:
            headers["Authorization"] = "Bearer " + self.token
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, method=method, data=data, headers=headers)
        try:
            with urllib.request.urlopen(req, context=TLS, timeout=15) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def create(self, path, obj):
        status, _, body = self.call("POST", path, obj)
        check(status == 201, "create %s %s" % (obj["kind"], obj["metadata"]["name"]),
              body.decode(errors="replace")[:400])

    def get(self, path):
        status, _, body = self.call("GET", path)
        if status != 200:
            raise SystemExit("GET %s: HTTP %d %s" % (path, status, body[:300]))
        return json.loads(body)


def start_hub():
    return hub_harness.start_hub(BERTH, ["--demo", "--listen", "127.0.0.1:0", "--data",
                                         os.path.join(WORK, "data"), "--loop-period", "1s"],
                                 os.path.join(WORK, "hub.err"))


def admin_token():
    text = open(os.path.join(WORK, "data", "kubeconfig")).read()
    m = re.search(r"^\s*token:\s*(\S+)\s*$", text, re.M)
    if not m:
        raise SystemExit("no token: line in the kubeconfig")
    return m.group(1)


# ---- the objects the demo lacks --------------------------------------------------------------

def flavor(name, product):
    return {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor",
            "metadata": {"name": name}, "spec": {"nodeLabels": {"nvidia.com/gpu.product": product}}}


def cluster_queue(name, flavor_name, cpu, gpus):
    return {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
            "metadata": {"name": name},
            "spec": {"cohortName": "gpu-fleet", "namespaceSelector": {},
                     "resourceGroups": [{"coveredResources": ["cpu", "nvidia.com/gpu"],
                                         "flavors": [{"name": flavor_name, "resources": [
                                             {"name": "cpu", "nominalQuota": cpu},
                                             {"name": "nvidia.com/gpu", "nominalQuota": gpus}]}]}]}}


def local_queue(ns, name, cq):
    return {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
            "metadata": {"name": name, "namespace": ns}, "spec": {"clusterQueue": cq}}


def workload(ns, name, queue, gpus, count=1, priority=0):
    container = {"name": "main", "image": "busybox",
                 "resources": {"requests": {"cpu": "1", "nvidia.com/gpu": str(gpus)},
                               "limits": {"nvidia.com/gpu": str(gpus)}}}
    return {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
            "metadata": {"name": name, "namespace": ns},
            "spec": {"queueName": queue, "priority": priority, "podSets": [{
                "name": "main", "count": count, "template": {"spec": {
                    "restartPolicy": "Never",
                    "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists",
                                     "effect": "NoSchedule"}],
                    "containers": [container]}}}]}}


def managed_cluster(name):
    return {"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster",
            "metadata": {"name": name,
                         "labels": {"cluster.open-cluster-management.io/clusterset": "gpu-sites"}},
            "spec": {"hubAcceptsClient": True}}


def add_fixtures(hub):
    hub.create(KUEUE + "/resourceflavors", flavor("a100", A100))
    hub.create(KUEUE + "/resourceflavors", flavor("h100", H100))
    hub.create(KUEUE + "/clusterqueues", cluster_queue("research-gpus", "a100", 64, 8))
    hub.create(KUEUE + "/clusterqueues", cluster_queue("production-gpus", "h100", 128, 16))
    # Unused A100 quota in the cohort, which research-gpus borrows.
    hub.create(KUEUE + "/clusterqueues", cluster_queue("spare-a100", "a100", 64, 8))
    hub.create(KUEUE + "/namespaces/ml-research/localqueues",
               local_queue("ml-research", "research", "research-gpus"))
    hub.create(KUEUE + "/namespaces/inference/localqueues",
               local_queue("inference", "serving", "production-gpus"))
    # Two that never fit the cohort's 16 A100s, so they wait with the loop's reasons; the
    # older one has the lower priority, so it is second in the queue.
    hub.create(KUEUE + "/namespaces/ml-research/workloads",
               workload("ml-research", "huge-sweep", "research", 8, count=3))
    hub.create(KUEUE + "/namespaces/ml-research/workloads",
               workload("ml-research", "giant-pretrain", "research", 8, count=8, priority=100))
    # 4 + 10 GPUs on a nominal quota of 8: research-gpus borrows 6 from spare-a100.
    hub.create(KUEUE + "/namespaces/ml-research/workloads",
               workload("ml-research", "bert-sweep", "research", 4))
    hub.create(KUEUE + "/namespaces/ml-research/workloads",
               workload("ml-research", "wide-sweep", "research", 1, count=10, priority=50))
    hub.create(KUEUE + "/namespaces/inference/workloads",
               workload("inference", "llm-serving", "serving", 8))
    hub.create(OCM_V1BETA2 + "/managedclustersets",
               {"apiVersion": "cluster.open-cluster-management.io/v1beta2",
                "kind": "ManagedClusterSet", "metadata": {"name": "gpu-sites"},
                "spec": {"clusterSelector": {"selectorType": "ExclusiveClusterSetLabel"}}})
    hub.create(OCM_V1BETA2 + "/namespaces/ml-research/managedclustersetbindings",
               {"apiVersion": "cluster.open-cluster-management.io/v1beta2",
                "kind": "ManagedClusterSetBinding",
                "metadata": {"name": "gpu-sites", "namespace": "ml-research"},
                "spec": {"clusterSet": "gpu-sites"}})
    for name in ("gpu-east", "gpu-west"):
        hub.create(OCM_V1 + "/managedclusters", managed_cluster(name))
        # Available, or the placement filters would see the cluster as unreachable.
        status, _, body = hub.call(
            "PATCH", OCM_V1 + "/managedclusters/" + name + "/status",
            {"status": {"conditions": [{
                "type": "ManagedClusterConditionAvailable", "status": "True",
                "reason": "ManagedClusterAvailable", "message": "test",
                "lastTransitionTime": "2026-01-01T00:00:00Z"}]}},
            content_type="application/merge-patch+json")
        check(status == 200, "mark ManagedCluster %s available" % name, body.decode()[:300])
    hub.create(OCM_V1BETA1 + "/namespaces/ml-research/placements",
               {"apiVersion": "cluster.open-cluster-management.io/v1beta1", "kind": "Placement",
                "metadata": {"name": "training-sites", "namespace": "ml-research"},
                "spec": {"numberOfClusters": 1}})


def condition(obj, type_):
    for c in (obj.get("status") or {}).get("conditions") or []:
        if c.get("type") == type_:
            return c
    return None


ADMITTED = ("bert-sweep", "wide-sweep", "llm-serving")


def wait_for_loop(hub, timeout_s=30):
    """Until the loop has decided the fixtures: giant-pretrain refused with a reason, the
    others admitted, and the Placement's decision naming a cluster."""
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        wls = {w["metadata"]["name"]: w for w in hub.get(KUEUE + "/workloads")["items"]}
        refused = condition(wls.get("giant-pretrain", {}), "QuotaReserved")
        admitted = [n for n in ADMITTED
                    if (condition(wls.get(n, {}), "Admitted") or {}).get("status") == "True"]
        decisions = [d.get("clusterName") for pd in
                     hub.get(OCM_V1BETA1 + "/placementdecisions")["items"]
                     for d in (pd.get("status") or {}).get("decisions") or []]
        if (refused and refused.get("status") == "False" and len(admitted) == len(ADMITTED)
                and decisions):
            return refused.get("message", ""), decisions
        time.sleep(0.5)
    raise SystemExit("the scheduling loop did not decide the fixtures within %ds" % timeout_s)


def quantity(q):
    m = re.fullmatch(r"([0-9.]+)([a-zA-Z]*)", str(q))
    return float(m.group(1)) * {"": 1, "k": 1000}[m.group(2)] if m else 0.0


def expected_heat(hub):
    """{model: (used, total)} for cluster "default", computed from the API as the page must."""
    used_by_node = {}
    for pod in hub.get("/api/v1/pods")["items"]:
        node = pod["spec"].get("nodeName")
        if not node or (pod.get("status") or {}).get("phase") in ("Succeeded", "Failed"):
            continue
        gpus = 0.0
        for c in pod["spec"].get("containers", []):
            r = c.get("resources") or {}
            q = (r.get("requests") or {}).get("nvidia.com/gpu",
                                              (r.get("limits") or {}).get("nvidia.com/gpu", 0))
            gpus += quantity(q)
        used_by_node[node] = used_by_node.get(node, 0) + gpus
    heat = {}
    for node in hub.get("/api/v1/nodes")["items"]:
        model = (node["metadata"].get("labels") or {}).get("nvidia.com/gpu.product")
        if not model:
            continue
        used, total = heat.get(model, (0.0, 0.0))
        heat[model] = (used + used_by_node.get(node["metadata"]["name"], 0),
                       total + quantity(node["status"]["allocatable"].get("nvidia.com/gpu", 0)))
    return heat


# ---- Chromium --------------------------------------------------------------------------------

def chromium(url, name, extra):
    """Runs headless Chromium once on url; returns (exit status, stdout text)."""
    profile = os.path.join(WORK, "profile-" + name)
    cmd = ["timeout", "-k", "5", "60", CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
           "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
           "--disable-extensions", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--mute-audio", "--hide-scrollbars", "--ignore-certificate-errors",
           "--user-data-dir=" + profile, *extra, url]
    with open(os.path.join(WORK, "chromium-" + name + ".log"), "w") as log:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=log, text=True, timeout=90)
    return r.returncode, r.stdout


def chromium_log(name):
    text = open(os.path.join(WORK, "chromium-" + name + ".log")).read()
    return text[-1500:]


def text_of(fragment):
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", fragment))).strip()


def element(dom, attr, value):
    """The text of the elements carrying attr="value" (each up to its closing tag), joined;
    None when there is none."""
    found = re.findall(r'<(\w+)[^>]*\b%s="%s"[^>]*>(.*?)</\1>' % (attr, re.escape(html.escape(value))),
                       dom, re.S)
    return " | ".join(text_of(body) for _, body in found) if found else None


def check_static(hub):
    for path, ctype in (("/ui", "text/html"), ("/ui/", "text/html"),
                        ("/ui/app.js", "text/javascript"), ("/ui/style.css", "text/css")):
        status, headers, body = hub.call("GET", path, token=False)
        check(status == 200 and headers.get("Content-Type", "").startswith(ctype) and body,
              "GET %s without a token: 200 %s" % (path, ctype),
              "%d %s" % (status, headers.get("Content-Type")))
        csp = headers.get("Content-Security-Policy", "")
        check("default-src 'self'" in csp and headers.get("Cache-Control") == "no-cache",
              "GET %s: CSP default-src 'self' and Cache-Control: no-cache" % path, csp)
    status, _, _ = hub.call("GET", "/ui/missing.js", token=False)
    check(status == 404, "GET /ui/missing.js: 404", str(status))
    status, _, _ = hub.call("GET", KUEUE + "/clusterqueues", token=False)
    check(status == 401, "the API still wants a token", str(status))
    _, _, page = hub.call("GET", "/ui", token=False)
    check(b"<script>" not in page and b"style=" not in page,
          "index.html has no inline script or style (the CSP would block them)")


def check_initial_dom(hub, reason, decisions):
    heat = expected_heat(hub)
    url = hub.url + "/ui/#token=" + hub.token
    rc, dom = chromium(url, "dom", ["--virtual-time-budget=8000", "--dump-dom"])
    check(rc == 0 and "<html" in dom, "chromium --dump-dom ran", chromium_log("dom"))
    with open(os.path.join(WORK, "dom.html"), "w") as f:
        f.write(dom)
    check(re.search(r'id="status"[^>]*data-state="live"', dom) is not None,
          'status line says "live"', element(dom, "id", "status") or dom[:500])
    check(hub.token not in dom, "the token is not in the page")
    for model in (A100, H100):
        used, total = heat[model]
        cell = element(dom, "data-model", model)
        want = "%d / %d" % (used, total)
        check(cell is not None and cell.startswith(want),
              "heat map cell default x %s shows %s GPUs used" % (model, want), str(cell))
    for cq in ("research-gpus", "production-gpus"):
        row = element(dom, "data-clusterqueue", cq)
        check(row is not None and cq in row and "gpu-fleet" in row,
              "ClusterQueue %s listed with its cohort" % cq, str(row))
    row = element(dom, "data-clusterqueue", "research-gpus")
    check(row is not None and "14 / 8" in row and "borrowing 6" in row,
          "research-gpus shows 14 of 8 A100s used, 6 borrowed", str(row))
    row = element(dom, "data-clusterqueue", "spare-a100")
    check(row is not None and "0 / 8" in row and "borrowing" not in row.replace("not borrowing", ""),
          "spare-a100 shows 0 of 8 used, not borrowing", str(row))
    # The demo's own hub layer (examples/demo-hub): team-vision borrows team-nlp's idle A100.
    row = element(dom, "data-clusterqueue", "team-vision")
    check(row is not None and "research" in row and "2 / 1" in row and "borrowing 1" in row,
          "the demo's team-vision shows 2 of 1 A100s used, 1 borrowed", str(row))
    pending = element(dom, "data-workload", "ml-research/job-seg-anything")
    check(pending is not None and "1 of 1" in pending and "quota" in pending,
          "the demo's job-seg-anything pending at position 1 of 1 for quota", str(pending))
    pending = element(dom, "data-workload", "ml-research/giant-pretrain")
    check(pending is not None and "1 of 2" in pending and reason[:40] in pending,
          "giant-pretrain (priority 100) pending at position 1 of 2 with the loop's reason",
          str(pending))
    pending = element(dom, "data-workload", "ml-research/huge-sweep")
    check(pending is not None and "2 of 2" in pending,
          "huge-sweep (older, priority 0) pending at position 2 of 2", str(pending))
    for name in ADMITTED:
        check(element(dom, "data-workload", "ml-research/" + name) is None
              and element(dom, "data-workload", "inference/" + name) is None,
              "admitted %s is not listed as pending" % name)
    placement = element(dom, "data-placement", "ml-research/training-sites")
    check(placement is not None and all(d in placement for d in decisions)
          and "PlacementSatisfied=True" in placement,
          "Placement training-sites shows its decision %s" % decisions, str(placement))


def check_unauthorized(hub):
    rc, dom = chromium(hub.url + "/ui/#token=not-a-token", "unauthorized",
                       ["--virtual-time-budget=5000", "--dump-dom"])
    state = re.search(r'id="status"[^>]*data-state="([a-z ]+)"', dom)
    form = re.search(r'<form id="token-form"[^>]*>', dom)
    check(rc == 0 and state is not None and state.group(1) == "unauthorized"
          and form is not None and "hidden" not in form.group(0),
          'a wrong token: status "unauthorized" and the token form shown',
          (state.group(0) if state else "no status") + " " + (form.group(0) if form else ""))
    check(A100 not in dom and "research-gpus" not in dom, "a wrong token shows no fleet data")


def check_live(hub):
    """Workloads created while Chromium runs must reach the page through its watch. Chromium's
    virtual time runs far ahead of the wall clock, so creations go on through the whole run
    (every 150 ms, at most 200) rather than at one guessed moment."""
    stop = threading.Event()
    created = []

    def create_probes():
        for i in range(200):
            if stop.is_set():
                return
            name = "watch-probe-%d" % i
            status, _, _ = hub.call("POST", KUEUE + "/namespaces/inference/workloads",
                                    workload("inference", name, "serving", 64))
            if status == 201:
                created.append(name)
            stop.wait(0.15)

    t = threading.Thread(target=create_probes)
    t.start()
    try:
        rc, dom = chromium(hub.url + "/ui/#token=" + hub.token, "live",
                           ["--virtual-time-budget=60000", "--dump-dom"])
    finally:
        stop.set()
        t.join(timeout=30)
    shown = set(re.findall(r'data-workload="inference/(watch-probe-\d+)"', dom))
    m = re.search(r'data-changes="(\d+)"', dom)
    changes = int(m.group(1)) if m else 0
    check(rc == 0 and changes > 0 and shown,
          "changes made during the run reach the page by watch (%d streamed, %d of %d probes shown)"
          % (changes, len(shown), len(created)), chromium_log("live") if rc else "")


def check_screenshot(hub):
    shot = os.path.join(WORK, "ui.png")
    rc, _ = chromium(hub.url + "/ui/#token=" + hub.token, "shot",
                     ["--virtual-time-budget=8000", "--screenshot=" + shot,
                      "--window-size=1400,1000"])
    size = os.path.getsize(shot) if os.path.exists(shot) else 0
    check(rc == 0 and size > 20000, "screenshot written (%d bytes)" % size, chromium_log("shot"))
    keep = os.environ.get("BERTH_DASHBOARD_SCREENSHOT")
    if keep and size:
        shutil.copyfile(shot, keep)


def main():
    hub_proc, url = start_hub()
    try:
        hub = Hub(url, admin_token())
        check_static(hub)
        add_fixtures(hub)
        reason, decisions = wait_for_loop(hub)
        check_initial_dom(hub, reason, decisions)
        check_screenshot(hub)
        check_unauthorized(hub)
        check_live(hub)
    finally:
        code = stop_hub(hub_proc)
        check(code == 0, "the hub stops on SIGTERM with status 0", str(code))
    return hub_harness.exit_code()


if __name__ == "__main__":
    try:
        status = main()
    except SystemExit as e:
        if isinstance(e.code, str):
            print("FAIL " + e.code)
            status = 1
        else:
            status = e.code
    # BERTH_KEEP_TMP=1 keeps the DOM dumps, Chromium logs and the hub's data for a look.
    if os.environ.get("BERTH_KEEP_TMP"):
        print("files kept in " + WORK)
    else:
        shutil.rmtree(WORK, ignore_errors=True)
    sys.exit(status)
