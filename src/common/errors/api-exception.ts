import { HttpException } from '@nestjs/common';

/**
 * An error answer whose body is sent exactly as given (`{"message": …}` for a string) together
 * with any headers it needs (`Retry-After`, `Allow`, `WWW-Authenticate`).
 */
export class ApiException extends HttpException {
  constructor(
    status: number,
    body: string | Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'string' ? { message: body } : body, status);
  }
}
