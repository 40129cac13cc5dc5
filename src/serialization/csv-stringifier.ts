import { stringify, type Stringifier } from 'csv-stringify';

/**
 * The CSV of the list routes (docs/interface.md#csv): RFC 4180 (a header line, CRLF line ends, fields
 * quoted when they hold a comma, a quote or a line break, quotes doubled) and, as OWASP advises for
 * CSV injection, a text field starting with `=`, `+`, `-`, `@`, a tab or a carriage return (or their
 * fullwidth forms) prefixed with `'` so that a spreadsheet shows it rather than evaluating it. Numbers
 * are passed as numbers, so a negative one is left as it is; booleans are written 1 and 0, nulls empty.
 */
export function csvStringifier(columns: readonly string[]): Stringifier {
  return stringify({
    header: true,
    columns: [...columns],
    record_delimiter: 'windows',
    escape_formulas: true,
    cast: { boolean: (value) => (value ? '1' : '0') },
  });
}
