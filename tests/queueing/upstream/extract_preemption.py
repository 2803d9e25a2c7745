#!/usr/bin/env python3
"""Condenses upstream TestPreemption cases into berth's YAML table (semantics only)."""
import re
import sys


def res_name(tok):
    tok = tok.strip()
    m = {'corev1.ResourceCPU': 'cpu', 'corev1.ResourceMemory': 'memory',
         'corev1.ResourcePods': 'pods'}
    if tok in m:
        return m[tok]
    if tok.startswith('"'):
        return tok.strip('"')
    raise ValueError('resource ' + tok)


def chain_blocks(text, opener):
    """Splits text into chains starting at `opener(`."""
    idx = [m.start() for m in re.finditer(re.escape(opener) + r'\(', text)]
    return [text[a:b] for a, b in zip(idx, idx[1:] + [len(text)])]


def parse_cq(text):
    text = re.sub(r'\s*\n\s*', '', text)
    name = re.match(r'[\w.]*MakeClusterQueue\("([^"]+)"\)', text.strip()).group(1)
    cq = {'name': name}
    m = re.search(r'\.Cohort\("([^"]+)"\)', text)
    if m:
        cq['cohort'] = m.group(1)
    groups = []
    for g in chain_blocks(text, 'ResourceGroup')[0:]:
        if not g.startswith('ResourceGroup'):
            continue
        flavors = []
        for fq in chain_blocks(g, 'MakeFlavorQuotas'):
            if not fq.startswith('MakeFlavorQuotas'):
                continue
            fname = re.match(r'MakeFlavorQuotas\("([^"]+)"\)', fq).group(1)
            res = []
            for r in re.finditer(r'\.Resource\(([^,]+),\s*((?:"[^"]*"(?:,\s*)?)+)\)', fq):
                vals = re.findall(r'"([^"]*)"', r.group(2))
                res.append([res_name(r.group(1))] + vals)
            flavors.append({'flavor': fname, 'resources': res})
        groups.append(flavors)
    cq['groups'] = groups
    pre = {}
    for k in ['WithinClusterQueue', 'ReclaimWithinCohort']:
        m = re.search(k + r':\s*kueue\.PreemptionPolicy(\w+)', text)
        if m:
            pre[k] = m.group(1)
    m = re.search(r'BorrowWithinCohort:\s*&kueue\.BorrowWithinCohort\{(.*?)\}', text, re.S)
    if m:
        p = re.search(r'Policy:\s*kueue\.BorrowWithinCohortPolicy(\w+)', m.group(1))
        t = re.search(r'MaxPriorityThreshold:\s*(?:new\(int32\()?(?:ptr\.To[^(]*\()?(-?\d+)', m.group(1))
        pre['BorrowWithinCohort'] = p.group(1)
        if t:
            pre['MaxPriorityThreshold'] = int(t.group(1))
    if pre:
        cq['preemption'] = pre
    if 'FlavorFungibility' in text or 'AdmissionCheck' in text or 'FairSharing' in text:
        cq['unsupported'] = 'fungibility/checks/fair sharing'
    return cq


def parse_cohort(text):
    text = re.sub(r'\s*\n\s*', '', text)
    name = re.match(r'[\w.]*MakeCohort\("([^"]+)"\)', text.strip()).group(1)
    c = {'name': name}
    m = re.search(r'\.Parent\("([^"]+)"\)', text)
    if m:
        c['parent'] = m.group(1)
    q = parse_cq('MakeClusterQueue("x")' + text[text.index(')') + 1:])
    if q['groups']:
        c['groups'] = q['groups']
    return c


def time_offset(expr):
    expr = expr.strip().rstrip(',').strip()
    if expr == 'now':
        return 0
    m = re.match(r'now\.Add\((-?)(\d*)\s*\*?\s*time\.Second\)', expr)
    if m:
        n = int(m.group(2) or 1)
        return -n if m.group(1) else n
    raise ValueError('time ' + expr)


def parse_wl(text):
    text = re.sub(r'\s*\n\s*', '', text)
    name = re.match(r'\*?[\w.]*MakeWorkload\("([^"]+)",\s*"([^"]*)"\)', text.strip())
    wl = {'name': name.group(1)}
    if name.group(2):
        wl['namespace'] = name.group(2)
    if 'PodSets(' in text.split('ReserveQuota')[0] or 'MakePodSet(' in text:
        wl['unsupported'] = 'pod sets'
    m = re.search(r'\.Priority\((-?\d+)\)', text)
    if m:
        wl['priority'] = int(m.group(1))
    head = re.split(r'ReserveQuotaAt\(|SimpleReserveQuota\(', text)[0]
    req = {}
    for r in re.finditer(r'\.Request\(([^,]+),\s*"([^"]+)"\)', head):
        req[res_name(r.group(1))] = r.group(2)
    wl['requests'] = req
    m = re.search(r'SimpleReserveQuota\("([^"]+)",\s*"([^"]+)",\s*([^)]*\)?)\)', text)
    if m:
        wl['cq'] = m.group(1)
        wl['flavors'] = {r: m.group(2) for r in req}
        wl['reservedAt'] = time_offset(m.group(3))
    elif 'ReserveQuotaAt(' in text:
        adm = text[text.index('ReserveQuotaAt('):]
        wl['cq'] = re.search(r'MakeAdmission\("([^"]+)"', adm).group(1)
        fl = {}
        for a in re.finditer(r'\.Assignment\(([^,]+),\s*"([^"]+)",\s*"([^"]+)"\)', adm):
            fl[res_name(a.group(1))] = a.group(2)
        wl['flavors'] = fl
        m = re.search(r'Obj\(\),(now(?:\.Add\([^()]*(?:\([^()]*\))?[^()]*\))?),?\)', adm)
        wl['reservedAt'] = time_offset(m.group(1)) if m else 0
    return wl


def block(lines, i, key):
    """Returns (text, next index) of the `key: ...{` block starting at lines[i]."""
    depth = 0
    out = []
    for j in range(i, len(lines)):
        out.append(lines[j])
        depth += lines[j].count('{') - lines[j].count('}')
        depth += lines[j].count('(') - lines[j].count(')')
        if depth <= 0 and j > i:
            return '\n'.join(out), j + 1
        if depth <= 0 and j == i and not lines[j].rstrip().endswith(('{', '(', '.')):
            return '\n'.join(out), j + 1
    raise ValueError(key)


def q(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'

def emit_cq(cq, ind):
    out = [ind + '- name: ' + cq['name']]
    for k in ['cohort', 'parent']:
        if k in cq:
            out.append(ind + '  %s: %s' % (k, cq[k]))
    if cq.get('groups'):
        out.append(ind + '  groups:')
        for g in cq['groups']:
            out.append(ind + '  - ' + ', '.join(
                '%s: [%s]' % (f['flavor'], ', '.join('[' + ', '.join(q(x) for x in r) + ']'
                                                     for r in f['resources'])) for f in g)
                .join(['{', '}']))
    if 'preemption' in cq:
        out.append(ind + '  preemption: {' + ', '.join(
            '%s: %s' % kv for kv in cq['preemption'].items()) + '}')
    if 'unsupported' in cq:
        out.append(ind + '  unsupported: ' + q(cq['unsupported']))
    return out

def emit_wl(wl, ind):
    parts = ['name: ' + wl['name']]
    for k in ['priority', 'cq', 'reservedAt']:
        if k in wl:
            parts.append('%s: %s' % (k, wl[k]))
    parts.append('requests: {' + ', '.join('%s: %s' % (k, q(v)) for k, v in wl['requests'].items()) + '}')
    if 'flavors' in wl:
        parts.append('flavors: {' + ', '.join('%s: %s' % kv for kv in wl['flavors'].items()) + '}')
    if 'unsupported' in wl:
        parts.append('unsupported: ' + q(wl['unsupported']))
    return [ind + '- {' + ', '.join(parts) + '}']


def main(path):
    src = open(path).read().split('\n')
    start = next(i for i, l in enumerate(src) if l.startswith('func TestPreemption('))
    end = next(i for i, l in enumerate(src) if i > start and l.startswith('func '))
    body = src[start:end]
    defaults = None
    cases = []
    i = 0
    while i < len(body):
        l = body[i]
        if l.strip().startswith('defaultClusterQueues := '):
            txt, i = block(body, i, 'defaults')
            defaults = [parse_cq(c) for c in chain_blocks(txt, 'utiltestingapi.MakeClusterQueue')
                        if c.startswith('utiltestingapi.MakeClusterQueue')]
            continue
        m = re.match(r'^\t\t"(.+)": \{$', l)
        if m:
            txt, i = block(body, i, m.group(1))
            cases.append((m.group(1), txt))
            continue
        i += 1


    out = ['# Upstream: kubernetes-sigs/kueue pkg/scheduler/preemption/preemption_test.go,',
           '# TestPreemption, commit ff69552e (2026-08-22). Semantics only, condensed by hand-checked',
           '# extraction; see tests/queueing/README.md.',
           'clusterQueues:']
    for cq in defaults:
        out += emit_cq(cq, '')
    out.append('cases:')
    for name, txt in cases:
        out.append('- name: ' + q(name))
        if 'clusterQueues: defaultClusterQueues' not in txt:
            m = re.search(r'clusterQueues:\s*\[\]\*kueue\.ClusterQueue\{(.*?)\n\t\t\t\},', txt, re.S)
            if m:
                out.append('  clusterQueues:')
                for c in chain_blocks(m.group(1), 'utiltestingapi.MakeClusterQueue'):
                    if c.startswith('utiltestingapi.MakeClusterQueue'):
                        out += emit_cq(parse_cq(c), '  ')
            else:
                out.append('  unsupported: "cluster queues"')
        m = re.search(r'cohorts:\s*\[\]\*kueue\.Cohort\{(.*?)\n\t\t\t\},', txt, re.S)
        if m:
            out.append('  cohorts:')
            for c in chain_blocks(m.group(1), 'utiltestingapi.MakeCohort'):
                if c.startswith('utiltestingapi.MakeCohort'):
                    out += emit_cq(parse_cohort(c), '  ')
        m = re.search(r'admitted:\s*\[\]kueue\.Workload\{(.*?)\n\t\t\t\},', txt, re.S)
        if m:
            out.append('  admitted:')
            for c in chain_blocks(m.group(1), '*utiltestingapi.MakeWorkload'):
                if c.startswith('*utiltestingapi.MakeWorkload'):
                    out += emit_wl(parse_wl(c), '  ')
        m = re.search(r'incoming:\s*(.*?)Obj\(\),', txt, re.S)
        inc = re.sub(r'\s*\n\s*', '', m.group(1))
        req = {res_name(r.group(1)): r.group(2)
               for r in re.finditer(r'\.Request\(([^,]+),\s*"([^"]+)"\)', inc)}
        pr = re.search(r'\.Priority\((-?\d+)\)', inc)
        parts = ['requests: {' + ', '.join('%s: %s' % (k, q(v)) for k, v in req.items()) + '}']
        if pr:
            parts.append('priority: ' + pr.group(1))
        if 'PodSets(' in inc or 'MakePodSet' in inc:
            parts.append('unsupported: "pod sets"')
        out.append('  incoming: {' + ', '.join(parts) + '}')
        out.append('  targetCQ: ' + re.search(r'targetCQ:\s*"([^"]+)"', txt).group(1))
        asg = re.search(r'assignment:(.*?)\n\t\t\t(?:wantPreempted|wantWorkloads)', txt, re.S).group(1)
        fl = {}
        for a in re.finditer(r'(corev1\.Resource\w+|"[^"]+"):\s*&flavorassigner\.FlavorAssignment\{\s*Name:\s*"([^"]+)",\s*Mode:\s*flavorassigner\.(\w+)', asg):
            fl[res_name(a.group(1))] = '%s/%s' % (a.group(2), a.group(3))
        if 'singlePodSetAssignment' not in asg:
            out.append('  unsupported: "multi pod set assignment"')
        out.append('  assignment: {' + ', '.join('%s: %s' % kv for kv in fl.items()) + '}')
        m = re.search(r'wantPreempted:\s*(\d+)', txt)
        out.append('  wantPreempted: ' + (m.group(1) if m else '0'))
        want = []
        m = re.search(r'wantWorkloads:\s*\[\]kueue\.Workload\{(.*)', txt, re.S)
        if m:
            for c in chain_blocks(m.group(1), '*utiltestingapi.MakeWorkload'):
                if not c.startswith('*utiltestingapi.MakeWorkload'):
                    continue
                p = re.search(r'Type:\s*kueue\.WorkloadPreempted,.*?Reason:\s*"([^"]+)",\s*Message:\s*"([^"]+)"', c, re.S)
                if p:
                    nm = re.match(r'\*[\w.]*MakeWorkload\("([^"]+)"', c).group(1)
                    want.append('  - {name: %s, reason: %s, message: %s}' % (nm, p.group(1), q(p.group(2))))
        out.append('  want:' + ('' if want else ' []'))
        out += want
    print('\n'.join(out))


if __name__ == '__main__':
    main(sys.argv[1])
