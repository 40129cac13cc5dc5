// @ts-check
// `npm run bench`: runs the scenarios of bench/scenarios/ (all, or those of `--scenarios`) against one
// stand (bench/stand.js: a fresh MariaDB database, the built service, on demand the floors and a
// baseline revision), prints their tables and writes every figure to bench/results/bench-<time>.json.
// What each scenario measures and how to add one: docs/benchmark.md. `npm run bench -- --help` lists
// the options.
//
// Exit status: 0 clean; 1 a record lost or extra, a non-2xx or connection error under valid load;
// 2 the harness itself failed (build, start-up, database).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRunner } from './load-run.js';
import { RUNNER_OPTIONS, optionsHelp, readOptions, unknownFlags } from './options.js';
import { killAll } from './processes.js';
import { SCENARIOS } from './scenarios/index.js';
import { log, openStand } from './stand.js';
import { wrkMissing } from './wrk.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const declarations = [...RUNNER_OPTIONS, ...SCENARIOS.flatMap((scenario) => scenario.options ?? [])];

function help() {
  return [
    'npm run bench [-- options]',
    '',
    'Scenarios, in the order they run:',
    ...SCENARIOS.map((scenario) => `  ${scenario.name.padEnd(10)}${scenario.about}`),
    '',
    'Options (flag, environment variable, meaning, default):',
    optionsHelp(declarations),
    '',
  ].join('\n');
}

/** The scenarios `--scenarios` names, in their order; all by default. */
function chosenScenarios(options) {
  if (!options.scenarios) return SCENARIOS;
  const names = String(options.scenarios)
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !SCENARIOS.some((scenario) => scenario.name === name));
  if (unknown.length > 0) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  return SCENARIOS.filter((scenario) => names.includes(scenario.name));
}

async function main() {
  const argv = process.argv.slice(2);
  const options = readOptions(declarations, argv, process.env);
  if (options.help) {
    process.stdout.write(help());
    return 0;
  }
  const unknown = unknownFlags(declarations, argv);
  if (unknown.length > 0) throw new Error(`unknown option(s) ${unknown.join(' ')}; npm run bench -- --help lists them`);
  const scenarios = chosenScenarios(options).filter((scenario) => !options.floorOnly || scenario.withoutService);
  // The load comes from wrk only: a generator in JavaScript takes a share of the CPU the servers
  // under test need, more for the cheaper ones, and the comparison would not be fair.
  const missing = scenarios.some((scenario) => scenario.load) ? wrkMissing() : null;
  if (missing)
    throw new Error(
      `${missing}; refusing to run ${scenarios
        .filter((s) => s.load)
        .map((s) => s.name)
        .join(', ')} without it`,
    );
  const watchdog = setTimeout(() => {
    log(`watchdog: the run exceeded ${options.timeout} s; stopping`);
    killAll('SIGKILL');
    process.exit(2);
  }, options.timeout * 1000);
  watchdog.unref();
  const resultsDir = join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });

  const stand = await openStand(options, root, stamp);
  const bench = { stand, options, loadRun: loadRunner(stand), results: {}, log };
  /** @type {Array<[string, import('./scenarios/index.js').ScenarioResult]>} */
  const done = [];
  for (const scenario of scenarios) {
    log(`scenario ${scenario.name}`);
    const result = await scenario.run(bench);
    if (!result) continue;
    bench.results[scenario.name] = result.json;
    done.push([scenario.name, result]);
  }
  await stand.close();

  const problems = done.flatMap(([, result]) => result.problems ?? []);
  const tables = done.flatMap(([, result]) => (result.table ? [result.table(bench.results)] : []));
  const table = tables.join('\n\n');
  const resultFile = join(resultsDir, `bench-${stamp}.json`);
  writeFileSync(
    resultFile,
    `${JSON.stringify({ date: new Date().toISOString(), machine: stand.machine, options, ...bench.results, problems, table }, null, 2)}\n`,
  );
  process.stdout.write(`\n${table}\n\nResults: ${resultFile}\n`);
  if (options.profile) process.stdout.write(`CPU profiles: ${stand.profileDir}\n`);
  if (problems.length > 0) {
    process.stdout.write(`\nFAILED: ${problems.length} problem(s) under valid load:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => {
    killAll();
    process.exit(code);
  },
  (error) => {
    log(`harness failure: ${error.stack ?? error}`);
    killAll();
    process.exit(2);
  },
);
