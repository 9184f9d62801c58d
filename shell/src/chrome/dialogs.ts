// The header's dialogs, one chunk that comes when the first of them is opened (or the account menu
// is): a page's first load evaluates none of them, which on a phone was the larger part of the
// header's chunk (bench/src/pageprofile.ts --tasks).
export { AboutDialog } from './About';
export { ChangePasswordDialog } from './ChangePassword';
export { ConsentDialog, ConsentRequiredDialog } from './Consent';
export { ConfirmDialog } from '@portal/ui';
