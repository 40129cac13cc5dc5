import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CLOCK, type Clock } from '../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { authEntities } from './auth.entities.js';
import { BearerAuthGuard } from './bearer/bearer-auth.guard.js';
import { BearerStrategy } from './bearer/bearer.strategy.js';
import { TokenStateService } from './bearer/token-state.service.js';
import { VerifiedTokenCache } from './bearer/verified-token-cache.js';
import { ClientsService } from './clients/clients.service.js';
import { SessionTokenController } from './session/session-token.controller.js';
import { AuthHousekeepingService } from './token-endpoint/auth-housekeeping.service.js';
import { LoginFloodService } from './token-endpoint/login-flood.service.js';
import { TOKEN_PATH, TokenController } from './token-endpoint/token.controller.js';
import { tokenFormBody } from './token-endpoint/token-form.middleware.js';
import { TokenGrantsService } from './token-endpoint/token-grants.service.js';
import { AccessTokensService } from './tokens/access-tokens.service.js';
import { RefreshTokensService } from './tokens/refresh-tokens.service.js';
import { JwksController } from './keys/jwks.controller.js';
import { SigningKeysService } from './keys/signing-keys.service.js';
import { PasswordCheckQueue } from './users/password-check-queue.js';
import { PasswordHasher } from './users/password-hasher.js';
import { UserController } from './users/user.controller.js';
import { UsersService } from './users/users.service.js';
import { SerializationModule } from '../serialization/serialization.module.js';

@Module({
  imports: [PassportModule, TypeOrmModule.forFeature(authEntities), SerializationModule],
  controllers: [TokenController, SessionTokenController, JwksController, UserController],
  providers: [
    {
      provide: PasswordHasher,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new PasswordHasher(new PasswordCheckQueue(config.passwordChecks)),
    },
    UsersService,
    ClientsService,
    SigningKeysService,
    AccessTokensService,
    RefreshTokensService,
    LoginFloodService,
    AuthHousekeepingService,
    TokenGrantsService,
    TokenStateService,
    {
      provide: VerifiedTokenCache,
      inject: [AccessTokensService, SigningKeysService, CLOCK],
      useFactory: (tokens: AccessTokensService, keys: SigningKeysService, clock: Clock) => new VerifiedTokenCache(tokens, keys, clock),
    },
    BearerStrategy,
    BearerAuthGuard,
    { provide: APP_GUARD, useExisting: BearerAuthGuard },
  ],
  // Refused integration keys count toward the same per-address limit as failed password grants;
  // integration:create finds its user by name as the token endpoint does; the fleet page makes its client.
  exports: [LoginFloodService, UsersService, ClientsService],
})
export class AuthModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(tokenFormBody()).forRoutes({ path: TOKEN_PATH, method: RequestMethod.POST });
  }
}
