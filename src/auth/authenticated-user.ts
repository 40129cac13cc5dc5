/** The caller behind a valid bearer token, as the guard attaches it to the request (`request.user`). */
export interface AuthenticatedUser {
  uid: number;
  uuid: string;
  name: string;
  /** OAuth client the token was issued to (the token's `aud`). */
  clientId: string;
  mayCreateSensorRecords: boolean;
}
