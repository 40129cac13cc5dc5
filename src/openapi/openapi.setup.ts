import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from '../config/app-config.js';

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
      .setVersion('1.0')
      .addServer(config.baseUrl)
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
      .build(),
  );
  SwaggerModule.setup('api-docs', app, document, { jsonDocumentUrl: 'api-docs-json', raw: ['json'] });
}
