import { pathIcon } from '@portal/ui';

/**
 * A bell drawn in the text's colour. The 🔔 emoji it replaces needs a colour-emoji font, which a
 * desktop without one (Debian's default, for one) showed as an empty box.
 */
export const BellIcon = pathIcon('M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9', 'M13.73 21a2 2 0 0 1-3.46 0');
