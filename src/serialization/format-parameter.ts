import { type PlainQueryParameter, readPlainQueryParameter } from '../common/query/plain-query-parameter.js';

/**
 * `_format` as the query string gives it: absent, one plain value, or anything else (given more than
 * once, or under a bracketed name such as `_format[a]`), kept as the query text that gave it.
 */
export type FormatParameter = PlainQueryParameter;

/** Read from the URL itself: Express's query parser would drop or reshape what the 406 must name. */
export function readFormatParameter(url: string): FormatParameter {
  return readPlainQueryParameter(url, '_format');
}
