/** The 400 of a body that its Content-Encoding (gzip, deflate, br) does not decode. */
export const undecodableBodyMessage = (encoding: string) => `The request body is not valid ${encoding} data, as its Content-Encoding says.`;

/**
 * Whether reading a body failed because its Content-Encoding does not decode it. body-parser passes
 * zlib's error on as it is, behind a bare 400: `Z_DATA_ERROR` and its kin for gzip and deflate, and
 * for br the brotli decoder's errors, which Node names `ERR__ERROR_FORMAT_…` and the like.
 */
export function isUndecodableBody(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR_'));
}
