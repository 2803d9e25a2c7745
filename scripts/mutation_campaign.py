#!/usr/bin/env python3
"""A bad-input campaign against `berth plan` (issue 14's acceptance).

Takes real inputs (tests/fixtures, examples, the golden cases' inputs), mutates them the way
careless or hostile users do (fields removed, null or of the wrong type, huge counts and
quantities, names the API server refuses, objects read twice, documents glued together,
directives, alias bombs, deep nesting, truncated and flipped bytes), runs `berth plan` on each
under a time and memory watch, and sorts the outcomes:

  crash     killed by a signal, a sanitizer report, "internal error" or "terminate called"
  hang      still running after --timeout seconds (killed)
  memory    peak RSS above --mem-gib
  accepted  exit 0 although the mutation put a wrongly typed value into a field berth reads
            (one that changes berth's output when set right; see `reads` below)
  lost      berth refused the mutated object, and an object that the input without that object
            plans is missing from the output (a bad object hid a good one)
  ok        anything else (an error naming the problem, or a mutation berth may ignore)

Every finding is written under --out (the mutated input and berth's stderr) and counted in a
summary line per class. Exit status 1 when any crash, hang, memory or lost finding exists.

Needs python3-yaml (Debian: apt-get install python3-yaml). Not part of `make test`: a
campaign of thousands of runs takes minutes; run it by hand or with `make campaign`.
"""

import argparse
import copy
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time

import yaml


def read_docs(text):
    """Parses a multi-document YAML stream into a list of objects (None for empty docs)."""
    return [d for d in yaml.safe_load_all(text) if d is not None]


def dump_docs(docs):
    return yaml.safe_dump_all(docs, sort_keys=False, default_flow_style=False)


# ---- seeds -------------------------------------------------------------------------------

def collect_seeds(roots):
    """One seed per fixture file and one per golden case (its input files glued with ---)."""
    seeds = []
    for root in roots:
        if os.path.isfile(root):
            seeds.append((root, open(root, encoding="utf-8", errors="replace").read()))
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            yamls = sorted(f for f in filenames if f.endswith((".yaml", ".yml")))
            if not yamls:
                continue
            if os.path.basename(dirpath) == "input":
                texts = [open(os.path.join(dirpath, f), encoding="utf-8", errors="replace").read()
                         for f in yamls]
                seeds.append((dirpath, "\n---\n".join(texts)))
            else:
                for f in yamls:
                    p = os.path.join(dirpath, f)
                    seeds.append((p, open(p, encoding="utf-8", errors="replace").read()))
    return seeds


# ---- mutations ---------------------------------------------------------------------------

WRONG_TYPES = [7, "x", [], {}, True, -1, 1.5]
HUGE = [9223372036854775807, 2147483647, -9223372036854775808, 1e308, "5E", "9999999999Ei",
        "9223372036854775807", "0.0000000001", "-1", 1000000]
BAD_NAMES = ["UPPER_case", "a b/c/d", "x" * 254, "-leading", "trailing-", "dot..dot", "nul\0byte",
             "a" * 70000, ""]


def paths(obj, prefix=()):
    """Every path (tuple of keys/indices) in obj, depth first."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append(prefix + (k,))
            out.extend(paths(v, prefix + (k,)))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.append(prefix + (i,))
            out.extend(paths(v, prefix + (i,)))
    return out


def get_parent(obj, path):
    for k in path[:-1]:
        obj = obj[k]
    return obj


def path_text(path):
    out = ""
    for k in path:
        out += "[%d]" % k if isinstance(k, int) else ("." if out else "") + str(k)
    return out


def object_key(doc):
    if not isinstance(doc, dict):
        return None
    meta = doc.get("metadata") if isinstance(doc.get("metadata"), dict) else {}
    return "%s/%s/%s" % (doc.get("kind"), meta.get("namespace", ""), meta.get("name"))


def mutate_tree(docs, rng):
    """A structural mutation of one document: returns (docs, description, doc index, path,
    kind of mutation)."""
    docs = copy.deepcopy(docs)
    i = rng.randrange(len(docs))
    doc = docs[i]
    ps = paths(doc)
    op = rng.choice(["delete", "null", "wrong-type", "huge", "bad-name", "duplicate-object",
                     "duplicate-changed", "huge-list"])
    if op in ("duplicate-object", "duplicate-changed"):
        twin = copy.deepcopy(doc)
        if op == "duplicate-changed" and isinstance(twin, dict):
            twin.setdefault("metadata", {})
            if isinstance(twin["metadata"], dict):
                labels = twin["metadata"].setdefault("labels", {})
                if isinstance(labels, dict):
                    labels["campaign"] = "changed"
        docs.insert(i + 1, twin)
        return docs, op, i, (), op
    if op == "bad-name" and isinstance(doc, dict) and isinstance(doc.get("metadata"), dict):
        doc["metadata"]["name"] = rng.choice(BAD_NAMES)
        return docs, op, i, ("metadata", "name"), op
    if not ps:
        return docs, "none", i, (), "none"
    path = rng.choice(ps)
    parent = get_parent(doc, path)
    key = path[-1]
    if op == "delete" or op == "bad-name":
        del parent[key]
        return docs, "delete", i, path, "delete"
    if op == "null":
        parent[key] = None
        return docs, op, i, path, op
    if op == "wrong-type":
        old = parent[key]
        choices = [v for v in WRONG_TYPES if type(v) is not type(old)]
        if is_quantity(old):
            # A quantity is int-or-string upstream: a number is another spelling, not a wrong type.
            choices = [v for v in choices if isinstance(v, bool) or not isinstance(v, (int, float))]
        parent[key] = rng.choice(choices)
        return docs, op, i, path, op
    if op == "huge-list" and isinstance(parent[key], list) and parent[key]:
        parent[key] = parent[key] * rng.choice([1000, 100000])
        return docs, op, i, path, op
    parent[key] = rng.choice(HUGE)
    return docs, "huge", i, path, "huge"


QUANTITY = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+|[numkMGTPE]|[KMGTPE]i)?$")


def is_quantity(value):
    """Whether a value is spelled like a resource quantity ("500m", "64Gi", 8)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    return isinstance(value, str) and QUANTITY.match(value) is not None


def mutate_text(text, rng):
    """A textual mutation of the whole stream: (text, description)."""
    op = rng.choice(["glue", "directive", "alias-bomb", "deep-nesting", "truncate", "flip",
                     "tab", "long-line"])
    if op == "glue":
        return text.replace("\n---\n", "\n", 1), op
    if op == "directive":
        parts = text.split("\n---\n")
        k = rng.randrange(len(parts))
        parts[k] = "%YAML 1.1\n---\n" + parts[k]
        return "\n---\n".join(parts), op
    if op == "alias-bomb":
        lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for n in range(1, 10):
            lines.append("a%d: &a%d [%s]" % (n, n, ", ".join(["*a%d" % (n - 1)] * 10)))
        bomb = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\ndata:\n" + \
            "\n".join("  " + l for l in lines) + "\n"
        return text + "\n---\n" + bomb, op
    if op == "deep-nesting":
        depth = rng.choice([1000, 100000])
        return text + "\n---\n" + "[" * depth + "]" * depth + "\n", op
    if op == "truncate":
        return text[: rng.randrange(max(1, len(text)))], op
    if op == "flip":
        b = bytearray(text.encode("utf-8", errors="replace"))
        for _ in range(rng.randint(1, 8)):
            if b:
                b[rng.randrange(len(b))] = rng.randrange(256)
        return b.decode("utf-8", errors="replace"), op
    if op == "tab":
        return text.replace("  ", "\t", 1), op
    return text + "\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + \
        "n" * 5_000_000 + "\n", op


# ---- running -----------------------------------------------------------------------------

def run_berth(berth, path, timeout, mem_bytes):
    """Runs `berth plan -f path -o json`; returns (rc, stdout, stderr, seconds, peak_rss,
    timed_out)."""
    out_f = tempfile.TemporaryFile()
    err_f = tempfile.TemporaryFile()
    start = time.monotonic()
    proc = subprocess.Popen([berth, "plan", "-f", path, "-o", "json"], stdout=out_f,
                            stderr=err_f, start_new_session=True)
    timed_out = False
    rusage = None
    status = 0
    while True:
        pid, status, rusage = os.wait4(proc.pid, os.WNOHANG)
        if pid != 0:
            break
        if time.monotonic() - start > timeout:
            os.killpg(proc.pid, signal.SIGKILL)
            _, status, rusage = os.wait4(proc.pid, 0)
            timed_out = True
            break
        time.sleep(0.01)
    seconds = time.monotonic() - start
    rc = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    out_f.seek(0)
    err_f.seek(0)
    out = out_f.read().decode("utf-8", errors="replace")
    err = err_f.read(64 * 1024).decode("utf-8", errors="replace")
    return rc, out, err, seconds, rusage.ru_maxrss * 1024, timed_out


def output_keys(out):
    """kind/namespace/name of every item berth printed (JSON List)."""
    import json
    try:
        items = json.loads(out).get("items", [])
    except ValueError:
        return set()
    keys = set()
    for it in items:
        if isinstance(it, dict):
            keys.add(object_key(it))
    return keys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--berth", required=True)
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--mem-gib", type=float, default=2.0)
    ap.add_argument("--out", default="campaign-out")
    ap.add_argument("inputs", nargs="+")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    mem_limit = int(args.mem_gib * (1 << 30))
    work = tempfile.mkdtemp(prefix="berth-campaign-")

    # Baselines: seeds that berth reads and plans cleanly and quickly.
    seeds = []
    for name, text in collect_seeds(args.inputs):
        try:
            docs = read_docs(text)
        except yaml.YAMLError:
            continue
        if not docs:
            continue
        path = os.path.join(work, "seed.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        rc, out, _, seconds, _, _ = run_berth(args.berth, path, args.timeout, mem_limit)
        if rc != 0 or seconds > 5:
            continue
        seeds.append((name, text, docs, out))
    print("seeds: %d usable" % len(seeds), flush=True)
    if not seeds:
        return 2

    counts = {}
    findings = 0
    without_cache = {}
    for n in range(args.count):
        name, text, docs, base_out = rng.choice(seeds)
        touched = None
        field = ""
        idx = -1
        if rng.random() < 0.75:
            mdocs, desc, idx, path, op = mutate_tree(docs, rng)
            try:
                mtext = dump_docs(mdocs)
            except (yaml.YAMLError, ValueError):
                continue
            touched = object_key(docs[idx])
            field = path_text(path)
        else:
            mtext, op = mutate_text(text, rng)
            desc = op
        mpath = os.path.join(work, "case.yaml")
        with open(mpath, "w", encoding="utf-8", errors="replace") as f:
            f.write(mtext)
        rc, out, err, seconds, rss, timed_out = run_berth(args.berth, mpath, args.timeout,
                                                          mem_limit)
        klass = "ok"
        if timed_out:
            klass = "hang"
        elif rc < 0 or "AddressSanitizer" in err or "runtime error:" in err or \
                "internal error" in err or "terminate called" in err or rc >= 128:
            klass = "crash"
        elif rss > mem_limit:
            klass = "memory"
        elif rc == 0 and op == "wrong-type" and out != base_out:
            # berth read the field (its output changed) and took a value of the wrong type.
            klass = "accepted"
        elif touched is not None and rc != 0 and op not in ("duplicate-object",
                                                          "duplicate-changed"):
            # berth refused something. If it dropped the touched object, the rest must plan
            # as if that object were absent: compare with a run on the input without it
            # (its dependents change there too, so they are not counted as lost).
            key = (name, idx)
            if key not in without_cache:
                rest = docs[:idx] + docs[idx + 1:]
                rpath = os.path.join(work, "without.yaml")
                with open(rpath, "w", encoding="utf-8") as f:
                    f.write(dump_docs(rest) if rest else "")
                r_rc, r_out, _, _, _, _ = run_berth(args.berth, rpath, args.timeout, mem_limit)
                without_cache[key] = output_keys(r_out) if r_rc == 0 else None
            expected = without_cache[key]
            got = output_keys(out)
            lost = sorted(k for k in (expected or ()) if k != touched and k not in got)
            if expected is not None and lost:
                klass = "lost"
        counts[klass] = counts.get(klass, 0) + 1
        if klass == "lost":
            err = "lost: %s\n\n%s" % (", ".join(sorted(lost)[:20]), err)
        if klass != "ok":
            findings += klass != "accepted"
            stem = os.path.join(args.out, "%s-%05d" % (klass, n))
            with open(stem + ".yaml", "w", encoding="utf-8", errors="replace") as f:
                f.write(mtext)
            with open(stem + ".txt", "w", encoding="utf-8", errors="replace") as f:
                f.write("seed: %s\nmutation: %s %s %s\nrc: %d seconds: %.2f rss: %d MiB\n\n%s" %
                        (name, desc, touched or "", field, rc, seconds, rss >> 20, err[:4000]))
        if (n + 1) % 200 == 0:
            print("%d runs: %s" % (n + 1, counts), flush=True)
    print("runs: %d; %s" % (args.count, ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
