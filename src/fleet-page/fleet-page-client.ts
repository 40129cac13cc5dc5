import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ClientsService } from '../auth/clients/clients.service.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

/** The public client the service makes for the page when the operator names none (docs/fleet-page.md). */
export const FLEET_PAGE_CLIENT_ID = 'fleet-page';
const FLEET_PAGE_CLIENT_LABEL = 'Fleet page';

/**
 * The OAuth client the page signs in as. A browser cannot keep a secret, so it is a public client
 * (RFC 6749 §2.1): the one `FLEET_PAGE_CLIENT_ID` names, which must exist and be public, or else
 * `fleet-page`, made at start-up when missing. Its id is fixed, so instances starting together
 * all make the same one and the database's unique key on client_id lets exactly one row in.
 */
@Injectable()
export class FleetPageClient implements OnApplicationBootstrap {
  readonly clientId: string;

  constructor(
    private readonly clients: ClientsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.clientId = config.fleetPage.clientId ?? FLEET_PAGE_CLIENT_ID;
  }

  /** A named client that is missing or has a secret stops the start, with the reason. */
  async onApplicationBootstrap(): Promise<void> {
    if (this.config.fleetPage.clientId === undefined) {
      await this.clients.providePublic(FLEET_PAGE_CLIENT_ID, FLEET_PAGE_CLIENT_LABEL);
      return;
    }
    const isPublic = await this.clients.isPublic(this.clientId);
    if (isPublic === undefined) {
      throw new Error(
        `FLEET_PAGE_CLIENT_ID names the client "${this.clientId}", which does not exist: make one with client:create --label L --public.`,
      );
    }
    if (!isPublic) {
      throw new Error(
        `FLEET_PAGE_CLIENT_ID names the client "${this.clientId}", which has a secret: the page needs a public client (client:create --label L --public).`,
      );
    }
  }
}
