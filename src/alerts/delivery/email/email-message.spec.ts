import { emailMessage, idRanges } from './email-message.js';

const BASE_URL = 'https://traps.example.org';
const notification = (id: number, text: string, recordNid: number | null = 1000 + id, alertId = 3) => ({ id, alertId, text, recordNid });

describe(emailMessage.name, () => {
  it("makes one notification's line the subject, and the text that line with its record's link", () => {
    const sut = emailMessage([notification(17, 'Trap 0004A30B001C1234 sprung at 14:02 (NZDT)')], BASE_URL);

    expect(sut.subject).toBe('Trap 0004A30B001C1234 sprung at 14:02 (NZDT)');
    expect(sut.text).toBe(
      'Trap 0004A30B001C1234 sprung at 14:02 (NZDT)\n  https://traps.example.org/node/1017\n\n-- \n' +
        'Sent by https://traps.example.org for alert 3 (notification 17).\n',
    );
    expect(sut.messageId).toMatch(/^<alert-notifications\.[0-9a-f]{32}@traps\.example\.org>$/);
  });

  it('lists several notifications oldest first in one message, the subject the oldest and how many more', () => {
    const sut = emailMessage(
      [
        notification(5, 'Trap a sprung at 14:02 (NZDT)'),
        notification(6, 'Sensor b silent: nothing heard within its heartbeat period (noticed at 14:03 (NZDT))', null, 4),
        notification(9, 'Trap a set again at 14:30 (NZDT), after 28 min sprung'),
      ],
      BASE_URL,
    );

    expect(sut.subject).toBe('Trap a sprung at 14:02 (NZDT) (and 2 more)');
    expect(sut.text.split('\n')).toEqual([
      '3 notifications, oldest first:',
      '',
      'Trap a sprung at 14:02 (NZDT)',
      '  https://traps.example.org/node/1005',
      '',
      'Sensor b silent: nothing heard within its heartbeat period (noticed at 14:03 (NZDT))',
      '',
      'Trap a set again at 14:30 (NZDT), after 28 min sprung',
      '  https://traps.example.org/node/1009',
      '',
      '-- ',
      'Sent by https://traps.example.org for alert 3, 4 (notification 5-6, 9).',
      '',
    ]);
  });

  it('gives the same notifications the same Message-ID, and others another', () => {
    const one = [notification(1, 'x'), notification(2, 'y')];

    expect(emailMessage(one, BASE_URL).messageId).toBe(emailMessage(one, BASE_URL).messageId);
    expect(emailMessage([...one, notification(3, 'z')], BASE_URL).messageId).not.toBe(emailMessage(one, BASE_URL).messageId);
  });

  it('keeps a line break of a device id out of the subject', () => {
    expect(emailMessage([notification(1, 'Trap evil\r\nBcc: x@example.org sprung at 14:02 (NZDT)')], BASE_URL).subject).toBe(
      'Trap evil Bcc: x@example.org sprung at 14:02 (NZDT)',
    );
  });

  it('refuses to make a message of nothing', () => {
    expect(() => emailMessage([], BASE_URL)).toThrow('An email needs at least one notification');
  });
});

describe(idRanges.name, () => {
  it('writes runs of consecutive ids as ranges, in order', () => {
    expect(idRanges([9, 1, 2, 3, 5, 6, 11])).toBe('1-3, 5-6, 9, 11');
    expect(idRanges([4], ',')).toBe('4');
    expect(idRanges([7, 8, 10], ',')).toBe('7-8,10');
  });
});
