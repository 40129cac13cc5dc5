// @ts-check
// The pipeline floor: the least this design can do per submission, as the benchmark's second
// denominator. A Nest application with the mandated pieces and nothing else: platform-express with
// Nest's JSON body parser, a global Passport bearer guard (passport-http-bearer) whose strategy checks
// the RS256 token through the service's own VerifiedTokenCache, the service's class-validator pipe
// for its CreateSensorRecordDto, a controller that builds the row with the service's newSensorRecordRow
// and hands it to the service's SensorRecordWriter, and a JSON answer of the size the service's answer
// has. No logger, metrics, security headers, database deadline, token-state lookup or rendering: those
// are what the service adds. The service's code comes from dist/ (the bench builds it first), so this
// runs the code the service runs. Run by bench/run.js; can run alone:
//
//   PIPELINE_FLOOR_PORT=3902 DATABASE_URL=mysql://root@127.0.0.1:3306/sensor_records_bench \
//   OAUTH_PUBLIC_KEY=/path/public.pem FLOOR_ISSUER=http://localhost:3900 PIPELINE_FLOOR_ANSWER_BYTES=1800 \
//   node bench/pipeline-floor.js
//
// Plain JavaScript, so the decorators are applied as the calls TypeScript would compile them to.
import 'reflect-metadata';
import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Body, Controller, ForbiddenException, HttpCode, Inject, Module, Post, Req, Res } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { DataSource } from 'typeorm';

const env = process.env;
const port = Number(env.PIPELINE_FLOOR_PORT ?? 3902);
const issuer = env.FLOOR_ISSUER ?? 'http://localhost:3900';
const databaseUrl = env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/sensor_records_bench';
const poolSize = Number(env.FLOOR_POOL_SIZE ?? 10);
const siteTimezone = env.SITE_TIMEZONE ?? 'Pacific/Auckland';
const answerBytes = Number(env.PIPELINE_FLOOR_ANSWER_BYTES ?? 0);
const RECORD_PATH = 'api-sensor/iot/sensor-record';
const FORBIDDEN = 'You are not authorized to create this node entity of bundle sensor_report.';

/** A module of the built service (types from its source, which dist/ is compiled from). */
const dist = (path) => import(new URL(`../dist/${path}`, import.meta.url).href);
/** @type {typeof import('../src/auth/bearer/verified-token-cache.js')} */
const { VerifiedTokenCache } = await dist('auth/bearer/verified-token-cache.js');
/** @type {typeof import('../src/auth/tokens/access-tokens.service.js')} */
const { AccessTokensService } = await dist('auth/tokens/access-tokens.service.js');
/** @type {typeof import('../src/sensor-record/dto/create-sensor-record.dto.js')} */
const { CreateSensorRecordDto } = await dist('sensor-record/dto/create-sensor-record.dto.js');
/** @type {typeof import('../src/sensor-record/validation/submission-validation.pipe.js')} */
const { submissionValidationPipe } = await dist('sensor-record/validation/submission-validation.pipe.js');
/** @type {typeof import('../src/sensor-record/new-sensor-record.row.js')} */
const { newSensorRecordRow } = await dist('sensor-record/new-sensor-record.row.js');
/** @type {typeof import('../src/sensor-record/sensor-record-writer.js')} */
const { SensorRecordWriter } = await dist('sensor-record/sensor-record-writer.js');
/** @type {typeof import('../src/database/data-source-options.js')} */
const { buildDataSourceOptions } = await dist('database/data-source-options.js');

if (!env.OAUTH_PUBLIC_KEY) {
  process.stderr.write('pipeline floor: OAUTH_PUBLIC_KEY (PEM or path) is required\n');
  process.exit(1);
}
const pem = (value) => (value.includes('-----BEGIN') ? value : readFileSync(value, 'utf8'));
const publicKey = createPublicKey(pem(env.OAUTH_PUBLIC_KEY));
// Verification needs only the issuer and the public key, whatever the token's kid.
const keys = { verificationKey: () => publicKey };
const accessTokens = new AccessTokensService(
  /** @type {import('../src/config/app-config.js').AppConfig} */ (
    /** @type {unknown} */ ({ baseUrl: issuer, tokens: { accessTokenTtl: 300 } })
  ),
  /** @type {import('../src/auth/keys/signing-keys.service.js').SigningKeysService} */ (/** @type {unknown} */ (keys)),
);
const verifiedTokens = new VerifiedTokenCache(accessTokens, keys, { now: () => Date.now() });

const dataSource = await new DataSource(
  buildDataSourceOptions({ type: 'mysql', url: databaseUrl, poolSize, migrationsRun: false, requestTimeoutMs: 3000 }),
).initialize();
const writer = new SensorRecordWriter(dataSource);

class FloorBearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  /** @param {string} token */
  async validate(token) {
    const claims = await verifiedTokens.verify(token);
    return 'refused' in claims ? false : { uid: claims.uid };
  }
}

class FloorBearerGuard extends AuthGuard('bearer') {
  /**
   * @override
   * @template TUser
   * @param {unknown} error
   * @param {TUser | false} user
   * @returns {TUser}
   */
  handleRequest(error, user) {
    if (error) throw error;
    if (!user) throw new ForbiddenException(FORBIDDEN);
    return user;
  }
}

// The answer's bytes: the record's nid and uuid, filled out to the size of the service's answer.
const filler = 'x'.repeat(Math.max(0, answerBytes));
const answer = (nid, uuid) => {
  const bare = JSON.stringify({ nid, uuid, padding: '' }).length;
  return { nid, uuid, padding: filler.slice(0, Math.max(0, answerBytes - bare)) };
};

class PipelineFloorController {
  /** @param {InstanceType<typeof SensorRecordWriter>} records */
  constructor(records) {
    this.records = records;
  }

  /**
   * @param {import('../src/sensor-record/dto/create-sensor-record.dto.js').CreateSensorRecordDto} submission
   * @param {import('express').Request & { rawBody?: Buffer; user?: { uid: number } }} request
   * @param {import('express').Response} response
   */
  async create(submission, request, response) {
    const row = newSensorRecordRow(submission, {
      uid: request.user?.uid ?? 0,
      now: new Date(),
      siteTimezone,
      requestBody: request.rawBody?.toString('utf8') ?? '',
    });
    const nid = await this.records.write(row);
    response.setHeader('Location', `${issuer}/node/${nid}`);
    return answer(nid, row.uuid);
  }
}
const create = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(PipelineFloorController.prototype, 'create'));
Reflect.decorate([Controller()], PipelineFloorController);
Inject(SensorRecordWriter)(PipelineFloorController, undefined, 0);
// What emitDecoratorMetadata would record: the DTO class is what the validation pipe validates against.
Reflect.defineMetadata('design:paramtypes', [CreateSensorRecordDto, Object, Object], PipelineFloorController.prototype, 'create');
Body(submissionValidationPipe)(PipelineFloorController.prototype, 'create', 0);
Req()(PipelineFloorController.prototype, 'create', 1);
Res({ passthrough: true })(PipelineFloorController.prototype, 'create', 2);
Reflect.decorate([Post(RECORD_PATH), HttpCode(201)], PipelineFloorController.prototype, 'create', create);

class PipelineFloorModule {}
Reflect.decorate(
  [
    Module({
      controllers: [PipelineFloorController],
      providers: [
        { provide: SensorRecordWriter, useValue: writer },
        { provide: APP_GUARD, useValue: new FloorBearerGuard() },
        { provide: FloorBearerStrategy, useValue: new FloorBearerStrategy() },
      ],
    }),
  ],
  PipelineFloorModule,
);

const app = await NestFactory.create(PipelineFloorModule, { bodyParser: false, rawBody: true, logger: ['error', 'warn'] });
/** @type {import('@nestjs/platform-express').NestExpressApplication} */ (app).useBodyParser('json', {
  type: ['application/json', 'application/hal+json'],
  limit: '64kb',
});
// Outside Nest (no guard): only for the harness to see that the floor is up.
app
  .getHttpAdapter()
  .getInstance()
  .get('/health', (_request, response) => response.json({ status: 'ok' }));
await app.listen(port, '127.0.0.1');
process.stdout.write(`${JSON.stringify({ listening: port, answerBytes })}\n`);

const shutdown = () => {
  app
    .close()
    .then(() => dataSource.destroy())
    .finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
