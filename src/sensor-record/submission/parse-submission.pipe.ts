import { Inject, Injectable, type PipeTransform } from '@nestjs/common';
import { ApiException } from '../../common/errors/api-exception.js';
import { BODY_TOO_LARGE_MESSAGE } from '../../common/http/route-messages.js';
import { APP_CONFIG } from '../../config/app-config.js';
import type { AppConfig } from '../../config/app-config.js';
import { sensorRecordTypeHref } from '../../serialization/hal-links.js';
import { isPlainObject } from '../validation/unwrap-member.js';
import { exceedsNesting } from './nesting-depth.js';
import type { RawSubmission } from './submission.decorators.js';

const JSON_MEDIA_TYPES = new Set(['application/hal+json', 'application/json']);
const UTF8_CHARSETS = new Set(['utf-8', 'utf8']);

/**
 * Containers inside containers a body may hold: the deepest legitimate member,
 * `metadata.gateways[0].rssi[0].value`, is 6 deep. Deeper documents would reach class-transformer,
 * which walks them recursively.
 */
export const MAX_NESTING_DEPTH = 16;

/** Size, content type, character set, JSON syntax, nesting and the HAL type link, in Drupal's words where it has them. */
@Injectable()
export class ParseSubmissionPipe implements PipeTransform<RawSubmission, Record<string, unknown>> {
  private readonly typeHref: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.typeHref = sensorRecordTypeHref(config.baseUrl);
  }

  transform(submission: RawSubmission): Record<string, unknown> {
    if (submission.tooLarge) throw new ApiException(413, BODY_TOO_LARGE_MESSAGE);
    assertJsonContentType(submission.contentType);
    // PHP's json_decode() message, as Drupal answers it.
    if (submission.text === undefined) throw new ApiException(422, 'Malformed UTF-8 characters, possibly incorrectly encoded');
    const document = parseJson(submission.text);
    if (exceedsNesting(document, MAX_NESTING_DEPTH)) {
      throw new ApiException(422, `The request body is nested deeper than ${MAX_NESTING_DEPTH} levels.`);
    }
    if (!isPlainObject(document)) throw new ApiException(422, 'The request body must be a JSON object.');
    const href = typeLink(document);
    if (href !== undefined && href !== this.typeHref) {
      const shown = typeof href === 'string' ? href : JSON.stringify(href);
      throw new ApiException(422, unknownTypeLinkMessage(shown));
    }
    return document;
  }
}

/** 415 for a Content-Type other than JSON's (Drupal's router text). */
export const unsupportedContentTypeMessage = (header: string) => `No route found that matches "Content-Type: ${header}"`;

/** 422 for a `_links.type.href` that names another type (Drupal's HAL denormalizer text). */
export const unknownTypeLinkMessage = (href: string) => `Type ${href} does not correspond to an entity on this site.`;

function assertJsonContentType(header: string | undefined): void {
  if (!header?.trim()) throw new ApiException(415, 'No "Content-Type" request header specified');
  const [mediaType, ...parameters] = header.split(';').map((part) => part.trim());
  if (!JSON_MEDIA_TYPES.has(mediaType!.toLowerCase())) throw new ApiException(415, unsupportedContentTypeMessage(header));
  const charset = parameters.find((parameter) => /^charset\s*=/i.test(parameter));
  const name = charset
    ?.slice(charset.indexOf('=') + 1)
    .trim()
    .replace(/^"(.*)"$/, '$1');
  if (name !== undefined && !UTF8_CHARSETS.has(name.toLowerCase())) {
    throw new ApiException(415, `The request body must be UTF-8 JSON; charset "${name}" is not supported.`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiException(422, 'Syntax error');
  }
}

function typeLink(document: Record<string, unknown>): unknown {
  const links = document._links;
  const type = isPlainObject(links) ? links.type : undefined;
  return isPlainObject(type) ? type.href : undefined;
}
