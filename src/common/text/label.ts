import { CONTROL_CHARACTERS } from './control-characters.js';

/** As long as the label columns and `field_network` (an integration's label becomes it) may be. */
export const MAX_LABEL_LENGTH = 255;

/**
 * The label an operator gives a client or an integration, trimmed; a RangeError when it breaks the
 * one rule for labels (docs/interface.md#administration-command-line).
 */
export function readLabel(label: string): string {
  const trimmed = label.trim();
  if (trimmed === '' || [...trimmed].length > MAX_LABEL_LENGTH || CONTROL_CHARACTERS.test(trimmed)) {
    throw new RangeError(`The label must be 1 to ${MAX_LABEL_LENGTH} characters without control characters.`);
  }
  return trimmed;
}
