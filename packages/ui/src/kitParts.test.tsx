/** @jest-environment jsdom */
import type { ReactNode } from 'react';
import { render, screen, within } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import {
  BoxList,
  BulletList,
  CardGrid,
  DataTable,
  Facts,
  PageHeader,
  RecordOptions,
  Spread,
  lightTheme,
  pathIcon,
} from './index';

const wrap = (ui: ReactNode) => render(<ThemeProvider theme={lightTheme}>{ui}</ThemeProvider>);

describe('Facts', () => {
  it('names each fact beside its value, in order, and leaves out the facts a record does not have', () => {
    const site: string = '';
    wrap(
      <Facts facts={[['ИНН', '7701234567'], site && ['Сайт', site], ['Контакты', <strong key="n">2 контакта</strong>], null]} />,
    );

    const names = screen.getAllByRole('term').map((term) => term.textContent);
    const values = screen.getAllByRole('definition').map((value) => value.textContent);
    expect(names).toEqual(['ИНН', 'Контакты']);
    expect(values).toEqual(['7701234567', '2 контакта']);
    expect(within(screen.getAllByRole('definition')[1]).getByText('2 контакта').tagName).toBe('STRONG');
  });
});

describe('Spread and DataTable', () => {
  it('puts a line’s children at its two ends, centred across it and wrapping unless told otherwise', () => {
    wrap(
      <>
        <Spread data-testid="centred">
          <span>Заявки</span>
          <button type="button">Одобрить</button>
        </Spread>
        <Spread data-testid="top" $align="flex-start" $gap={8} />
        <Spread data-testid="kept" $wrap={false} />
      </>,
    );

    const centred = getComputedStyle(screen.getByTestId('centred'));
    expect([centred.display, centred.flexWrap, centred.justifyContent, centred.alignItems, centred.gap]).toEqual([
      'flex',
      'wrap',
      'space-between',
      'center',
      '12px',
    ]);
    const top = getComputedStyle(screen.getByTestId('top'));
    expect([top.alignItems, top.gap]).toEqual(['flex-start', '8px']);
    // A dialog's title and its ✕ stay on one line.
    expect(getComputedStyle(screen.getByTestId('kept')).flexWrap).toBe('nowrap');
  });

  it('heads a page with its title and actions at the two ends, as a header unless told', () => {
    wrap(
      <>
        <PageHeader>
          <h1>Курсы</h1>
        </PageHeader>
        <PageHeader as="div" data-testid="plain" />
      </>,
    );
    const header = screen.getByRole('banner');
    expect(getComputedStyle(header).justifyContent).toBe('space-between');
    expect(within(header).getByRole('heading').textContent).toBe('Курсы');
    expect(screen.getByTestId('plain').tagName).toBe('DIV');
  });

  it('draws a table of records the full width, its cells ruled beneath and left-aligned', () => {
    wrap(
      <DataTable aria-label="Строки импорта">
        <tbody>
          <tr>
            <td>Иван Петров</td>
          </tr>
        </tbody>
      </DataTable>,
    );

    expect(getComputedStyle(screen.getByRole('table', { name: 'Строки импорта' })).width).toBe('100%');
    const cell = getComputedStyle(screen.getByRole('cell', { name: 'Иван Петров' }));
    expect([cell.textAlign, cell.verticalAlign]).toEqual(['left', 'top']);
    expect(cell.borderBottom).toContain('1px solid');
  });
});

describe('RecordOptions, BulletList and BoxList', () => {
  it('offers the empty choice first, «Загрузка...» while the records are read, then each record by its title', () => {
    const courses = [
      { id: 'c1', title: 'Основы HR' },
      { id: 'c2', title: 'Охрана труда' },
    ];
    const { rerender } = wrap(
      <select aria-label="Курс">
        <RecordOptions records={undefined} loading placeholder="Выберите опубликованный курс" />
      </select>,
    );
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Загрузка...']);

    rerender(
      <ThemeProvider theme={lightTheme}>
        <select aria-label="Курс">
          <RecordOptions records={courses} loading={false} placeholder="Выберите опубликованный курс" />
        </select>
      </ThemeProvider>,
    );
    const options = screen.getAllByRole('option') as HTMLOptionElement[];
    expect(options.map((o) => [o.value, o.textContent])).toEqual([
      ['', 'Выберите опубликованный курс'],
      ['c1', 'Основы HR'],
      ['c2', 'Охрана труда'],
    ]);
  });

  it('lists its items with bullets, one under another', () => {
    wrap(
      <BulletList aria-label="Замечания" $gap={6}>
        <li>Слишком лёгкий</li>
        <li>Не различает</li>
      </BulletList>,
    );
    const list = screen.getByRole('list', { name: 'Замечания' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect([getComputedStyle(list).display, getComputedStyle(list).gap]).toEqual(['grid', '6px']);
  });

  it('boxes each item of a list without bullets', () => {
    wrap(
      <BoxList aria-label="Контакты">
        <li>Борис Орлов</li>
      </BoxList>,
    );
    const list = screen.getByRole('list', { name: 'Контакты' });
    const item = getComputedStyle(within(list).getByRole('listitem'));
    expect(getComputedStyle(list).listStyle).toBe('none');
    expect([item.borderTopStyle, item.paddingLeft]).toEqual(['solid', '12px']);
  });
});

describe('busyMark', () => {
  it('marks a list busy while a newer page loads without fading its text, which would drop muted text below 4.5:1', () => {
    wrap(
      <>
        <CardGrid $min={200} data-testid="loading" aria-busy={true}>
          <p>Анна Смирнова</p>
        </CardGrid>
        <CardGrid $min={200} data-testid="idle" aria-busy={false} />
      </>,
    );
    const loading = getComputedStyle(screen.getByTestId('loading'));
    expect([loading.cursor, loading.opacity || '1']).toEqual(['progress', '1']);
    expect(getComputedStyle(screen.getByTestId('idle')).cursor).not.toBe('progress');
  });
});

describe('pathIcon', () => {
  it('draws its paths in the text’s colour and is hidden from screen readers, so the button beside it names it', () => {
    const Bell = pathIcon('M18 8a6 6 0 0 0-12 0', 'M13.73 21a2 2 0 0 1-3.46 0');
    wrap(
      <button type="button" aria-label="Уведомления">
        <Bell />
      </button>,
    );
    const svg = screen.getByRole('button', { name: 'Уведомления' }).querySelector('svg')!;
    expect(svg.getAttribute('aria-hidden')).toBe('true');
    expect(svg.getAttribute('stroke')).toBe('currentColor');
    expect([...svg.querySelectorAll('path')].map((p) => p.getAttribute('d'))).toEqual([
      'M18 8a6 6 0 0 0-12 0',
      'M13.73 21a2 2 0 0 1-3.46 0',
    ]);
  });
});
