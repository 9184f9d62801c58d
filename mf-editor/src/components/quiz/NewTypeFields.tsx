import { useRef, useState, type PointerEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import { EDITOR_MSG, type Area, type Question } from '@portal/contracts';
import { Input, Label, Muted } from '@portal/ui';
import { PortalImage } from '@portal/web-core';
import { MediaField } from '../lesson/MediaField';
import { AddButton, AnswerFieldset, RemoveButton, removeAt, replaceAt, RowIndex } from './answerFields';

/**
 * The answer data of the types the quiz engine added: scale, matrix, hotspot, image labels and
 * file upload (numeric has its own fields in QuestionForm). Every drawing on the image has number
 * fields beside it, so the whole question can be written with the keyboard.
 */
interface FieldsProps {
  question: Question;
  n: number;
  onChange: (q: Question) => void;
}

const round1 = (v: number) => Math.round(v * 10) / 10;
const clamp = (v: number) => Math.min(100, Math.max(0, round1(v)));
const percent = (text: string) => (text === '' ? 0 : clamp(Number(text)));

export function ScaleFields({ question: q, n, onChange }: FieldsProps) {
  const set = (options: string[]) => onChange({ ...q, options });
  return (
    <AnswerFieldset>
      <legend>Деления шкалы (от 1 до {q.options.length})</legend>
      <Muted>Ответ не оценивается: шкала собирает мнения и попадает в отчёты.</Muted>
      {q.options.map((label, i) => (
        <Row key={i}>
          <RowIndex>{i + 1}.</RowIndex>
          <Input
            value={label}
            aria-label={`Вопрос ${n}, подпись деления ${i + 1}`}
            onChange={(e) => set(replaceAt(q.options, i, e.target.value))}
          />
          <RemoveButton
            disabled={q.options.length <= 2}
            onClick={() => set(removeAt(q.options, i))}
            label={`Удалить деление ${i + 1}`}
          />
        </Row>
      ))}
      <AddButton disabled={q.options.length >= 10} onClick={() => set([...q.options, `Деление ${q.options.length + 1}`])}>
        Добавить деление
      </AddButton>
    </AnswerFieldset>
  );
}

export function MatrixFields({ question: q, n, onChange }: FieldsProps) {
  const rows = q.rows ?? [];
  const columns = q.options;
  const correct = rows.map((_, i) => q.correctAnswers[i] ?? 0);
  const set = (patch: Partial<Question>) => onChange({ ...q, correctAnswers: correct, ...patch });
  return (
    <AnswerFieldset>
      <legend>Матрица: строки, столбцы и верный столбец каждой строки</legend>
      <Muted>В каждой строке ученик выбирает один столбец; при пропорциональном начислении балл делится по строкам.</Muted>
      <strong>Столбцы</strong>
      {columns.map((column, j) => (
        <Row key={j}>
          <Input
            value={column}
            aria-label={`Вопрос ${n}, столбец ${j + 1}`}
            onChange={(e) => set({ options: replaceAt(columns, j, e.target.value) })}
          />
          <RemoveButton
            disabled={columns.length <= 2}
            onClick={() =>
              set({
                options: removeAt(columns, j),
                correctAnswers: correct.map((c) => (c === j ? 0 : c > j ? c - 1 : c)),
              })
            }
            label={`Удалить столбец ${j + 1}`}
          />
        </Row>
      ))}
      <AddButton onClick={() => set({ options: [...columns, `Столбец ${columns.length + 1}`] })}>Добавить столбец</AddButton>
      <strong>Строки</strong>
      {rows.map((row, i) => (
        <Row key={i}>
          <Input
            value={row}
            aria-label={`Вопрос ${n}, строка ${i + 1}`}
            onChange={(e) => set({ rows: replaceAt(rows, i, e.target.value) })}
          />
          <select
            aria-label={`Вопрос ${n}, верный столбец строки ${i + 1}`}
            value={correct[i]}
            onChange={(e) => set({ correctAnswers: replaceAt(correct, i, Number(e.target.value)) })}
          >
            {columns.map((column, j) => (
              <option key={j} value={j}>
                {column || `Столбец ${j + 1}`}
              </option>
            ))}
          </select>
          <RemoveButton
            disabled={rows.length <= 1}
            onClick={() => set({ rows: removeAt(rows, i), correctAnswers: removeAt(correct, i) })}
            label={`Удалить строку ${i + 1}`}
          />
        </Row>
      ))}
      <AddButton onClick={() => set({ rows: [...rows, `Строка ${rows.length + 1}`], correctAnswers: [...correct, 0] })}>
        Добавить строку
      </AddButton>
    </AnswerFieldset>
  );
}

/** The question's image: uploaded (or an address) and its text alternative, read to those who cannot see it. */
function ImageFields({ question: q, n, onChange, children }: FieldsProps & { children?: ReactNode }) {
  return (
    <>
      <MediaField
        uploadLabel={`Вопрос ${n}: загрузить изображение`}
        urlLabel={`Вопрос ${n}: адрес изображения`}
        accept="image"
        url={q.image ?? ''}
        onUrl={(image) => onChange({ ...q, image })}
        onUploaded={(file) =>
          onChange({ ...q, image: file.url, imageAlt: q.imageAlt || file.originalName.replace(/\.[^.]+$/, '') })
        }
        failureAlert={EDITOR_MSG.imageUploadFailed}
      />
      <Label>
        Описание изображения для тех, кто его не видит
        <Input value={q.imageAlt ?? ''} onChange={(e) => onChange({ ...q, imageAlt: e.target.value })} />
      </Label>
      {children}
    </>
  );
}

/** Where on the image a pointer is, in % of its size. */
function usePercentPointer() {
  const box = useRef<HTMLDivElement>(null);
  const at = (e: PointerEvent) => {
    const rect = box.current?.getBoundingClientRect();
    if (!rect?.width || !rect.height) return null;
    return { x: clamp(((e.clientX - rect.left) / rect.width) * 100), y: clamp(((e.clientY - rect.top) / rect.height) * 100) };
  };
  return { box, at };
}

const polygonText = (a: Extract<Area, { shape: 'polygon' }>) => a.points.map((p) => `${p.x} ${p.y}`).join(', ');
/** «10 20, 30 40, 50 60» → the vertices; null when it is not 3..20 pairs of numbers. */
const parsePolygon = (text: string) => {
  const points = text
    .split(/[,;]/)
    .map((pair) => pair.trim().split(/\s+/).map(Number))
    .filter((pair) => pair.length === 2 && pair.every(Number.isFinite))
    .map(([x, y]) => ({ x: clamp(x), y: clamp(y) }));
  return points.length >= 3 && points.length <= 20 ? points : null;
};

export function HotspotFields({ question: q, n, onChange }: FieldsProps) {
  const areas = q.areas ?? [];
  const setAreas = (next: Area[]) => onChange({ ...q, areas: next });
  const { box, at } = usePercentPointer();
  const [drawing, setDrawing] = useState<{ x: number; y: number } | null>(null);
  const [texts, setTexts] = useState<Record<number, string>>({});

  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    const p = at(e);
    if (p) setDrawing(p);
  };
  const onUp = (e: PointerEvent<HTMLDivElement>) => {
    const p = at(e);
    if (drawing && p && Math.abs(p.x - drawing.x) >= 1 && Math.abs(p.y - drawing.y) >= 1) {
      const x = Math.min(p.x, drawing.x);
      const y = Math.min(p.y, drawing.y);
      setAreas([
        ...areas,
        { shape: 'rect', x, y, width: round1(Math.abs(p.x - drawing.x)), height: round1(Math.abs(p.y - drawing.y)) },
      ]);
    }
    setDrawing(null);
  };

  return (
    <AnswerFieldset>
      <legend>Изображение и верные области</legend>
      <ImageFields question={q} n={n} onChange={onChange}>
        {q.image && (
          <Canvas ref={box} onPointerDown={onDown} onPointerUp={onUp} aria-hidden="true">
            <PortalImage src={q.image} alt="" draggable={false} withToken />
            <svg viewBox="0 0 100 100" preserveAspectRatio="none">
              {areas.map((a, i) =>
                a.shape === 'rect' ? (
                  <rect key={i} x={a.x} y={a.y} width={a.width} height={a.height} />
                ) : (
                  <polygon key={i} points={a.points.map((p) => `${p.x},${p.y}`).join(' ')} />
                ),
              )}
            </svg>
          </Canvas>
        )}
        <Muted>
          Обведите верную область мышью прямо на изображении или задайте её числами (в % ширины и высоты изображения). Ответ
          верен, если ученик указал точку внутри любой из областей.
        </Muted>
      </ImageFields>
      {areas.map((a, i) => (
        <Row key={i}>
          <RowIndex>{i + 1}.</RowIndex>
          {a.shape === 'rect' ? (
            (['x', 'y', 'width', 'height'] as const).map((k) => (
              <Label key={k}>
                {{ x: 'X, %', y: 'Y, %', width: 'Ширина, %', height: 'Высота, %' }[k]}
                <Input
                  type="number"
                  min={0}
                  max={100}
                  step="any"
                  aria-label={`Вопрос ${n}, область ${i + 1}, ${{ x: 'X', y: 'Y', width: 'ширина', height: 'высота' }[k]}`}
                  value={a[k]}
                  onChange={(e) => setAreas(replaceAt(areas, i, { ...a, [k]: percent(e.target.value) }))}
                />
              </Label>
            ))
          ) : (
            <Label>
              Вершины многоугольника: «x y» через запятую
              <Input
                aria-label={`Вопрос ${n}, область ${i + 1}, вершины`}
                value={texts[i] ?? polygonText(a)}
                onChange={(e) => {
                  setTexts({ ...texts, [i]: e.target.value });
                  const points = parsePolygon(e.target.value);
                  if (points) setAreas(replaceAt<Area>(areas, i, { shape: 'polygon', points }));
                }}
              />
            </Label>
          )}
          <RemoveButton
            onClick={() => {
              setTexts({});
              setAreas(removeAt(areas, i));
            }}
            label={`Удалить область ${i + 1}`}
          />
        </Row>
      ))}
      <Row>
        <AddButton onClick={() => setAreas([...areas, { shape: 'rect', x: 40, y: 40, width: 20, height: 20 }])}>
          Добавить прямоугольник
        </AddButton>
        <AddButton
          onClick={() =>
            setAreas([
              ...areas,
              {
                shape: 'polygon',
                points: [
                  { x: 40, y: 60 },
                  { x: 50, y: 40 },
                  { x: 60, y: 60 },
                ],
              },
            ])
          }
        >
          Добавить многоугольник
        </AddButton>
      </Row>
    </AnswerFieldset>
  );
}

export function ImageLabelsFields({ question: q, n, onChange }: FieldsProps) {
  const markers = q.markers ?? [];
  const setMarkers = (next: typeof markers) => onChange({ ...q, markers: next });
  const { box, at } = usePercentPointer();
  return (
    <AnswerFieldset>
      <legend>Изображение и точки с подписями</legend>
      <ImageFields question={q} n={n} onChange={onChange}>
        {q.image && (
          <Canvas
            ref={box}
            aria-hidden="true"
            onPointerUp={(e) => {
              const p = at(e);
              if (p) setMarkers([...markers, { ...p, label: `Подпись ${markers.length + 1}` }]);
            }}
          >
            <PortalImage src={q.image} alt="" draggable={false} withToken />
            {markers.map((m, i) => (
              <Pin key={i} style={{ left: `${m.x}%`, top: `${m.y}%` }}>
                {i + 1}
              </Pin>
            ))}
          </Canvas>
        )}
        <Muted>Щёлкните по изображению, чтобы поставить точку, или добавьте её кнопкой и задайте координаты числами.</Muted>
      </ImageFields>
      {markers.map((m, i) => (
        <Row key={i}>
          <RowIndex>{i + 1}.</RowIndex>
          <Label>
            Подпись
            <Input
              aria-label={`Вопрос ${n}, точка ${i + 1}, подпись`}
              value={m.label}
              onChange={(e) => setMarkers(replaceAt(markers, i, { ...m, label: e.target.value }))}
            />
          </Label>
          {(['x', 'y'] as const).map((axis) => (
            <Label key={axis}>
              {axis === 'x' ? 'X, %' : 'Y, %'}
              <Input
                type="number"
                min={0}
                max={100}
                step="any"
                aria-label={`Вопрос ${n}, точка ${i + 1}, ${axis.toUpperCase()}`}
                value={m[axis]}
                onChange={(e) => setMarkers(replaceAt(markers, i, { ...m, [axis]: percent(e.target.value) }))}
              />
            </Label>
          ))}
          <RemoveButton onClick={() => setMarkers(removeAt(markers, i))} label={`Удалить точку ${i + 1}`} />
        </Row>
      ))}
      <AddButton
        disabled={markers.length >= 30}
        onClick={() => setMarkers([...markers, { x: 50, y: 50, label: `Подпись ${markers.length + 1}` }])}
      >
        Добавить точку
      </AddButton>
    </AnswerFieldset>
  );
}

const Row = styled.div`
  display: flex;
  align-items: end;
  gap: 8px;
  flex-wrap: wrap;
  > label {
    flex: 1;
    min-width: 90px;
  }
`;
const Canvas = styled.div`
  position: relative;
  width: fit-content;
  max-width: 100%;
  cursor: crosshair;
  touch-action: none;
  img {
    display: block;
    max-width: 100%;
    max-height: 320px;
    user-select: none;
  }
  svg {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    pointer-events: none;
  }
  rect,
  polygon {
    fill: rgba(46, 160, 67, 0.3);
    stroke: rgb(46, 160, 67);
    stroke-width: 0.5;
  }
`;
const Pin = styled.span`
  position: absolute;
  transform: translate(-50%, -50%);
  min-width: 22px;
  height: 22px;
  border-radius: 11px;
  text-align: center;
  font-size: 12px;
  line-height: 22px;
  color: #fff;
  background: ${({ theme }) => theme.colors.primary};
  pointer-events: none;
`;
