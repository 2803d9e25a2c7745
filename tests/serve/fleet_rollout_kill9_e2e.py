"""The hub killed -9 in the middle of a rollout, with real processes on loopback (issue 16's
fault test): a hub (`berth serve`, its SQLite store in --data, examples/fleet's hub objects),
three simulated member clusters (`berth cluster --simulate --demo eu-1|us-2|ap-1`) and an agent
process for each. A ManifestWorkReplicaSet rolls revision 1 out ProgressivePerGroup (eu-1 is
the canary group) to the three; revision 2 (a new image, minSuccessTime 20s) reaches the
canary, and while the canary soaks the hub is SIGKILLed and restarted on the same store and
port. The rollout resumes where it was: the canary's work is neither re-created nor given a
new generation (its Deployment is not touched again), the ControllerRevisions keep their
names, uids and numbers and the canary's record, the other groups get revision 2 only once
the canary's soak (counted from before the crash) has passed, and the rollout completes.
Every wait is bounded; skips (77) without kubectl."""
import calendar
import json
import os
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hub_harness import (Fleet, check, condition, exit_code, failures, get_json,  # noqa: E402
                         kubectl, wait_until)

CLUSTERS = ("eu-1", "us-2", "ap-1")
MWRS_LABEL = "work.open-cluster-management.io/manifestworkreplicaset"
SOAK_S = 20

PLACEMENT = """apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSetBinding
metadata: {name: gpu-fleet, namespace: serving}
spec: {clusterSet: gpu-fleet}
---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: llm, namespace: serving}
spec:
  clusterSets: [gpu-fleet]
  decisionStrategy:
    groupStrategy:
      decisionGroups:
      - groupName: canary
        groupClusterSelector:
          labelSelector:
            matchLabels: {region: eu-west}
"""


def mwrs(image, change_cause, min_success_time):
    return {
        "apiVersion": "work.open-cluster-management.io/v1alpha1",
        "kind": "ManifestWorkReplicaSet",
        "metadata": {"name": "llm-serve", "namespace": "serving",
                     "annotations": {"kubernetes.io/change-cause": change_cause}},
        "spec": {
            "placementRefs": [{"name": "llm", "rolloutStrategy": {
                "type": "ProgressivePerGroup",
                "progressivePerGroup": {"mandatoryDecisionGroups": [{"groupName": "canary"}],
                                        "minSuccessTime": min_success_time, "progressDeadline": "2m",
                                        "maxFailures": 0}}}],
            "manifestWorkTemplate": {
                "workload": {"manifests": [{
                    "apiVersion": "apps/v1", "kind": "Deployment",
                    "metadata": {"name": "llm-serve", "namespace": "serving"},
                    "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "llm-serve"}},
                             "template": {"metadata": {"labels": {"app": "llm-serve"}},
                                          "spec": {"terminationGracePeriodSeconds": 1, "containers": [{
                                              "name": "vllm", "image": image,
                                              "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]}}},
                }]},
                "manifestConfigs": [{
                    "resourceIdentifier": {"group": "apps", "resource": "deployments",
                                           "name": "llm-serve", "namespace": "serving"},
                    "feedbackRules": [{"type": "WellKnownStatus"}]}],
            },
        },
    }


def image_of(deployment):
    containers = (deployment or {}).get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])
    return containers[0].get("image") if containers else None


def records(cr):
    return {r["cluster"]: r for r in json.loads(
        (cr or {}).get("metadata", {}).get("annotations", {}).get("rollout.berth.dev/clusters", "[]"))}


def seconds(timestamp):
    return calendar.timegm(time.strptime(timestamp, "%Y-%m-%dT%H:%M:%SZ"))


def main():
    berth = sys.argv[1]
    if shutil.which("kubectl") is None:
        print("kubectl not found: skipped")
        return 77
    work = tempfile.mkdtemp(prefix="berth-rollout-kill9-")
    err = os.path.join(work, "stderr.log")
    fleet = None
    try:
        fleet = Fleet(berth, work, err, CLUSTERS)
        kc = fleet.kubeconfig
        member = fleet.member

        def hub_get(*args):
            return get_json(kc, *args)

        if not fleet.wait_available():
            return exit_code()
        rc, out, e = kubectl(kc, "apply", "-f", "-", stdin=PLACEMENT)
        check(rc == 0, "the Placement with a canary decision group is applied", out + e)

        def mwrs_now():
            return hub_get("manifestworkreplicaset", "-n", "serving", "llm-serve")

        def works():
            ws = hub_get("manifestworks", "-A", "-l", MWRS_LABEL + "=serving.llm-serve")
            return {w["metadata"]["namespace"]: w for w in (ws or {}).get("items", [])}

        def revisions():
            crs = hub_get("controllerrevisions", "-n", "serving", "-l", MWRS_LABEL + "=serving.llm-serve")
            return {cr["metadata"]["name"]: cr for cr in (crs or {}).get("items", [])}

        def deployment(cluster):
            return get_json(member[cluster], "deployment", "-n", "serving", "llm-serve")

        def rolled_out(image):
            def f():
                m = mwrs_now()
                c = condition(m, "PlacementRolledOut")
                if not (c and c["status"] == "True" and m["status"].get("summary", {}).get("available") == 3):
                    return None
                deps = [deployment(name) for name in CLUSTERS]
                ok = all(image_of(d) == image and d.get("status", {}).get("availableReplicas") == 1 for d in deps)
                return m if ok else None
            return f

        rc, out, e = kubectl(kc, "apply", "-f", "-", stdin=json.dumps(mwrs("vllm/vllm-openai:v0.6.3", "vllm 0.6.3", "2s")))
        check(rc == 0, "the ManifestWorkReplicaSet (revision 1) is applied", out + e)
        check(wait_until("revision 1 rolls out to the three clusters", rolled_out("vllm/vllm-openai:v0.6.3"), 60)
              is not None, "revision 1 is rolled out and available everywhere")

        rc, out, e = kubectl(kc, "apply", "-f", "-",
                             stdin=json.dumps(mwrs("vllm/vllm-openai:v0.6.4", "vllm 0.6.4", f"{SOAK_S}s")))
        check(rc == 0, f"revision 2 (a new image, minSuccessTime {SOAK_S}s) is applied", out + e)

        # The canary has taken revision 2 and soaks; the rest still run revision 1.
        def canary_soaking():
            crs = revisions()
            two = [cr for cr in crs.values() if cr["revision"] == 2]
            if not two or records(two[0]).get("eu-1", {}).get("outcome") != "Succeeded":
                return None
            return crs
        before_crs = wait_until("the canary takes revision 2 and succeeds", canary_soaking, 30)
        before_works = works()
        if not check(before_crs is not None and
                     before_works.get("eu-1", {}).get("metadata", {}).get("generation") == 2 and
                     all(before_works.get(c, {}).get("metadata", {}).get("generation") == 1 for c in ("us-2", "ap-1")),
                     "mid-rollout: eu-1's work holds revision 2, us-2's and ap-1's revision 1",
                     {c: w["metadata"].get("generation") for c, w in before_works.items()}):
            return exit_code()
        canary_before = records([cr for cr in before_crs.values() if cr["revision"] == 2][0])["eu-1"]
        eu_deployment = deployment("eu-1")

        # kill -9, and the same store back on the same port.
        fleet.hub.send_signal(signal.SIGKILL)
        fleet.hub.wait()
        killed = time.time()
        fleet.restart_hub()
        print(f"     hub restarted {time.time() - killed:.1f} s after the kill")
        check(time.time() - seconds(canary_before["outcomeAt"]) < SOAK_S - 2,
              "the hub is back within the canary's soak (the test's window)", canary_before)

        m = wait_until("the rollout completes after the restart", rolled_out("vllm/vllm-openai:v0.6.4"), 60)
        check(m is not None, "revision 2 is rolled out and available on the three clusters",
              (mwrs_now() or {}).get("status"))

        after_works = works()
        eu_before = before_works.get("eu-1", {}).get("metadata", {})
        eu_after = after_works.get("eu-1", {}).get("metadata", {})
        check(eu_after.get("uid") == eu_before.get("uid") and eu_after.get("generation") == 2,
              "the canary's work was neither re-created nor given a new generation",
              {"before": eu_before, "after": eu_after})
        eu_now = deployment("eu-1")
        check(eu_now["metadata"]["generation"] == eu_deployment["metadata"]["generation"] and
              eu_now["metadata"]["uid"] == eu_deployment["metadata"]["uid"],
              "eu-1's Deployment was not applied again", {"before": eu_deployment["metadata"],
                                                          "after": eu_now["metadata"]})
        for c in ("us-2", "ap-1"):
            check(after_works.get(c, {}).get("metadata", {}).get("generation") == 2 and
                  after_works[c]["metadata"]["uid"] == before_works[c]["metadata"]["uid"],
                  f"{c}'s work got revision 2 as its next generation", after_works.get(c, {}).get("metadata"))

        after_crs = revisions()
        check({n: (cr["revision"], cr["metadata"]["uid"]) for n, cr in after_crs.items()} ==
              {n: (cr["revision"], cr["metadata"]["uid"]) for n, cr in before_crs.items()},
              "the ControllerRevisions kept their names, uids and numbers",
              {"before": {n: cr["revision"] for n, cr in before_crs.items()},
               "after": {n: cr["revision"] for n, cr in after_crs.items()}})
        two = [cr for cr in after_crs.values() if cr["revision"] == 2]
        rec = records(two[0]) if two else {}
        check(rec.get("eu-1", {}).get("takenAt") == canary_before["takenAt"] and
              rec.get("eu-1", {}).get("outcomeAt") == canary_before["outcomeAt"],
              "revision 2 keeps the canary's record from before the crash", rec.get("eu-1"))
        check(sorted(rec) == sorted(CLUSTERS) and all(r["outcome"] == "Succeeded" for r in rec.values()),
              "revision 2 succeeded on the three clusters", rec)
        soaked = [c for c in ("us-2", "ap-1")
                  if c in rec and seconds(rec[c]["takenAt"]) >= seconds(canary_before["outcomeAt"]) + SOAK_S]
        check(soaked == ["us-2", "ap-1"],
              f"us-2 and ap-1 took revision 2 only after the canary's {SOAK_S}s soak, counted across the crash",
              rec)
        m = mwrs_now()
        check(condition(m, "RolledBack") is None and
              (condition(m, "RolloutPaused") or {}).get("status") != "True",
              "neither rolled back nor paused", (m or {}).get("status", {}).get("conditions"))
    finally:
        if fleet is not None:
            fleet.stop()
        if failures:
            print(open(err).read()[-4000:])
        shutil.rmtree(work, ignore_errors=True)
    return exit_code()


if __name__ == "__main__":
    sys.exit(main())
