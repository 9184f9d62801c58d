// The pager is one piece of the shared kit; kept here as a name the CRM screens already import.
export { Pager } from '@portal/ui';
