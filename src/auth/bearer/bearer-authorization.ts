/**
 * The Authorization header as passport-http-bearer reads it, which splits on one space: RFC 6750 §2.1
 * allows one or more (`credentials = "Bearer" 1*SP b64token`), and whitespace after the token is no
 * part of the field value (RFC 9110 §5.5). Any other shape is passed on as sent, to be refused.
 */
export function bearerAuthorization(header: string | undefined): string | undefined {
  return header?.replace(/^[ \t]*(\S+) +(\S+)[ \t]*$/, '$1 $2');
}
