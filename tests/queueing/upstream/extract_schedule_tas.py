#!/usr/bin/env python3
"""Condenses upstream's TAS scheduler tables into berth's YAML table (schedule_tas.yaml).

A developer tool, run by hand (semantics and expected values only, never upstream code):

  git -C KUEUE show HEAD:pkg/scheduler/scheduler_tas_test.go > /tmp/scheduler_tas_test.go
  python3 extract_schedule_tas.py /tmp/scheduler_tas_test.go > schedule_tas.yaml

It reuses extract_schedule.py's Go expression parser and builders, resolves the local
variables each test function defines (nodes, topologies, flavors, queues) and adds the TAS
pieces: Topology levels, a flavor's topologyName and node labels, Nodes (labels, allocatable,
taints), a pod set's topology request (required / preferred / unconstrained, slices, groups)
and the expected topologyAssignment of each pod set assignment. A builder call it does not
know marks the case `unsupported`; a case whose Go literal berth's runner cannot represent
is therefore listed, never dropped. The skip reasons live in SKIPS below.
"""
import re
import sys

import extract_schedule as es
from extract_schedule import Unsupported, chain, sval, ival, items, fields

HOSTNAME = 'kubernetes.io/hostname'
LABELS = {'LabelHostname': HOSTNAME}
ENV = {}  # the test function's local variables: name -> parsed expression


def deref(e):
    """Follows local variables, `*x`, `&x`, x.DeepCopy() and x.Obj() of a named builder."""
    while True:
        if e[0] == 'un' and e[1] in ('*', '&'):
            e = e[2]
        elif e[0] == 'id' and e[1] in ENV:
            e = ENV[e[1]]
        elif e[0] == 'call' and e[1][0] == 'sel' and e[1][2] in ('DeepCopy',) :
            e = e[1][1]
        else:
            return e


def tsval(e):
    e = deref(e)
    if e[0] == 'sel' and e[2] in LABELS:
        return LABELS[e[2]]
    if e[0] == 'id' and e[1] in CONSTS:
        return CONSTS[e[1]]
    return sval(e)


CONSTS = {}


def tchain(e):
    """A builder chain whose base may be a local variable (`singleNode.Clone().Obj()`)."""
    e = deref(e)
    c = chain(e)
    if e[0] == 'call' and e[1][0] == 'sel':
        base = e[1][1]
        # chain() drops an `id` base; a local variable there is itself a chain.
        while base[0] == 'call' and base[1][0] == 'sel':
            base = base[1][1]
        if base[0] == 'id' and base[1] in ENV:
            return tchain(ENV[base[1]]) + c
    return c


def quantity_map(e):
    return {tsval(k): tsval(v) for k, v in deref(e)[2]}


def node(e):
    c = tchain(e)
    if c[0][0] != 'MakeNode':
        raise Unsupported('node ' + c[0][0])
    n = {'name': tsval(c[0][1][0]), 'labels': {}, 'allocatable': {}}
    for m, args in c[1:]:
        if m == 'Label':
            n['labels'][tsval(args[0])] = tsval(args[1])
        elif m == 'StatusAllocatable':
            n['allocatable'].update(quantity_map(args[0]))
        elif m == 'Ready':
            pass
        elif m == 'NotReady':
            n['notReady'] = True
        elif m == 'Unschedulable':
            n['unschedulable'] = True
        elif m == 'Taints':
            for t in args:
                tf = fields(deref(t))
                n.setdefault('taints', []).append(
                    {'key': tsval(tf['Key']), 'value': tsval(tf.get('Value', ('str', ''))),
                     'effect': tsval(tf['Effect'])})
        elif m in ('Obj', 'DeepCopy', 'Clone'):
            pass
        else:
            raise Unsupported('Node.' + m)
    return n


def toleration(e):
    f = fields(deref(e))
    t = {'key': tsval(f['Key']) if 'Key' in f else ''}
    ops = {'TolerationOpEqual': 'Equal', 'TolerationOpExists': 'Exists'}
    if 'Operator' in f:
        t['operator'] = ops[deref(f['Operator'])[2]]
    if 'Value' in f:
        t['value'] = tsval(f['Value'])
    if 'Effect' in f:
        t['effect'] = tsval(f['Effect'])
    return t


def pod(e):
    c = tchain(e)
    if c[0][0] != 'MakePod':
        raise Unsupported('pod ' + c[0][0])
    p = {'name': tsval(c[0][1][0]), 'namespace': tsval(c[0][1][1]), 'requests': {}}
    for m, args in c[1:]:
        if m == 'NodeName':
            p['node'] = tsval(args[0])
        elif m == 'StatusPhase':
            p['phase'] = deref(args[0])[2][len('Pod'):]
        elif m == 'Request':
            p['requests'][tsval(args[0])] = tsval(args[1])
        elif m != 'Obj':
            raise Unsupported('Pod.' + m)
    return p


def topology(e):
    c = tchain(e)
    if c[0][0] == 'MakeDefaultOneLevelTopology':
        return {'name': tsval(c[0][1][0]), 'levels': [HOSTNAME]}
    if c[0][0] == 'MakeDefaultTwoLevelTopology':
        return {'name': tsval(c[0][1][0]),
                'levels': ['cloud.google.com/gce-topology-block', HOSTNAME]}
    if c[0][0] == 'MakeDefaultThreeLevelTopology':
        return {'name': tsval(c[0][1][0]),
                'levels': ['cloud.google.com/gce-topology-block',
                           'cloud.google.com/gce-topology-subblock', HOSTNAME]}
    if c[0][0] != 'MakeTopology':
        raise Unsupported('topology ' + c[0][0])
    t = {'name': tsval(c[0][1][0])}
    for m, args in c[1:]:
        if m == 'Levels':
            t['levels'] = [tsval(a) for a in args]
        elif m != 'Obj':
            raise Unsupported('Topology.' + m)
    return t


def flavor(e):
    c = tchain(e)
    rf = {'name': tsval(c[0][1][0])}
    for m, args in c[1:]:
        if m == 'NodeLabel':
            rf.setdefault('labels', {})[tsval(args[0])] = tsval(args[1])
        elif m == 'TopologyName':
            rf['topologyName'] = tsval(args[0])
        elif m == 'Toleration':
            rf.setdefault('tolerations', []).append(toleration(args[0]))
        elif m == 'Taint':
            tf = fields(args[0])
            rf.setdefault('taints', []).append(
                {'key': tsval(tf['Key']), 'value': tsval(tf.get('Value', ('str', ''))),
                 'effect': tsval(tf['Effect'])})
        elif m != 'Obj':
            raise Unsupported('ResourceFlavor.' + m)
    return rf


def topology_request(ps, m, args):
    tr = ps.setdefault('topology', {})
    if m == 'RequiredTopologyRequest':
        tr['required'] = tsval(args[0])
    elif m == 'PreferredTopologyRequest':
        tr['preferred'] = tsval(args[0])
    elif m == 'UnconstrainedTopologyRequest' or m == 'TopologyRequest' and not args:
        tr['unconstrained'] = True
    elif m == 'SliceRequiredTopologyRequest':
        tr['sliceRequired'] = tsval(args[0])
    elif m == 'SliceSizeTopologyRequest':
        tr['sliceSize'] = ival(args[0])
    elif m == 'PodSetGroup':
        tr['group'] = tsval(args[0])
    else:
        return False
    return True


def pod_set(e):
    c = tchain(e)
    if c[0][0] != 'MakePodSet':
        raise Unsupported('pod set ' + c[0][0])
    ps = {'name': tsval(c[0][1][0]), 'count': ival(deref(c[0][1][1])), 'requests': {}}
    for m, args in c[1:]:
        if m == 'Request':
            ps['requests'][tsval(args[0])] = tsval(args[1])
        elif m == 'SetMinimumCount':
            ps['minCount'] = ival(args[0])
        elif topology_request(ps, m, args):
            pass
        elif m == 'Toleration':
            ps.setdefault('tolerations', []).append(toleration(args[0]))
        elif m == 'RequiredDuringSchedulingIgnoredDuringExecution':
            ops = {'NodeSelectorOpIn': 'In', 'NodeSelectorOpNotIn': 'NotIn',
                   'NodeSelectorOpExists': 'Exists', 'NodeSelectorOpDoesNotExist': 'DoesNotExist'}
            terms = []
            for t in items(deref(args[0])):
                exprs = []
                for x in items(fields(t)['MatchExpressions']):
                    xf = fields(x)
                    exprs.append({'key': tsval(xf['Key']), 'operator': ops[deref(xf['Operator'])[2]],
                                  'values': [tsval(v) for v in items(xf['Values'])]
                                  if 'Values' in xf else []})
                terms.append(exprs)
            ps['requiredAffinity'] = terms
        elif m == 'NodeSelector':
            ps['nodeSelector'] = {tsval(k): tsval(v) for k, v in deref(args[0])[2]}
        elif m == 'Obj':
            pass
        else:
            raise Unsupported('PodSet.' + m)
    return ps


def topology_assignment(e):
    c = tchain(e)
    if c[0][0] != 'MakeTopologyAssignment':
        raise Unsupported('topology assignment ' + c[0][0])
    levels = deref(c[0][1][0])
    if levels[0] == 'call' and levels[1][0] == 'sel' and levels[1][2] == 'Levels':
        levels = topology(levels[2][0])['levels']
    else:
        levels = [tsval(x) for x in items(levels)]
    ta = {'levels': levels, 'domains': []}
    for m, args in c[1:]:
        if m == 'Domain':
            dc = tchain(args[0])
            if dc[0][0] != 'MakeTopologyDomainAssignment':
                raise Unsupported('domain ' + dc[0][0])
            ta['domains'].append([[tsval(v) for v in items(dc[0][1][0])], ival(dc[0][1][1])])
        elif m != 'Obj':
            raise Unsupported('TopologyAssignment.' + m)
    return ta


def pod_set_assignment(e):
    c = tchain(e)
    if c[0][0] != 'MakePodSetAssignment':
        raise Unsupported('pod set assignment ' + c[0][0])
    psa = {'name': tsval(c[0][1][0]), 'count': 1, 'flavors': {}, 'usage': {}}
    for m, args in c[1:]:
        if m == 'Assignment':
            psa['flavors'][tsval(args[0])] = tsval(args[1])
            psa['usage'][tsval(args[0])] = tsval(args[2])
        elif m == 'Count':
            psa['count'] = ival(args[0])
        elif m == 'TopologyAssignment':
            if deref(args[0]) != ('id', 'nil'):
                psa['topology'] = topology_assignment(args[0])
        elif m == 'Obj':
            pass
        else:
            raise Unsupported('PodSetAssignment.' + m)
    return psa


# extract_schedule's builders call these through its module globals.
es.pod_set = pod_set
es.pod_set_assignment = pod_set_assignment


def admission(e):
    return es.admission(deref(e))


def listof(e, fn):
    e = deref(e)
    if e[0] == 'id' and e[1] == 'nil':
        return []
    return [fn(x) for x in items(e)]


# Skip reasons for cases the extractor cannot represent, by the start of its `unsupported`
# text: features berth's admission does not model.
CLASS_SKIPS = [
    ('admissionChecks', 'admission checks with TAS (ProvisioningRequest delayed topology '
                        'request, the second pass, unhealthy-node replacement) are not modelled'),
    ('Workload.UnhealthyNodes', 'the second pass (unhealthy-node replacement) is not modelled'),
    ('list (\'call\', (\'sel\', (\'id\', \'apierrors\')',
     'an API error on the status patch: berth has no API server'),
    ('list (\'call\', (\'sel\', (\'id\', \'errors\')',
     'an API error on the status patch: berth has no API server'),
    ('pods', 'the runner does not build non-TAS pods yet (usage of running pods on TAS nodes)'),
    ('PodSet.Toleration', 'the runner does not build pod set tolerations yet'),
    ('literal', 'the runner does not build flavor tolerations yet'),
    ('resourceTransformations', 'resource transformations (Kueue Configuration '
                                'resources.transformations) are not modelled'),
    ('PodSet.SliceRequiredTopologyConstraints',
     'multi-layer slice constraints (several slice levels) are not modelled'),
]

RECOMPUTE_OFF = ('the TASRecomputeAssignmentWithinSchedulingCycle gate off: berth follows the '
                 'gate-on behaviour (a later workload of the cycle is placed around the earlier '
                 'ones instead of being requeued)')
# The gate-off cases whose outcome the gate changes (the others pass either way).
RECOMPUTE_OFF_FAILS = {
    'two workloads in cohort nominated to the same node',
    'reclaim within cohort',
    'two small workloads considered',
    'two workloads considered',
    'preempting workload with targets reserves capacity so that lower priority workload cannot '
    'use it',
    'preempting workload without targets reserves capacity so that lower priority workload '
    'cannot use it',
}
RESERVE = ('berth defect: the topology capacity a preemptor nominated this cycle is not held '
           'for it, so a lower-priority workload of the cohort is placed there')
ZERO = ('a zero request is not kept in berth\'s resource lists (Kueue lists the resource with '
        '0 usage in the assignment)')
SKIPS = {
    ('TestScheduleForTAS', 'workload with a PodSet of size zero'): ZERO,
    ('TestScheduleForTAS', 'workload with zero value request gets scheduled'): ZERO,
    ('TestScheduleForTASCohorts', 'reclaim within cohort; capacity reserved by preempting '
     'workload does not allow to schedule last workload; TASRecomputeAssignmentWithinSchedulingCycle '
     'enabled'): RESERVE,
    ('TestScheduleForTASCohorts', 'preempting workload with targets reserves capacity so that '
     'lower priority workload cannot use it; TASRecomputeAssignmentWithinSchedulingCycle enabled'):
        RESERVE,
    ('TestScheduleForTASCohorts', 'preempting workload without targets reserves capacity so that '
     'lower priority workload cannot use it; TASRecomputeAssignmentWithinSchedulingCycle enabled'):
        RESERVE,
    ('TestScheduleForTASCohorts', 'preempt in multiple flavors out of which one requires update '
     'Fit -> Preempt due to fragmentation'):
        'berth defect: a workload whose TAS fit turns into Preempt after fragmentation is '
        'reported inadmissible, where Kueue leaves it in the active heap',
}


def convert_case(name, body):
    f = fields(deref(body))
    case = {'name': name}
    known = {'nodes', 'pods', 'topologies', 'resourceFlavors', 'clusterQueues', 'workloads',
             'cohorts', 'admissionChecks', 'featureGates', 'resourceTransformations',
             'patchStatusErr', 'wantNewAssignments', 'wantLeft', 'wantInadmissibleLeft',
             'wantEvents', 'eventCmpOpts', 'wantWorkloads'}
    for k in f:
        if k not in known:
            raise Unsupported('case field ' + k)
    if 'pods' in f:
        case['pods'] = listof(f['pods'], pod)
    for k in ('resourceTransformations', 'patchStatusErr', 'admissionChecks'):
        if k in f and deref(f[k]) != ('id', 'nil') and items(deref(f[k])):
            raise Unsupported(k)
    if 'featureGates' in f:
        case['featureGates'] = {k[2]: tsval(v) == 'true' for k, v in deref(f['featureGates'])[2]}
    case['nodes'] = listof(f['nodes'], node) if 'nodes' in f else []
    case['topologies'] = listof(f['topologies'], topology) if 'topologies' in f else []
    case['flavors'] = listof(f['resourceFlavors'], flavor) if 'resourceFlavors' in f else []
    case['clusterQueues'] = listof(f['clusterQueues'], lambda q: es.cluster_queue(deref(q)))
    if 'cohorts' in f:
        case['cohorts'] = listof(f['cohorts'], lambda q: es.cluster_queue(deref(q), True))
    case['workloads'] = listof(f['workloads'], lambda w: strip(es.workload(deref(w))))
    want = {'assignments': {}}
    if 'wantNewAssignments' in f and deref(f['wantNewAssignments']) != ('id', 'nil'):
        want['assignments'] = {tsval(k): admission(v)
                               for k, v in deref(f['wantNewAssignments'])[2]}
    if 'wantLeft' in f:
        want['left'] = es.key_list_map(deref(f['wantLeft']))
    if 'wantInadmissibleLeft' in f:
        want['inadmissible'] = es.key_list_map(deref(f['wantInadmissibleLeft']))
    case['want'] = want
    return case


def strip(w):
    w.pop('_implied', None)
    return w


def local_env(body):
    """`\\tname := expr` statements at the function's top level (one tab of indentation)."""
    env = {}
    for line_start in [i for i in range(len(body)) if body.startswith('\n\t', i)]:
        rest = body[line_start + 2:]
        if rest[:1] in ('\t', '/', '}') or ':=' not in rest.split('\n', 1)[0]:
            continue
        lhs = rest.split(':=', 1)[0].strip()
        if not lhs.isidentifier() or lhs in ('cases', 'scenarios', 'testCases'):
            continue
        try:
            stmt = rest.split(':=', 1)[1]
            end = re.search(r'\n\t[A-Za-z]', stmt)
            p = es.Parser(es.tokenize(stmt[:end.start()] if end else stmt))
            env[lhs] = p.expr()
        except (ValueError, IndexError):
            pass
    return env


def consts(body):
    out = {}
    for m in re.finditer(r'\n\t\t(\w+)\s*=\s*"([^"]*)"', body):
        out[m.group(1)] = m.group(2)
    return out


def cases_literal(body):
    """The `cases := map[string]T{...}` statement; an inline struct type is dropped."""
    stmt = body[body.index('\tcases := ') + len('\tcases := '):]
    stmt = stmt[:re.search(r'\n\t[A-Za-z]', stmt).start()]
    if stmt.startswith('map[string]struct {'):
        stmt = 'map[string]Case' + stmt[stmt.index('\n\t}{') + 3:]
    return es.Parser(es.tokenize(stmt)).expr()


def run(text, test):
    body = es.find_function(text, test)
    ENV.clear()
    ENV.update(local_env(body))
    CONSTS.clear()
    CONSTS.update(consts(body))
    queues = [es.local_queue(q) for q in items(deref(ENV['queues']))]
    cases = []
    for k, v in cases_literal(body)[2]:
        name = sval(k)
        try:
            case = convert_case(name, v)
        except (Unsupported, KeyError, IndexError, TypeError, AssertionError) as err:
            case = {'name': name, 'unsupported': str(err)[:160]}
        if (test, name) in SKIPS:
            case['skip'] = SKIPS[(test, name)]
        elif 'unsupported' in case:
            for prefix, reason in CLASS_SKIPS:
                if case['unsupported'].startswith(prefix):
                    case['skip'] = reason
                    break
        elif case.get('featureGates', {}).get('TASRecomputeAssignmentWithinSchedulingCycle') \
                is False and name.split(';')[0] in RECOMPUTE_OFF_FAILS:
            case['skip'] = RECOMPUTE_OFF
        cases.append(case)
    return {'test': test, 'localQueues': queues, 'cases': cases}


def main(path):
    text = open(path).read()
    out = ['# Upstream: kubernetes-sigs/kueue pkg/scheduler/scheduler_tas_test.go, commit ff69552e:',
           '# TestScheduleForTAS, TestScheduleForTASPreemption, TestScheduleForTASCohorts.',
           '# Semantics and expected values only, extracted by extract_schedule_tas.py; see README.md.',
           'tables:']
    for test in ('TestScheduleForTAS', 'TestScheduleForTASPreemption',
                 'TestScheduleForTASCohorts'):
        t = run(text, test)
        sub = es.emit(t, '    ').split('\n')
        out.append('  - ' + sub[0].lstrip())
        out += sub[1:]
    print('\n'.join(out))


if __name__ == '__main__':
    main(sys.argv[1])
