import { assertAcceptablePassword, PASSWORD_RULE } from './password-policy.js';
import { InvalidUserInputError } from './user-errors.js';

describe(assertAcceptablePassword.name, () => {
  it.each([
    ['nine characters', '123456789', 'gateway-01'],
    ['nine characters counted as characters, not bytes', 'ééééééééa', 'gateway-01'],
    ['one character repeated', 'aaaaaaaaaaaaaaaa', 'gateway-01'],
    ['the user name', 'Gateway-Field-01', 'gateway-field-01'],
    ['the user name with spaces around', ' gateway-field-01 ', 'gateway-field-01'],
  ])('refuses %s, stating the rule', (_case, password, username) => {
    expect(() => assertAcceptablePassword(password, username)).toThrow(InvalidUserInputError);
    expect(() => assertAcceptablePassword(password, username)).toThrow(PASSWORD_RULE);
  });

  it.each([
    ['ten characters', '1234567890', 'gateway-01'],
    ['a passphrase', 'a long passphrase', 'gateway-01'],
    ['the user name inside a longer password', 'gateway-01 and more', 'gateway-01'],
  ])('accepts %s', (_case, password, username) => {
    expect(() => assertAcceptablePassword(password, username)).not.toThrow();
  });
});
