/** Reasons in Symfony's wording, as Drupal reports them for entity fields. */
export const violationMessages = {
  notNull: 'This value should not be null.',
  notBlank: 'This value should not be blank.',
  choice: 'The value you selected is not a valid choice.',
  macAddress: 'This value is not a valid MAC address.',
  datetime: 'This value is not a valid datetime.',
  controlCharacters: 'This value should not contain control characters.',
  oneItem: 'This collection should contain exactly 1 element.',
  type: (type: string) => `This value should be of type ${type}.`,
  range: (min: number, max: number) => `This value should be between ${min} and ${max}.`,
  tooLong: (limit: number) => `This value is too long. It should have ${limit} characters or less.`,
  tooMany: (limit: number) => `This collection should contain ${limit} elements or less.`,
} as const;
