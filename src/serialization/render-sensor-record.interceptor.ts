import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, UseInterceptors } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import etag from 'etag';
import { negotiateFormat } from './format-negotiation.js';
import { readFormatParameter } from './format-parameter.js';
import type { SensorRecordModel } from './sensor-record.model.js';
import { SerializationService } from './serialization.service.js';

/**
 * Turns the `SensorRecordModel` a read returns into its answer in the negotiated format. The format
 * is chosen before the handler runs, so an unknown `_format` is refused (406) before anything is
 * read. The body goes out as one Buffer (docs/development.md#how-a-route-answers), so the
 * Content-Type is the format's own, without a charset added, and no stream is made per answer. It
 * carries the ETag Express computes for the same bytes, and a conditional GET that matches it is
 * answered 304. (A submission's answer carries none, `SerializationService.submissionAnswer`: no
 * request is conditional on a record that did not exist, and hashing each answer is work on the
 * ingestion path.)
 */
@Injectable()
class RenderSensorRecordInterceptor implements NestInterceptor<SensorRecordModel, Buffer | undefined> {
  constructor(private readonly serialization: SerializationService) {}

  intercept(context: ExecutionContext, next: CallHandler<SensorRecordModel>): Observable<Buffer | undefined> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const format = negotiateFormat(readFormatParameter(request.originalUrl), request.headers.accept);
    return next.handle().pipe(
      map((record) => {
        const response = http.getResponse<Response>();
        const rendered = this.serialization.render(record, format);
        const body = Buffer.from(rendered.body, 'utf8');
        response.setHeader('Content-Type', rendered.contentType);
        // Express's own ETag (its default setting, weak), from the package Express computes it with.
        response.setHeader('ETag', etag(body, { weak: true }));
        // A GET whose If-None-Match names this ETag: no body, and Express's send() answers 304 as before.
        if (request.fresh) return undefined;
        return body;
      }),
    );
  }
}

/** The route answers with the sensor record it returns, rendered in the negotiated format, with its ETag. */
export const RenderSensorRecord = () => UseInterceptors(RenderSensorRecordInterceptor);
