import { Controller, Get, HttpStatus, Inject, Logger, Param, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../auth/public.decorator.js';
import { TOKEN_PATH } from '../auth/token-endpoint/token.controller.js';
import { ApiException } from '../common/errors/api-exception.js';
import { noRouteMessage } from '../common/http/route-messages.js';
import { securityHeaderFields } from '../common/http/security-headers.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { Answer } from '../common/http/answer.js';
import { FleetPageDocs, FleetPageFileDocs, PAGE_NOT_BUILT_MESSAGE } from './fleet-page.api-docs.js';
import { FleetPageClient } from './fleet-page-client.js';
import { type ContentEncoding, PAGE_ASSETS_PATH, PageAssets, type PageFile } from './page-assets.js';

/**
 * The service's own headers with a stricter Content-Security-Policy for the page: nothing but the
 * service's own script, style sheet, icon and API (no inline script or style, no other origin),
 * and no framing.
 */
const PAGE_SECURITY_HEADERS = Object.fromEntries(
  securityHeaderFields({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
  }),
);

/**
 * The fleet page (docs/fleet-page.md): `GET /` and the files it loads. Open to anyone, as a sign-in
 * page must be; everything it shows comes from the API with the bearer token it obtains.
 */
@ApiTags('Fleet page')
@Public()
@Controller()
export class FleetPageController {
  private readonly assets: PageAssets | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig, client: FleetPageClient) {
    this.assets = PageAssets.load({ clientId: client.clientId, siteTimeZone: config.siteTimezone, tokenPath: `/${TOKEN_PATH}` });
    if (!this.assets) new Logger('FleetPage').warn(PAGE_NOT_BUILT_MESSAGE);
  }

  @Get()
  @FleetPageDocs()
  page(@Req() request: Request): Answer<Buffer> {
    if (!this.assets) throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, PAGE_NOT_BUILT_MESSAGE);
    // Revalidated on every visit: it names the current script and style sheet.
    return answer(request, this.assets.html, 'no-cache');
  }

  @Get(`${PAGE_ASSETS_PATH}/:name`)
  @FleetPageFileDocs()
  asset(@Param('name') name: string, @Req() request: Request): Answer<Buffer> {
    const file = this.assets?.file(name);
    if (!file) throw new ApiException(HttpStatus.NOT_FOUND, noRouteMessage(request.method, request.path));
    // The name carries the digest of the content: a browser may keep it as long as it likes.
    return answer(request, file, 'public, max-age=31536000, immutable');
  }
}

function answer(request: Request, file: PageFile, cacheControl: string): Answer<Buffer> {
  // Brotli whenever the browser takes it (every current one does): a third smaller than gzip here.
  const encoding: ContentEncoding = request.acceptsEncodings('br') ? 'br' : request.acceptsEncodings('gzip') ? 'gzip' : 'identity';
  const headers: Record<string, string> = {
    ...PAGE_SECURITY_HEADERS,
    'Content-Type': file.contentType,
    'Cache-Control': cacheControl,
    Vary: 'Accept-Encoding',
  };
  if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
  return new Answer(file.bytes(encoding), { headers });
}
