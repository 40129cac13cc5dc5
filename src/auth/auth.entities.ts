import { OAuthClientEntity } from './clients/oauth-client.entity.js';
import { SigningKeyEntity } from './keys/signing-key.entity.js';
import { LoginFailureEntity } from './token-endpoint/login-failure.entity.js';
import { AccessTokenEntity } from './tokens/access-token.entity.js';
import { RefreshTokenEntity } from './tokens/refresh-token.entity.js';
import { UserEntity } from './users/user.entity.js';

/** The Auth module's tables, listed once for the data source (src/database/entities.ts) and the module. */
export const authEntities = [UserEntity, OAuthClientEntity, RefreshTokenEntity, AccessTokenEntity, LoginFailureEntity, SigningKeyEntity];
