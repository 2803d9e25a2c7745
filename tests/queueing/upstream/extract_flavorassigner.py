#!/usr/bin/env python3
"""Condenses the tables of Kueue's pkg/scheduler/flavorassigner/flavorassigner_test.go
(TestAssignFlavors, TestDeletedFlavors, TestReclaimBeforePriorityPreemption, TestHierarchical,
TestIsPreferred) into berth's data table flavorassigner.yaml: semantics and expected values only.

A developer tool, run by hand (never at build time):

  git -C KUEUE show HEAD:pkg/scheduler/flavorassigner/flavorassigner_test.go > /tmp/fa_test.go
  python3 extract_flavorassigner.py /tmp/fa_test.go > flavorassigner.yaml

The Go source is read with a small expression parser (literals, selectors, calls, composite
literals, unary and binary operators) and the builder chains are interpreted into plain
objects; whatever the interpreter does not know is recorded as `unsupported`, so a case is
never silently simplified. Skips with their reasons are kept in SKIPS below.
"""
import json
import re
import sys

UNITS = {'utiltesting.Ki': 1024, 'utiltesting.Mi': 1024 ** 2, 'utiltesting.Gi': 1024 ** 3}
RESOURCES = {'corev1.ResourceCPU': 'cpu', 'corev1.ResourceMemory': 'memory',
             'corev1.ResourcePods': 'pods'}

# Cases berth does not run, with the reason (one line each).
SKIPS = {
    'TestAssignFlavors/workload slice preemption fits in the original workload resource flavor':
        'ElasticJobsViaWorkloadSlices (workload slices replacing a running slice) is not in berth',
    'TestAssignFlavors/workload slice preemption does not fit in the original workload resource flavor':
        'ElasticJobsViaWorkloadSlices (workload slices replacing a running slice) is not in berth',
    'TestAssignFlavors/with reclaimable pods; reclaimablePods on':
        'berth does not read status.reclaimablePods (Kueue\'s ReclaimablePods: counts less the reclaimable pods)',
    'TestAssignFlavors/zero resource request defined in clusterQueue should get flavor assigned':
        'berth drops zero requests (no request), so the resource gets no flavor; Kueue assigns one and charges 0',
    'TestAssignFlavors/multiple TAS flavors assigned to different resources in the same PodSet leads to NoFit':
        'TAS error path (MultipleTASFlavorsAssignedError for two TAS flavors in one pod set) is not in berth',
    'TestAssignFlavors/multiple flavors, leader worker set, workers request GPU, leader does not request GPU, fits':
        'its ClusterQueue lists cpu and memory in two resource groups, which Kueue\'s webhook (and berth) rejects',
}

# Cases whose noFitReason berth does not give yet (the rest of the case is compared).
NO_FIT_REASON_PENDING = {
    'TestAssignFlavors/multiple resource groups, one could fit with preemption, other doesn\'t fit':
        'resolveNoFitReason (reason of the NoFit attempts only) is being ported with the granular reasons',
}


# ---------------------------------------------------------------- tokenizer and parser
TOKEN = re.compile(r'''
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<str>"(?:[^"\\]|\\.)*"|`[^`]*`)
  | (?P<num>\d[\d_]*(?:\.\d+)?)
  | (?P<id>[A-Za-z_]\w*)
  | (?P<op>\.\.\.|[{}()\[\],:.*&+\-/=!<>;])
''', re.S | re.X)


def tokenize(text):
    out = []
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise ValueError('bad token at %r' % text[pos:pos + 40])
        pos = m.end()
        if m.lastgroup == 'ws':
            continue
        out.append((m.lastgroup, m.group()))
    return out


class Parser:
    """Go expressions as tuples: ('id', name) ('str', s) ('num', n) ('sel', x, name)
    ('call', fn, args) ('comp', type, [(key, value)]) ('unary', op, x) ('bin', op, l, r)
    ('type', text)."""

    def __init__(self, tokens):
        self.t = tokens
        self.i = 0

    def peek(self, k=0):
        return self.t[self.i + k][1] if self.i + k < len(self.t) else None

    def take(self, want=None):
        tok = self.t[self.i]
        if want is not None and tok[1] != want:
            raise ValueError('want %s got %s near %s' % (want, tok[1], self.t[self.i:self.i + 8]))
        self.i += 1
        return tok

    def type_text(self):
        """A type after [] or map[...] or *: returns its text."""
        parts = []
        if self.peek() == '*':
            parts.append(self.take()[1])
        if self.peek() == '[':
            self.take('[')
            parts.append('[' + (self.take()[1] if self.peek() != ']' else '') + ']')
            self.take(']') if self.peek() == ']' else None
            parts.append(self.type_text())
            return ''.join(parts)
        if self.peek() == 'map':
            self.take()
            self.take('[')
            k = self.type_text()
            self.take(']')
            return 'map[' + k + ']' + self.type_text()
        name = self.take()[1]
        while self.peek() == '.':
            self.take()
            name += '.' + self.take()[1]
        return ''.join(parts) + name

    def expr(self):
        left = self.unary()
        while self.peek() in ('*', '+', '-', '/'):
            op = self.take()[1]
            left = ('bin', op, left, self.unary())
        return left

    def unary(self):
        if self.peek() in ('*', '&', '-'):
            op = self.take()[1]
            return ('unary', op, self.unary())
        return self.postfix(self.primary())

    def primary(self):
        kind, val = self.t[self.i]
        if val == '[' or val == 'map':
            return ('type', self.type_text())
        if val == '{':
            return ('comp', None, self.elements())
        if val == '(':
            self.take('(')
            e = self.expr()
            self.take(')')
            return e
        self.i += 1
        if kind == 'str':
            return ('str', json.loads(val) if val.startswith('"') else val[1:-1])
        if kind == 'num':
            return ('num', val.replace('_', ''))
        if kind == 'id':
            return ('id', val)
        raise ValueError('unexpected %s' % val)

    def postfix(self, e):
        while True:
            p = self.peek()
            if p == '.':
                self.take()
                e = ('sel', e, self.take()[1])
            elif p == '(':
                self.take('(')
                args = []
                while self.peek() != ')':
                    args.append(self.expr())
                    if self.peek() == '...':
                        self.take()
                    if self.peek() == ',':
                        self.take()
                self.take(')')
                e = ('call', e, args)
            elif p == '{' and e[0] in ('id', 'sel', 'type'):
                e = ('comp', e, self.elements())
            else:
                return e

    def elements(self):
        self.take('{')
        out = []
        while self.peek() != '}':
            v = self.expr()
            key = None
            if self.peek() == ':':
                self.take()
                key, v = v, self.expr()
            out.append((key, v))
            if self.peek() == ',':
                self.take()
        self.take('}')
        return out


def parse(text):
    p = Parser(tokenize(text))
    e = p.expr()
    return e


# ---------------------------------------------------------------- interpretation helpers
def name_of(e):
    if e[0] == 'id':
        return e[1]
    if e[0] == 'sel':
        return name_of(e[1]) + '.' + e[2]
    if e[0] == 'type':
        return e[1]
    raise ValueError('no name: %r' % (e,))


def string(e):
    if e[0] == 'str':
        return e[1]
    if e[0] == 'call' and e[2]:  # kueue.ClusterQueueReference("x") and friends
        return string(e[2][0])
    n = name_of(e)
    if n in RESOURCES:
        return RESOURCES[n]
    if n == 'kueue.DefaultPodSetName':
        return 'main'
    raise ValueError('not a string: %r' % (e,))


def qty(e):
    """A quantity argument: the string as written, or a number."""
    return e[1] if e[0] == 'str' else number(e)


def number(e):
    if e[0] == 'num':
        return int(e[1])
    if e[0] == 'unary' and e[1] == '-':
        return -number(e[2])
    if e[0] == 'bin':
        a, b = number(e[2]), number(e[3])
        return {'*': a * b, '+': a + b, '-': a - b, '/': a // b}[e[1]]
    if e[0] == 'call' and name_of(e[1]) in ('resources.NewAmount', 'int64', 'int32', 'new',
                                               'ptr.To'):
        return number(e[2][0])
    if e[0] == 'call' and name_of(e[1]) == 'resource.MustParse':
        return e[2][0][1]
    n = name_of(e)
    if n in UNITS:
        return UNITS[n]
    raise ValueError('not a number: %r' % (e,))


def chain(e):
    """A builder chain as [(method, args)], outermost last; unary * and & dropped."""
    while e[0] == 'unary':
        e = e[2]
    out = []
    while e[0] == 'call':
        fn = e[1]
        if fn[0] == 'sel':
            inner = fn[1]
            if inner[0] == 'id':  # package.Func(...): the chain's start
                out.append((inner[1] + '.' + fn[2], e[2]))
                break
            out.append((fn[2], e[2]))
            e = inner
        else:
            out.append((name_of(fn), e[2]))
            break
    return list(reversed(out))


def fields(e):
    while e[0] == 'unary':
        e = e[2]
    assert e[0] == 'comp', e
    return {(name_of(k) if k[0] != 'str' else k[1]): v for k, v in e[2]}


def const_tail(e):
    """kueue.PreemptionPolicyLowerPriority -> LowerPriority style names."""
    n = name_of(e) if e[0] != 'call' else name_of(e[2][0])
    n = n.split('.')[-1]
    for prefix in ('BorrowWithinCohortPolicy', 'PreemptionPolicy'):
        if n.startswith(prefix):
            return n[len(prefix):]
    return n


# ---------------------------------------------------------------- objects
def flavor_obj(e):
    f = {}
    for m, args in chain(e):
        if m.endswith('MakeResourceFlavor'):
            f['name'] = string(args[0])
        elif m == 'NodeLabel':
            f.setdefault('labels', {})[string(args[0])] = string(args[1])
        elif m == 'Taint':
            t = fields(args[0])
            f.setdefault('taints', []).append(
                {'key': string(t['Key']), 'value': string(t['Value']), 'effect': const_tail(t['Effect']).replace('TaintEffect', '')})
        elif m == 'Toleration':
            f.setdefault('tolerations', []).append(toleration(args[0]))
        elif m == 'TopologyName':
            f['topology'] = string(args[0])
        elif m != 'Obj':
            f.setdefault('unsupported', []).append(m)
    return f


def toleration(e):
    t = fields(e)
    out = {}
    for k, v in t.items():
        if k == 'Operator':
            out['operator'] = const_tail(v).replace('TolerationOp', '')
        elif k == 'Effect':
            out['effect'] = const_tail(v).replace('TaintEffect', '')
        else:
            out[k.lower()] = string(v)
    return out


def flavor_quotas(e):
    fq = {'flavor': None, 'resources': []}
    cur = None
    for m, args in chain(e):
        if m.endswith('MakeFlavorQuotas'):
            fq['flavor'] = string(args[0])
        elif m == 'Resource':
            row = [string(args[0])] + [qty(a) for a in args[1:]]
            fq['resources'].append(row + [''] * (4 - len(row)))
        elif m == 'ResourceQuotaWrapper':
            cur = [string(args[0]), '', '', '']
        elif m == 'NominalQuota':
            cur[1] = qty(args[0])
        elif m == 'BorrowingLimit':
            cur[2] = qty(args[0])
        elif m == 'LendingLimit':
            cur[3] = qty(args[0])
        elif m == 'Append':
            fq['resources'].append(cur)
            cur = None
        elif m != 'Obj':
            fq.setdefault('unsupported', []).append(m)
    for row in fq['resources']:
        while row and row[-1] == '':
            row.pop()
    return fq


def fungibility(e):
    out = {}
    for k, v in fields(e).items():
        if k == 'Preference':
            out['preference'] = const_tail(v)
        else:
            out[k[0].lower() + k[1:]] = const_tail(v)
    return out


def preemption(e):
    out = {}
    for k, v in fields(e).items():
        if k == 'BorrowWithinCohort':
            b = fields(v)
            out['BorrowWithinCohort'] = const_tail(b['Policy'])
            if 'MaxPriorityThreshold' in b:
                out['MaxPriorityThreshold'] = number(b['MaxPriorityThreshold'])
        else:
            out[k] = const_tail(v)
    return out


def queue_obj(e, group_args=None):
    q = {'groups': []}
    for m, args in chain(e):
        if m.endswith('MakeClusterQueue') or m.endswith('MakeCohort'):
            q['name'] = string(args[0])
        elif m == 'Cohort':
            q['cohort'] = string(args[0])
        elif m == 'Parent':
            q['parent'] = string(args[0])
        elif m == 'ResourceGroup':
            if len(args) == 1 and args[0][0] == 'sel' and group_args is not None:
                q['groups'].append(group_args)
            else:
                q['groups'].append([flavor_quotas(a) for a in args])
        elif m == 'Preemption':
            q['preemption'] = preemption(args[0])
        elif m == 'FlavorFungibility':
            q['fungibility'] = fungibility(args[0])
        elif m != 'Obj':
            q.setdefault('unsupported', []).append(m)
    if not q['groups']:
        del q['groups']
    return q


def selector_terms(e):
    terms = []
    for _, t in (e[2] if e[0] == 'comp' else []):
        exprs = []
        for _, me in fields(t).get('MatchExpressions', ('comp', None, []))[2]:
            f = fields(me)
            exprs.append({'key': string(f['Key']),
                          'operator': const_tail(f['Operator']).replace('NodeSelectorOp', ''),
                          'values': [string(v) for _, v in f['Values'][2]] if 'Values' in f else []})
        terms.append(exprs)
    return terms


def pod_set(e):
    ps = {}
    for m, args in chain(e):
        if m.endswith('MakePodSet'):
            ps['name'] = string(args[0])
            ps['count'] = number(args[1])
        elif m == 'Request':
            ps.setdefault('requests', {})[string(args[0])] = str(qty(args[1]))
        elif m == 'Toleration':
            ps.setdefault('tolerations', []).append(toleration(args[0]))
        elif m == 'NodeSelector':
            if len(args) == 2:
                ps.setdefault('nodeSelector', {})[string(args[0])] = string(args[1])
            else:
                for k, v in args[0][2]:
                    ps.setdefault('nodeSelector', {})[string(k)] = string(v)
        elif m == 'RequiredDuringSchedulingIgnoredDuringExecution':
            ps['affinity'] = selector_terms(args[0])
        elif m == 'Containers' and len(args) == 1 and args[0][0] == 'call' and \
                name_of(args[0][1]).endswith('SingleContainerForRequest'):
            ps['requests'] = {string(k): str(qty(v)) for k, v in args[0][2][0][2]}
        elif m == 'PodSetGroup':
            ps['group'] = string(args[0])
        elif m == 'Obj':
            pass
        else:
            ps.setdefault('unsupported', []).append(m)
    return ps


def usage_map(e):
    out = {}
    for k, v in e[2]:
        f = fields(k)
        out['%s/%s' % (string(f['Flavor']), string(f['Resource']))] = number(v)
    return out


def simulation(e):
    out = {}
    for k, v in e[2]:
        f = fields(k)
        vals = [x for _, x in v[2]]
        out['%s/%s' % (string(f['Flavor']), string(f['Resource']))] = [
            const_tail(vals[0]), number(vals[1])]
    return out


def mode(e):
    return name_of(e)


def want_assignment(e):
    a = fields(e)
    out = {'podSets': []}
    for _, ps in a.get('PodSets', ('comp', None, []))[2]:
        f = fields(ps)
        w = {'name': string(f['Name'])}
        if 'Count' in f:
            w['count'] = number(f['Count'])
        fl = {}
        if 'Flavors' in f:
            for k, v in f['Flavors'][2]:
                ff = fields(v)
                fl[string(k)] = '%s/%s' % (string(ff['Name']), mode(ff['Mode']))
        w['flavors'] = fl
        if 'Requests' in f:
            w['requests'] = {string(k): str(number(v)) for k, v in f['Requests'][2]}
        if 'Status' in f:
            st = f['Status']
            while st[0] == 'unary':
                st = st[2]
            if st[0] == 'call':  # NewStatus(...)
                w['reasons'] = sorted(string(a) for a in st[2])
            else:
                sf = fields(st)
                w['reasons'] = sorted(string(x) for _, x in sf['reasons'][2]) if 'reasons' in sf else []
                if 'err' in sf:
                    w['unsupported'] = 'status error'
        if 'TopologyAssignment' in f or 'DelayedTopologyRequest' in f:
            w['unsupported'] = 'topology assignment'
        out['podSets'].append(w)
    if 'Borrowing' in a:
        out['borrowing'] = number(a['Borrowing'])
    if 'Usage' in a:
        u = fields(fields(a['Usage'])['Quota'])
        out['usage'] = usage_map(u['Assigned']) if 'Assigned' in u else {}
    if 'NoFitReason' in a:
        out['noFitReason'] = string(a['NoFitReason'])
    return out


# ---------------------------------------------------------------- tables
def func_body(src, name):
    start = src.index('\nfunc %s(' % name)
    end = src.index('\nfunc ', start + 1)
    return src[start:end]


def cases_literal(body):
    """The `cases := map[string]struct{...}{ ... }` literal's elements: [(name, expr)]."""
    i = body.index('cases := map[string]struct {')
    j = body.index('\n\t}{\n', i) + 3
    depth = 0
    for k in range(j, len(body)):
        if body[k] == '{':
            depth += 1
        elif body[k] == '}':
            depth -= 1
            if depth == 0:
                break
    lit = parse(body[j:k + 1])
    return [(string(key), val) for key, val in lit[2]]


def assigned_expr(body, var):
    """Parses the expression assigned by `var := ...` inside a function body."""
    i = body.index(var + ' := ') + len(var) + 4
    return Parser(tokenize(body[i:])).expr()


def flavors_of(e):
    return [flavor_obj(v) for _, v in e[2]]


def assign_flavors_case(table, name, e, extra=None):
    f = fields(e)
    c = {'name': name, 'table': table}
    c['podSets'] = [pod_set(v) for _, v in f['wlPods'][2]]
    c['clusterQueue'] = queue_obj(f['clusterQueue'])
    if 'clusterQueueUsage' in f:
        c['usage'] = usage_map(f['clusterQueueUsage'])
    if 'secondaryClusterQueue' in f:
        c['otherQueues'] = [queue_obj(f['secondaryClusterQueue'])]
        if 'secondaryClusterQueueUsage' in f:
            c['otherQueues'][0]['usage'] = usage_map(f['secondaryClusterQueueUsage'])
    if 'wlReclaimablePods' in f:
        c['reclaimablePods'] = {string(fields(v)['Name']): number(fields(v)['Count'])
                                for _, v in f['wlReclaimablePods'][2]}
    if 'enableFairSharing' in f:
        c['fairSharing'] = name_of(f['enableFairSharing']) == 'true'
    if 'simulationResult' in f:
        c['simulation'] = simulation(f['simulationResult'])
    if 'featureGates' in f:
        c['featureGates'] = {name_of(k).split('.')[-1]: name_of(v) == 'true'
                             for k, v in f['featureGates'][2]}
    if 'topologies' in f or 'preemptWorkloadSlice' in f:
        c['unsupported'] = 'topologies / workload slice'
    c['wantMode'] = mode(f['wantRepMode']) if 'wantRepMode' in f else 'NoFit'
    c['want'] = want_assignment(f['wantAssignment'])
    if extra:
        c.update(extra)
    return c


def setup_case(table, name, e, test_cq, other_cq, cohorts):
    """TestReclaimBeforePriorityPreemption / TestHierarchical: per-case requests, usage of
    the test and the other ClusterQueue, fungibility override, oracle results; expected
    representative mode and the first pod set's flavors."""
    f = fields(e)
    c = {'name': name, 'table': table}
    c['podSets'] = [pod_set(f['workloadRequests'])]
    groups = None
    if 'testClusterQueueFlavors' in f:
        v = f['testClusterQueueFlavors']
        groups = [flavor_quotas(x) for _, x in v[2]] if v[0] == 'comp' else None
    cq = queue_obj(test_cq, groups if groups is not None else DEFAULT_GROUPS.get(table))
    if 'flavorFungibility' in f:
        cq['fungibility'] = fungibility(f['flavorFungibility'])
    c['clusterQueue'] = cq
    if 'testClusterQueueUsage' in f:
        c['usage'] = usage_map(f['testClusterQueueUsage'])
    other = queue_obj(other_cq)
    if 'otherClusterQueueUsage' in f:
        other['usage'] = usage_map(f['otherClusterQueueUsage'])
    c['otherQueues'] = [other]
    if cohorts:
        c['cohorts'] = cohorts
    if 'simulationResult' in f:
        c['simulation'] = simulation(f['simulationResult'])
    c['wantMode'] = mode(f['wantMode'])
    c['want'] = {'podSets': [{'name': c['podSets'][0]['name'], 'flavors': {
        string(k): string(v) for k, v in f['wantAssigment'][2]}}]}
    c['flavorsOnly'] = True
    return c


DEFAULT_GROUPS = {}


def is_preferred_case(name, e):
    """TestIsPreferred: two granular modes ([preemption mode, borrowing level]), the
    fungibility preference (unset: BorrowingOverPreemption) and whether a wins."""
    f = fields(e)

    def granular(v):
        g = fields(v)
        return [name_of(g['preemptionMode']), number(g['borrowingLevel'])]
    c = {'name': name, 'a': granular(f['a']), 'b': granular(f['b'])}
    if 'config' in f:
        cfg = fields(f['config'])
        if 'Preference' in cfg:
            c['preference'] = const_tail(cfg['Preference'])
    c['want'] = name_of(f['wantPreferred']) == 'true'
    return c


def main(path):
    src = open(path).read()
    tables = []

    body = func_body(src, 'TestAssignFlavors')
    flavors = flavors_of(assigned_expr(body, 'resourceFlavors'))
    cases = [assign_flavors_case('TestAssignFlavors', n, e) for n, e in cases_literal(body)]
    tables.append(('TestAssignFlavors', flavors, cases))

    body = func_body(src, 'TestDeletedFlavors')
    cases = [assign_flavors_case('TestDeletedFlavors', n, e, {'deletedFlavors': ['deleted-flavor']})
             for n, e in cases_literal(body)]
    tables.append(('TestDeletedFlavors', [{'name': 'flavor'}], cases))

    body = func_body(src, 'TestReclaimBeforePriorityPreemption')
    flavors = flavors_of(assigned_expr(body, 'resourceFlavors'))
    test_cq, other_cq = assigned_expr(body, 'testCq'), assigned_expr(body, 'otherCq')
    cases = [setup_case('TestReclaimBeforePriorityPreemption', n, e, test_cq, other_cq, None)
             for n, e in cases_literal(body)]
    tables.append(('TestReclaimBeforePriorityPreemption', flavors, cases))

    body = func_body(src, 'TestHierarchical')
    flavors = flavors_of(assigned_expr(body, 'resourceFlavors'))
    fn = body.index('defaultTestClusterQueueFlavors := func()')
    ret = Parser(tokenize(body[body.index('return ', fn) + 7:])).expr()
    DEFAULT_GROUPS['TestHierarchical'] = [flavor_quotas(x) for _, x in ret[2]]
    cohorts = [queue_obj(v) for _, v in assigned_expr(body, 'cohorts')[2]]
    test_cq, other_cq = assigned_expr(body, 'testCq'), assigned_expr(body, 'otherCq')
    cases = [setup_case('TestHierarchical', n, e, test_cq, other_cq, cohorts)
             for n, e in cases_literal(body)]
    tables.append(('TestHierarchical', flavors, cases))

    body = func_body(src, 'TestIsPreferred')
    preferred = [is_preferred_case(n, e) for n, e in cases_literal(body)]

    out = [
        '# Upstream: kubernetes-sigs/kueue pkg/scheduler/flavorassigner/flavorassigner_test.go',
        '# @ ff69552e (2026-08-22): TestAssignFlavors, TestDeletedFlavors,',
        '# TestReclaimBeforePriorityPreemption, TestHierarchical, TestIsPreferred. Semantics and expected values',
        '# only, written by extract_flavorassigner.py (see README.md). Read by',
        '# tests/queueing/upstream_flavor_assigner_test.cc.',
        '#',
        '# Amounts: quotas and requests are Kubernetes quantities; `usage` (ClusterQueue usage',
        '# before the case, and the assignment\'s expected usage) is in Kueue\'s int64 units',
        '# (cpu milli-cores, memory bytes, others whole). Quota rows are',
        '# [resource, nominal, borrowingLimit, lendingLimit]. `simulation` is what upstream\'s',
        '# test oracle answers per flavor/resource ([possibility, borrowing level]); any other',
        '# flavor/resource answers [Preempt, 0]. `want.podSets[].flavors` maps resource to',
        '# flavor/mode; `reasons` are the pod set status reasons, sorted (upstream compares them',
        '# sorted and prints them sorted). `flavorsOnly` cases assert mode and flavor names only.',
        'tables:',
    ]
    for name, flavors, cases in tables:
        out.append('- name: ' + name)
        out.append('  flavors:')
        for f in flavors:
            out.append('  - ' + json.dumps(f))
        out.append('  cases:')
        for c in cases:
            key = '%s/%s' % (name, c['name'])
            out.append('  - name: ' + json.dumps(c['name']))
            if key in SKIPS:
                out.append('    skip: ' + json.dumps(SKIPS[key]))
            if key in NO_FIT_REASON_PENDING:
                out.append('    noFitReasonPending: ' + json.dumps(NO_FIT_REASON_PENDING[key]))
            for k, v in c.items():
                if k in ('name', 'table'):
                    continue
                if k in ('podSets', 'otherQueues', 'cohorts'):
                    out.append('    %s:' % k)
                    for x in v:
                        out.append('    - ' + json.dumps(x))
                elif k == 'want':
                    out.append('    want:')
                    for wk, wv in v.items():
                        if wk == 'podSets':
                            out.append('      podSets:')
                            for x in wv:
                                out.append('      - ' + json.dumps(x))
                        else:
                            out.append('      %s: %s' % (wk, json.dumps(wv)))
                else:
                    out.append('    %s: %s' % (k, json.dumps(v)))
    out.append('# TestIsPreferred: a and b are [preemption mode, borrowing level].')
    out.append('isPreferred:')
    for c in preferred:
        out.append('- ' + json.dumps(c))
    print('\n'.join(out))


if __name__ == '__main__':
    main(sys.argv[1])
