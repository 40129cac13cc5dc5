// @ts-check
// The machine's RSA-2048 signing rate (RS256: RSASSA-PKCS1-v1_5 with SHA-256), the ceiling a grant
// rate is read against: every password or refresh grant signs one access token. Measured on one
// thread (synchronous node:crypto) and on libuv's thread pool (node:crypto's asynchronous sign, the
// way jose signs the service's tokens), in the benchmark's own process while nothing else of the
// benchmark runs.
import { createPrivateKey, sign } from 'node:crypto';

/** What the service signs: a JWT's header and claims, base64url-encoded (about 350 bytes). */
function signingInput() {
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: 'RS256', typ: 'JWT', kid: 'x'.repeat(43) };
  const claims = {
    scope: 'authenticated',
    iss: 'http://localhost:3000',
    aud: '5efa0119-0000-4000-8000-000000000000',
    sub: '1',
    jti: 'f'.repeat(64),
    iat: now,
    nbf: now,
    exp: now + 300,
  };
  return Buffer.from(`${encode(header)}.${encode(claims)}`);
}

/** The process's CPU milliseconds since `since` (a `process.cpuUsage()`), per signature. */
function cpuMsPer(since, signed) {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000 / Math.max(1, signed);
}

/**
 * Signatures per second with `privateKey` (PEM): on one thread, then on the thread pool with
 * `inFlight` signatures outstanding, each for `durationSec`; and the process's CPU per signature on
 * each, which says what handing the signature to the pool costs beyond the signature itself.
 */
export async function signingRate(privateKeyPem, durationSec, inFlight = 16) {
  // A key object, parsed once, as the service holds its key.
  const privateKey = createPrivateKey(privateKeyPem);
  const data = signingInput();
  const durationMs = durationSec * 1000;

  let signed = 0;
  let cpu = process.cpuUsage();
  let started = performance.now();
  while (performance.now() - started < durationMs) {
    sign('sha256', data, privateKey);
    signed++;
  }
  const oneThread = signed / ((performance.now() - started) / 1000);
  const oneThreadCpuMs = cpuMsPer(cpu, signed);

  signed = 0;
  cpu = process.cpuUsage();
  started = performance.now();
  const deadline = started + durationMs;
  /** @returns {Promise<void>} */
  const worker = () =>
    new Promise((resolve, reject) => {
      const next = () =>
        sign('sha256', data, privateKey, (error) => {
          if (error) return reject(error);
          signed++;
          if (performance.now() < deadline) next();
          else resolve();
        });
      next();
    });
  await Promise.all(Array.from({ length: inFlight }, worker));
  const threadPool = signed / ((performance.now() - started) / 1000);
  const threadPoolCpuMs = cpuMsPer(cpu, signed);

  return {
    oneThread,
    threadPool,
    cpuMsPerSignature: { oneThread: oneThreadCpuMs, threadPool: threadPoolCpuMs },
    threadPoolSize: Number(process.env.UV_THREADPOOL_SIZE ?? 4),
    inFlight,
  };
}
