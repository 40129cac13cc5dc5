import { acceptedBy, outcomeOfSmtpFailure } from './smtp-outcome.js';

/** An error as nodemailer gives it for a server's answer. */
const answered = (responseCode: number, response: string) =>
  Object.assign(new Error(`Message failed: ${response}`), { code: 'EMESSAGE', responseCode, response });

describe(outcomeOfSmtpFailure.name, () => {
  it.each([
    [550, '550 5.1.1 No such user here'],
    [554, '554 5.7.1 Message refused'],
    [535, '535 5.7.8 Authentication failed'],
  ])('ends a send answered %i (permanent) as failed', (code, response) => {
    expect(outcomeOfSmtpFailure(answered(code, response))).toEqual({
      kind: 'failed',
      reason: `SMTP ${code}`,
      status: code,
      answer: response,
    });
  });

  it.each([
    [421, '421 4.7.0 Too many connections'],
    [451, '451 4.3.0 Mailbox busy, try later'],
    [452, '452 4.2.2 Mailbox full'],
    [503, '503 5.5.1 Bad sequence of commands'],
  ])('tries a send answered %i again', (code, response) => {
    expect(outcomeOfSmtpFailure(answered(code, response))).toEqual({
      kind: 'retry',
      reason: `SMTP ${code}`,
      status: code,
      answer: response,
    });
  });

  it('tries again when there was no answer: no connection, a timeout, an aborted send', () => {
    expect(
      outcomeOfSmtpFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET', originalCode: 'ECONNREFUSED' })),
    ).toEqual({
      kind: 'retry',
      reason: 'ECONNREFUSED',
      answer: undefined,
    });
    expect(outcomeOfSmtpFailure(Object.assign(new Error('Greeting never received'), { code: 'ECONNECTION' }))).toMatchObject({
      kind: 'retry',
      reason: 'ECONNECTION',
    });
    expect(outcomeOfSmtpFailure(Object.assign(new Error('Timeout'), { code: 'ETIMEDOUT' }))).toMatchObject({
      kind: 'retry',
      reason: 'timed out',
    });
    expect(outcomeOfSmtpFailure(Object.assign(new Error('aborted'), { code: 'EABORT' }))).toMatchObject({
      kind: 'retry',
      reason: 'timed out',
    });
    expect(outcomeOfSmtpFailure('socket hang up')).toMatchObject({ kind: 'retry', reason: 'socket hang up' });
  });
});

describe(acceptedBy.name, () => {
  it("is delivered, with the server's answer and its code", () => {
    expect(acceptedBy('250 2.0.0 Ok: queued as 4F2A1')).toEqual({
      kind: 'delivered',
      status: 250,
      answer: '250 2.0.0 Ok: queued as 4F2A1',
    });
  });
});
