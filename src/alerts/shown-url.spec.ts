import { shownUrl } from './shown-url.js';

describe(shownUrl.name, () => {
  it.each([
    ['https://hooks.slack.com/services/T000/B000/XXXX', 'https://hooks.slack.com/services/…'],
    ['https://ntfy.sh/our-traps-5b1c', 'https://ntfy.sh/…'],
    ['https://ntfy.sh/traps?auth=abc', 'https://ntfy.sh/…'],
    ['https://hooks.example.org/a/b?token=t#x', 'https://hooks.example.org/a/…'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/'],
    ['https://x.example/?token=t', 'https://x.example/…'],
    ['not a url', '…'],
  ])('shows %s as %s', (url, shown) => {
    expect(shownUrl(url)).toBe(shown);
  });
});
