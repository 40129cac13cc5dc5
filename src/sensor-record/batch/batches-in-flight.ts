import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { CanActivate, ExecutionContext, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiException } from '../../common/errors/api-exception.js';
import { APP_CONFIG } from '../../config/app-config.js';
import type { AppConfig } from '../../config/app-config.js';

/** 503 when every place for a batch is taken (docs/interface.md#batches-of-reports). */
export const BATCHES_BUSY_MESSAGE = 'Too many batches are being received at once; nothing was stored. Please retry.';
const BATCHES_BUSY_RETRY_AFTER = '1';

/**
 * The batches this instance holds at once, from the first byte of a body read to the last byte of its
 * answer. A batch of 1,000 submissions costs the heap up to about 20 MiB while it is parsed, validated and
 * stored, so their number, not only each one's size, bounds the memory batches take.
 */
@Injectable()
export class BatchesInFlight {
  private taken = 0;
  readonly limit: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.limit = config.batchesInFlight;
  }

  get inFlight(): number {
    return this.taken;
  }

  /** A place for one batch, or false when every place is taken; `release` gives it back (once). */
  tryTake(): (() => void) | false {
    if (this.taken >= this.limit) return false;
    this.taken++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.taken--;
    };
  }
}

const refused = new WeakSet<Request>();

/**
 * Takes a place for the batch before its body is read, and gives it back when the answer is sent or
 * the connection closes. Without a place the body is read off and dropped, not kept, and the request
 * goes on without it, so that the bearer guard answers first; BatchRoomGuard answers 503 after it.
 */
@Injectable()
export class BatchAdmissionMiddleware implements NestMiddleware {
  constructor(private readonly batches: BatchesInFlight) {}

  use(request: Request, response: Response, next: NextFunction): void {
    const release = this.batches.tryTake();
    if (release) {
      response.once('close', release);
      next();
      return;
    }
    refused.add(request);
    // Once the stream has ended, the body parser after this middleware leaves the request alone.
    if (request.readableEnded) return next();
    request.once('end', () => next());
    request.resume();
  }
}

/** 503 with Retry-After for a batch that found no place (after the bearer guard, before anything reads the body). */
@Injectable()
export class BatchRoomGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (refused.has(context.switchToHttp().getRequest<Request>())) {
      throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, BATCHES_BUSY_MESSAGE, { 'Retry-After': BATCHES_BUSY_RETRY_AFTER });
    }
    return true;
  }
}
