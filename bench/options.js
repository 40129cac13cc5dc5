// @ts-check
// The options of `npm run bench`, each declared once: a flag (`--rounds 3` or `--rounds=3`), an
// environment variable, a default and a line of help. The runner's own are below; each scenario
// declares its own in its file (bench/scenarios/). `npm run bench -- --help` prints them all.

/**
 * @typedef {object} OptionDeclaration
 * @property {string} name       the flag without its dashes; the option's key is its camelCase form
 * @property {string} [env]      the environment variable read when the flag is absent
 * @property {'number' | 'text' | 'flag'} [kind]  number (non-negative) unless said otherwise
 * @property {number | string | boolean | null} [default]
 * @property {string} help
 */

/** @type {OptionDeclaration[]} */
export const RUNNER_OPTIONS = [
  {
    name: 'scenarios',
    env: 'BENCH_SCENARIOS',
    kind: 'text',
    default: null,
    help: 'what to run: scenario names, comma-separated (all, in order)',
  },
  { name: 'rounds', env: 'BENCH_ROUNDS', default: 3, help: 'alternating rounds per side of a load scenario' },
  { name: 'duration', env: 'BENCH_DURATION', default: 10, help: 'seconds per round and side' },
  { name: 'connections', env: 'BENCH_CONNECTIONS', default: 32, help: 'concurrent connections of the load' },
  { name: 'warmup', env: 'BENCH_WARMUP', default: 3, help: 'warm-up seconds per side, not in the figures' },
  {
    name: 'baseline',
    env: 'BENCH_BASELINE',
    kind: 'text',
    default: null,
    help: 'also build the service from this git revision and drive it beside this tree, on a database of its own',
  },
  {
    name: 'build',
    env: 'BENCH_BUILD',
    kind: 'flag',
    default: true,
    help: 'build dist/ first (--no-build or BENCH_BUILD=0: use it as it is)',
  },
  { name: 'profile', env: 'BENCH_PROFILE', kind: 'flag', default: false, help: 'CPU profiles of every server into bench/results/' },
  { name: 'floor-only', kind: 'flag', default: false, help: 'harness self-test: the bare floor alone on its own table' },
  { name: 'pool-size', env: 'BENCH_DB_POOL_SIZE', default: 10, help: 'database connections of each server' },
  { name: 'timeout', env: 'BENCH_TIMEOUT', default: 900, help: 'seconds after which the whole run stops' },
  { name: 'database-server', env: 'BENCH_DATABASE_SERVER', kind: 'text', default: 'mysql://root@127.0.0.1:3306', help: 'MariaDB server' },
  { name: 'database', env: 'BENCH_DATABASE', kind: 'text', default: 'sensor_records_bench', help: 'database, recreated every run' },
  { name: 'service-port', env: 'BENCH_SERVICE_PORT', default: 0, help: 'port of the service (0: a free one)' },
  { name: 'floor-port', env: 'BENCH_FLOOR_PORT', default: 0, help: 'port of the bare floor (0: a free one)' },
  { name: 'pipeline-floor-port', env: 'BENCH_PIPELINE_FLOOR_PORT', default: 0, help: 'port of the pipeline floor (0: a free one)' },
  { name: 'baseline-port', env: 'BENCH_BASELINE_PORT', default: 0, help: 'port of the baseline service (0: a free one)' },
  { name: 'site-timezone', env: 'SITE_TIMEZONE', kind: 'text', default: 'Pacific/Auckland', help: 'SITE_TIMEZONE of the servers' },
  { name: 'help', kind: 'flag', default: false, help: 'print the options and the scenarios, and stop' },
];

const camel = (name) => name.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());

/** The raw text of `--name value`, `--name=value`, or undefined. */
function flagText(argv, name) {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return argv[i].includes('=') ? argv[i].slice(argv[i].indexOf('=') + 1) : argv[i + 1];
}

/**
 * The values of `declarations` from the command line and the environment, keyed by camelCase name.
 * @param {OptionDeclaration[]} declarations
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} env
 * @returns {Record<string, any>}
 */
export function readOptions(declarations, argv, env) {
  /** @type {Record<string, any>} */
  const values = {};
  for (const option of declarations) {
    const kind = option.kind ?? 'number';
    const key = camel(option.name);
    if (kind === 'flag') {
      if (argv.includes(`--${option.name}`)) values[key] = true;
      else if (argv.includes(`--no-${option.name}`)) values[key] = false;
      else if (option.env && env[option.env] !== undefined && env[option.env] !== '') values[key] = env[option.env] !== '0';
      else values[key] = option.default;
      continue;
    }
    const raw = flagText(argv, option.name) ?? (option.env ? env[option.env] : undefined);
    if (raw === undefined || raw === '') {
      values[key] = option.default;
    } else if (kind === 'text') {
      values[key] = raw;
    } else {
      const n = Number(raw);
      if (!Number.isFinite(n) || n < 0) throw new Error(`--${option.name} must be a non-negative number, got ${raw}`);
      values[key] = n;
    }
  }
  return values;
}

/** Flags on the command line that no declaration knows (a typo would otherwise pass silently). */
export function unknownFlags(declarations, argv) {
  const known = new Set(declarations.flatMap((option) => [option.name, `no-${option.name}`]));
  return argv.filter((a) => a.startsWith('--')).filter((a) => !known.has(a.slice(2).split('=')[0]));
}

/** The help text of `declarations`. */
export function optionsHelp(declarations) {
  return declarations
    .map((option) => {
      const flag = `--${option.name}${option.kind === 'flag' ? '' : ' X'}`;
      const fallback = option.default === null || option.default === undefined ? '' : ` (${option.default})`;
      return `  ${flag.padEnd(28)}${(option.env ?? '').padEnd(26)}${option.help}${fallback}`;
    })
    .join('\n');
}
