// @ts-check
// The machine's RSA-2048 signing rate, on one thread and on the thread pool, measured in the bench's
// own process while the servers are idle: each grant signs one access token, so this is the grants'
// ceiling (the tokens scenario's table reads its grants against it).
import { signingLine } from '../report.js';
import { signingRate } from '../signing-rate.js';

/** @type {import('./index.js').Scenario} */
export default {
  name: 'signing',
  about: "the machine's RSA-2048 signing rate, the grants' ceiling",
  withoutService: true,
  options: [{ name: 'signing-duration', env: 'BENCH_SIGNING_DURATION', default: 2, help: 'seconds per signing measurement; 0 skips' }],

  async run({ stand, options, log }) {
    if (options.signingDuration <= 0) return null;
    const signing = await signingRate(stand.privateKey, options.signingDuration);
    log(
      `RSA-2048 signatures/s: one thread ${signing.oneThread.toFixed(0)}, thread pool (${signing.threadPoolSize} threads) ${signing.threadPool.toFixed(0)}` +
        ` | process CPU ms/signature: one thread ${signing.cpuMsPerSignature.oneThread.toFixed(3)}, thread pool ${signing.cpuMsPerSignature.threadPool.toFixed(3)}`,
    );
    return { json: signing, table: () => signingLine(signing) };
  },
};
