import { unwrapMember } from './unwrap-member.js';

describe('unwrapMember', () => {
  it.each([
    [[{ value: 'Set' }], 'value', 'Set'],
    [{ value: 'Set' }, 'value', 'Set'],
    ['Set', 'value', 'Set'],
    [['Set'], 'value', 'Set'],
    [[{ target_id: 'sensor_report' }], 'target_id', 'sensor_report'],
    [{ target_id: 'sensor_report' }, 'target_id', 'sensor_report'],
    [[{ value: null }], 'value', null],
    [[{ value: false }], 'value', false],
    [[], 'value', undefined],
    [undefined, 'value', undefined],
  ])('unwraps %j (key %s) to %p', (submitted, key, expected) => {
    expect(unwrapMember(submitted, key)).toBe(expected);
  });

  it('leaves a list of several values and an object without the key for validation to report', () => {
    const several = [{ value: 1 }, { value: 2 }];
    const other = { target_id: 'x' };

    expect(unwrapMember(several, 'value')).toBe(several);
    expect(unwrapMember([other], 'value')).toBe(other);
  });
});
