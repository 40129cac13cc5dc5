/**
 * A sensor's key (owner and dev_id) as one string, for maps within a batch: NUL cannot occur in a
 * uid, so no two sensors share one.
 */
export const sensorKey = ({ uid, devId }: { uid: number; devId: string }): string => `${uid}\u0000${devId}`;
