import { parse as parseContentType } from 'content-type';
import { ApiException } from '../../common/errors/api-exception.js';
import { bodyTooLargeMessage } from '../../common/http/route-messages.js';
import { isPlainObject } from '../validation/unwrap-member.js';
import { parseWithExactNumbers } from './exact-numbers.js';
import { exceedsNesting } from './nesting-depth.js';
import type { RawSubmission } from './submission.decorators.js';

// The checks of a submitted body that come before its members (docs/interface.md#order-of-checks),
// shared by the route for one submission and the route for a batch of them.

const JSON_MEDIA_TYPES = new Set(['application/hal+json', 'application/json']);
const UTF8_CHARSETS = new Set(['utf-8', 'utf8']);

/**
 * Containers inside containers a submission may hold: the deepest legitimate member,
 * `metadata.gateways[0].rssi[0].value`, is 6 deep. Deeper documents would reach class-transformer,
 * which walks them recursively.
 */
export const MAX_NESTING_DEPTH = 16;

/** 415 for a Content-Type other than JSON's (Drupal's router text). */
export const unsupportedContentTypeMessage = (header: string) => `No route found that matches "Content-Type: ${header}"`;

/**
 * 422 for a `_links.type.href` that names another type: Drupal's HAL denormalizer text, then the href
 * expected, since an example written for another address (another PORT or BASE_URL) meets it first.
 */
export const unknownTypeLinkMessage = (href: string, expected: string) =>
  `Type ${href} does not correspond to an entity on this site. The sensor_report type here is ${expected} (BASE_URL sets its address).`;

/**
 * The body as bytes, then as JSON: its size (`sizeLimit` names the limit), content type (one of
 * `mediaTypes`) and character set, UTF-8, syntax.
 */
export function readJsonBody(submission: RawSubmission, sizeLimit: string, mediaTypes: ReadonlySet<string> = JSON_MEDIA_TYPES): unknown {
  if (submission.tooLarge) throw new ApiException(413, bodyTooLargeMessage(sizeLimit));
  assertJsonContentType(submission.contentType, mediaTypes);
  // PHP's json_decode() message, as Drupal answers it.
  if (submission.text === undefined) throw new ApiException(422, 'Malformed UTF-8 characters, possibly incorrectly encoded');
  try {
    return parseWithExactNumbers(submission.text);
  } catch {
    throw new ApiException(422, 'Syntax error');
  }
}

/** As readJsonBody, and then a JSON object nested no deeper than MAX_NESTING_DEPTH. */
export function readJsonObject(
  submission: RawSubmission,
  sizeLimit: string,
  mediaTypes: ReadonlySet<string> = JSON_MEDIA_TYPES,
): Record<string, unknown> {
  const document = readJsonBody(submission, sizeLimit, mediaTypes);
  if (exceedsNesting(document, MAX_NESTING_DEPTH)) {
    throw new ApiException(422, `The request body is nested deeper than ${MAX_NESTING_DEPTH} levels.`);
  }
  if (!isPlainObject(document)) throw new ApiException(422, 'The request body must be a JSON object.');
  return document;
}

/**
 * The submission's type link as the 422 shows it, when `_links` is present and does not link to
 * `typeHref`: another `_links.type.href`, or `_links` or its `type` not shaped as HAL's, as JSON.
 */
export function foreignTypeLink(submission: Record<string, unknown>, typeHref: string): string | undefined {
  const links = submission._links;
  if (links === undefined) return undefined;
  if (!isPlainObject(links)) return JSON.stringify(links);
  const type = links.type;
  if (type === undefined) return undefined;
  const href = isPlainObject(type) ? type.href : undefined;
  if (href === typeHref) return undefined;
  if (href === undefined) return JSON.stringify(type);
  return typeof href === 'string' ? href : JSON.stringify(href);
}

/**
 * The media type of a Content-Type header, lower-cased, and its charset parameter; undefined when there
 * is no header or RFC 9110 §8.3 cannot read it (content-type parses it).
 */
export function mediaTypeOf(header: string | undefined): { type: string; charset?: string } | undefined {
  if (header === undefined) return undefined;
  try {
    const { type, parameters } = parseContentType(header);
    return { type, charset: parameters.charset };
  } catch {
    return undefined;
  }
}

function assertJsonContentType(header: string | undefined, mediaTypes: ReadonlySet<string>): void {
  if (!header?.trim()) throw new ApiException(415, 'No "Content-Type" request header specified');
  const parsed = mediaTypeOf(header);
  if (!parsed || !mediaTypes.has(parsed.type)) throw new ApiException(415, unsupportedContentTypeMessage(header));
  if (parsed.charset !== undefined && !UTF8_CHARSETS.has(parsed.charset.toLowerCase())) {
    throw new ApiException(415, `The request body must be UTF-8 JSON; charset "${parsed.charset}" is not supported.`);
  }
}
