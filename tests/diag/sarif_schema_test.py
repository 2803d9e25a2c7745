#!/usr/bin/env python3
"""berth doctor -o sarif is a valid SARIF 2.1.0 log: validated with python3-jsonschema
(Draft 4, formats checked) against tests/diag/sarif-2.1.0.schema.json, berth's transcription
of the specification's constraints for the objects doctor writes; and its results agree with
-o json (same rules, objects and levels), point at the files read, and every rule has a help
URI naming its docs page. Usage: sarif_schema_test.py BERTH"""
import json
import os
import subprocess
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def run(berth, *args):
    p = subprocess.run([berth, "doctor", *args], capture_output=True, text=True, timeout=120, cwd=ROOT)
    if p.returncode not in (0, 1):
        sys.exit(f"berth doctor {' '.join(args)}: exit {p.returncode}\n{p.stderr}")
    return json.loads(p.stdout)


def main():
    berth = sys.argv[1]
    with open(os.path.join(HERE, "sarif-2.1.0.schema.json")) as f:
        schema = json.load(f)
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
    # A log without a required property must fail: the validator really checks.
    assert list(validator.iter_errors({"runs": []})), "schema accepts a log without version"
    for inputs in (["-f", "examples/demo-fleet"], ["--demo"]):
        sarif = run(berth, *inputs, "-o", "sarif")
        errors = sorted(validator.iter_errors(sarif), key=lambda e: list(e.path))
        for e in errors[:10]:
            print(f"{list(e.path)}: {e.message}")
        assert not errors, f"{len(errors)} schema errors for {inputs}"
        report = run(berth, *inputs, "-o", "json")
        results = sarif["runs"][0]["results"]
        assert len(results) == len(report["findings"]) > 0, (len(results), len(report["findings"]))
        rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        for r in rules:
            assert r["helpUri"].endswith("/doctor/" + r["id"] + ".md"), r["helpUri"]
            assert os.path.exists(os.path.join(ROOT, "docs", "doctor", r["id"] + ".md")), r["id"]
        for res, finding in zip(results, report["findings"]):
            assert res["ruleId"] == finding["rule"]
            assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
            assert res["level"] == LEVEL[finding["severity"]]
            name = res["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]
            assert finding["object"]["name"] in name, (name, finding["object"])
            if inputs[0] == "-f":
                phys = res["locations"][0]["physicalLocation"]
                path = os.path.join(ROOT, phys["artifactLocation"]["uri"])
                assert os.path.exists(path), path
                with open(path) as f:
                    lines = f.read().split("\n")
                line = lines[phys["region"]["startLine"] - 1]
                assert line.strip().startswith("kind:") and finding["object"]["kind"] in line, (path, line)
    print("ok")


if __name__ == "__main__":
    main()
