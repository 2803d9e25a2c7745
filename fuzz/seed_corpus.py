#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (fuzz/README.md) from berth's own inputs:
tests/fixtures, the inputs of tests/e2e cases and examples/. Each seed is named by the hash
of its bytes, so rerunning adds only new seeds. Run from the repository root:

    python3 fuzz/seed_corpus.py OUT_DIR

then merge OUT_DIR/<target> into fuzz/corpus/<target> with the target's -merge=1
(scripts/fuzz-ci.sh --merge does both), which keeps only seeds that add coverage.
"""
import glob
import hashlib
import json
import os
import re
import sys

import yaml

MAX_SEED_BYTES = 16 * 1024


def inputs():
    """Every YAML/JSON input file of the repository's tests and examples, small ones only."""
    patterns = ["tests/fixtures/**/*", "tests/e2e/*/input/**/*", "tests/e2e/*/*.yaml",
                "examples/**/*"]
    seen = set()
    for pattern in patterns:
        for path in sorted(glob.glob(pattern, recursive=True)):
            if path in seen or not os.path.isfile(path):
                continue
            seen.add(path)
            if os.path.getsize(path) <= MAX_SEED_BYTES:
                yield path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def documents(data):
    """The mappings of a YAML stream; none for a stream with aliases: a billion-laughs input
    (tests/e2e/bad-yaml-limits) expands without bound once walked or dumped, so such files
    are seeds of the whole-file targets only."""
    try:
        text = data.decode("utf-8")
        if any(isinstance(e, yaml.AliasEvent) for e in yaml.parse(text, Loader=yaml.SafeLoader)):
            return []
        return [d for d in yaml.safe_load_all(text) if isinstance(d, dict)]
    except Exception:
        return []


def walk(node, visit):
    visit(node)
    if isinstance(node, dict):
        for v in node.values():
            walk(v, visit)
    elif isinstance(node, list):
        for v in node:
            walk(v, visit)


class Corpus:
    def __init__(self, root):
        self.root = root

    def add(self, target, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        if not data or len(data) > MAX_SEED_BYTES:
            return
        folder = os.path.join(self.root, target)
        os.makedirs(folder, exist_ok=True)
        name = "seed-" + hashlib.sha1(data).hexdigest()[:16]
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)


def sync_messages(docs):
    """(request, reply, path) of the agent sync protocol (src/server/agent/sync_protocol.h)
    for the first member cluster `docs` name: JSON texts as berth's encoders write them."""
    clusters = [d for d in docs if d.get("kind") == "ManagedCluster"]
    works = [d for d in docs if d.get("kind") == "ManifestWork"]
    if not clusters and not works:
        return []
    name = ((clusters[0].get("metadata") or {}).get("name") if clusters else
            (works[0].get("metadata") or {}).get("namespace")) or "eu-1"
    claims = [{"name": c.get("name", ""), "value": c.get("value", "")}
              for c in ((clusters[0].get("status") or {}).get("clusterClaims") or [])
              if isinstance(c, dict)] if clusters else []
    nodes = [d for d in docs if d.get("kind") == "Node" and
             ((d.get("metadata") or {}).get("annotations") or {}).get("berth.dev/cluster", name) == name]
    mine = [w for w in works if (w.get("metadata") or {}).get("namespace") == name] or works[:2]
    held, statuses, acks = [], [], {}
    for i, w in enumerate(mine):
        meta = w.get("metadata") or {}
        held.append({"name": meta.get("name", ""), "uid": meta.get("uid", ""),
                     "generation": meta.get("generation", 1)})
        if isinstance(w.get("status"), dict):
            statuses.append({"name": meta.get("name", ""), "uid": meta.get("uid", ""),
                             "generation": meta.get("generation", 1), "sequence": i + 1,
                             "status": w["status"]})
            acks[meta.get("name", "")] = i + 1
    request = {"cluster": name, "agentId": "agent-" + name, "hubId": "", "epoch": 1,
               "kubernetesVersion": "v1.32.0", "inventoryHash": "h" + str(len(nodes)),
               "inventory": nodes[:4], "claims": claims[:8], "works": held, "statuses": statuses}
    reply = {"hubId": "hub-1", "epoch": 1, "accepted": True, "inventoryHash": "",
             "apply": mine, "remove": ["gone-work"], "statusAcks": acks,
             "syncPeriodSeconds": 10, "leaseDurationSeconds": 40}
    dump = lambda m: json.dumps(m, default=str, separators=(",", ":"))
    return [(dump(request), dump(reply), "/apis/agent.berth.dev/v1/clusters/" + name + "/sync")]


QUANTITY = re.compile(r"^[+-]?[0-9.]+([eE][+-]?[0-9]+|[numkMGTPE]i?|Ki)?$")


def main():
    out = Corpus(sys.argv[1])
    yaml_files, json_files, csv_files = [], [], []
    for path in inputs():
        ext = os.path.splitext(path)[1]
        if ext in (".yaml", ".yml"):
            yaml_files.append(path)
        elif ext == ".json":
            json_files.append(path)
        elif ext in (".csv", ".jsonl"):
            csv_files.append(path)

    kube_docs = []
    for path in yaml_files + json_files:
        data = read(path)
        out.add("reader", data)
        out.add("plan", data)
        (out.add("yaml_documents", data) if path in yaml_files else
         out.add("json_documents", data))
        if b'"items"' in data or b"kind: List" in data:
            out.add("list_split", data if path in json_files else
                    json.dumps({"apiVersion": "v1", "kind": "List",
                                "items": documents(data)}, default=str))
        for doc in documents(data):
            kube_docs.append(doc)

    quantities, selectors, expressions = set(), [], set()
    for doc in kube_docs:
        api_version, kind = doc.get("apiVersion"), doc.get("kind")
        # JSON documents go to the JSON target and to the list splitter as a List of one.
        text = json.dumps(doc, default=str)
        out.add("json_documents", text)
        if isinstance(api_version, str) and isinstance(kind, str):
            body = {k: v for k, v in doc.items() if k not in ("apiVersion", "kind")}
            first = api_version + " " + kind + "\n"
            out.add("object", first + yaml.safe_dump(body, sort_keys=False))
            out.add("object", first + json.dumps(body, default=str))
            if kind == "KubeSchedulerConfiguration":
                out.add("scheduler_config", yaml.safe_dump(body, sort_keys=False))
            if kind == "Configuration" and api_version.startswith("config.kueue"):
                out.add("kueue_config", yaml.safe_dump(body, sort_keys=False))
        labels = (doc.get("metadata") or {}).get("labels") or {}

        def visit(node):
            if isinstance(node, dict):
                for key, value in node.items():
                    if key in ("matchLabels", "matchExpressions") and isinstance(node, dict):
                        selectors.append({"labelSelector": node, "labels": labels})
                    if key == "nodeSelectorTerms":
                        selectors.append({"nodeSelector": node, "labels": labels})
                    if key == "expression" and isinstance(value, str):
                        expressions.add(value)
                    if isinstance(value, (str, int)) and QUANTITY.match(str(value)):
                        quantities.add(str(value))
        walk(doc, visit)

    for q in sorted(quantities) + ["1.5Gi", "500m", "1e3", "-1", "0.001", "9E", "8Ei", "1n"]:
        out.add("quantity", q)
    for s in selectors:
        out.add("selector", json.dumps(s, default=str))
    for e in sorted(expressions) + [
            'device.driver == "gpu.nvidia.com"',
            'device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA")',
            'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0',
            'device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("1.0.0"))',
            '[1, 2, 3].all(x, x > 0) && {"a": 1}["a"] == 1',
            '"example.com/zone" in device.attributes && has(device.attributes["example.com"].zone)']:
        out.add("cel", e)

    # A whole e2e case's input as one plan seed: the objects that meet in that case's plan.
    for case in sorted(glob.glob("tests/e2e/*/input")):
        parts = []
        for path in sorted(glob.glob(case + "/**/*.y*ml", recursive=True)):
            parts.append(read(path).rstrip(b"\n"))
        out.add("plan", b"\n---\n".join(parts) + b"\n")

    # The agent sync protocol (agent_sync): per e2e case whose input has ManagedClusters or
    # ManifestWorks, the request an agent of its first cluster would send (that cluster's
    # Nodes as the inventory, its claims, its works held and their statuses) and the reply a
    # hub would give (the works to apply); both with the default limits (second byte 0) and
    # small ones (0xff); and the sync path of that cluster.
    for case in sorted(glob.glob("tests/e2e/*/input")):
        docs = []
        for path in sorted(glob.glob(case + "/**/*.y*ml", recursive=True)):
            if os.path.getsize(path) <= 4 * MAX_SEED_BYTES:
                docs.extend(documents(read(path)))
        for request, reply, path in sync_messages(docs):
            for limits in (b"\x00", b"\xff"):
                out.add("agent_sync", b"\x00" + limits + request.encode("utf-8"))
                out.add("agent_sync", b"\x01" + limits + reply.encode("utf-8"))
            out.add("agent_sync", b"\x02\x00" + path.encode("utf-8"))

    for path in csv_files:
        # Traces are long and regular: their first rows show every column.
        data = b"".join(read(path).splitlines(keepends=True)[:25])
        name = os.path.basename(path)
        if "openb_node" in name:
            out.add("openb", b"\x00" + data)
        elif "openb_pod" in name:
            out.add("openb", b"\x01" + data)
        elif "tenant" in name:
            out.add("trace", b"\x04" + data)
        elif "philly" in path:
            out.add("trace", b"\x00" + data)
        elif "pollux" in path:
            out.add("trace", b"\x01" + data)
        elif name.endswith(".jsonl"):
            out.add("trace", b"\x03" + data)
        else:
            out.add("trace", b"\x02" + data)
    # Formats no committed input shows: JSON Lines, RFC 3339 submit times, CRLF and quoting.
    out.add("trace", b"\x03" + b'{"id": "a", "submit": 0, "duration": "1h", "gpus": 8, '
            b'"tenant": "team-a", "gpu_model": "H100", "priority": 5}\n'
            b'{"id": "b", "submit": "90s", "duration": 30, "gpus": 0, "cpu": "500m", '
            b'"memory": "16G", "tenant": null}\n')
    out.add("trace", b"\x02" + b"id,submit,duration,gpus,cpu,memory,tenant\r\n"
            b'"a,1",2024-05-01T09:30:00Z,1h30m,1,500m,16G,"te""am"\r\n'
            b"b,2024-05-01T10:00:00Z,1.5h,0,,,\r\n")
    for path in yaml_files:
        data = read(path)
        if b"SimulationScenario" in data or b"ModelLoadStudy" in data:
            out.add("scenario", data)


if __name__ == "__main__":
    main()
