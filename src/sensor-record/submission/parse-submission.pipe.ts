import { Inject, Injectable, type PipeTransform } from '@nestjs/common';
import { ApiException } from '../../common/errors/api-exception.js';
import { APP_CONFIG } from '../../config/app-config.js';
import type { AppConfig } from '../../config/app-config.js';
import { isPlainObject } from '../validation/unwrap-member.js';
import { decodeBody, type RawSubmission } from './submission.decorators.js';

const JSON_MEDIA_TYPES = new Set(['application/hal+json', 'application/json']);

/** Content type, JSON syntax and the HAL type link, in Drupal's words (decisions §2, §6). */
@Injectable()
export class ParseSubmissionPipe implements PipeTransform<RawSubmission, Record<string, unknown>> {
  private readonly typeHref: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.typeHref = `${config.baseUrl}/rest/type/node/sensor_report`;
  }

  transform(submission: RawSubmission): Record<string, unknown> {
    assertJsonContentType(submission.contentType);
    const document = parseJson(decodeBody(submission.body));
    if (!isPlainObject(document)) throw new ApiException(422, 'The request body must be a JSON object.');
    const href = typeLink(document);
    if (href !== undefined && href !== this.typeHref) {
      const shown = typeof href === 'string' ? href : JSON.stringify(href);
      throw new ApiException(422, `Type ${shown} does not correspond to an entity on this site.`);
    }
    return document;
  }
}

function assertJsonContentType(header: string | undefined): void {
  if (!header?.trim()) throw new ApiException(415, 'No "Content-Type" request header specified');
  const mediaType = header.split(';')[0].trim().toLowerCase();
  if (!JSON_MEDIA_TYPES.has(mediaType)) throw new ApiException(415, `No route found that matches "Content-Type: ${header}"`);
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
