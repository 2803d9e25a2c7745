"""A rollout across clusters and its automatic rollback, with real processes on loopback (issue
16's acceptance test): `berth up --demo` (a hub, the simulated clusters eu-1, us-2, ap-1 and
their agents). A ManifestWorkReplicaSet delivers an inference Deployment through a Placement
whose canary decision group is eu-1 (the only cluster labelled region=eu-west), with
rolloutStrategy ProgressivePerGroup (canary mandatory, a soak of minSuccessTime),
WellKnownStatus feedback and the health rule `AvailableReplicas >= 1 for 5s`: the files
try-rollout.yaml and try-rollout-bad.yaml that `berth up` writes for a new user.

Revision 1 reaches the canary first, then the other two, and is Available everywhere (the
clusters' Deployment controllers and simulated kubelets run its pod). Revision 2 (kubectl apply
of a template whose pods crash-loop, berth.dev/simulated-failure) reaches the canary only; its
Deployment never becomes Available there, the health rule breaks and the hub rolls back on its
own: the MWRS says RolledBack=True, revision 2's ControllerRevision carries the
rollout.berth.dev/rolled-back reason (and `berth rollout history` shows it), eu-1's
Deployment is revision 1's again and available, and us-2 and ap-1 never got revision 2.
Every wait is bounded; loopback only; skips (77) without kubectl."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hub_harness import (check, condition, exit_code, get_json, kubectl, stop_up,  # noqa: E402
                         wait_until)

CLUSTERS = ("eu-1", "us-2", "ap-1")
MWRS_LABEL = "work.open-cluster-management.io/manifestworkreplicaset"

def pod_template_of(deployment):
    return ((deployment or {}).get("spec", {}).get("template", {}))


def image_of(deployment):
    containers = pod_template_of(deployment).get("spec", {}).get("containers", [])
    return containers[0].get("image") if containers else None


def main():
    berth = sys.argv[1]
    if shutil.which("kubectl") is None:
        print("kubectl not found: skipped")
        return 77
    work = tempfile.mkdtemp(prefix="berth-rollout-")
    data = os.path.join(work, "data")
    err_path = os.path.join(work, "up.err")
    up = subprocess.Popen([berth, "up", "--demo", "--port", "0", "--data", data,
                           "--sync-period", "1s", "--agent-lease", "5s"],
                          stdout=subprocess.PIPE, stderr=open(err_path, "w"), text=True)
    try:
        deadline = time.time() + 60
        printed = ""
        while time.time() < deadline and "Stop with Ctrl-C" not in printed:
            line = up.stdout.readline()
            if not line:
                break
            printed += line
        if not check("Stop with Ctrl-C" in printed, "berth up --demo runs", printed):
            return exit_code()
        threading.Thread(target=lambda: [None for _ in up.stdout], daemon=True).start()
        kc = os.path.join(data, "kubeconfig")

        def hub(*args, stdin=None):
            return kubectl(kc, *args, context="hub", stdin=stdin)

        def hub_get(*args):
            return get_json(kc, *args, context="hub")

        def available():
            mcs = hub_get("managedclusters")
            ok = {m["metadata"]["name"] for m in (mcs or {}).get("items", [])
                  if (condition(m, "ManagedClusterConditionAvailable") or {}).get("status") == "True"
                  and m.get("status", {}).get("allocatable")}
            return ok if ok == set(CLUSTERS) else None
        if not check(wait_until("the three clusters are Available", available, 30) is not None,
                     "the fleet is Available"):
            return exit_code()

        # The files berth up writes for a new user: the Placement with its canary group and
        # the MWRS (revision 1), then its crash-looping revision 2.
        try_rollout = os.path.join(data, "try-rollout.yaml")
        try_rollout_bad = os.path.join(data, "try-rollout-bad.yaml")
        rc, out, err = hub("apply", "-f", try_rollout)
        check(rc == 0, "berth up's try-rollout.yaml (the Placement with a canary group, the MWRS) is applied",
              out + err)

        # Revision 1: the canary first, then the rest; Available on the three clusters.
        def deployment(cluster):
            return get_json(kc, "deployment", "-n", "serving", "llm-serve", context=cluster)

        def rolled_out():
            m = hub_get("manifestworkreplicaset", "-n", "serving", "llm-serve")
            c = condition(m, "PlacementRolledOut")
            if not (c and c["status"] == "True" and m["status"].get("summary", {}).get("available") == 3):
                return None
            deps = [deployment(c) for c in CLUSTERS]
            return m if all((d or {}).get("status", {}).get("availableReplicas") == 1 for d in deps) else None
        m = wait_until("revision 1 rolls out and is Available on the three clusters", rolled_out, 60)
        check(m is not None, "revision 1 is rolled out (PlacementRolledOut=True, 3 available)",
              (m or hub_get("manifestworkreplicaset", "-n", "serving", "llm-serve") or {}).get("status"))

        def revisions():
            crs = hub_get("controllerrevisions", "-n", "serving", "-l", MWRS_LABEL + "=serving.llm-serve")
            return {cr["revision"]: cr for cr in (crs or {}).get("items", [])}
        revs = revisions()
        check(sorted(revs) == [1], "one ControllerRevision, revision 1", sorted(revs))
        first = revs.get(1, {})
        owner = (first.get("metadata", {}).get("ownerReferences") or [{}])[0]
        check(owner.get("kind") == "ManifestWorkReplicaSet" and owner.get("name") == "llm-serve"
              and owner.get("controller") is True, "revision 1 is owned by the MWRS", owner)
        taken = json.loads(first.get("metadata", {}).get("annotations", {}).get("rollout.berth.dev/clusters", "[]"))
        by_cluster = {t["cluster"]: t for t in taken}
        check(sorted(by_cluster) == sorted(CLUSTERS), "revision 1 was taken by the three clusters", taken)
        canary = by_cluster.get("eu-1", {})
        check(canary.get("outcome") == "Succeeded" and all(
            by_cluster.get(c, {}).get("takenAt", "") >= canary.get("outcomeAt", "~") for c in ("us-2", "ap-1")),
            "us-2 and ap-1 took revision 1 only once the canary eu-1 had succeeded", taken)
        good_rs = {c: get_json(kc, "replicasets", "-n", "serving", context=c) for c in CLUSTERS}

        # Revision 2 never becomes Available: the canary takes it, breaks, and berth rolls back.
        rc, out, err = hub("apply", "-f", try_rollout_bad)
        check(rc == 0, "berth up's try-rollout-bad.yaml (revision 2: pods that crash-loop) is applied", out + err)

        def rolled_back():
            m = hub_get("manifestworkreplicaset", "-n", "serving", "llm-serve")
            c = condition(m, "RolledBack")
            return m if c and c["status"] == "True" else None
        m = wait_until("the MWRS is rolled back", rolled_back, 60)
        c = condition(m, "RolledBack") or {}
        check(c.get("reason") == "BadRevision" and "eu-1" in c.get("message", ""),
              "RolledBack=True, reason BadRevision, naming eu-1", c)
        annotations = (m or {}).get("metadata", {}).get("annotations", {})
        record = json.loads(annotations.get("rollout.berth.dev/rolled-back", "{}"))
        check(record.get("revision") == 2 and record.get("toRevision") == 3,
              "the MWRS records the rollback from revision 2 (to revision 1's template as 3)", record)

        revs = revisions()
        check(sorted(revs) == [2, 3], "two ControllerRevisions: the bad 2 and the restored template as 3",
              {r: cr["metadata"]["name"] for r, cr in revs.items()})
        bad = revs.get(2, {})
        bad_notes = bad.get("metadata", {}).get("annotations", {})
        reason = bad_notes.get("rollout.berth.dev/rolled-back", "")
        check("revision 2" in reason and "eu-1" in reason and "AvailableReplicas" in reason,
              "revision 2's ControllerRevision says why it was rolled back", bad_notes)
        check(bad_notes.get("kubernetes.io/change-cause") == "vllm 0.6.4-rc1", "revision 2 keeps its change-cause",
              bad_notes)
        took_bad = [t["cluster"] for t in json.loads(bad_notes.get("rollout.berth.dev/clusters", "[]"))]
        check(took_bad == ["eu-1"], "only the canary took revision 2", took_bad)
        check(revs.get(3, {}).get("metadata", {}).get("name") == first.get("metadata", {}).get("name"),
              "revision 3 is revision 1's ControllerRevision renumbered", revs.get(3, {}).get("metadata"))

        # berth rollout history says the same, as kubectl rollout history would.
        history = subprocess.run([berth, "rollout", "history", "manifestworkreplicaset/llm-serve", "-n", "serving",
                                  "--kubeconfig", kc, "--context", "hub"], capture_output=True, text=True, timeout=30)
        rows = {line.split()[0]: line for line in history.stdout.splitlines() if line[:1].isdigit()}
        check(history.returncode == 0 and sorted(rows) == ["2", "3"], "berth rollout history lists revisions 2 and 3",
              history.stdout + history.stderr)
        check("vllm 0.6.4-rc1" in rows.get("2", "") and "eu-1" in rows.get("2", "") and
              "AvailableReplicas" in rows.get("2", ""),
              "berth rollout history shows revision 2's change-cause, the canary and why it was rolled back",
              rows.get("2"))
        check("vllm 0.6.3" in rows.get("3", ""), "revision 3 is vllm 0.6.3", rows.get("3"))
        status = subprocess.run([berth, "rollout", "status", "mwrs/llm-serve", "-n", "serving", "--watch=false",
                                 "--kubeconfig", kc, "--context", "hub"], capture_output=True, text=True, timeout=30)
        check(status.returncode == 1 and "revision 2" in status.stdout + status.stderr,
              "berth rollout status reports the rollback (exit 1)", status.stdout + status.stderr)

        def restored():
            d = deployment("eu-1")
            ok = d and image_of(d) == "vllm/vllm-openai:v0.6.3" and \
                "berth.dev/simulated-failure" not in pod_template_of(d).get("metadata", {}).get("annotations", {}) and \
                d.get("status", {}).get("availableReplicas") == 1 and \
                d.get("status", {}).get("observedGeneration") == d["metadata"].get("generation")
            return d if ok else None
        d = wait_until("eu-1's Deployment is revision 1's again and available", restored, 40)
        check(d is not None, "eu-1 runs revision 1's spec again, available",
              (deployment("eu-1") or {}).get("spec"))
        eu_rs = get_json(kc, "replicasets", "-n", "serving", context="eu-1")
        check(len((eu_rs or {}).get("items", [])) == 2, "eu-1 had run revision 2 (a second ReplicaSet)",
              [r["metadata"]["name"] for r in (eu_rs or {}).get("items", [])])

        for cluster in ("us-2", "ap-1"):
            d = deployment(cluster)
            check(image_of(d) == "vllm/vllm-openai:v0.6.3" and d["metadata"].get("generation") == 1,
                  f"{cluster}'s Deployment never changed (revision 1's image, generation 1)",
                  (d or {}).get("metadata"))
            rs = get_json(kc, "replicasets", "-n", "serving", context=cluster)
            check([r["metadata"]["uid"] for r in (rs or {}).get("items", [])] ==
                  [r["metadata"]["uid"] for r in (good_rs[cluster] or {}).get("items", [])] and
                  len((rs or {}).get("items", [])) == 1,
                  f"{cluster} never made a ReplicaSet for revision 2", rs)
            w = hub_get("manifestwork", "-n", cluster, "-l", MWRS_LABEL + "=serving.llm-serve")
            items = (w or {}).get("items", [])
            check(len(items) == 1 and items[0]["metadata"].get("generation") == 1,
                  f"the hub's work for {cluster} kept revision 1 (generation 1)",
                  [i["metadata"] for i in items])

        # The rollback holds: the restored revision is judged by its own pods, not sent away.
        m = hub_get("manifestworkreplicaset", "-n", "serving", "llm-serve")
        paused = condition(m, "RolloutPaused") or {}
        check(sorted(revisions()) == [2, 3] and paused.get("status") != "True" and
              (condition(m, "RolledBack") or {}).get("status") == "True",
              "once eu-1 is restored the rollback holds (revisions 2 and 3, not paused)",
              (m or {}).get("status", {}).get("conditions"))
        check(image_of(m["spec"]["manifestWorkTemplate"]["workload"]["manifests"][0]) ==
              "vllm/vllm-openai:v0.6.4-rc1" if m else False,
              "the MWRS's template stays as the user wrote it (the rollback holds while it does)")
    finally:
        stop_up(up, err_path, work, 4000)
    return exit_code()


if __name__ == "__main__":
    sys.exit(main())
