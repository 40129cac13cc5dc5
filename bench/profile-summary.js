// @ts-check
// Summarises a `--cpu-prof` profile (from `npm run bench -- --profile`): self time by package / area
// and the top functions, so "where does the time go" is read from a measurement.
//
//   node bench/profile-summary.js bench/results/profiles-<stamp>/service.cpuprofile [top=30] [callersOf]
//
// With `callersOf` (a function name), also prints the call chains that lead to it, by self time.
// Only the samples from the first HTTP request on are counted (start-up is not the load's), and
// shares are of the busy time (idle left out).
import { readFileSync } from 'node:fs';

const [file, topArg, callersOf] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.js <file.cpuprofile> [top]\n');
  process.exit(2);
}
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
const dt = profile.timeDeltas;
const parentOfNode = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOfNode.set(child, node.id);
/** Whether the sample's stack holds a frame of Node's HTTP server (a request being handled). */
const servesHttp = (id) => {
  for (let at = id; at !== undefined; at = parentOfNode.get(at)) if (byId.get(at).callFrame.url === 'node:_http_server') return true;
  return false;
};
const firstRequest = profile.samples.findIndex(servesHttp);
for (let i = Math.max(0, firstRequest); i < profile.samples.length; i++) {
  if (byId.get(profile.samples[i]).callFrame.functionName === '(idle)') continue;
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

function area(url, name) {
  if (!url) return name.startsWith('(') ? name : '(native/builtin)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return url.split('/')[0];
  const own = /\/(dist|bench)\/(src\/)?([^/]+)/.exec(url);
  if (own) return `${own[1]}/${own[3]}`;
  return url;
}

const areas = new Map();
const functions = new Map();
for (const [id, time] of self) {
  const { callFrame } = byId.get(id);
  const a = area(callFrame.url, callFrame.functionName);
  areas.set(a, (areas.get(a) ?? 0) + time);
  const key = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^.*?\/(node_modules|dist|bench)\//, '$1/')}:${callFrame.lineNumber + 1}`;
  functions.set(key, (functions.get(key) ?? 0) + time);
}
const pct = (t) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
const print = (title, map) => {
  process.stdout.write(`\n${title}\n`);
  for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(time)}  ${key}\n`);
};
process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s busy from the first request on\n`);
print('Self time by area', areas);
print('Self time by function', functions);

// BENCH_INCLUSIVE=regex: time of samples with a frame matching `function@file` anywhere on the stack.
if (process.env.BENCH_INCLUSIVE) {
  const pattern = new RegExp(process.env.BENCH_INCLUSIVE);
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const inclusive = new Map();
  for (const [id, time] of self) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      const { functionName, url } = byId.get(at).callFrame;
      const key = `${functionName || '(anonymous)'}@${url.replace(/^.*\//, '')}`;
      if (pattern.test(key) && !seen.has(key)) {
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + time);
      }
    }
  }
  print(`Inclusive time of frames matching ${pattern}`, inclusive);
}

if (callersOf) {
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const frame = (id) => {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    return `${functionName || '(anonymous)'}@${url.replace(/^.*?\/(node_modules|dist|bench)\//, '$1/').replace(/^.*\//, '')}:${lineNumber + 1}`;
  };
  const chains = new Map();
  for (const [id, time] of self) {
    if (byId.get(id).callFrame.functionName !== callersOf) continue;
    const chain = [];
    for (let at = parent.get(id); at !== undefined && chain.length < 8; at = parent.get(at)) chain.push(frame(at));
    const key = chain.join(' < ');
    chains.set(key, (chains.get(key) ?? 0) + time);
  }
  print(`Callers of ${callersOf}`, chains);
}
