// @ts-check
// Submissions while a refresh burst runs against their rate alone, in alternating runs (alone, during,
// alone, during): the token endpoint must not starve ingestion.
import { median, burstTable } from '../report.js';
import { refreshChains, tokenRun } from '../token-load.js';

/** @type {import('./index.js').Scenario} */
export default {
  name: 'burst',
  load: true,
  about: 'submissions alone and during a burst of refresh grants (uses --token-duration, --token-concurrency)',

  async run({ stand, options, loadRun, log }) {
    const service = stand.service;
    if (!service || options.tokenDuration <= 0) return null;
    const alone = [];
    const during = [];
    const grants = [];
    const problems = [];
    const submissions = { server: service, connections: options.connections, durationSec: options.tokenDuration };
    for (let round = 1; round <= 2; round++) {
      const aloneRun = await loadRun({ ...submissions, round, label: 'service alone' });
      alone.push(aloneRun.requestsPerSec);
      const chains = await refreshChains(service.url, service.credentials, options.tokenConcurrency);
      const [duringRun, refreshes] = await Promise.all([
        loadRun({ ...submissions, round, label: 'service during a refresh burst' }),
        tokenRun({
          baseUrl: service.url,
          kind: 'refresh',
          credentials: service.credentials,
          concurrency: options.tokenConcurrency,
          durationSec: options.tokenDuration,
          chains,
        }),
      ]);
      during.push(duringRun.requestsPerSec);
      grants.push(refreshes.grantsPerSec);
      problems.push(...aloneRun.problems, ...duringRun.problems);
      if (refreshes.failed > 0)
        problems.push(`refresh burst round ${round}: ${refreshes.failed} failed grant(s) ${JSON.stringify(refreshes.statusCodes)}`);
      log(
        `refresh burst round ${round}: ${refreshes.grantsPerSec.toFixed(0)} grants/s beside ${duringRun.requestsPerSec.toFixed(0)} submissions/s`,
      );
    }
    const burst = {
      aloneRecordsPerSec: median(alone),
      duringRecordsPerSec: median(during),
      ratio: median(during) / median(alone),
      grantsPerSec: median(grants),
      durationSec: options.tokenDuration,
    };
    return { json: burst, problems, table: () => burstTable({ config: options, burst }).join('\n') };
  },
};
