// Drupal's texts for the user route (its UserAccessControlHandler and parameter converter).

/** 403 of another user's account: Drupal's reason for refusing `view` without `access user profiles`. */
export const USER_VIEW_DENIED_MESSAGE = "The 'access user profiles' permission is required and the user must be active.";

/** 404 of a uid that names no account. */
export const USER_NOT_FOUND_MESSAGE =
  'The "user" parameter was not converted for the path "/user/{user}" (route name: "rest.entity.user.GET")';
