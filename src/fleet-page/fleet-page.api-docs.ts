import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiResponse } from '@nestjs/swagger';
import { noRouteMessage } from '../common/http/route-messages.js';
import { ApiErrorResponse } from '../openapi/error-response.js';
import { PAGE_ASSETS_PATH } from './page-assets.js';

export const PAGE_NOT_BUILT_MESSAGE = 'The fleet page has not been built: run `npm run build`.';

export const FleetPageDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'The fleet page: every sensor of the signed-in user, in a browser (docs/fleet-page.md)',
      description: 'Signs in through the token endpoint as a public client and reads the sensor routes; open to anyone.',
    }),
    ApiProduces('text/html'),
    ApiResponse({ status: 200, description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } }),
    ApiErrorResponse(503, 'The service was compiled without the page.', PAGE_NOT_BUILT_MESSAGE),
  );

export const FleetPageFileDocs = () =>
  applyDecorators(
    ApiOperation({ summary: "One of the page's files: its script, style sheet or icon, named with a digest of its content" }),
    ApiParam({ name: 'name', example: 'app.29yp2lw5fdfh.js' }),
    ApiProduces('text/javascript', 'text/css', 'image/svg+xml'),
    ApiResponse({ status: 200, description: 'The file, brotli or gzip when the request takes them; kept by the browser for good.' }),
    ApiErrorResponse(404, 'No file of that name.', noRouteMessage('GET', `/${PAGE_ASSETS_PATH}/app.js`)),
  );
