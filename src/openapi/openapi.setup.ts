import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import type { AppConfig } from '../config/app-config.js';
import { INTEGRATION_KEY_BYTES } from '../integrations/admin/integrations.service.js';

/** The version the package declares (package.json sits two levels up from src/openapi and dist/openapi alike). */
const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Serves the OpenAPI 3 description generated from the controllers: `/api-docs` (browsable) and `/api-docs-json`. */
export function setupOpenApi(app: INestApplication, config: AppConfig): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Sensor record ingestion service')
      .setDescription(
        'Pest traps and bait stations report events through radio network servers. Obtain a bearer token from ' +
          'the OAuth 2.0 token endpoint, then submit each report as a sensor record.',
      )
      .setVersion(packageVersion)
      .addServer(config.baseUrl)
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
      .addBearerAuth(
        {
          type: 'http',
          scheme: 'bearer',
          // Swagger's default says JWT; an integration key is an opaque string.
          bearerFormat: undefined,
          description:
            'An integration key from `integration:create`, for the network-server routes: an opaque string, ' +
            `${INTEGRATION_KEY_BYTES} random bytes in base64url (${Math.ceil((INTEGRATION_KEY_BYTES * 4) / 3)} characters).`,
        },
        'integration-key',
      )
      .build(),
  );
  SwaggerModule.setup('api-docs', app, document, { jsonDocumentUrl: 'api-docs-json', raw: ['json'] });
}
