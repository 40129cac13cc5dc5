import { DEFAULT_DENIED_MESSAGE } from '../auth/bearer/authenticated-options.js';

// Drupal's texts for the record routes, used by the routes and by their OpenAPI description alike.

/** 403 of a submission: entity access denied the `create` operation. */
export const CREATE_DENIED_MESSAGE = DEFAULT_DENIED_MESSAGE;

/** 403 of a read: entity access denied the `view` operation. */
export const VIEW_DENIED_MESSAGE = 'You are not authorized to view this node entity of bundle sensor_report.';

/** 404 of a read whose nid names no record: the node route's parameter converter found nothing. */
export const RECORD_NOT_FOUND_MESSAGE =
  'The "node" parameter was not converted for the path "/node/{node}" (route name: "rest.entity.node.GET")';
