/**
 * The signed-in user's tokens, held in this module's memory only: never in localStorage,
 * sessionStorage, a cookie or a URL, so that they leave with the tab. The page is a public OAuth
 * client (it has no secret): it sends its client id with the password and refresh grants.
 */
import { duration } from './format';

interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/** A sign-in that did not work, with the sentence the page shows. */
export class SignInError extends Error {}

/** The session is over (refresh refused, or signed out): the page asks for the password again. */
class SessionEnded extends Error {}

/** Refresh this long before the access token expires, so that a request never carries an expired one. */
const REFRESH_MARGIN_MS = 30_000;
/** Times a refresh answered busy (503 or 429) or not at all is sent again, after its Retry-After, before signing out. */
const BUSY_RETRIES = 3;

export class Session {
  private tokens: { access: string; refresh: string } | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private refreshing: Promise<void> | undefined;
  private userName = '';

  constructor(
    private readonly clientId: string,
    private readonly tokenPath: string,
    /** Called when the session ends without the user signing out (the refresh token refused). */
    private readonly onEnded: (reason: string) => void,
  ) {}

  get signedIn(): boolean {
    return this.tokens !== undefined;
  }

  get user(): string {
    return this.userName;
  }

  async signIn(username: string, password: string): Promise<void> {
    const response = await this.grant({ grant_type: 'password', username, password });
    if (!response.ok) throw new SignInError(await signInFailure(response));
    this.userName = username.trim();
    this.keep((await response.json()) as TokenAnswer);
  }

  signOut(): void {
    clearTimeout(this.refreshTimer);
    this.tokens = undefined;
    this.refreshing = undefined;
    this.userName = '';
  }

  /** A GET of the API with the access token; one refresh and retry when the token is refused. */
  async get(path: string, accept = 'application/json'): Promise<Response> {
    const response = await this.send(path, accept);
    if (response.status !== 403) return response;
    await this.refresh();
    return this.send(path, accept);
  }

  private send(path: string, accept: string): Promise<Response> {
    if (!this.tokens) return Promise.reject(new SessionEnded('Not signed in.'));
    return fetch(path, {
      headers: { Authorization: `Bearer ${this.tokens.access}`, Accept: accept },
      credentials: 'omit',
      cache: 'no-store',
    });
  }

  /** One refresh at a time: requests that find the token refused together share it. */
  private refresh(): Promise<void> {
    this.refreshing ??= this.exchangeRefreshToken().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async exchangeRefreshToken(): Promise<void> {
    for (let retries = 0; ; retries++) {
      const refreshToken = this.tokens?.refresh;
      if (refreshToken === undefined) throw new SessionEnded('Not signed in.');
      // A network error is no answer: like a busy one, it leaves the refresh token usable.
      const response = await this.grant({ grant_type: 'refresh_token', refresh_token: refreshToken }).catch(() => null);
      // Signed out meanwhile: the answer is not kept.
      if (this.tokens?.refresh !== refreshToken) throw new SessionEnded('Signed out.');
      if (response?.ok) return this.keep((await response.json()) as TokenAnswer);
      const busy = response === null || response.status === 503 || response.status === 429;
      // A refresh refused for being busy leaves its token usable (docs/interface.md#refresh-tokens): asked again.
      if (busy && retries < BUSY_RETRIES) {
        await new Promise((resolve) => setTimeout(resolve, retryAfterMs(response)));
        continue;
      }
      const reason = busy ? 'The service is busy.' : 'Your session has ended.';
      this.signOut();
      this.onEnded(`${reason} Please sign in again.`);
      throw new SessionEnded(reason);
    }
  }

  private keep(answer: TokenAnswer): void {
    this.tokens = { access: answer.access_token, refresh: answer.refresh_token };
    clearTimeout(this.refreshTimer);
    const inMs = Math.max(5_000, answer.expires_in * 1000 - REFRESH_MARGIN_MS);
    this.refreshTimer = setTimeout(() => void this.refresh().catch(() => undefined), inMs);
  }

  private grant(fields: Record<string, string>): Promise<Response> {
    return fetch(this.tokenPath, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, client_id: this.clientId }),
      credentials: 'omit',
      cache: 'no-store',
    });
  }
}

/** The answer's Retry-After in seconds (the service sends seconds, never a date), or null without one. */
function retryAfterSeconds(response: Response | null): number | null {
  const seconds = Number(response?.headers.get('Retry-After') ?? NaN);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/** How long to wait before asking again: the answer's Retry-After within 1 to 30 s; 5 s without one. */
function retryAfterMs(response: Response | null): number {
  return Math.min(30, Math.max(1, retryAfterSeconds(response) ?? 5)) * 1000;
}

/** The sentence for a refused password grant (docs/interface.md#errors-of-the-token-endpoint). */
async function signInFailure(response: Response): Promise<string> {
  const body = (await response.json().catch(() => ({}))) as { error?: string; error_description?: string };
  if (response.status === 400 && body.error === 'invalid_grant') return 'The user name or password is wrong.';
  if (response.status === 400) return 'Enter a user name and a password.';
  if (response.status === 429) {
    const seconds = retryAfterSeconds(response);
    const wait = seconds === null ? ' Try again later.' : ` Try again in ${duration(Math.ceil(seconds / 60) * 60_000)}.`;
    // The name's limit says "account"; unlike the address's, an administrator can lift it (user:unblock).
    if (body.error_description?.includes('account'))
      return `Too many failed sign-ins for this name.${wait} An administrator can unblock it sooner.`;
    return `Too many failed sign-ins from this network.${wait}`;
  }
  if (response.status === 401) return 'This page is not registered with the service (its client is unknown).';
  if (response.status === 503) return 'The service is busy. Try again shortly.';
  return `Signing in failed (HTTP ${response.status}).`;
}
