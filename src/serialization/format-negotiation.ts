import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../common/errors/api-exception.js';
import { escapeCharacters } from '../common/text/control-characters.js';
import type { FormatParameter } from './format-parameter.js';
import { DEFAULT_RESPONSE_FORMAT, isResponseFormat, RESPONSE_FORMATS, ResponseFormat } from './response-format.js';

// A wildcard range picks what the service would answer for it: `*/*` and `application/*` the default,
// `text/*` the one text/ type there is.
const FORMAT_BY_MEDIA_RANGE: Readonly<Record<string, ResponseFormat>> = {
  'application/hal+json': 'hal_json',
  'application/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
  '*/*': DEFAULT_RESPONSE_FORMAT,
  'application/*': DEFAULT_RESPONSE_FORMAT,
  'text/*': 'xml',
};

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
  switch (formatParameter.kind) {
    case 'absent':
      return formatFromAccept(acceptHeader) ?? DEFAULT_RESPONSE_FORMAT;
    case 'value':
      if (isResponseFormat(formatParameter.value)) return formatParameter.value;
      throw unknownFormat(formatParameter.value);
    case 'malformed':
      throw unknownFormat(formatParameter.given);
  }
}

/**
 * The 406 text for a `_format` that names no format the route answers in; one line: control characters
 * in what the caller sent are shown escaped.
 */
export function unknownFormatMessage(shown: string, supported: readonly string[] = RESPONSE_FORMATS): string {
  const oneLine = escapeCharacters(shown, C0_AND_C1_CONTROLS);
  return `No route found for the specified format ${oneLine}. Supported formats: ${supported.join(', ')}.`;
}

/** For a route with one rendering: `_format` may be absent or name it; anything else answers the same 406. */
export function assertOnlyFormat(formatParameter: FormatParameter, only: ResponseFormat): void {
  if (formatParameter.kind === 'absent') return;
  if (formatParameter.kind === 'value' && formatParameter.value === only) return;
  const shown = formatParameter.kind === 'value' ? formatParameter.value : formatParameter.given;
  throw new ApiException(HttpStatus.NOT_ACCEPTABLE, unknownFormatMessage(shown, [only]));
}

function unknownFormat(shown: string): ApiException {
  return new ApiException(HttpStatus.NOT_ACCEPTABLE, unknownFormatMessage(shown));
}

/** The first known media range by quality, then by order of appearance; q=0 means "not this one". */
function formatFromAccept(header: string | undefined): ResponseFormat | undefined {
  if (!header) return undefined;
  const ranges = header
    .split(',')
    .map(parseMediaRange)
    .filter((range) => range.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.position - b.position);
  for (const range of ranges) {
    const format = FORMAT_BY_MEDIA_RANGE[range.type];
    if (format) return format;
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
