/** How many times a device sends one report while it is told to retry, before the test takes the 503 as its answer. */
const TRIES = 10;

/**
 * Sends one request after another until one is answered other than 503 (ten at most), as a device
 * sends again when told to retry; each answer is added to `answers` for the caller to check (a 503
 * among them must have stored nothing), the last one returned. On a loaded machine (load average 20
 * and more on two cores) a request sent as the pool opens its connections anew after an outage can
 * miss its database deadline by the time the machine gave the process no core: a 503 that says
 * nothing was stored, which is the service's right answer then.
 */
export async function sendUntilAnswered<T extends { status: number }>(send: () => Promise<T>, answers: T[]): Promise<T> {
  let answer: T;
  let tries = 0;
  do {
    answer = await send();
    answers.push(answer);
  } while (answer.status === 503 && ++tries < TRIES);
  return answer;
}
