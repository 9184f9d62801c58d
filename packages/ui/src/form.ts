import { useForm, type DefaultValues, type FieldValues, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { checkResolver, type FormCheck } from './formCheck';

export type { FieldErrors, UseFormReturn } from 'react-hook-form';
/**
 * From the kit's one form library: a list of inputs (useFieldArray), a control that is not an input
 * (Controller), a value watched while typing (useWatch), and a part of a form shared by two forms
 * (FormProvider, useFormContext).
 */
export { Controller, FormProvider, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
export { checkResolver, messagesByField, type FormCheck, type Issue } from './formCheck';
export { refusalOf, type Refusal } from './refusal';

type FormOptions<Input extends FieldValues, Output> = Omit<UseFormProps<Input, unknown, Output>, 'resolver' | 'defaultValues'>;

/** How every kit form checks: on submit, again on each change after that; focus on the first field in error. */
const CHECKING = { mode: 'onSubmit', reValidateMode: 'onChange', shouldFocusError: true } as const;

/**
 * A react-hook-form form checked by a contracts schema: every field's message is shown under it
 * (Field), checked on submit and again on change after that, and focus moves to the first field in
 * error. The submit handler gets the parsed values.
 */
export function useZodForm<Input extends FieldValues, Output extends FieldValues>(
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<Input>,
  options: FormOptions<Input, Output> = {},
): UseFormReturn<Input, unknown, Output> {
  return useForm<Input, unknown, Output>({
    resolver: zodResolver<Input, unknown, Output>(schema),
    defaultValues,
    ...CHECKING,
    ...options,
  });
}

/**
 * The same form checked by a plain function instead of a schema (checkResolver): for values that
 * are not yet the request (numbers typed as text, an audience chosen in parts). The function turns
 * them into the request or names a Russian message per field; the submit handler gets the request.
 */
export function useCheckedForm<Input extends FieldValues, Output>(
  check: (values: Input) => FormCheck<Output>,
  defaultValues: DefaultValues<Input>,
  options: FormOptions<Input, Output> = {},
): UseFormReturn<Input, unknown, Output> {
  return useForm<Input, unknown, Output>({
    resolver: checkResolver<Input, Output>(check),
    defaultValues,
    ...CHECKING,
    ...options,
  });
}
