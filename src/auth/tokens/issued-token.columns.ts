import { Column, PrimaryGeneratedColumn } from 'typeorm';
import { ASCII } from '../../database/text-columns.js';

/**
 * What every issued token records: which grant it descends from, for whom, until when. Its indexes and
 * foreign keys are named after each table, so they are declared on the tables' entities.
 */
export abstract class IssuedTokenColumns {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id', comment: 'Row id.' })
  id!: number;

  /** Every token descended from one password grant shares the grant's family id. */
  @Column({
    type: 'varchar',
    name: 'family_id',
    length: 36,
    ...ASCII,
    comment: 'UUID shared by every token descended from one password grant (revoked together on reuse).',
  })
  familyId!: string;

  @Column({ type: 'varchar', name: 'client_id', length: 64, ...ASCII, comment: 'oauth_clients.client_id the token was issued to.' })
  clientId!: string;

  @Column({ type: 'int', name: 'uid', comment: 'users.uid the token was issued to.' })
  uid!: number;

  @Column({ type: 'datetime', name: 'expires_at', comment: 'When the token expires, UTC.' })
  expiresAt!: Date;

  @Column({ type: 'datetime', name: 'created', comment: 'When it was issued, UTC.' })
  created!: Date;
}
