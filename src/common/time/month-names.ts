/**
 * The months as the notifications and the fleet page write them, three letters each: English locales
 * of Intl write September `Sept`, every other month in three.
 */
export const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
