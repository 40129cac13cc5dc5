import pino, { stdSerializers, type DestinationStream, type Logger } from 'pino';
import type { AppConfig } from '../config/app-config.js';

/** The service's one pino logger: the request lines and every other line go through it. */
export function createServiceLog(config: AppConfig, destination: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    // Serializers list what is logged rather than redacting what is not: an error without its stack or
    // its other members (a driver's error carries the statement and its parameters).
    serializers: {
      err: stdSerializers.wrapErrorSerializer((error: { name?: string; message: string }) => ({
        type: error.name,
        message: error.message,
      })),
    },
  };
  if (config.environment === 'development' && prettyAvailable()) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { singleLine: true } } });
  }
  return pino(options, destination);
}

function prettyAvailable(): boolean {
  try {
    import.meta.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}
