import { Answer } from '../../common/http/answer.js';

/** The success body, members in the order league/oauth2-server writes them. */
export interface TokenResponse {
  token_type: 'Bearer';
  expires_in: number;
  access_token: string;
  refresh_token: string;
}

/**
 * The success answer as its bytes, with the Content-Type Express's `res.json` gives the endpoint's
 * errors (docs/interface.md#response-formats). `res.json` would also hash the body for an ETag, which
 * the answer to a POST never needs (docs/benchmark.md#refresh-grants-where-the-rest-goes).
 */
export function tokenAnswer(response: TokenResponse): Answer<Buffer> {
  return new Answer(Buffer.from(JSON.stringify(response), 'utf8'), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}
