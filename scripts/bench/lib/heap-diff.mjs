// What two heap snapshots of one process differ by: the objects alive in the second that were not in the
// first (V8 keeps an object's snapshot id for its whole life), grouped by kind and constructor or
// function name, with their self sizes, and for the biggest groups one retainer path of a sample object,
// so a reader sees who holds them.
import { readFileSync } from 'node:fs';

function load(file) {
  const snap = JSON.parse(readFileSync(file, 'utf8'));
  const meta = snap.snapshot.meta;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  return {
    nodes: snap.nodes,
    edges: snap.edges,
    strings: snap.strings,
    locations: snap.locations ?? [],
    nf,
    ef,
    at: {
      type: meta.node_fields.indexOf('type'),
      name: meta.node_fields.indexOf('name'),
      id: meta.node_fields.indexOf('id'),
      size: meta.node_fields.indexOf('self_size'),
      edges: meta.node_fields.indexOf('edge_count'),
      edgeType: meta.edge_fields.indexOf('type'),
      edgeName: meta.edge_fields.indexOf('name_or_index'),
      edgeTo: meta.edge_fields.indexOf('to_node'),
    },
    nodeTypes: meta.node_types[0],
    edgeTypes: meta.edge_types[0],
  };
}

function ids(s) {
  const set = new Set();
  for (let i = 0; i < s.nodes.length; i += s.nf) set.add(s.nodes[i + s.at.id]);
  return set;
}

/** Self sizes summed by V8's node type (object, closure, array, code ...). */
function bytesByType(s) {
  const out = new Map();
  for (let i = 0; i < s.nodes.length; i += s.nf) {
    const type = s.nodeTypes[s.nodes[i + s.at.type]];
    out.set(type, (out.get(type) ?? 0) + s.nodes[i + s.at.size]);
  }
  return out;
}

/** Index of each node's first edge. */
function firstEdges(s) {
  const first = new Uint32Array(s.nodes.length / s.nf);
  for (let i = 0, n = 0, e = 0; i < s.nodes.length; i += s.nf, n++) {
    first[n] = e;
    e += s.nodes[i + s.at.edges] * s.ef;
  }
  return first;
}

function edgeNamed(s, first, i, wanted) {
  const start = first[i / s.nf];
  for (let k = 0; k < s.nodes[i + s.at.edges]; k++) {
    const e = start + k * s.ef;
    const type = s.edgeTypes[s.edges[e + s.at.edgeType]];
    if (type !== 'element' && type !== 'hidden' && s.strings[s.edges[e + s.at.edgeName]] === wanted) return s.edges[e + s.at.edgeTo];
  }
  return -1;
}

/** Where each closure was written: file (shortened) and line, from the snapshot's locations and the function's script. */
function closureSites(s, first) {
  const sites = new Map();
  for (let l = 0; l < s.locations.length; l += 4) {
    const i = s.locations[l];
    const shared = edgeNamed(s, first, i, 'shared');
    const script = shared === -1 ? -1 : edgeNamed(s, first, shared, 'script_or_debug_info');
    const file = script === -1 ? '?' : s.strings[s.nodes[script + s.at.name]];
    const short = file.replace(/^file:\/\//, '').replace(/.*\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, '').replace(/.*\/\.cache\//, '');
    sites.set(i, `${short}:${s.locations[l + 2] + 1}`);
  }
  return sites;
}

function labeller(s) {
  const first = firstEdges(s);
  const sites = closureSites(s, first);
  // A context is named for a function that closes over it.
  const contextOf = new Map();
  for (let i = 0, e = 0; i < s.nodes.length; i += s.nf) {
    const count = s.nodes[i + s.at.edges];
    const closure = s.nodeTypes[s.nodes[i + s.at.type]] === 'closure';
    for (let k = 0; k < count; k++, e += s.ef) {
      if (!closure || s.edgeTypes[s.edges[e + s.at.edgeType]] !== 'internal' || s.strings[s.edges[e + s.at.edgeName]] !== 'context') continue;
      const to = s.edges[e + s.at.edgeTo];
      if (!contextOf.has(to)) contextOf.set(to, i);
    }
  }
  const closureLabel = (i) => {
    const name = s.strings[s.nodes[i + s.at.name]];
    return `(closure) ${name || '<anonymous>'} @ ${sites.get(i) ?? '?'}`;
  };
  return (i) => {
    const type = s.nodeTypes[s.nodes[i + s.at.type]];
    const name = s.strings[s.nodes[i + s.at.name]];
    if (type === 'closure') return closureLabel(i);
    if (name === 'system / Context') return contextOf.has(i) ? `Context of ${closureLabel(contextOf.get(i))}` : 'Context (no closure)';
    if (type === 'object' || type === 'native') return name;
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string' || type === 'number') return `(${type})`;
    if (type === 'code') return '(code)';
    return `(${type}) ${name.length > 60 ? `${name.slice(0, 57)}...` : name}`;
  };
}

/**
 * Objects of `after` absent from `before`, grouped (the caller divides by the units, e.g. the
 * sessions opened between the snapshots). Returns { totalBytes, net: [{ type, bytes }], groups: [{ label, count, bytes, path }] }.
 */
export function heapDiff(beforeFile, afterFile, { top = 40, pathDepth = 12 } = {}) {
  const first = load(beforeFile);
  const old = ids(first);
  const beforeTypes = bytesByType(first);
  const s = load(afterFile);
  // Net growth by node type (new objects less freed ones): compiled code replaced while the measured
  // sessions were opened shows here as what it is, a one-off of the process and not of a session.
  const net = [...bytesByType(s)].map(([type, bytes]) => ({ type, bytes: bytes - (beforeTypes.get(type) ?? 0) })).filter((t) => t.bytes !== 0).sort((x, y) => y.bytes - x.bytes);
  const { nodes, edges, nf, ef, at } = s;
  const label = labeller(s);
  const fresh = new Uint8Array(nodes.length / nf);
  for (let i = 0, n = 0; i < nodes.length; i += nf, n++) if (!old.has(nodes[i + at.id])) fresh[n] = 1;
  // One strong retainer of every new object: a new object that holds it first (the structure it belongs
  // to), then an old one, a synthetic root (stack, handles) last.
  const retainer = new Int32Array(nodes.length / nf).fill(-1);
  const via = new Int32Array(nodes.length / nf).fill(-1);
  const rank = new Uint8Array(nodes.length / nf);
  for (let i = 0, e = 0; i < nodes.length; i += nf) {
    const count = nodes[i + at.edges];
    const from = i / nf;
    const synthetic = s.nodeTypes[nodes[i + at.type]] === 'synthetic';
    const r = synthetic ? 1 : fresh[from] ? 3 : 2;
    for (let k = 0; k < count; k++, e += ef) {
      const to = edges[e + at.edgeTo] / nf;
      const type = s.edgeTypes[edges[e + at.edgeType]];
      if (!fresh[to] || to === from || rank[to] >= r || type === 'weak' || type === 'shortcut') continue;
      retainer[to] = from;
      via[to] = e;
      rank[to] = r;
    }
  }
  const edgeLabel = (e) => {
    const type = s.edgeTypes[edges[e + at.edgeType]];
    const name = edges[e + at.edgeName];
    return type === 'element' || type === 'hidden' ? '[]' : `.${s.strings[name]}`;
  };
  // Containers (arrays, plain objects, maps, sets, contexts, strings) are named for what holds them.
  const CONTAINER = /^(\((array|hidden|string|number|concatenated string|sliced string|object shape)\)|Object|Map|Set|Array|Context \(no closure\))/;
  const ownerLabel = (i) => {
    const base = label(i);
    if (!CONTAINER.test(base)) return base;
    let n = i / nf;
    let trail = '';
    for (let d = 0; d < 5 && retainer[n] !== -1 && rank[n] > 1; d++) {
      trail = `${edgeLabel(via[n])}${trail}`;
      n = retainer[n];
      const up = label(n * nf);
      if (!CONTAINER.test(up) || d === 4) return `${base} in ${up} ${trail}`;
    }
    return base;
  };
  const groups = new Map();
  let total = 0;
  for (let i = 0, n = 0; i < nodes.length; i += nf, n++) {
    if (!fresh[n]) continue;
    const size = nodes[i + at.size];
    total += size;
    const key = ownerLabel(i);
    const g = groups.get(key) ?? { label: key, count: 0, bytes: 0, sample: i };
    g.count++;
    g.bytes += size;
    groups.set(key, g);
  }
  const pathOf = (i) => {
    const steps = [];
    const seen = new Set();
    let n = i / nf;
    for (let d = 0; d < pathDepth && retainer[n] !== -1 && !seen.has(n); d++) {
      seen.add(n);
      steps.push(edgeLabel(via[n]));
      n = retainer[n];
      steps.push(label(n * nf));
      if (!fresh[n]) break;
    }
    return steps.reverse().join(' ');
  };
  const sorted = [...groups.values()].sort((a, b) => b.bytes - a.bytes).slice(0, top);
  return { totalBytes: total, net, groups: sorted.map((g) => ({ label: g.label, count: g.count, bytes: g.bytes, path: pathOf(g.sample) })) };
}
