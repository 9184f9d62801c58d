/** @jest-environment jsdom */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import { CONTENT_MSG, type CourseCreateInput } from '@portal/contracts';
import { lightTheme } from '@portal/ui';
import { CourseForm } from './CourseForm';

function show(onSubmit: (input: CourseCreateInput) => void, error: { message: string; field?: string } | null = null) {
  render(
    <ThemeProvider theme={lightTheme}>
      <CourseForm submitLabel="Создать курс" busy={false} error={error} onSubmit={onSubmit} onCancel={jest.fn()} />
    </ThemeProvider>,
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Создать курс' }));

test('an empty title is refused beside its field, which takes the focus, and nothing is sent', async () => {
  const onSubmit = jest.fn();
  show(onSubmit);
  submit();
  expect(await screen.findByText(CONTENT_MSG.courseTitleRequired)).toBeTruthy();
  const title = screen.getByLabelText(/Название/);
  expect(title.getAttribute('aria-invalid')).toBe('true');
  expect(document.activeElement).toBe(title);
  expect(onSubmit).not.toHaveBeenCalled();
});

test('a negative price is refused; a good form is sent trimmed, with numbers, and the level kept', async () => {
  const onSubmit = jest.fn();
  show(onSubmit);
  type('Название *', '  Охрана труда  ');
  type('Цена, ₽', '-5');
  submit();
  expect(await screen.findByText(CONTENT_MSG.priceMin)).toBeTruthy();
  expect(onSubmit).not.toHaveBeenCalled();

  type('Цена, ₽', '1500');
  type('Длительность, ч', '12.5');
  await waitFor(() => expect(screen.queryByText(CONTENT_MSG.priceMin)).toBeNull());
  submit();
  await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
  expect(onSubmit.mock.calls[0][0]).toMatchObject({
    title: 'Охрана труда',
    description: '',
    price: 1500,
    duration: 12.5,
    level: 'Начальный',
    isPublished: false,
  });
});

test('a server refusal that names a field shows beside that field', () => {
  show(jest.fn(), { message: 'Цена слишком большая', field: 'price' });
  expect(screen.getByLabelText('Цена, ₽').getAttribute('aria-invalid')).toBe('true');
  expect(screen.getByText('Цена слишком большая')).toBeTruthy();
});
