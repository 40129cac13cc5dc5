import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { PACKAGE_VERSION } from '../common/package/package-version.js';
import type { AppConfig } from '../config/app-config.js';

/** A bearer scheme other than the access token's, named by a feature's routes (`@ApiBearerAuth(name)`). */
export interface BearerScheme {
  name: string;
  options: Parameters<DocumentBuilder['addBearerAuth']>[0];
}

/**
 * Serves the OpenAPI 3 description generated from the controllers: `/api-docs` (browsable) and
 * `/api-docs-json`. The features that take other credentials than an access token describe them
 * (`schemes`), so that this module depends on none of them; `absent` names the paths the configuration
 * leaves unserved on this port (`/metrics` moved to METRICS_PORT), which the description then leaves out.
 */
export function setupOpenApi(
  app: INestApplication,
  config: AppConfig,
  schemes: readonly BearerScheme[] = [],
  absent: readonly string[] = [],
): void {
  const builder = new DocumentBuilder()
    .setTitle('Sensor record ingestion service')
    .setDescription(
      'Pest traps and bait stations report events through radio network servers. Obtain a bearer token from ' +
        'the OAuth 2.0 token endpoint, then submit each report as a sensor record.',
    )
    .setVersion(PACKAGE_VERSION)
    .addServer(config.baseUrl)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer');
  for (const { name, options } of schemes) builder.addBearerAuth(options, name);
  const document = SwaggerModule.createDocument(app, builder.build());
  for (const path of absent) delete document.paths[path];
  SwaggerModule.setup('api-docs', app, document, { jsonDocumentUrl: 'api-docs-json', raw: ['json'] });
}
