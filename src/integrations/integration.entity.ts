import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { DevIdSource, IntegrationNetwork } from './integration-network.js';

/**
 * One network-server integration: a long-lived API key (kept only as a digest) with which one network
 * server posts the uplinks of one user's devices. Revoked, never deleted: records name it.
 */
@Entity({ name: 'integrations' })
export class IntegrationEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id' })
  id!: number;

  /** The user whose records the integration creates. */
  @Column({ type: 'int', name: 'uid' })
  uid!: number;

  @Column({ type: 'varchar', name: 'network', length: 16 })
  network!: IntegrationNetwork;

  /** Stored as the records' `field_network` when set. */
  @Column({ type: 'varchar', name: 'label', length: 255, nullable: true })
  label!: string | null;

  @Column({ type: 'varchar', name: 'dev_id_source', length: 8 })
  devIdSource!: DevIdSource;

  /** Hex SHA-256 of the API key. */
  @Column({ type: 'varchar', name: 'key_hash', length: 64, select: false })
  keyHash!: string;

  @Column({ type: 'datetime', name: 'created' })
  created!: Date;

  /** To within a minute (see IntegrationKeyStateService). */
  @Column({ type: 'datetime', name: 'last_used_at', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ type: 'datetime', name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;
}
