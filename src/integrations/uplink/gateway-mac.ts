/** An EUI-64 derived from a MAC address (MAC-48): the MAC's first three bytes, FF FE, then its last three. */
const MAC_DERIVED_EUI = /^([0-9A-F]{6})FFFE([0-9A-F]{6})$/;

/**
 * The MAC address a gateway's EUI-64 was derived from, `XX:XX:XX:XX:XX:XX` upper-case, or undefined
 * when the EUI was not derived from one (or is not an EUI at all). Separators are allowed as network
 * servers and consoles write them (`B8-27-EB-FF-FE-0A-1B-2C`, `b827:ebff:fe0a:1b2c`).
 */
export function macFromEui(eui: unknown): string | undefined {
  if (typeof eui !== 'string') return undefined;
  const digits = /^[0-9A-Fa-f:-]+$/.test(eui) ? eui.replace(/[:-]/g, '').toUpperCase() : '';
  const match = MAC_DERIVED_EUI.exec(digits);
  if (!match) return undefined;
  return `${match[1]}${match[2]}`.match(/../g)!.join(':');
}
