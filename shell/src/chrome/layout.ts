/**
 * The width at which the header becomes a phone's: the brand and the person's controls on one line,
 * the navigation below, and the account menu showing initials instead of the name. One value, so the
 * menu changes exactly when the bar wraps.
 */
export const PHONE = '@media (max-width: 640px)';
