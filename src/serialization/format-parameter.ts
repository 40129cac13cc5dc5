/**
 * `_format` as the query string gives it: absent, one plain value, or anything else (given more than
 * once, or under a bracketed name such as `_format[a]`), kept as the query text that gave it.
 */
export type FormatParameter = { kind: 'absent' } | { kind: 'value'; value: string } | { kind: 'malformed'; given: string };

/** Read from the URL itself: Express's query parser would drop or reshape what the 406 must name. */
export function readFormatParameter(url: string): FormatParameter {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1).split('#')[0]! : '';
  const given = query
    .split('&')
    .map((pair) => {
      const separator = pair.indexOf('=');
      const [name, value] = separator < 0 ? [pair, ''] : [pair.slice(0, separator), pair.slice(separator + 1)];
      return { pair, name: decode(name), value: decode(value) };
    })
    .filter(({ name }) => name === '_format' || name.startsWith('_format['));
  if (given.length === 0) return { kind: 'absent' };
  if (given.length === 1 && given[0]!.name === '_format') return { kind: 'value', value: given[0]!.value };
  return { kind: 'malformed', given: given.map(({ pair }) => pair).join('&') };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
