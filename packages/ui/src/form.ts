import { useForm, type DefaultValues, type FieldValues, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';

export type { FieldErrors, UseFormReturn } from 'react-hook-form';

/**
 * A react-hook-form form checked by a contracts schema: every field's message is shown under it
 * (Field), checked on submit and again on change after that, and focus moves to the first field in
 * error. The submit handler gets the parsed values.
 */
export function useZodForm<Input extends FieldValues, Output extends FieldValues>(
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<Input>,
  options: Omit<UseFormProps<Input, unknown, Output>, 'resolver' | 'defaultValues'> = {},
): UseFormReturn<Input, unknown, Output> {
  return useForm<Input, unknown, Output>({
    resolver: zodResolver<Input, unknown, Output>(schema),
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    shouldFocusError: true,
    ...options,
  });
}
