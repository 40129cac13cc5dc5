/** The database keeps whole seconds (as Drupal's timestamps do); dropping the rest keeps an entity equal to its row. */
export function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
