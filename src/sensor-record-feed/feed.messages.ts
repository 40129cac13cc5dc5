/** 403 of the records feed: no valid token, or a blocked user. */
export const FEED_DENIED_MESSAGE = 'You are not authorized to view sensor records.';
