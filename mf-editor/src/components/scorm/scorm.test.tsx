/** @jest-environment jsdom */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider } from 'styled-components';
import type { ScormPackageSummary } from '@portal/contracts';
import { lightTheme } from '@portal/ui';
import { ApiError } from '@portal/web-core';
import { BackendContext, type EditorBackend, type ScormBackend } from '../../backend/backend';
import { outlineOfPackage } from '../../scenes/CourseEditor/ScormImportDialog';
import { ScormBlockFields, scormBlockOf } from './ScormBlockFields';
import { durationLabel, scormScoreLabel, scormStatusLabel } from '@portal/ui';
import { scormFileProblem } from './ScormUpload';

const pkg = (over: Partial<ScormPackageSummary> = {}): ScormPackageSummary => ({
  id: 'p1',
  courseId: 'c1',
  title: 'Гольф',
  version: '2004',
  edition: '2004 3rd Edition',
  scos: [
    { id: 'i1', title: 'Правила', launch: 'a.html', path: ['Основы'] },
    { id: 'i2', title: 'Этикет', launch: 'b.html', path: ['Основы'] },
    { id: 'i3', title: 'Тест', launch: 'c.html', path: ['Проверка'] },
  ],
  files: 12,
  bytes: 1000,
  createdAt: '2026-12-04T00:00:00.000Z',
  ...over,
});

function renderFields(scorm: Partial<ScormBackend>, onChange = jest.fn()) {
  const backend = { demo: false, scorm } as unknown as EditorBackend;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ThemeProvider theme={lightTheme}>
        <BackendContext.Provider value={backend}>
          <ScormBlockFields content={{}} courseId="c1" onChange={onChange} />
        </BackendContext.Provider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return onChange;
}

const zip = (name = 'golf.zip') => new File(['PK'], name, { type: 'application/zip' });

describe('SCORM in the editor', () => {
  it('refuses a file that is not a zip or is over the limit before sending it', () => {
    expect(scormFileProblem({ name: 'course.pdf', size: 10 })).toMatch(/\.zip/);
    expect(scormFileProblem({ name: 'course.ZIP', size: 400 * 1024 * 1024 })).toBe('SCORM-пакет больше 300 МБ');
    expect(scormFileProblem({ name: 'course.zip', size: 10 })).toBeNull();
  });

  it('keeps the package and the chosen SCO in the block, naming the SCO when there are several', () => {
    expect(scormBlockOf(pkg(), 'i2')).toEqual({ packageId: 'p1', scoId: 'i2', title: 'Гольф: Этикет', version: '2004' });
    expect(scormBlockOf(pkg({ scos: [pkg().scos[0]] }), 'i1')).toEqual({
      packageId: 'p1',
      scoId: 'i1',
      title: 'Гольф',
      version: '2004',
    });
  });

  it('shows the course a package builds: its SCOs grouped by their outermost item', () => {
    expect(outlineOfPackage(pkg()).map((m) => [m.module, m.lessons.map((l) => l.title)])).toEqual([
      ['Основы', ['Правила', 'Этикет']],
      ['Проверка', ['Тест']],
    ]);
  });

  it('reads attempts as a curator does', () => {
    expect(scormStatusLabel({ completionStatus: 'completed', successStatus: 'passed' })).toBe('пройден · зачтено');
    expect(scormStatusLabel({ completionStatus: 'incomplete', successStatus: 'unknown' })).toBe('не завершён');
    expect(scormScoreLabel({ score: { raw: 8, min: 0, max: 10, scaled: 0.8 } })).toBe('8 из 10');
    expect(scormScoreLabel({ score: { raw: null, min: null, max: null, scaled: 0.75 } })).toBe('75%');
    expect(scormScoreLabel({ score: { raw: null, min: null, max: null, scaled: null } })).toBe('—');
    expect(durationLabel(3900)).toBe('1 ч 05 мин');
    expect(durationLabel(200)).toBe('3 мин 20 с');
    expect(durationLabel(45)).toBe('45 с');
  });

  it('uploads a package for the block with its progress, then offers its SCOs', async () => {
    let progress: ((percent: number) => void) | undefined;
    let finish: (value: ScormPackageSummary) => void = () => undefined;
    const upload = jest.fn((_file: File, _courseId: string, _mode: string, p?: { onProgress?: (n: number) => void }) => {
      progress = p?.onProgress;
      return new Promise<ScormPackageSummary>((resolve) => {
        finish = resolve;
      });
    });
    const onChange = renderFields({ upload });
    fireEvent.change(screen.getByLabelText('Загрузить SCORM-пакет (.zip)'), { target: { files: [zip()] } });
    expect(upload).toHaveBeenCalledWith(expect.any(File), 'c1', 'lesson', expect.anything());
    act(() => progress?.(40));
    expect(screen.getByRole('status').textContent).toBe('Загрузка пакета… 40%');
    expect(screen.getByRole('button', { name: 'Отменить загрузку' })).toBeTruthy();
    await act(async () => finish(pkg()));
    expect(onChange).toHaveBeenCalledWith({ packageId: 'p1', scoId: 'i1', title: 'Гольф: Правила', version: '2004' });
    fireEvent.change(screen.getByLabelText('Учебный объект (SCO)'), { target: { value: 'i3' } });
    expect(onChange).toHaveBeenLastCalledWith({ packageId: 'p1', scoId: 'i3', title: 'Гольф: Тест', version: '2004' });
  });

  it('shows the server’s refusal beside the field', async () => {
    const upload = jest.fn(() =>
      Promise.reject(new ApiError('В корне архива нет файла imsmanifest.xml: это не SCORM-пакет', 400)),
    );
    const onChange = renderFields({ upload });
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Загрузить SCORM-пакет (.zip)'), { target: { files: [zip()] } });
    });
    expect(screen.getByRole('alert').textContent).toBe('В корне архива нет файла imsmanifest.xml: это не SCORM-пакет');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('saves whether a new attempt is allowed after completion', () => {
    const onChange = renderFields({});
    fireEvent.click(screen.getByLabelText('Разрешить новую попытку после прохождения'));
    expect(onChange).toHaveBeenCalledWith({ allowNewAttempt: true });
  });
});
