/**
 * What asking for a round while one runs does: `once-more` runs another as soon as it ends (work may
 * have come that the round in progress missed), however many asked; `join` answers with the round in
 * progress (its result is as fresh as the asker needs).
 */
type WhileRunning = 'once-more' | 'join';

interface Settle<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export interface RoundLoopOptions {
  whileRunning: WhileRunning;
  /** Told of each round that failed; the next ask runs a round all the same. */
  failed: (error: unknown) => void;
}

/**
 * A piece of background work run in rounds, now or on a schedule, never two at once; stopped on
 * shutdown, waiting for the round in flight, before the database pool closes. Its timers are never
 * the reason the process stays up.
 */
export class RoundLoop<T = void> {
  private inFlight?: Promise<T>;
  /** The round asked for to run once the one in flight ends (`once-more`). */
  private queued?: { promise: Promise<T> } & Settle<T>;
  private scheduled?: NodeJS.Timeout;
  private extra?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly round: () => Promise<T>,
    private readonly options: RoundLoopOptions,
  ) {}

  /** Whether stop() was called: a round in flight ends early where it can. */
  get stopping(): boolean {
    return this.stopped;
  }

  /** A round every `everyMs`, the first `firstAfterMs` from now. */
  start(everyMs: number, firstAfterMs = everyMs): void {
    if (this.stopped) return;
    this.scheduled = setTimeout(() => {
      this.start(everyMs);
      this.wake();
    }, firstAfterMs);
    this.scheduled.unref();
  }

  /** One round more `inMs` from now, in place of the one asked for before; none when undefined. */
  wakeIn(inMs: number | undefined): void {
    clearTimeout(this.extra);
    this.extra = undefined;
    if (this.stopped || inMs === undefined) return;
    this.extra = setTimeout(() => this.wake(), inMs);
    this.extra.unref();
  }

  /** As run(), for an asker that does not wait: a failure is the `failed` option's to tell. */
  wake(): void {
    if (!this.stopped) this.run().catch(() => undefined);
  }

  /** A round now, or while one runs as `whileRunning` says; answers with that round's result. */
  run(): Promise<T> {
    if (this.stopped) return Promise.reject(new Error('The rounds have stopped'));
    if (this.inFlight === undefined) return this.begin();
    if (this.options.whileRunning === 'join') return this.inFlight;
    if (this.queued === undefined) {
      let settle!: Settle<T>;
      const promise = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
      this.queued = { promise, ...settle };
    }
    return this.queued.promise;
  }

  /** No round begins from now on; answers once the one in flight has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.scheduled);
    this.wakeIn(undefined);
    await this.inFlight?.catch(() => undefined);
  }

  private begin(): Promise<T> {
    // Begun synchronously, so that the round's first query leaves at once.
    const round = (async () => this.round())();
    this.inFlight = round;
    void round.catch((error: unknown) => this.options.failed(error)).then(() => this.ended());
    return round;
  }

  /** The round in flight has ended: the one asked for meanwhile begins in the same step, so never two at once. */
  private ended(): void {
    this.inFlight = undefined;
    const queued = this.queued;
    this.queued = undefined;
    if (queued === undefined) return;
    if (this.stopped) queued.reject(new Error('The rounds have stopped'));
    else this.begin().then(queued.resolve, queued.reject);
  }
}
