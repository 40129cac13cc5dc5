/** The renderings of the sensor routes: the list also as CSV, one sensor only as JSON. */
export const SENSOR_LIST_FORMATS = ['json', 'csv'] as const;
export const SENSOR_SHOW_FORMATS = ['json'] as const;
