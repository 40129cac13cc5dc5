import { Controller, Get, HttpStatus, Param, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiException } from '../../common/errors/api-exception.js';
import { noRouteMessage } from '../../common/http/route-messages.js';
import { Answer } from '../../common/http/answer.js';
import { negotiateFormat } from '../../serialization/format-negotiation.js';
import { readFormatParameter } from '../../serialization/format-parameter.js';
import { SerializationService } from '../../serialization/serialization.service.js';
import { Authenticated } from '../authenticated.decorator.js';
import type { AuthenticatedUser } from '../authenticated-user.js';
import { CurrentUser } from '../current-user.decorator.js';
import { ReadUserDocs } from './user.api-docs.js';
import { USER_NOT_FOUND_MESSAGE, USER_VIEW_DENIED_MESSAGE } from './user.messages.js';
import { UsersService } from './users.service.js';

/**
 * Drupal's user route, for the caller's own account: where a record's `uid` and `revision_uid` links
 * lead (docs/interface.md#users). The format follows the record route's rules: `_format`, then
 * Accept, else hal_json; an unknown one is 406 before anything is read.
 */
@Controller()
export class UserController {
  constructor(
    private readonly users: UsersService,
    private readonly serialization: SerializationService,
  ) {}

  @Get('user/:uid')
  @ReadUserDocs()
  @Authenticated({ deniedMessage: USER_VIEW_DENIED_MESSAGE })
  async show(
    @Param('uid') uidParameter: string,
    @CurrentUser() caller: AuthenticatedUser,
    @Req() request: Request,
  ): Promise<Answer<Buffer>> {
    const format = negotiateFormat(readFormatParameter(request.originalUrl), request.headers.accept);
    // Drupal's user route only matches digits; anything else is no route at all.
    if (!/^\d+$/.test(uidParameter)) throw new ApiException(HttpStatus.NOT_FOUND, noRouteMessage(request.method, request.path));
    const uid = Number(uidParameter);
    const user = Number.isSafeInteger(uid) ? await this.users.findByUid(uid) : null;
    if (!user) throw new ApiException(HttpStatus.NOT_FOUND, USER_NOT_FOUND_MESSAGE);
    if (user.uid !== caller.uid) throw new ApiException(HttpStatus.FORBIDDEN, USER_VIEW_DENIED_MESSAGE);
    const rendered = this.serialization.renderUser(user, format);
    return new Answer(Buffer.from(rendered.body, 'utf8'), { headers: { 'Content-Type': rendered.contentType } });
  }
}
