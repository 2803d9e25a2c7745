"""A federated training whose data stays in its clusters, with real processes on loopback
(issue 16's acceptance test): a hub (`berth serve`, examples/fleet's hub objects), three
simulated member clusters and an agent process for each. The agents report ClusterClaims
(`berth agent --claim`): eu-1 and us-2 hold the training data (`mnist.client-data`, each its
own shard) and claim GDPR compliance, ap-1 claims compliance but holds no data. A
FederatedLearning (federation-ai.open-cluster-management.io/v1alpha1) whose client Placement
selects the data claim, with `berth.dev/data-compliance: gdpr` and minAvailableClients 2,
trains with clients on exactly eu-1 and us-2 (status.clients, ManifestWorks, the client Jobs
running there with their own data config) and its server on eu-1. Then a client is killed:
us-2's agent is SIGKILLed, so us-2 falls silent and its lease lapses (the hub cannot see the
client any more); the training is below its minimum and aborts: phase Failed,
TrainingAborted=True (ClientsBelowMinimum), every work of the training deleted and its Jobs
removed from eu-1; us-2's agent, back, removes its client Job too. Every wait is bounded;
skips (77) without kubectl."""
import os
import shutil
import signal
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hub_harness import (Fleet, check, condition, exit_code, failures, get_json, kubectl,  # noqa: E402
                         wait_until)

CLUSTERS = ("eu-1", "us-2", "ap-1")
FL_LABEL = "berth.dev/federated-learning=team-eu.mnist"
DATA = {"eu-1": "/data/mnist/shard-eu", "us-2": "/data/mnist/shard-us"}

TRAINING = """apiVersion: federation-ai.open-cluster-management.io/v1alpha1
kind: FederatedLearning
metadata:
  name: mnist
  namespace: team-eu
  annotations:
    berth.dev/data-compliance: gdpr
spec:
  framework: flower
  server:
    image: quay.io/example/flower-app:1.0
    rounds: 3
    minAvailableClients: 2
    storage: {type: HostPath, path: /data/models}
    resources:
      requests: {cpu: "1", memory: 1Gi}
  client:
    image: quay.io/example/flower-app:1.0
    resources:
      requests: {cpu: "1", memory: 1Gi}
    placement:
      clusterSets: [gpu-fleet]
      predicates:
      - requiredClusterSelector:
          claimSelector:
            matchExpressions:
            - {key: mnist.client-data, operator: Exists}
"""


def main():
    berth = sys.argv[1]
    if shutil.which("kubectl") is None:
        print("kubectl not found: skipped")
        return 77
    work = tempfile.mkdtemp(prefix="berth-federated-")
    err = os.path.join(work, "stderr.log")
    fleet = None
    # Removing a work the hub deleted waits --orphan-grace: short here.
    agent_args = {name: ["--orphan-grace", "1s"] for name in CLUSTERS}
    for name, shard in DATA.items():
        agent_args[name] += ["--claim", "mnist.client-data=" + shard]
    agent_args["eu-1"] += ["--claim", "compliance.berth.dev=gdpr"]
    agent_args["us-2"] += ["--claim", "compliance.berth.dev=gdpr,iso27001"]
    agent_args["ap-1"] += ["--claim", "compliance.berth.dev=gdpr"]
    try:
        fleet = Fleet(berth, work, err, CLUSTERS, agent_args=agent_args)
        kc = fleet.kubeconfig
        if not fleet.wait_available():
            return exit_code()

        def claims():
            mcs = get_json(kc, "managedclusters")
            got = {m["metadata"]["name"]: {c["name"]: c["value"] for c in m.get("status", {}).get("clusterClaims", [])}
                   for m in (mcs or {}).get("items", [])}
            ok = all(got.get(c, {}).get("mnist.client-data") == shard for c, shard in DATA.items()) and \
                "mnist.client-data" not in got.get("ap-1", {"mnist.client-data": "?"})
            return got if ok else None
        check(wait_until("the agents' claims reach the hub", claims, 20) is not None,
              "eu-1 and us-2 claim the data, ap-1 does not")

        rc, out, e = kubectl(kc, "create", "-f", "-", stdin=TRAINING)
        check(rc == 0, "the FederatedLearning is created on the hub", out + e)

        def fl():
            return get_json(kc, "federatedlearning", "-n", "team-eu", "mnist")

        def running():
            f = fl()
            return f if (f or {}).get("status", {}).get("phase") == "Running" else None
        f = wait_until("the training starts", running, 30)
        if not check(f is not None, "phase Running", (fl() or {}).get("status")):
            return exit_code()
        status = f["status"]
        clients = {c["clusterName"]: c for c in status.get("clients", [])}
        training = sorted(c for c, s in clients.items() if s.get("state") == "Training")
        check(training == ["eu-1", "us-2"], "the clients train on exactly the two data clusters", status)
        check(all(clients.get(c, {}).get("dataConfig") == shard for c, shard in DATA.items()),
              "each client's data config is its own cluster's claim", clients)
        check(status.get("serverCluster") == "eu-1", "the server runs on eu-1", status)
        placed = condition(f, "ClientsPlaced") or {}
        check(placed.get("status") == "True", "ClientsPlaced=True", placed)

        works = get_json(kc, "manifestworks", "-A", "-l", FL_LABEL)
        by_cluster = sorted((w["metadata"]["namespace"], w["metadata"]["labels"].get("berth.dev/federated-learning-role"))
                            for w in (works or {}).get("items", []))
        check(by_cluster == [("eu-1", "client"), ("eu-1", "server"), ("us-2", "client")],
              "ManifestWorks: a client on eu-1 and us-2, the server on eu-1, nothing for ap-1", by_cluster)

        def jobs_running(cluster, names):
            def f():
                pods = get_json(fleet.member[cluster], "pods", "-n", "team-eu")
                running = sorted(p["metadata"]["labels"].get("job-name", "") for p in (pods or {}).get("items", [])
                                 if p["status"].get("phase") == "Running")
                return running if running == names else None
            return f
        check(wait_until("the client and the server run on eu-1", jobs_running("eu-1", ["mnist-client", "mnist-server"]),
                         30) is not None, "eu-1 runs its client and the server")
        check(wait_until("the client runs on us-2", jobs_running("us-2", ["mnist-client"]), 30) is not None,
              "us-2 runs its client")
        for cluster, shard in DATA.items():
            job = get_json(fleet.member[cluster], "job", "-n", "team-eu", "mnist-client")
            args = ((job or {}).get("spec", {}).get("template", {}).get("spec", {}).get("containers") or [{}])[0].get("args", [])
            check("--data-config=" + shard in args, f"{cluster}'s client reads its own shard", args)
        ap_jobs = get_json(fleet.member["ap-1"], "jobs", "-n", "team-eu")
        check(ap_jobs is not None and not ap_jobs["items"], "nothing of the training runs on ap-1",
              [j["metadata"]["name"] for j in (ap_jobs or {}).get("items", [])])

        # A client is killed: us-2's agent dies, so the hub loses that client.
        fleet.agents["us-2"].send_signal(signal.SIGKILL)
        fleet.agents["us-2"].wait()

        def failed():
            f = fl()
            return f if (f or {}).get("status", {}).get("phase") == "Failed" else None
        f = wait_until("the training aborts", failed, 30)
        aborted = condition(f, "TrainingAborted") or {}
        check(aborted.get("status") == "True" and aborted.get("reason") == "ClientsBelowMinimum",
              "Failed with TrainingAborted=True (ClientsBelowMinimum)", (f or fl() or {}).get("status"))
        check("us-2" in aborted.get("message", "") and "ClusterLost" in aborted.get("message", ""),
              "the reason names the lost client us-2", aborted)
        lost = {c["clusterName"]: c for c in (f or {}).get("status", {}).get("clients", [])}.get("us-2", {})
        check(lost.get("state") == "Lost" and lost.get("reason") == "ClusterLost", "us-2's client is Lost", lost)

        def works_gone():
            w = get_json(kc, "manifestworks", "-A", "-l", FL_LABEL)
            return w if w is not None and not w["items"] else None
        check(wait_until("the training's works are deleted", works_gone, 20) is not None,
              "every ManifestWork of the training is deleted")

        def jobs_gone(cluster):
            def f():
                jobs = get_json(fleet.member[cluster], "jobs", "-n", "team-eu")
                return jobs if jobs is not None and not jobs["items"] else None
            return f
        check(wait_until("eu-1's agent removes the client and the server", jobs_gone("eu-1"), 30) is not None,
              "the training's Jobs are gone from eu-1")
        fleet.agents["us-2"] = fleet.start_agent("us-2")
        check(wait_until("us-2's agent, back, removes its client", jobs_gone("us-2"), 30) is not None,
              "the client Job is gone from us-2 once its agent is back")
        f = fl()
        check((f or {}).get("status", {}).get("phase") == "Failed", "the training stays Failed", (f or {}).get("status"))
    finally:
        if fleet is not None:
            fleet.stop()
        if failures:
            print(open(err).read()[-4000:])
        shutil.rmtree(work, ignore_errors=True)
    return exit_code()


if __name__ == "__main__":
    sys.exit(main())
