/**
 * A webhook URL as the alerts show it (alert:list, logs, errors): the origin and the path's first
 * segment, the rest masked, never the query string or fragment (docs/alerts.md#setting-up). A
 * receiver's secret is often the rest of its path (Slack's `/services/T…/B…/X…`, an ntfy topic),
 * or a token in the query.
 */
export function shownUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return '…';
  }
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  if (segments.length === 0) return `${url.origin}/${url.search || url.hash ? '…' : ''}`;
  return segments.length === 1 ? `${url.origin}/…` : `${url.origin}/${segments[0]}/…`;
}
