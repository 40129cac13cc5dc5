import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * A query parameter as the query string gives it: absent, one plain value, or anything else (given
 * more than once, or under a bracketed name such as `name[a]`), kept as the query text that gave it.
 */
export type PlainQueryParameter =
  { kind: 'absent' } | { kind: 'value'; value: string } | { kind: 'malformed'; given: string; repeated: boolean };

/** Read from the URL itself: Express's query parser would drop or reshape what an answer must name. */
export function readPlainQueryParameter(url: string, name: string): PlainQueryParameter {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1).split('#')[0]! : '';
  const given = query
    .split('&')
    .map((pair) => {
      const separator = pair.indexOf('=');
      const [key, value] = separator < 0 ? [pair, ''] : [pair.slice(0, separator), pair.slice(separator + 1)];
      return { pair, name: decode(key), value: decode(value) };
    })
    .filter((parameter) => parameter.name === name || parameter.name.startsWith(`${name}[`));
  if (given.length === 0) return { kind: 'absent' };
  if (given.length === 1 && given[0]!.name === name) return { kind: 'value', value: given[0]!.value };
  return {
    kind: 'malformed',
    given: given.map(({ pair }) => pair).join('&'),
    repeated: given.every((parameter) => parameter.name === name),
  };
}

/** The named query parameter of the request, read by `readPlainQueryParameter`. */
export const PlainQuery = createParamDecorator((name: string, context: ExecutionContext): PlainQueryParameter =>
  readPlainQueryParameter(context.switchToHttp().getRequest<Request>().originalUrl, name),
);

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
