import { sha256 } from '../../common/crypto/sha256.js';
import type { IntegrationNetwork } from '../integration-network.js';

/** The width of `sensor_report.uplink_key`. */
const MAX_KEY_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * The key a record made from an uplink is stored under, unique among records: `<uid>:<network>:<uplink
 * id>`. The user is part of it, so that a repeated delivery finds only a record of the same user's,
 * never another's. An uplink id too long for the column, or not plain ASCII, is replaced by its digest.
 */
export function uplinkKey(uid: number, network: IntegrationNetwork, uplinkId: string): string {
  const key = `${uid}:${network}:${uplinkId}`;
  return key.length <= MAX_KEY_LENGTH && PRINTABLE_ASCII.test(key) ? key : `${uid}:${network}:sha256:${sha256(uplinkId)}`;
}
