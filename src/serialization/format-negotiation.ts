import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../common/errors/api-exception.js';
import { escapeCharacters } from '../common/text/control-characters.js';
import type { FormatParameter } from './format-parameter.js';
import { DEFAULT_RESPONSE_FORMAT, RESPONSE_FORMATS, type ResponseFormat } from './response-format.js';

// The formats each media range asks for, in preference; a route answers with the first it serves.
// A wildcard picks what the route would answer for it: `*/*` and `application/*` its default,
// `text/*` a text/ type.
const FORMATS_BY_MEDIA_RANGE: Readonly<Record<string, readonly string[]>> = {
  'application/hal+json': ['hal_json'],
  'application/json': ['json'],
  'application/xml': ['xml'],
  'text/xml': ['xml'],
  'text/csv': ['csv'],
  'text/*': ['xml', 'csv'],
};
const DEFAULT_RANGES = new Set(['*/*', 'application/*']);

// eslint-disable-next-line no-control-regex -- escaping control characters is the point
const C0_AND_C1_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;

interface MediaRange {
  type: string;
  quality: number;
  position: number;
}

/**
 * `_format` first (an unknown one answers 406, as Drupal's router does, and so does a `_format` that is
 * not one plain value), then Accept, else hal_json.
 */
export function negotiateFormat(formatParameter: FormatParameter, acceptHeader: string | undefined): ResponseFormat {
  return negotiateFormatAmong(formatParameter, acceptHeader, RESPONSE_FORMATS, DEFAULT_RESPONSE_FORMAT);
}

/** The same rules for a route that serves the formats `supported`, `fallback` among them. */
export function negotiateFormatAmong<F extends string>(
  formatParameter: FormatParameter,
  acceptHeader: string | undefined,
  supported: readonly F[],
  fallback: F,
): F {
  switch (formatParameter.kind) {
    case 'absent':
      return formatFromAccept(acceptHeader, supported, fallback) ?? fallback;
    case 'value':
      if ((supported as readonly string[]).includes(formatParameter.value)) return formatParameter.value as F;
      throw unknownFormat(formatParameter.value, supported);
    case 'malformed':
      throw unreadableFormat(formatParameter, supported);
  }
}

/**
 * The 406 text for a `_format` that names no format the route answers in; one line: control characters
 * in what the caller sent are shown escaped.
 */
export function unknownFormatMessage(shown: string, supported: readonly string[] = RESPONSE_FORMATS): string {
  const oneLine = escapeCharacters(shown, C0_AND_C1_CONTROLS);
  return `No route found for the specified format ${oneLine}. Supported formats: ${[...supported].sort().join(', ')}.`;
}

/** For a route with one rendering: `_format` may be absent or name it; anything else answers the same 406. */
export function assertOnlyFormat(formatParameter: FormatParameter, only: ResponseFormat): void {
  if (formatParameter.kind === 'absent') return;
  if (formatParameter.kind === 'value' && formatParameter.value === only) return;
  if (formatParameter.kind === 'malformed') throw unreadableFormat(formatParameter, [only]);
  throw unknownFormat(formatParameter.value, [only]);
}

function unknownFormat(shown: string, supported: readonly string[]): ApiException {
  return new ApiException(HttpStatus.NOT_ACCEPTABLE, unknownFormatMessage(shown, supported));
}

/**
 * A `_format` given more than once, or under a bracketed name (`_format[]=json`), names no one format:
 * said so, naming the parameter as given, rather than echoed as one unknown format.
 */
function unreadableFormat(formatParameter: Extract<FormatParameter, { kind: 'malformed' }>, supported: readonly string[]): ApiException {
  const oneLine = escapeCharacters(formatParameter.given, C0_AND_C1_CONTROLS);
  const problem = formatParameter.repeated ? 'is given more than once' : 'is given with brackets';
  const remedy = formatParameter.repeated ? 'give one format' : 'give one format as _format=<format>';
  return new ApiException(
    HttpStatus.NOT_ACCEPTABLE,
    `_format ${problem} (${oneLine}): ${remedy}. Supported formats: ${[...supported].sort().join(', ')}.`,
  );
}

/**
 * The first media range the route serves, by quality, then by order of appearance; q=0 means "not this one".
 * Not negotiator's: on equal quality it ranks the more specific range first (`*\/*, application/json`
 * would answer json), where Drupal keeps the header's order (hal_json).
 */
function formatFromAccept<F extends string>(header: string | undefined, supported: readonly F[], fallback: F): F | undefined {
  if (!header) return undefined;
  const ranges = header
    .split(',')
    .map(parseMediaRange)
    .filter((range) => range.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.position - b.position);
  for (const range of ranges) {
    if (DEFAULT_RANGES.has(range.type)) return fallback;
    const format = FORMATS_BY_MEDIA_RANGE[range.type]?.find((candidate) => (supported as readonly string[]).includes(candidate));
    if (format) return format as F;
  }
  return undefined;
}

function parseMediaRange(text: string, position: number): MediaRange {
  const [type, ...parameters] = text.split(';').map((part) => part.trim().toLowerCase());
  const q = parameters.find((parameter) => /^q\s*=/.test(parameter));
  // A malformed quality makes the range lose rather than win.
  const quality = q === undefined ? 1 : Number(q.slice(q.indexOf('=') + 1).trim()) || 0;
  return { type: type ?? '', quality: Math.min(quality, 1), position };
}
