#!/usr/bin/env python3
"""Condenses upstream TestFairPreemptions cases into berth's YAML table (semantics only)."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract_preemption import (block, chain_blocks, emit_cq, emit_wl, parse_cohort,  # noqa: E402
                                parse_cq, res_name)

src = open(sys.argv[1]).read()
fn = src[src.index('func TestFairPreemptions('):]
fn = fn[:fn.index('\nfunc ', 10)]
lines = fn.split('\n')


def weight(text):
    m = re.search(r'FairWeight\(resource\.MustParse\("([^"]+)"\)\)', re.sub(r'\s*\n\s*', '', text))
    return m.group(1) if m else None


def cq_list(txt):
    out = []
    for c in chain_blocks(txt, 'utiltestingapi.MakeClusterQueue'):
        if c.startswith('utiltestingapi.MakeClusterQueue'):
            cq = parse_cq(c)
            w = weight(c)
            if w:
                cq['weight'] = w
            out.append(cq)
    return out


base = re.search(r'baseCQs := \[\]\*kueue\.ClusterQueue\{(.*?)\n\t\}\n', fn, re.S).group(1)
base_cqs = cq_list(base)

cases = []
i = 0
while i < len(lines):
    m = re.match(r'^\t\t"(.+)": \{$', lines[i])
    if m:
        txt, i = block(lines, i, m.group(1))
        cases.append((m.group(1), txt))
        continue
    i += 1


def wl_line(c):
    c = re.sub(r'\s*\n\s*', '', c)
    m = re.search(r'\.Name\("([^"]+)"\)', c) or re.search(r'MakeWorkload\("([^"]+)"', c)
    wl = {'name': m.group(1)}
    p = re.search(r'\.Priority\((-?\d+)\)', c)
    if p:
        wl['priority'] = int(p.group(1))
    req = {res_name(r.group(1)): r.group(2) for r in re.finditer(r'\.Request\(([^,]+),\s*"([^"]+)"\)', c)}
    if not req and 'unitWl' in c:
        req = {'cpu': '1'}
    wl['requests'] = req
    s = re.search(r'SimpleReserveQuota\("([^"]+)",\s*"([^"]+)"', c)
    if s:
        wl['cq'] = s.group(1)
        wl['flavors'] = {r: s.group(2) for r in req}
        wl['reservedAt'] = 0
    return wl


def q(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def emit_cq2(cq, ind):
    out = emit_cq(cq, ind)
    if 'weight' in cq:
        out.insert(1, ind + '  fairWeight: ' + q(cq['weight']))
    return out


out = ['# Upstream: kubernetes-sigs/kueue pkg/scheduler/preemption/preemption_fair_test.go,',
       '# TestFairPreemptions, commit ff69552e (2026-08-22).',
       'clusterQueues:']
for cq in base_cqs:
    out += emit_cq2(cq, '')
out.append('cases:')
for name, txt in cases:
    out.append('- name: ' + q(name))
    if 'clusterQueues: baseCQs' not in txt:
        m = re.search(r'clusterQueues:\s*\[\]\*kueue\.ClusterQueue\{(.*?)\n\t\t\t\},', txt, re.S)
        out.append('  clusterQueues:')
        for cq in cq_list(m.group(1)):
            out += emit_cq2(cq, '  ')
    m = re.search(r'cohorts:\s*\[\]\*kueue\.Cohort\{(.*?)\n\t\t\t\},', txt, re.S)
    if m:
        out.append('  cohorts:')
        for c in chain_blocks(m.group(1), 'utiltestingapi.MakeCohort'):
            if c.startswith('utiltestingapi.MakeCohort'):
                co = parse_cohort(c)
                w = weight(c)
                if w:
                    co['weight'] = w
                out += emit_cq2(co, '  ')
    m = re.search(r'strategies:\s*\[\]config\.PreemptionStrategy\{([^}]*)\}', txt)
    if m:
        out.append('  strategies: [' + ', '.join(re.findall(r'config\.(\w+)', m.group(1))) + ']')
    m = re.search(r'assignmentFlavor:\s*"([^"]+)"', txt)
    if m:
        out.append('  assignmentFlavor: ' + m.group(1))
    m = re.search(r'flavors:\s*\[\]\*kueue\.ResourceFlavor\{(.*?)\n\t\t\t\},', txt, re.S)
    if m:
        out.append('  flavors: [' + ', '.join(re.findall(r'MakeResourceFlavor\("([^"]+)"\)', m.group(1))) + ']')
    m = re.search(r'admitted:\s*\[\]kueue\.Workload\{(.*?)\n\t\t\t\},', txt, re.S)
    out.append('  admitted:')
    for c in re.split(r'\n\t\t\t\t\*', '\n' + m.group(1)):
        if c.strip() and ('Workload' in c or 'unitWl' in c):
            wl = wl_line(c)
            out += emit_wl(wl, '  ')
    m = re.search(r'incoming:\s*(.*?)\.Obj\(\),', txt, re.S)
    inc = wl_line(m.group(1))
    parts = ['requests: {' + ', '.join('%s: %s' % (k, q(v)) for k, v in inc['requests'].items()) + '}']
    if 'priority' in inc:
        parts.append('priority: %d' % inc['priority'])
    out.append('  incoming: {' + ', '.join(parts) + '}')
    out.append('  targetCQ: ' + re.search(r'targetCQ:\s*"([^"]+)"', txt).group(1))
    want = re.findall(r'targetKeyReason\("/([^"]+)",\s*kueue\.(\w+)Reason\)', txt)
    out.append('  want:' + ('' if want else ' []'))
    for n, r in want:
        out.append('  - {name: %s, reason: %s}' % (n, r))
print('\n'.join(out))
