// The berth hub dashboard: lists the kinds it shows once, follows each with a watch stream
// (NDJSON over fetch), and re-renders four views from what it holds. It builds the page with
// DOM calls only (textContent, never innerHTML), so an object's name or message can never
// become markup; the hub's Content-Security-Policy forbids inline code as a second guard.
'use strict';

(function() {
// Browsers open at most six HTTP/1.1 connections to one origin, and each watch holds one,
// so five kinds are watched and the two that change rarely (LocalQueues, Placements) are
// relisted on a timer and after a change to a kind they go with. That leaves a connection
// for the lists.
const KINDS = [
  {key: 'nodes', path: '/api/v1/nodes', watch: true},
  {key: 'pods', path: '/api/v1/pods', watch: true},
  {key: 'clusterqueues', path: '/apis/kueue.x-k8s.io/v1beta2/clusterqueues', watch: true},
  {key: 'workloads', path: '/apis/kueue.x-k8s.io/v1beta2/workloads', watch: true},
  {
    key: 'placementdecisions',
    path: '/apis/cluster.open-cluster-management.io/v1beta1/placementdecisions',
    watch: true,
  },
  {key: 'localqueues', path: '/apis/kueue.x-k8s.io/v1beta2/localqueues', watch: false},
  {
    key: 'placements',
    path: '/apis/cluster.open-cluster-management.io/v1beta1/placements',
    watch: false,
  },
];
// Which polled kind to relist early when a watched kind changes.
const RELIST_ON = {
  workloads: 'localqueues',
  placementdecisions: 'placements'
};
const POLL_MS = 10000;
const RENDER_DEBOUNCE_MS = 200;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 30000;
const TOKEN_KEY = 'berth-hub-token';
const GPU = 'nvidia.com/gpu';
const PRODUCT_LABEL = 'nvidia.com/gpu.product';
const CLUSTER_ANNOTATION = 'berth.dev/cluster';
const PLACEMENT_LABEL = 'cluster.open-cluster-management.io/placement';

// Everything the page knows, in one object (no loose globals): the token, the objects by
// kind, and per-kind connection state. `epoch` changes when the token does, which ends
// every loop of the previous one.
const state = {
  token: '',
  epoch: 0,
  aborter: null,
  objects: {},
  kinds: {},
  renderTimer: 0,
  unauthorized: false,
  updatedAt: null,
  changes: 0,  // watch events applied since the page loaded (shown, and read by the test)
};

class Unauthorized extends Error {}

// ---- small helpers -------------------------------------------------------------------

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === undefined || v === null) continue;
      if (k === 'class')
        node.className = v;
      else if (k === 'text')
        node.textContent = v;
      else
        node.setAttribute(k, String(v));
    }
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function table(headers, rows, cls) {
  const head =
      el('tr', null,
         ...headers.map(
             (h) => typeof h === 'string' ? el('th', {text: h}) :
                                            el('th', {class: h.cls, text: h.text})));
  return el('table', {class: cls}, el('thead', null, head), el('tbody', null, ...rows));
}

function empty(text) {
  return el('p', {class: 'empty', text: text});
}

function sleep(ms, signal) {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    if (signal)
      signal.addEventListener('abort', () => {
        clearTimeout(t);
        resolve();
      });
  });
}

// Kubernetes quantities ("500m", "80Gi", "8", "1e3") as numbers.
const SUFFIX = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
  Pi: 1024 ** 5,
  Ei: 1024 ** 6,
};
function quantity(q) {
  if (q === undefined || q === null) return 0;
  if (typeof q === 'number') return q;
  const m = /^([+-]?[0-9]*\.?[0-9]+)(?:[eE]([+-]?[0-9]+))?([a-zA-Z]*)$/.exec(String(q).trim());
  if (!m) return 0;
  let v = parseFloat(m[1]);
  if (m[2]) v *= 10 ** Number(m[2]);
  const f = SUFFIX[m[3]];
  return f === undefined ? 0 : v * f;
}

function formatAmount(resource, v) {
  if (/memory|storage/.test(resource) && Math.abs(v) >= 1024 ** 2) {
    return (Math.round((v / 1024 ** 3) * 10) / 10) + 'Gi';
  }
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
}

function meta(o) {
  return o.metadata || {};
}
function key(o) {
  return (meta(o).namespace || '') + '/' + (meta(o).name || '');
}
function nsName(o) {
  return meta(o).namespace ? meta(o).namespace + '/' + meta(o).name : meta(o).name;
}
function list(kind) {
  return Array.from((state.objects[kind] || new Map()).values());
}
function condition(o, type) {
  return ((o.status || {}).conditions || []).find((c) => c.type === type);
}
function isTrue(o, type) {
  const c = condition(o, type);
  return !!c && c.status === 'True';
}

// ---- the API ---------------------------------------------------------------------------

function headers() {
  return {Authorization: 'Bearer ' + state.token, Accept: 'application/json'};
}

async function getJson(path, signal) {
  const r = await fetch(path, {headers: headers(), signal: signal, cache: 'no-store'});
  if (r.status === 401) throw new Unauthorized();
  if (!r.ok) {
    const e = new Error(path + ': HTTP ' + r.status);
    e.status = r.status;
    throw e;
  }
  return r.json();
}

// Reads an NDJSON body line by line; onEvent returns false to stop early.
async function readEvents(body, onEvent) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const {value, done} = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, {stream: true});
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line) continue;
      if (onEvent(JSON.parse(line)) === false) {
        reader.cancel().catch(() => {});
        return;
      }
    }
  }
}

function replaceAll(kind, items) {
  const m = new Map();
  for (const o of items || []) m.set(key(o), o);
  state.objects[kind] = m;
}

// Applies one watch event; false on ERROR (the caller relists).
function applyEvent(kind, ev, progress) {
  const o = ev.object || {};
  switch (ev.type) {
    case 'ADDED':
    case 'MODIFIED':
      state.objects[kind].set(key(o), o);
      break;
    case 'DELETED':
      state.objects[kind].delete(key(o));
      break;
    case 'BOOKMARK':
      progress.rv = meta(o).resourceVersion || progress.rv;
      return true;
    case 'ERROR':
    default:
      return false;
  }
  progress.rv = meta(o).resourceVersion || progress.rv;
  state.changes += 1;
  if (RELIST_ON[kind]) wakePoll(RELIST_ON[kind]);
  scheduleRender();
  return true;
}

// One kind's loop: list, then watch from the list's resourceVersion until the stream ends
// or says ERROR, then list again after a growing pause. Ends when the epoch changes.
async function follow(spec, epoch, signal) {
  const ks = state.kinds[spec.key];
  let backoff = BACKOFF_MIN_MS;
  while (epoch === state.epoch) {
    try {
      const doc = await getJson(spec.path, signal);
      replaceAll(spec.key, doc.items);
      ks.listed = true;
      ks.missing = false;
      scheduleRender();
      if (!spec.watch) {
        ks.live = true;
        updateStatus();
        await new Promise((resolve) => {
          ks.wake = resolve;
          sleep(POLL_MS, signal).then(resolve);
        });
        ks.wake = null;
        continue;
      }
      const progress = {rv: meta(doc).resourceVersion || ''};
      const url = spec.path +
          '?watch=1&allowWatchBookmarks=true&resourceVersion=' + encodeURIComponent(progress.rv);
      const r = await fetch(url, {headers: headers(), signal: signal, cache: 'no-store'});
      if (r.status === 401) throw new Unauthorized();
      if (!r.ok || !r.body) throw new Error(url + ': HTTP ' + r.status);
      ks.live = true;
      backoff = BACKOFF_MIN_MS;
      updateStatus();
      await readEvents(r.body, (ev) => applyEvent(spec.key, ev, progress));
    } catch (e) {
      if (epoch !== state.epoch) return;
      if (e instanceof Unauthorized) {
        onUnauthorized();
        return;
      }
      // A hub without this kind (404), or a token whose user may not read it (403), is not
      // an outage: show the kind empty and look again later.
      if (e.status === 404 || e.status === 403) {
        replaceAll(spec.key, []);
        ks.listed = true;
        ks.missing = true;
        scheduleRender();
      }
    }
    if (epoch !== state.epoch) return;
    ks.live = ks.missing;
    updateStatus();
    await sleep(backoff + Math.random() * backoff * 0.2, signal);
    backoff = Math.min(backoff * 2, ks.missing ? POLL_MS : BACKOFF_MAX_MS);
  }
}

function wakePoll(kind) {
  const ks = state.kinds[kind];
  if (ks && ks.wake) ks.wake();
}

function start() {
  if (state.aborter) state.aborter.abort();
  state.epoch += 1;
  state.unauthorized = false;
  state.aborter = new AbortController();
  for (const spec of KINDS) {
    state.objects[spec.key] = new Map();
    state.kinds[spec.key] = {listed: false, live: false, missing: false, wake: null};
  }
  document.getElementById('token-form').hidden = true;
  updateStatus();
  for (const spec of KINDS) follow(spec, state.epoch, state.aborter.signal);
}

function onUnauthorized() {
  if (state.aborter) state.aborter.abort();
  state.epoch += 1;
  state.unauthorized = true;
  sessionStorage.removeItem(TOKEN_KEY);
  // What the refused token could read is not left on the screen.
  for (const spec of KINDS) state.objects[spec.key] = new Map();
  render();
  showTokenForm();
}

// ---- token -----------------------------------------------------------------------------

// The token comes in the URL fragment (never sent to a server, kept out of logs), and is
// then moved to sessionStorage and removed from the address bar and history.
function takeToken() {
  const m = /(?:^|&)token=([^&]*)/.exec(location.hash.slice(1));
  if (m) {
    const token = decodeURIComponent(m[1]);
    history.replaceState(null, '', location.pathname + location.search);
    if (token) {
      sessionStorage.setItem(TOKEN_KEY, token);
      return token;
    }
  }
  return sessionStorage.getItem(TOKEN_KEY) || '';
}

function showTokenForm() {
  const form = document.getElementById('token-form');
  form.hidden = false;
  document.getElementById('token-input').focus();
}

function setupTokenForm() {
  document.getElementById('token-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = document.getElementById('token-input');
    const token = input.value.trim();
    if (!token) return;
    input.value = '';
    state.token = token;
    sessionStorage.setItem(TOKEN_KEY, token);
    start();
  });
}

// ---- status line -----------------------------------------------------------------------

function updateStatus() {
  const node = document.getElementById('status');
  let s;
  if (state.unauthorized)
    s = 'unauthorized';
  else if (!state.token)
    s = 'no token';
  else {
    const all = Object.values(state.kinds);
    if (all.every((k) => k.live))
      s = 'live';
    else if (all.every((k) => !k.listed))
      s = 'connecting';
    else
      s = 'reconnecting';
  }
  node.textContent = s;
  node.dataset.state = s;
}

// ---- rendering -------------------------------------------------------------------------

function scheduleRender() {
  if (state.renderTimer) return;
  state.renderTimer = setTimeout(() => {
    state.renderTimer = 0;
    render();
  }, RENDER_DEBOUNCE_MS);
}

function render() {
  state.updatedAt = new Date();
  replace('fleet-body', renderFleet());
  replace('queues-body', renderQueues());
  replace('pending-body', renderPending());
  replace('placements-body', renderPlacements());
  const updated = document.getElementById('updated');
  updated.textContent = 'updated ' + state.updatedAt.toLocaleTimeString() + ' · ' + state.changes +
      (state.changes === 1 ? ' change' : ' changes') + ' streamed';
  updated.dataset.changes = String(state.changes);
  updateStatus();
}

function replace(id, node) {
  const host = document.getElementById(id);
  host.replaceChildren(node);
}

// (a) Heat map ------------------------------------------------------------------------------

// A pod's request of one resource: the larger of its containers' sum and any init
// container's (the scheduler's rule); an extended resource's limit stands for its request.
function podRequest(pod, resource) {
  const one = (c) => {
    const r = c.resources || {};
    const v = (r.requests || {})[resource];
    return quantity(v !== undefined ? v : (r.limits || {})[resource]);
  };
  const spec = pod.spec || {};
  const sum = (spec.containers || []).reduce((a, c) => a + one(c), 0);
  const init = (spec.initContainers || []).reduce((a, c) => Math.max(a, one(c)), 0);
  return Math.max(sum, init);
}

function fleetCells() {
  const used = new Map();  // node name -> GPUs requested by pods bound to it
  for (const pod of list('pods')) {
    const node = (pod.spec || {}).nodeName;
    const phase = (pod.status || {}).phase;
    if (!node || phase === 'Succeeded' || phase === 'Failed') continue;
    used.set(node, (used.get(node) || 0) + podRequest(pod, GPU));
  }
  const cells = new Map();  // cluster -> model -> {total, used, nodes}
  const models = new Set();
  for (const node of list('nodes')) {
    const model = (meta(node).labels || {})[PRODUCT_LABEL];
    if (!model) continue;
    const cluster = (meta(node).annotations || {})[CLUSTER_ANNOTATION] || 'default';
    models.add(model);
    if (!cells.has(cluster)) cells.set(cluster, new Map());
    const row = cells.get(cluster);
    if (!row.has(model)) row.set(model, {total: 0, used: 0, nodes: 0});
    const cell = row.get(model);
    cell.total += quantity(((node.status || {}).allocatable || {})[GPU]);
    cell.used += used.get(meta(node).name) || 0;
    cell.nodes += 1;
  }
  return {cells: cells, models: Array.from(models).sort()};
}

// Green when idle, through amber, to red when full.
function heatColour(utilisation) {
  const u = Math.max(0, Math.min(1, utilisation));
  return 'hsl(' + Math.round(130 - 130 * u) + ', 70%, ' + Math.round(82 - 12 * u) + '%)';
}

function renderFleet() {
  const {cells, models} = fleetCells();
  if (models.length === 0) return empty('No nodes with a ' + PRODUCT_LABEL + ' label.');
  const clusters = Array.from(cells.keys()).sort();
  const rows = clusters.map((cluster) => {
    const row = cells.get(cluster);
    return el('tr', null, el('th', {text: cluster}), ...models.map((model) => {
      const c = row.get(model);
      if (!c) return el('td', {class: 'cell none', text: '—'});
      const free = c.total - c.used;
      const u = c.total > 0 ? c.used / c.total : (c.used > 0 ? 1 : 0);
      const td =
          el('td', {
            class: 'cell',
            'data-cluster': cluster,
            'data-model': model,
            title: cluster + ' · ' + model + ': ' + c.used + ' of ' + c.total + ' GPUs used',
          },
             el('div', {
               class: 'figure',
               text: formatAmount(GPU, c.used) + ' / ' + formatAmount(GPU, c.total)
             }),
             el('div', {
               class: 'detail',
               text: formatAmount(GPU, free) + ' free · ' + Math.round(u * 100) + '% · ' + c.nodes +
                   (c.nodes === 1 ? ' node' : ' nodes')
             }));
      td.style.backgroundColor = heatColour(u);
      return td;
    }));
  });
  const legend = el('div', {class: 'legend'}, 'utilisation 0%');
  for (const u of [0, 0.25, 0.5, 0.75, 1]) {
    const s = el('span', {class: 'swatch'});
    s.style.backgroundColor = heatColour(u);
    legend.append(s);
  }
  legend.append('100%');
  const frag = document.createDocumentFragment();
  frag.append(table(['cluster', ...models], rows, 'heatmap'), legend);
  return frag;
}

// (b) ClusterQueues ---------------------------------------------------------------------------

// What a ClusterQueue holds, by flavor and resource: from its status when the hub wrote one,
// else summed over the Workloads that reserved quota in it.
function queueUsage(cq) {
  const usage = new Map();  // "flavor\u0000resource" -> {used, borrowed|undefined}
  const st = cq.status || {};
  const fromStatus = (st.flavorsReservation && st.flavorsReservation.length) ?
      st.flavorsReservation :
      st.flavorsUsage;
  if (fromStatus && fromStatus.length) {
    for (const f of fromStatus) {
      for (const r of f.resources || []) {
        usage.set(f.name + '\u0000' + r.name, {
          used: quantity(r.total),
          borrowed: r.borrowed === undefined ? undefined : quantity(r.borrowed)
        });
      }
    }
    return {usage: usage, source: 'status'};
  }
  for (const wl of list('workloads')) {
    const adm = (wl.status || {}).admission;
    if (!adm || adm.clusterQueue !== meta(cq).name) continue;
    if (!isTrue(wl, 'QuotaReserved') && !isTrue(wl, 'Admitted')) continue;
    if (isTrue(wl, 'Finished')) continue;
    for (const psa of adm.podSetAssignments || []) {
      const flavors = psa.flavors || {};
      for (const [res, q] of Object.entries(psa.resourceUsage || {})) {
        const k = (flavors[res] || '') + '\u0000' + res;
        const cur = usage.get(k) || {used: 0, borrowed: undefined};
        cur.used += quantity(q);
        usage.set(k, cur);
      }
    }
  }
  return {usage: usage, source: 'workloads'};
}

function renderQueues() {
  const cqs = list('clusterqueues').sort((a, b) => meta(a).name.localeCompare(meta(b).name));
  if (cqs.length === 0) return empty('No ClusterQueues.');
  const counts = queueCounts();
  const rows = [];
  for (const cq of cqs) {
    const name = meta(cq).name;
    const {usage} = queueUsage(cq);
    const lines = [];
    for (const g of (cq.spec || {}).resourceGroups || []) {
      for (const f of g.flavors || []) {
        for (const r of f.resources || []) {
          const u = usage.get(f.name + '\u0000' + r.name) || {used: 0};
          lines.push({
            flavor: f.name,
            res: r.name,
            nominal: quantity(r.nominalQuota),
            limit: r.borrowingLimit,
            used: u.used,
            borrowed: u.borrowed
          });
        }
      }
    }
    if (lines.length === 0) lines.push(null);
    const c = counts.get(name) || {admitted: 0, pending: 0};
    lines.forEach((line, i) => {
      const first = i === 0;
      const cells = [
        el('td', null, first ? el('strong', {class: 'cq-name', text: name}) : ''),
        el('td',
           {text: first ? ((cq.spec || {}).cohortName || (cq.spec || {}).cohort || '—') : ''}),
        el('td', {class: 'num', text: first ? String(c.admitted) : ''}),
        el('td', {class: 'num', text: first ? String(c.pending) : ''}),
      ];
      if (!line) {
        cells.push(el('td', {class: 'empty', text: 'no quota', colspan: 5}));
      } else {
        const borrowed =
            line.borrowed !== undefined ? line.borrowed : Math.max(0, line.used - line.nominal);
        const frac = line.nominal > 0 ? line.used / line.nominal : (line.used > 0 ? 1 : 0);
        const fill = el('div', {class: 'fill' + (frac > 1 ? ' over' : '')});
        fill.style.width = Math.round(Math.min(1, frac) * 100) + '%';
        const limit = line.limit === undefined ?
            '' :
            ' (limit ' + formatAmount(line.res, quantity(line.limit)) + ')';
        cells.push(
            el('td', {text: line.flavor}), el('td', {text: line.res}), el('td', {
              class: 'num',
              text: formatAmount(line.res, line.used) + ' / ' + formatAmount(line.res, line.nominal)
            }),
            el('td', null,
               el('div', {class: 'bar', title: Math.round(frac * 100) + '% of nominal'}, fill)),
            borrowed > 0 ? el('td', {
              class: 'borrowing',
              text: 'borrowing ' + formatAmount(line.res, borrowed) + limit
            }) :
                           el('td', {class: 'muted', text: limit ? 'not borrowing' + limit : ''}));
      }
      rows.push(
          el('tr', {class: first ? 'group-start' : null, 'data-clusterqueue': name}, ...cells));
    });
  }
  return table(
      [
        'ClusterQueue', 'cohort', {text: 'admitted', cls: 'num'}, {text: 'pending', cls: 'num'},
        'flavor', 'resource', {text: 'used / nominal', cls: 'num'}, '', 'borrowing'
      ],
      rows, 'queues');
}

// (c) Pending workloads ---------------------------------------------------------------------

function clusterQueueOf(wl) {
  const adm = (wl.status || {}).admission;
  if (adm && adm.clusterQueue) return adm.clusterQueue;
  const lqName = (wl.spec || {}).queueName;
  if (!lqName) return '';
  const lq = (state.objects.localqueues || new Map()).get(meta(wl).namespace + '/' + lqName);
  return lq ? ((lq.spec || {}).clusterQueue || '') : '';
}

function waitReason(wl) {
  for (const type of ['QuotaReserved', 'Admitted']) {
    const c = condition(wl, type);
    if (c && c.status === 'False' && c.message) return c.message;
  }
  return 'waiting for the next cycle';
}

function isPending(wl) {
  return !isTrue(wl, 'Admitted') && !isTrue(wl, 'Finished');
}

// Pending workloads grouped by ClusterQueue, each group in queue order.
function pendingByQueue() {
  const groups = new Map();
  for (const wl of list('workloads')) {
    if (!isPending(wl)) continue;
    const cq = clusterQueueOf(wl);
    if (!groups.has(cq)) groups.set(cq, []);
    groups.get(cq).push(wl);
  }
  for (const g of groups.values()) {
    g.sort((a, b) => {
      const pa = Number((a.spec || {}).priority || 0);
      const pb = Number((b.spec || {}).priority || 0);
      if (pa !== pb) return pb - pa;
      const ta = meta(a).creationTimestamp || '';
      const tb = meta(b).creationTimestamp || '';
      if (ta !== tb) return ta < tb ? -1 : 1;
      return key(a).localeCompare(key(b));
    });
  }
  return groups;
}

function queueCounts() {
  const counts = new Map();
  const bump = (cq, field) => {
    if (!counts.has(cq)) counts.set(cq, {admitted: 0, pending: 0});
    counts.get(cq)[field] += 1;
  };
  for (const wl of list('workloads')) {
    if (isTrue(wl, 'Finished')) continue;
    bump(clusterQueueOf(wl), isTrue(wl, 'Admitted') ? 'admitted' : 'pending');
  }
  return counts;
}

function age(ts) {
  const t = Date.parse(ts || '');
  if (!t) return '';
  const s = Math.max(0, Math.round((Date.now() - t) / 1000));
  if (s < 120) return s + 's';
  if (s < 7200) return Math.round(s / 60) + 'm';
  if (s < 172800) return Math.round(s / 3600) + 'h';
  return Math.round(s / 86400) + 'd';
}

function workloadGpus(wl) {
  let n = 0;
  for (const ps of (wl.spec || {}).podSets || []) {
    n += (ps.count || 1) * podRequest(ps.template || {}, GPU);
  }
  return n;
}

function renderPending() {
  const groups = pendingByQueue();
  const names =
      Array.from(groups.keys()).sort((a, b) => (a || '\uffff').localeCompare(b || '\uffff'));
  const rows = [];
  for (const cq of names) {
    const g = groups.get(cq);
    g.forEach((wl, i) => {
      rows.push(
          el('tr', {class: i === 0 ? 'group-start' : null, 'data-workload': nsName(wl)},
             el('td', {text: i === 0 ? (cq || '(no ClusterQueue)') : ''}),
             el('td', {class: 'num position', text: cq ? String(i + 1) + ' of ' + g.length : '—'}),
             el('td', {text: nsName(wl)}), el('td', {text: (wl.spec || {}).queueName || '—'}),
             el('td', {class: 'num', text: String((wl.spec || {}).priority || 0)}),
             el('td', {class: 'num', text: formatAmount(GPU, workloadGpus(wl))}),
             el('td', {class: 'num', text: age(meta(wl).creationTimestamp)}),
             el('td', {class: 'reason', text: waitReason(wl)})));
    });
  }
  if (rows.length === 0) return empty('No pending workloads.');
  return table(
      [
        'ClusterQueue', {text: 'position', cls: 'num'}, 'workload', 'LocalQueue',
        {text: 'priority', cls: 'num'}, {text: 'GPUs', cls: 'num'}, {text: 'age', cls: 'num'},
        'why it waits'
      ],
      rows, 'pending');
}

// (d) Placements --------------------------------------------------------------------------

// Green when a condition says things are well, red when not; PlacementMisconfigured is
// well when False, every other Placement condition when True.
function conditionClass(c) {
  if (c.status !== 'True' && c.status !== 'False') return null;
  const good = c.type === 'PlacementMisconfigured' ? 'False' : 'True';
  return c.status === good ? 'cond-true' : 'cond-false';
}

function renderPlacements() {
  const decided = new Map();  // "ns/placement" -> cluster names
  for (const pd of list('placementdecisions')) {
    const p = (meta(pd).labels || {})[PLACEMENT_LABEL];
    if (!p) continue;
    const k = (meta(pd).namespace || '') + '/' + p;
    if (!decided.has(k)) decided.set(k, []);
    for (const d of (pd.status || {}).decisions || []) {
      if (d.clusterName) decided.get(k).push(d.clusterName);
    }
  }
  const placements = list('placements').sort((a, b) => key(a).localeCompare(key(b)));
  if (placements.length === 0) return empty('No Placements.');
  const rows = placements.map((p) => {
    const clusters = (decided.get(key(p)) || []).slice().sort();
    const st = p.status || {};
    const selected =
        st.numberOfSelectedClusters !== undefined ? st.numberOfSelectedClusters : clusters.length;
    const conds = (st.conditions || [])
                      .map(
                          (c) =>
                              el('div', {
                                class: conditionClass(c),
                                title: c.message || '',
                              },
                                 c.type + '=' + c.status + (c.reason ? ' (' + c.reason + ')' : '') +
                                     (c.message ? ': ' + c.message : '')));
    return el(
        'tr', {'data-placement': nsName(p)}, el('td', {text: nsName(p)}),
        el('td', {class: 'num', text: String(selected)}),
        el('td', null,
           ...(clusters.length ? clusters.map((c) => el('span', {class: 'chip', text: c})) :
                                 [el('span', {class: 'empty', text: 'none'})])),
        el('td', null,
           ...(conds.length ? conds : [el('span', {class: 'empty', text: 'no conditions'})])));
  });
  return table(
      ['Placement', {text: 'selected', cls: 'num'}, 'decisions (clusters)', 'conditions'], rows,
      'placements');
}

// ---- start -------------------------------------------------------------------------------

function main() {
  setupTokenForm();
  state.token = takeToken();
  if (!state.token) {
    updateStatus();
    showTokenForm();
    return;
  }
  start();
}

main();
})();
