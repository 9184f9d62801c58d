import { z } from 'zod';
import { CONSENT_MSG, MSG, registerSchema, type Role } from '@portal/contracts';
import type { UseFormReturn } from '@portal/ui';

// Checked even while another field is still wrong, so every message shows at once.
const always = () => true;

/**
 * The registration form: the server's registration schema (its messages are the spec's), plus the
 * confirmation and the consent's checkbox that only the form asks for. No form offers ADMIN.
 */
export const registrationForm = registerSchema
  .omit({ adminPassword: true })
  .extend({
    confirm: z.string(),
    // Its own checkbox, never pre-ticked (152-FZ): the form sends the version of the text shown.
    consent: z.boolean().refine((v) => v, CONSENT_MSG.required),
  })
  .refine((v) => v.password === v.confirm, { message: MSG.passwordsMismatch, path: ['confirm'], when: always });

export type RegistrationValues = z.input<typeof registrationForm>;
export type RegistrationForm = UseFormReturn<RegistrationValues, unknown, z.output<typeof registrationForm>>;

export const emptyRegistration = (role: Role = 'CANDIDATE'): RegistrationValues => ({
  fullName: '',
  email: '',
  password: '',
  confirm: '',
  role,
  consent: false,
});
