import type { AlertNotificationEntity } from '../alert-notification.entity.js';
import { slackText, webhookRequest } from './webhook-request.js';

const DEV_ID = '<!channel> <https://evil.example|Reset here> *bold* &amp;';

const notification = Object.freeze({
  id: 17,
  alertId: 3,
  event: 'sprung',
  occurredAt: new Date('2026-11-26T01:02:00Z'),
  text: `Trap ${DEV_ID} sprung at 14:02 (NZDT)`,
  sensor: JSON.stringify({ dev_id: DEV_ID }),
  recordNid: 1234,
}) as AlertNotificationEntity;

const bodyIn = (format: 'json' | 'slack' | 'text') =>
  webhookRequest(notification, { format, secret: 'hook-secret' }, 'https://traps.example.org', 1_764_118_920).body;

describe(webhookRequest.name, () => {
  it("escapes &, < and > in Slack's text, so that a dev_id can neither mention a channel nor disguise a link", () => {
    expect(JSON.parse(bodyIn('slack'))).toEqual({
      text: 'Trap &lt;!channel&gt; &lt;https://evil.example|Reset here&gt; *bold* &amp;amp; sprung at 14:02 (NZDT)',
    });
  });

  it('sends the text as it is in the json and text formats, which no receiver reads as markup', () => {
    expect(JSON.parse(bodyIn('json')).text).toBe(notification.text);
    expect(bodyIn('text')).toBe(notification.text);
  });
});

describe(slackText.name, () => {
  it('leaves a text without &, < or > as it is', () => {
    expect(slackText('Trap 0004A30B001C1234 sprung at 14:02 (NZDT)')).toBe('Trap 0004A30B001C1234 sprung at 14:02 (NZDT)');
  });
});
