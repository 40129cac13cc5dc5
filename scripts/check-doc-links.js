// Part of `npm run lint`: every link between the project's documents resolves. Checks the relative
// links of README.md and docs/*.md (the file exists; an anchor names a heading of it, spelt as
// GitHub spells a heading's anchor), and every `docs/<file>.md#<anchor>` cited anywhere in the
// sources, tests, benchmark and scripts. Prints each broken link and exits 1 when there is one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const root = process.cwd();

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2, … */
function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const anchorCache = new Map();
function anchorsOfFile(path) {
  if (!anchorCache.has(path)) anchorCache.set(path, anchorsOf(readFileSync(path, 'utf8')));
  return anchorCache.get(path);
}

const broken = [];

/** Checks one link target, relative to the file it appears in (or to the root for a cited docs/ path). */
function check(from, target, base) {
  const [pathPart, anchor] = target.split('#', 2);
  const path = pathPart === '' ? from : normalize(join(base, decodeURI(pathPart)));
  if (!existsSync(path)) return broken.push(`${relative(root, from)}: ${target} (no such file)`);
  if (anchor === undefined || !path.endsWith('.md') || statSync(path).isDirectory()) return;
  if (!anchorsOfFile(path).has(anchor)) broken.push(`${relative(root, from)}: ${target} (no such heading)`);
}

/** Markdown links outside code: `[text](target)` with a relative target. */
function checkMarkdown(path) {
  let fenced = false;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      check(path, target, dirname(path));
    }
  }
}

/** `docs/<file>.md#<anchor>` cited in code and comments. */
function checkCitations(path) {
  for (const [target] of readFileSync(path, 'utf8').matchAll(/\bdocs\/[\w.-]+\.md(#[\w-]+)?/g)) check(path, target, root);
}

function filesUnder(dir, accept) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'results' ? [] : filesUnder(path, accept);
    return accept(entry.name) ? [path] : [];
  });
}

const markdown = [join(root, 'README.md'), ...filesUnder(join(root, 'docs'), (name) => name.endsWith('.md'))];
for (const path of markdown) checkMarkdown(path);
const code = (name) => /\.(ts|js|sh|yml|yaml)$/.test(name) || name === 'run' || name === 'Dockerfile';
for (const dir of ['src', 'test', 'bench', 'scripts', '.ci']) for (const path of filesUnder(join(root, dir), code)) checkCitations(path);
for (const name of ['Dockerfile', 'docker-compose.yml', 'ormconfig.ts']) if (existsSync(name)) checkCitations(join(root, name));

if (broken.length > 0) {
  console.error(`Broken links in the documentation:\n${broken.map((line) => `  ${line}`).join('\n')}`);
  process.exit(1);
}
console.log(`Documentation links: ${markdown.length} documents, every link resolves.`);
