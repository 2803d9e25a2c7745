#!/usr/bin/env python3
"""Condenses upstream TestSchedule / TestScheduleForFairSharing cases into berth's YAML table.

A developer tool, run by hand (semantics and expected values only, never upstream code):

  git -C KUEUE show HEAD:pkg/scheduler/scheduler_test.go > /tmp/scheduler_test.go
  git -C KUEUE show HEAD:pkg/scheduler/scheduler_fs_test.go > /tmp/scheduler_fs_test.go
  python3 extract_schedule.py /tmp/scheduler_test.go TestSchedule > schedule.yaml
  python3 extract_schedule.py /tmp/scheduler_fs_test.go TestScheduleForFairSharing \
      > schedule_fair.yaml

It reads the Go composite literals of the test function (a small expression parser, not
regular expressions), interprets the builder chains it knows (ClusterQueue, Cohort,
LocalQueue, Workload, Admission) and writes one YAML case per table entry. A builder call it
does not know marks the case `unsupported`, so nothing is dropped silently; the skip reasons
in the committed YAML come from `SKIPS` below.
"""
import json
import re
import sys

# --- a tokenizer and parser for the Go expressions the tables use -------------------------

TOKEN = re.compile(r'''
  (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
 |(?P<str>"(?:\\.|[^"\\])*"|`[^`]*`)
 |(?P<num>\d+(?:\.\d+)?(?:e\d+)?)
 |(?P<id>[A-Za-z_][A-Za-z0-9_]*)
 |(?P<op>:=|==|!=|&&|\|\||<<|[{}()\[\],:.&*+\-/<>=!%])
''', re.X | re.S)


def tokenize(text):
    out = []
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise ValueError('cannot tokenize at %r' % text[pos:pos + 40])
        pos = m.end()
        kind = m.lastgroup
        if kind == 'ws':
            continue
        val = m.group(kind)
        if kind == 'str':
            val = json.loads(val) if val.startswith('"') else val[1:-1]
        out.append((kind, val))
    out.append(('eof', None))
    return out


class Parser:
    def __init__(self, tokens):
        self.t = tokens
        self.i = 0

    def peek(self, k=0):
        return self.t[self.i + k]

    def eat(self, val=None):
        tok = self.t[self.i]
        if val is not None and tok[1] != val:
            raise ValueError('want %r got %r near %r' % (val, tok, self.t[self.i - 5:self.i + 5]))
        self.i += 1
        return tok

    def is_op(self, val):
        return self.peek()[0] == 'op' and self.peek()[1] == val

    # Types: []T, map[K]V, *T, pkg.T, T
    def typ(self):
        if self.is_op('['):
            self.eat('[')
            self.eat(']')
            return '[]' + self.typ()
        if self.is_op('*'):
            self.eat('*')
            return '*' + self.typ()
        name = self.eat()[1]
        if name == 'map':
            self.eat('[')
            k = self.typ()
            self.eat(']')
            return 'map[%s]%s' % (k, self.typ())
        if self.is_op('.'):
            self.eat('.')
            name += '.' + self.eat()[1]
        return name

    def expr(self, prec=0):
        left = self.unary()
        ops = {'||': 1, '&&': 2, '==': 3, '!=': 3, '+': 4, '-': 4, '*': 5, '/': 5}
        while self.peek()[0] == 'op' and self.peek()[1] in ops and ops[self.peek()[1]] > prec:
            op = self.eat()[1]
            right = self.expr(ops[op])
            left = ('bin', op, left, right)
        return left

    def unary(self):
        if self.peek()[0] == 'op' and self.peek()[1] in ('&', '*', '-', '!'):
            op = self.eat()[1]
            return ('un', op, self.unary())
        return self.postfix(self.primary())

    def primary(self):
        kind, val = self.peek()
        if kind == 'str':
            self.eat()
            return ('str', val)
        if kind == 'num':
            self.eat()
            return ('num', val)
        if kind == 'op' and val == '(':
            self.eat('(')
            e = self.expr()
            self.eat(')')
            return e
        if kind == 'op' and val == '[':
            t = self.typ()
            return self.literal(t)
        if kind == 'op' and val == '{':
            return self.literal(None)
        if kind == 'id' and val == 'map':
            t = self.typ()
            return self.literal(t)
        if kind == 'id' and val == 'func':
            return self.func_lit()
        self.eat()
        return ('id', val)

    def func_lit(self):
        # `func() T { x := expr ... return expr }`: the tables build a few lists this way; the
        # body's assignments are substituted into its return value (see `resolve`).
        self.eat('func')
        self.eat('(')
        self.eat(')')
        if not self.is_op('{'):
            self.typ()
        self.eat('{')
        env, ret = {}, None
        while not self.is_op('}'):
            if self.peek()[1] == 'return':
                self.eat()
                ret = self.expr()
            elif self.peek(1)[1] == ':=':
                name = self.eat()[1]
                self.eat(':=')
                env[name] = self.expr()
            else:
                raise ValueError('statement in function literal near %r' % (self.peek(),))
        self.eat('}')
        return ('func', env, ret)

    def literal(self, t):
        self.eat('{')
        elems = []
        while not self.is_op('}'):
            v = self.expr()
            if self.is_op(':'):
                self.eat(':')
                elems.append((v, self.expr()))
            else:
                elems.append((None, v))
            if self.is_op(','):
                self.eat(',')
        self.eat('}')
        return ('lit', t, elems)

    def postfix(self, e):
        while True:
            if self.is_op('.'):
                self.eat('.')
                if self.is_op('('):  # type assertion x.(T)
                    self.eat('(')
                    t = self.typ()
                    self.eat(')')
                    e = ('assert', e, t)
                    continue
                e = ('sel', e, self.eat()[1])
            elif self.is_op('('):
                self.eat('(')
                args = []
                while not self.is_op(')'):
                    args.append(self.expr())
                    if self.is_op(','):
                        self.eat(',')
                    if self.is_op('.') and self.peek(1)[1] == '.':  # variadic x...
                        self.eat('.')
                        self.eat('.')
                        self.eat('.')
                self.eat(')')
                e = ('call', e, args)
            elif self.is_op('{') and e[0] in ('id', 'sel') and is_type_name(e):
                e = self.literal(type_name(e))
            elif self.is_op('['):
                self.eat('[')
                idx = self.expr()
                self.eat(']')
                e = ('index', e, idx)
            else:
                return e


def type_name(e):
    if e[0] == 'id':
        return e[1]
    return type_name(e[1]) + '.' + e[2]


def is_type_name(e):
    # Composite literals follow a (qualified) type name; values never start with a capital in
    # the tables except through a package (kueue.X, metav1.X, corev1.X).
    name = type_name(e) if e[0] in ('id', 'sel') and (e[0] == 'id' or e[1][0] == 'id') else ''
    last = name.split('.')[-1]
    return bool(last) and last[0].isupper() and last not in ('Obj',)


# --- evaluating the pieces -----------------------------------------------------------------

class Unsupported(Exception):
    pass


RESOURCES = {'ResourceCPU': 'cpu', 'ResourceMemory': 'memory', 'ResourcePods': 'pods'}


def chain(e):
    """[(method, args)] of a builder chain, outermost call last; the package prefix dropped."""
    if e[0] == 'un':
        return chain(e[2])
    if e[0] == 'call':
        fn = e[1]
        if fn[0] == 'sel':
            base = fn[1]
            if base[0] == 'id':
                return [(fn[2], e[2])]
            return chain(base) + [(fn[2], e[2])]
        if fn[0] == 'id':
            return [(fn[1], e[2])]
    raise Unsupported('not a builder chain: %s' % str(e)[:80])


def sval(e):
    """A string-ish constant: strings, resource names, known kueue constants."""
    if e[0] == 'str':
        return e[1]
    if e[0] == 'sel':
        name = e[2]
        if name in RESOURCES:
            return RESOURCES[name]
        if name == 'DefaultPodSetName':
            return 'main'
        consts = {
            'StrictFIFO': 'StrictFIFO', 'BestEffortFIFO': 'BestEffortFIFO',
            'ConditionTrue': 'True', 'ConditionFalse': 'False',
            'WorkloadQuotaReserved': 'QuotaReserved', 'WorkloadAdmitted': 'Admitted',
            'WorkloadEvicted': 'Evicted', 'WorkloadPreempted': 'Preempted',
            'WorkloadRequeued': 'Requeued',
            'WorkloadQuotaReservedReasonWaitingForQuota': 'WaitingForQuota',
            'WorkloadQuotaReservedReasonWaitingForPreemptedWorkloads':
                'WaitingForPreemptedWorkloads',
            'WorkloadQuotaReservedReasonMisconfigured': 'Misconfigured',
            'WorkloadQuotaReservedReasonNoMatchingFlavor': 'NoMatchingFlavor',
            'WorkloadQuotaReservedReasonExceedsMaxQuota': 'ExceedsMaxQuota',
            'WorkloadAdmittedReasonUnsatisfiedAdmissionChecks': 'UnsatisfiedAdmissionChecks',
            'WorkloadFinished': 'Finished',
            'WorkloadSliceReplaced': 'WorkloadSliceReplaced',
            'WorkloadAdmittedReasonNoReservation': 'NoReservation',
            'WorkloadInadmissible': 'Inadmissible',
            'WorkloadBlockedOnPreemptionGates': 'BlockedOnPreemptionGates',
            'TaintEffectNoSchedule': 'NoSchedule', 'TaintEffectNoExecute': 'NoExecute',
            'CheckStateReady': 'Ready', 'CheckStatePending': 'Pending',
            'CheckStateRetry': 'Retry', 'CheckStateRejected': 'Rejected',
            'LabelSelectorOpIn': 'In', 'LabelSelectorOpNotIn': 'NotIn',
            'LabelSelectorOpExists': 'Exists',
            'PreemptionPolicyAny': 'Any', 'PreemptionPolicyNever': 'Never',
            'PreemptionPolicyLowerPriority': 'LowerPriority',
            'PreemptionPolicyLowerOrNewerEqualPriority': 'LowerOrNewerEqualPriority',
            'BorrowWithinCohortPolicyNever': 'Never',
            'BorrowWithinCohortPolicyLowerPriority': 'LowerPriority',
            'MayStopSearch': 'MayStopSearch', 'TryNextFlavor': 'TryNextFlavor',
            'BorrowingOverPreemption': 'BorrowingOverPreemption',
            'PreemptionOverBorrowing': 'PreemptionOverBorrowing',
            'PreemptionGated': 'PreemptionGated',
        }
        if name in consts:
            return consts[name]
        raise Unsupported('constant ' + type_name(e) if e[1][0] == 'id' else name)
    if e[0] == 'call' and e[1][0] == 'sel' and e[1][2] == 'ResourceName':
        return sval(e[2][0])
    if e[0] == 'call' and e[1][0] == 'sel' and e[1][2] == 'MustParse':
        return sval(e[2][0])
    if e[0] == 'call' and e[1][0] == 'id' and e[1][1] in ('string', 'new'):
        return sval(e[2][0])
    if e[0] == 'call' and e[1][0] == 'sel' and e[1][2] == 'To':
        return sval(e[2][0])
    if e[0] == 'num':
        return e[1]
    if e[0] == 'un' and e[1] == '-' and e[2][0] == 'num':
        return '-' + e[2][1]
    if e[0] == 'id' and e[1] in ('true', 'false'):
        return e[1]
    raise Unsupported('value %s' % str(e)[:80])


def ival(e):
    return int(sval(e))


def seconds(e):
    """A time expression relative to `now`, in seconds."""
    if e[0] == 'id' and e[1] == 'now':
        return 0
    if e[0] == 'call' and e[1][0] == 'sel' and e[1][2] == 'Add':
        return seconds(e[1][1]) + duration(e[2][0])
    if e[0] == 'call' and e[1][0] == 'sel' and e[1][2] == 'NewTime':
        return seconds(e[2][0])
    if e[0] == 'call' and e[1][0] == 'sel' and e[1][2] == 'Now':
        return 0
    raise Unsupported('time %s' % str(e)[:80])


def duration(e):
    if e[0] == 'sel' and e[1] == ('id', 'time'):
        return {'Second': 1, 'Minute': 60, 'Hour': 3600, 'Millisecond': 0.001}[e[2]]
    if e[0] == 'num':
        return float(e[1]) if '.' in e[1] else int(e[1])
    if e[0] == 'un' and e[1] == '-':
        return -duration(e[2])
    if e[0] == 'bin' and e[1] == '*':
        return duration(e[2]) * duration(e[3])
    if e[0] == 'call' and e[1][0] == 'sel' and e[1][2] == 'Duration':
        return duration(e[2][0])
    raise Unsupported('duration %s' % str(e)[:80])


def fields(lit):
    """{field: expr} of a keyed composite literal."""
    if lit[0] == 'un':
        lit = lit[2]
    if lit[0] != 'lit':
        raise Unsupported('literal %s' % str(lit)[:80])
    out = {}
    for k, v in lit[2]:
        if k is None:
            raise Unsupported('positional literal')
        out[k[1] if k[0] == 'id' else sval(k)] = v
    return out


def resolve(e, env):
    if isinstance(e, tuple):
        if e[0] == 'id' and e[1] in env:
            return resolve(env[e[1]], env)
        return tuple(resolve(x, env) for x in e)
    if isinstance(e, list):
        return [resolve(x, env) for x in e]
    return e


def items(lit):
    if lit[0] == 'call' and lit[1][0] == 'func':
        lit = resolve(lit[1][2], lit[1][1])
    if lit[0] == 'un':
        lit = lit[2]
    if lit[0] == 'id' and lit[1] == 'nil':
        return []
    if lit[0] != 'lit':
        raise Unsupported('list %s' % str(lit)[:80])
    return [v for _, v in lit[2]]


def selector(e):
    """A metav1.LabelSelector literal (possibly &) as {matchLabels, matchExpressions}."""
    f = fields(e)
    out = {}
    if 'MatchLabels' in f:
        out['matchLabels'] = {sval(k): sval(v) for k, v in f['MatchLabels'][2]}
    if 'MatchExpressions' in f:
        exprs = []
        for x in items(f['MatchExpressions']):
            xf = fields(x)
            exprs.append({'key': sval(xf['Key']), 'operator': sval(xf['Operator']),
                          'values': [sval(v) for v in items(xf['Values'])]
                          if 'Values' in xf else []})
        out['matchExpressions'] = exprs
    return out


def flavor_quotas(e):
    c = chain(e)
    assert c[0][0] == 'MakeFlavorQuotas', c[0]
    fq = {'flavor': sval(c[0][1][0]), 'resources': []}
    for m, args in c[1:]:
        if m == 'Resource':
            fq['resources'].append([sval(a) for a in args])
        elif m == 'ResourceQuotaWrapper':
            row = [sval(args[0]), '']
            fq['resources'].append(row)
            fq['_last'] = row
        elif m == 'NominalQuota':
            fq['_last'][1] = sval(args[0])
        elif m in ('BorrowingLimit', 'LendingLimit'):
            row = fq['_last']
            while len(row) < 4:
                row.append('')
            row[2 if m == 'BorrowingLimit' else 3] = sval(args[0])
        elif m in ('Append', 'Obj', 'FlavorQuotas'):
            pass
        else:
            raise Unsupported('FlavorQuotas.' + m)
    fq.pop('_last', None)
    return fq


def preemption(e):
    f = fields(e)
    out = {}
    for k in ('WithinClusterQueue', 'ReclaimWithinCohort'):
        if k in f:
            out[k] = sval(f[k])
    if 'BorrowWithinCohort' in f:
        bf = fields(f['BorrowWithinCohort'])
        out['BorrowWithinCohort'] = sval(bf['Policy'])
        if 'MaxPriorityThreshold' in bf:
            out['MaxPriorityThreshold'] = ival(bf['MaxPriorityThreshold'])
    return out


def cluster_queue(e, cohort_obj=False):
    c = chain(e)
    cq = {'name': sval(c[0][1][0])}
    for m, args in c[1:]:
        if m == 'Cohort' or m == 'Parent':
            cq['cohort' if not cohort_obj else 'parent'] = sval(args[0])
        elif m == 'ResourceGroup':
            cq.setdefault('groups', []).append([flavor_quotas(a) for a in args])
        elif m == 'NamespaceSelector':
            cq['namespaceSelector'] = selector(args[0])
        elif m == 'QueueingStrategy':
            cq['queueingStrategy'] = sval(args[0])
        elif m == 'Preemption':
            cq['preemption'] = preemption(args[0])
        elif m == 'FlavorFungibility':
            f = fields(args[0])
            cq['fungibility'] = {k[0].lower() + k[1:]: sval(v) for k, v in f.items()}
        elif m == 'FairWeight':
            cq['fairWeight'] = sval(args[0])
        elif m == 'AdmissionChecks':
            cq['admissionChecks'] = [sval(a) for a in args]
        elif m == 'Obj':
            pass
        else:
            raise Unsupported('ClusterQueue.' + m)
    return cq


def local_queue(e):
    c = chain(e)
    lq = {'name': sval(c[0][1][0]), 'namespace': sval(c[0][1][1])}
    for m, args in c[1:]:
        if m == 'ClusterQueue':
            lq['cq'] = sval(args[0])
        elif m == 'Obj':
            pass
        else:
            raise Unsupported('LocalQueue.' + m)
    return lq


def pod_set(e):
    c = chain(e)
    assert c[0][0] == 'MakePodSet', c[0]
    ps = {'name': sval(c[0][1][0]), 'count': ival(c[0][1][1]), 'requests': {}}
    for m, args in c[1:]:
        if m == 'Request':
            ps['requests'][sval(args[0])] = sval(args[1])
        elif m == 'Limit':
            ps.setdefault('limits', {})[sval(args[0])] = sval(args[1])
        elif m == 'SetMinimumCount':
            ps['minCount'] = ival(args[0])
        elif m == 'Obj':
            pass
        else:
            raise Unsupported('PodSet.' + m)
    return ps


def pod_set_assignment(e):
    c = chain(e)
    if c[0][0] != 'MakePodSetAssignment':
        raise Unsupported('pod set assignment ' + c[0][0])
    psa = {'name': sval(c[0][1][0]), 'count': 1, 'flavors': {}, 'usage': {}}
    for m, args in c[1:]:
        if m == 'Assignment':
            psa['flavors'][sval(args[0])] = sval(args[1])
            psa['usage'][sval(args[0])] = sval(args[2])
        elif m == 'Count':
            psa['count'] = ival(args[0])
        elif m == 'Obj':
            pass
        else:
            raise Unsupported('PodSetAssignment.' + m)
    return psa


def admission(e):
    if e[0] == 'un':
        e = e[2]
    if e[0] == 'lit':
        f = fields(e)
        return {'cq': sval(f['ClusterQueue']),
                'podSets': [pod_set_assignment(p) for p in items(f['PodSetAssignments'])]}
    c = chain(e)
    if c[0][0] != 'MakeAdmission':
        raise Unsupported('admission ' + c[0][0])
    a = {'cq': sval(c[0][1][0]),
         'podSets': [{'name': sval(n), 'count': 1, 'flavors': {}, 'usage': {}}
                     for n in c[0][1][1:]] or
         [{'name': 'main', 'count': 1, 'flavors': {}, 'usage': {}}]}
    for m, args in c[1:]:
        if m == 'PodSets':
            a['podSets'] = [pod_set_assignment(p) for p in args]
        elif m == 'Obj':
            pass
        else:
            raise Unsupported('Admission.' + m)
    return a


def condition(e):
    f = fields(e)
    out = {'type': sval(f['Type']), 'status': sval(f['Status'])}
    if 'Reason' in f:
        out['reason'] = sval(f['Reason'])
    if 'Message' in f:
        try:
            out['message'] = sval(f['Message'])
        except Unsupported:
            out['message'] = None  # built with Sprintf: not compared
    return out


# Builder methods that change nothing berth's admission reads.
WORKLOAD_IGNORED = {'Obj', 'Generation', 'ResourceVersion', 'ResourceRequests',
                    'SchedulingStatsEviction', 'Annotation', 'Label', 'Active',
                    'RequeueState', 'PastAdmittedTime', 'Finalizers', 'OwnerReference'}


def workload(e, want=False):
    c = chain(e)
    if c[0][0] != 'MakeWorkload':
        raise Unsupported('workload ' + c[0][0])
    wl = {'name': sval(c[0][1][0]), 'namespace': sval(c[0][1][1]),
          'podSets': [{'name': 'main', 'count': 1, 'requests': {}}]}
    conds = []
    implied = []  # set by ReserveQuotaAt / AdmittedAt: compared, never emitted
    for m, args in c[1:]:
        if m == 'Queue':
            wl['queue'] = sval(args[0])
        elif m == 'Priority':
            wl['priority'] = ival(args[0])
        elif m == 'UID':
            wl['uid'] = sval(args[0])
        elif m == 'JobUID':
            wl['jobUid'] = sval(args[0])
        elif m == 'Creation':
            wl['created'] = seconds(args[0])
        elif m == 'Request':
            wl['podSets'][0]['requests'][sval(args[0])] = sval(args[1])
        elif m == 'Limit':
            wl['podSets'][0].setdefault('limits', {})[sval(args[0])] = sval(args[1])
        elif m == 'PodSets':
            wl['podSets'] = [pod_set(p) for p in args]
        elif m == 'ReserveQuotaAt':
            wl['admission'] = admission(args[0])
            wl['reservedAt'] = seconds(args[1])
            implied.append({'type': 'QuotaReserved', 'status': 'True', 'reason': 'AdmittedByTest',
                            'message': 'Admitted by ClusterQueue ' + wl['admission']['cq']})
        elif m == 'SimpleReserveQuota':
            ps = wl['podSets'][0]
            wl['admission'] = {'cq': sval(args[0]), 'podSets': [{
                'name': ps['name'], 'count': ps['count'],
                'flavors': {r: sval(args[1]) for r in ps['requests']},
                'usage': {r: 'x%d:%s' % (ps['count'], v) for r, v in ps['requests'].items()}}]}
            wl['reservedAt'] = seconds(args[2])
            implied.append({'type': 'QuotaReserved', 'status': 'True', 'reason': 'AdmittedByTest',
                            'message': 'Admitted by ClusterQueue ' + sval(args[0])})
        elif m == 'Admission':
            wl['admission'] = admission(args[0])
        elif m == 'AdmittedAt':
            wl['admitted'] = sval(args[0]) == 'true'
            implied.append({'type': 'Admitted', 'status': 'True' if wl['admitted'] else 'False',
                            'reason': 'ByTest',
                            'message': 'Admitted by ClusterQueue ' + wl['admission']['cq']})
        elif m == 'Condition':
            conds.append(condition(args[0]))
        elif m == 'AdmissionCheck':
            f = fields(args[0])
            wl.setdefault('checks', []).append({'name': sval(f['Name']),
                                                'state': sval(f['State'])})
        elif m == 'PreemptionGates':
            wl['preemptionGates'] = len(args)
        elif m in WORKLOAD_IGNORED:
            pass
        else:
            raise Unsupported('Workload.' + m)
    if conds:
        wl['conditions'] = conds
    if want:
        # Condition() sets a condition as SetStatusCondition does: one per type, the last wins.
        last = {}
        for cond in implied + conds:
            last[cond['type']] = cond
        wl['_all_conditions'] = list(last.values())
    else:
        wl['_implied'] = implied
    return wl


def key_list_map(e):
    if e[0] == 'id' and e[1] == 'nil':
        return {}
    return {sval(k): [sval(v) for v in items(v)] for k, v in e[2]}


# Cases berth does not run, by upstream name: a one-line reason each (features berth does not
# model, or a difference kept on purpose). Filled in after each case was checked by hand.
GATES = 'preemption gates (Workload spec.preemptionGates) are not modelled'
SKIPS = {
    'error during admission': 'an API error on the status patch: berth has no API server',
    'partial admission disabled, multiple variable pod sets':
        'the PartialAdmission feature gate off: berth always allows partial admission',
    'container does not satisfy limitRange constraints': 'LimitRanges are not modelled',
    'workload-slice fits in single clusterQueue':
        'workload slices (ElasticJobsViaWorkloadSlices) are not modelled',
    'block preemptions and signal `BlockedOnPreemptionGates` when a preemption gate is present':
        GATES,
    'do not signal `BlockedOnPreemptionGates` when a preemption gate is present, but the '
    'workload had nothing to preempt': GATES,
    'with fair sharing: nominal-first ordering admits workload fitting within nominal despite '
    'higher CQ DRS': 'cpu covered by two resource groups: Kueue\'s webhook rejects such a '
                     'ClusterQueue and berth marks it inactive (upstream\'s cache test skips '
                     'validation)',
    'multiple preemptions within cq when fair sharing':
        'relies on an undefaulted reclaimWithinCohort ("" is not Never, so a fair-sharing queue '
        'may preempt while borrowing); the API server defaults it to Never, as berth does',
    'multiple preemptions skip overlapping preemption targets':
        'the RecomputeAssignmentUponPreemptionTargetsOverlap gate off: berth follows the '
        'gate-on behaviour (targets recomputed)',
}


def convert_case(name, body, test):
    f = fields(body)
    case = {'name': name}
    notes = []
    known = {'featureGates', 'enableFairSharing', 'workloads', 'objects', 'admissionError',
             'additionalClusterQueues', 'additionalLocalQueues', 'cohorts',
             'wantAssignments', 'wantWorkloads', 'wantWorkloadUseMergePatch', 'wantLeft',
             'wantInadmissibleLeft', 'wantEvents', 'eventCmpOpts', 'wantSkippedPreemptions',
             'wantPreemptionTargetRecomputations'}
    for k in f:
        if k not in known:
            raise Unsupported('case field ' + k)
    if 'featureGates' in f:
        gates = {}
        for k, v in f['featureGates'][2]:
            gates[k[2]] = sval(v) == 'true'
        case['featureGates'] = gates
    if 'enableFairSharing' in f:
        case['fairSharing'] = sval(f['enableFairSharing']) == 'true'
    if 'objects' in f:
        notes.append('objects (LimitRange)')
    if 'admissionError' in f:
        notes.append('an API error on the status patch')
    if 'additionalClusterQueues' in f:
        case['clusterQueues'] = [cluster_queue(q) for q in items(f['additionalClusterQueues'])]
    if 'additionalLocalQueues' in f:
        case['localQueues'] = [local_queue(q) for q in items(f['additionalLocalQueues'])]
    if 'cohorts' in f:
        case['cohorts'] = [cluster_queue(q, cohort_obj=True) for q in items(f['cohorts'])]
    case['workloads'] = [workload(w) for w in items(f['workloads'])] if 'workloads' in f else []
    want = {}
    if 'wantAssignments' in f and f['wantAssignments'] != ('id', 'nil'):
        want['assignments'] = {sval(k): admission(v) for k, v in f['wantAssignments'][2]}
    else:
        want['assignments'] = {}
    if 'wantLeft' in f:
        want['left'] = key_list_map(f['wantLeft'])
    if 'wantInadmissibleLeft' in f:
        want['inadmissible'] = key_list_map(f['wantInadmissibleLeft'])
    # Conditions of wantWorkloads that the input did not carry: what the cycle wrote.
    inputs = {(w['namespace'], w['name']): w for w in case['workloads']}
    conds = {}
    if 'wantWorkloads' in f:
        for w in items(f['wantWorkloads']):
            ww = workload(w, want=True)
            wi = inputs.get((ww['namespace'], ww['name']), {})
            before = wi.get('conditions', []) + wi.get('_implied', [])
            new = [c for c in ww['_all_conditions'] if c not in before]
            if new:
                conds['%s/%s' % (ww['namespace'], ww['name'])] = new
    for w in case['workloads']:
        w.pop('_implied', None)
    if conds:
        want['conditions'] = conds
    if 'wantSkippedPreemptions' in f:
        want['skippedPreemptions'] = {sval(k): ival(v) for k, v in f['wantSkippedPreemptions'][2]}
    case['want'] = want
    if notes:
        case['notes'] = notes
    return case


def find_function(text, test):
    start = text.index('\nfunc %s(' % test)
    end = text.find('\nfunc ', start + 1)
    return text[start:end if end > 0 else len(text)]


def top_level_literal(body, prefix):
    """Parses the `prefix := <expr>` statement of the function body."""
    i = body.index('\t' + prefix)
    p = Parser(tokenize(body[i + len(prefix) + 1:]))
    return p.expr()


def main(path, test):
    text = open(path).read()
    body = find_function(text, test)
    flavors = []
    for fl in items(top_level_literal(body, 'resourceFlavors := ')):
        c = chain(fl)
        rf = {'name': sval(c[0][1][0])}
        for m, args in c[1:]:
            if m == 'Taint':
                tf = fields(args[0])
                rf.setdefault('taints', []).append(
                    {'key': sval(tf['Key']), 'value': sval(tf.get('Value', ('str', ''))),
                     'effect': sval(tf['Effect'])})
            elif m == 'NodeLabel':
                rf.setdefault('labels', {})[sval(args[0])] = sval(args[1])
            elif m != 'Obj':
                raise Unsupported('ResourceFlavor.' + m)
        flavors.append(rf)
    cqs = [cluster_queue(q) for q in items(top_level_literal(body, 'clusterQueues := '))]
    lqs = [local_queue(q) for q in items(top_level_literal(body, 'queues := '))]
    cases_lit = top_level_literal(body, 'cases := ')
    table = {'flavors': flavors, 'clusterQueues': cqs, 'localQueues': lqs,
             'namespaces': {'default': {}, 'eng-alpha': {'dep': 'eng'},
                            'eng-beta': {'dep': 'eng'}, 'eng-gamma': {'dep': 'eng'},
                            'sales': {'dep': 'sales'}, 'lend': {'dep': 'lend'}},
             'cases': []}
    for k, v in cases_lit[2]:
        name = sval(k)
        try:
            case = convert_case(name, v, test)
        except Unsupported as err:
            case = {'name': name, 'unsupported': str(err)}
        if name in SKIPS:
            case['skip'] = SKIPS[name]
        table['cases'].append(case)
    header = ('# Upstream: kubernetes-sigs/kueue %s, %s, commit ff69552e.\n'
              '# Semantics and expected values only, extracted by extract_schedule.py; see README.md.\n'
              % ('pkg/scheduler/' + path.split('/')[-1], test))
    print(header + emit(table))


# --- YAML output (flow style for small maps, block style for lists of cases) ---------------

def scalar(v, key=False):
    if key and isinstance(v, str) and re.fullmatch(r'[A-Za-z][A-Za-z0-9]*', v):
        return v
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, (int, float)):
        return str(v)
    if v is None:
        return 'null'
    return json.dumps(v)


def flow(v):
    if isinstance(v, dict):
        return '{' + ', '.join('%s: %s' % (scalar(k, True), flow(x)) for k, x in v.items()) + '}'
    if isinstance(v, list):
        return '[' + ', '.join(flow(x) for x in v) + ']'
    return scalar(v)


def emit(v, ind=''):
    out = []
    if isinstance(v, dict):
        for k, x in v.items():
            if isinstance(x, list) and x and isinstance(x[0], dict) and k in (
                    'cases', 'workloads', 'clusterQueues', 'localQueues', 'cohorts', 'flavors'):
                out.append('%s%s:' % (ind, scalar(k, True)))
                for item in x:
                    if k == 'cases':
                        sub = emit(item, ind + '  ').split('\n')
                        out.append(ind + '- ' + sub[0].lstrip())
                        out += sub[1:]
                    else:
                        out.append('%s- %s' % (ind, flow(item)))
            elif isinstance(x, dict) and x and k in ('want', 'namespaces', 'assignments', 'conditions'):
                out.append('%s%s:' % (ind, scalar(k, True)))
                out.append(emit(x, ind + '  '))
            else:
                out.append('%s%s: %s' % (ind, scalar(k, True), flow(x)))
    return '\n'.join(o for o in out if o != '')


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
