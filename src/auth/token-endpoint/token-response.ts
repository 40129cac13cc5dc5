/** The success body, members in the order league/oauth2-server writes them. */
export interface TokenResponse {
  token_type: 'Bearer';
  expires_in: number;
  access_token: string;
  refresh_token: string;
}
