import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';

/**
 * Node's options for the service's port and METRICS_PORT alike. Node would answer a request without
 * `Host` itself, a bare 400 with no body or security headers; the service answers it instead
 * (`requestRefusal`), as every other 400 (docs/interface.md#errors).
 */
const HTTP_SERVER_OPTIONS: ServerOptions = { requireHostHeader: false };

/**
 * Node's HTTP server for either port. A client that half-closes its connection once its request is
 * sent (`shutdown(SHUT_WR)`, `Connection: close` and a FIN) still gets its answer: a half-closed
 * connection neither ends a request nor says the client lost interest (RFC 9112), yet Node by
 * default drops every answer not yet written when the FIN arrives, so a password grant or a slow
 * submission was done and logged but never answered (docs/interface.md#errors). The connection is
 * closed once the last answer is written; a request cut short by the FIN is still refused.
 * `httpAllowHalfOpen` is the switch Node's own server reads for this; it has no constructor option.
 */
export function createHttpServer(listener: RequestListener): Server {
  const server = createServer(HTTP_SERVER_OPTIONS, listener);
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  return server;
}
