import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../common/errors/api-exception.js';
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

interface MediaRange {
  type: string;
  quality: number;
  position: number;
}

/** `_format` first (an unknown one answers 406, as Drupal's router does), then Accept, else hal_json. */
export function negotiateFormat(formatParameter: unknown, acceptHeader: string | undefined): ResponseFormat {
  if (formatParameter !== undefined) {
    if (isResponseFormat(formatParameter)) return formatParameter;
    throw new ApiException(
      HttpStatus.NOT_ACCEPTABLE,
      `No route found for the specified format ${describe(formatParameter)}.\nSupported formats: ${RESPONSE_FORMATS.join(', ')}.`,
    );
  }
  return formatFromAccept(acceptHeader) ?? DEFAULT_RESPONSE_FORMAT;
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

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((item) => describe(item)).join(',');
  return JSON.stringify(value) ?? String(value);
}
