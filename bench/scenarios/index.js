// @ts-check
// The scenarios of `npm run bench`, in the order they run. A scenario is a file of its own in this
// folder whose default export is a `Scenario` (below); adding one is that file and one line here.
// `--scenarios a,b` runs a subset (in this order); without it every scenario runs.
import alerts from './alerts.js';
import burst from './burst.js';
import fleetPage from './fleet-page.js';
import ingest from './ingest.js';
import purge from './purge.js';
import readSide from './read-side.js';
import signing from './signing.js';
import targets from './targets.js';
import tokens from './tokens.js';
import uplinks from './uplinks.js';

/**
 * What a scenario gets: the stand (the database, the service, on demand the floors and the baseline),
 * every option (the runner's and every scenario's, by camelCase name), a function running one
 * measured load run, and the results of the scenarios that ran before it.
 * @typedef {object} BenchContext
 * @property {import('../stand.js').Stand} stand
 * @property {Record<string, any>} options
 * @property {ReturnType<typeof import('../load-run.js').loadRunner>} loadRun
 * @property {Record<string, any>} results  earlier scenarios' `json`, by scenario name
 * @property {(message: string) => void} log
 */

/**
 * What a scenario gives back: its figures for the results file, the problems that fail the run (a
 * record lost or extra, an error answer under valid load), and, once every scenario has run, its
 * markdown table (given all results, so that it can quote what ran after it).
 * @typedef {object} ScenarioResult
 * @property {unknown} json
 * @property {string[]} [problems]
 * @property {(results: Record<string, any>) => string} [table]
 */

/**
 * @typedef {object} Scenario
 * @property {string} name    what `--scenarios` calls it
 * @property {string} about   one line for `--help`
 * @property {import('../options.js').OptionDeclaration[]} [options]
 * @property {boolean} [withoutService]  runs in `--floor-only` mode too (the harness self-test)
 * @property {boolean} [load]  drives HTTP load (with wrk, which the run then requires)
 * @property {(bench: BenchContext) => Promise<ScenarioResult | null>} run  null: nothing to measure (e.g. a duration of 0)
 */

/** @type {Scenario[]} */
export const SCENARIOS = [ingest, uplinks, tokens, burst, signing, readSide, fleetPage, purge, alerts, targets];
