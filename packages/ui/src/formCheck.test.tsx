/** @jest-environment jsdom */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import { ApiError } from '@portal/web-core';
import {
  Field,
  FieldError,
  Input,
  lightTheme,
  messagesByField,
  refusalOf,
  useCheckedForm,
  useFieldArray,
  type FormCheck,
} from './index';

interface Values {
  seats: string;
  names: Array<{ text: string }>;
}
interface Booking {
  seats: number;
  names: string[];
}

/** Seats typed as text and a list of names, checked by a plain function: no schema library involved. */
function checkBooking({ seats, names }: Values): FormCheck<Booking> {
  const errors: Record<string, string> = {};
  const count = Number(seats);
  if (!Number.isInteger(count) || count < 1) errors.seats = 'Мест — целое число от 1';
  const filled = names.map((n) => n.text.trim());
  filled.forEach((name, i) => {
    if (name.length > 10) errors[`names.${i}.text`] = 'Имя не длиннее 10 символов';
  });
  if (!filled.some(Boolean)) errors.names = 'Добавьте хотя бы одно имя';
  return Object.keys(errors).length
    ? { ok: false, errors }
    : { ok: true, values: { seats: count, names: filled.filter(Boolean) } };
}

function BookingForm({ onDone }: { onDone: (booking: Booking) => void }) {
  const form = useCheckedForm(checkBooking, { seats: '', names: [{ text: '' }, { text: '' }] });
  const names = useFieldArray({ control: form.control, name: 'names' });
  const { errors } = form.formState;
  return (
    <form noValidate onSubmit={form.handleSubmit(onDone)}>
      <Field label="Мест" error={errors.seats?.message}>
        <Input {...form.register('seats')} />
      </Field>
      {names.fields.map((item, i) => (
        <Field key={item.id} label={`Имя ${i + 1}`} error={errors.names?.[i]?.text?.message}>
          <Input {...form.register(`names.${i}.text`)} />
        </Field>
      ))}
      {errors.names?.root && <FieldError>{errors.names.root.message}</FieldError>}
      <button type="submit">Забронировать</button>
    </form>
  );
}

const show = (onDone: (booking: Booking) => void) =>
  render(
    <ThemeProvider theme={lightTheme}>
      <BookingForm onDone={onDone} />
    </ThemeProvider>,
  );
const book = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Забронировать' })));

describe('useCheckedForm (a form checked by a plain function)', () => {
  it('shows each message under its field, a list’s under the list, focuses the first field and sends nothing', async () => {
    const done = jest.fn();
    show(done);
    await book();
    const seats = screen.getByLabelText('Мест');
    expect(seats.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(`${seats.id}-error`)?.textContent).toBe('Мест — целое число от 1');
    expect(screen.getByText('Добавьте хотя бы одно имя')).toBeTruthy();
    expect(document.activeElement).toBe(seats);
    expect(done).not.toHaveBeenCalled();
  });

  it('puts an item’s message beside that item, clears a field’s once it is right, and sends what the check made', async () => {
    const done = jest.fn();
    show(done);
    await act(async () => fireEvent.input(screen.getByLabelText('Мест'), { target: { value: '2' } }));
    await act(async () => fireEvent.input(screen.getByLabelText('Имя 2'), { target: { value: 'Очень-очень длинное' } }));
    await book();
    const second = screen.getByLabelText('Имя 2');
    expect(second.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Имя 1').getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(second);

    await act(async () => fireEvent.input(second, { target: { value: '  Анна ' } }));
    expect(screen.queryByText('Имя не длиннее 10 символов')).toBeNull();
    await book();
    expect(done).toHaveBeenCalledWith({ seats: 2, names: ['Анна'] }, expect.anything());
  });
});

describe('a schema’s issues and a server’s refusal, as a form shows them', () => {
  it('keeps the first message for each field and leaves out paths the form does not show', () => {
    const issues = [
      { path: ['audience', 'department'], message: 'Укажите подразделение' },
      { path: ['audience', 'department'], message: 'Второе сообщение' },
      { path: ['dueDate'], message: 'Укажите срок' },
      { path: ['internal'], message: 'Не для формы' },
    ];
    const fieldOf = (path: readonly PropertyKey[]) => (path[0] === 'internal' ? null : path.join('.'));
    expect(messagesByField(issues, fieldOf)).toEqual({ 'audience.department': 'Укажите подразделение', dueDate: 'Укажите срок' });
  });

  it('reads the server’s message and field from a refusal, and says anything else with the fallback', () => {
    expect(refusalOf(new ApiError('Срок не может быть раньше сегодняшнего дня', 400, 'dueDate'))).toEqual({
      message: 'Срок не может быть раньше сегодняшнего дня',
      field: 'dueDate',
    });
    expect(refusalOf(new ApiError('Назначение уже изменено', 409))).toEqual({ message: 'Назначение уже изменено' });
    expect(refusalOf('сломалось', 'Не удалось назначить курс')).toEqual({ message: 'Не удалось назначить курс' });
  });
});
