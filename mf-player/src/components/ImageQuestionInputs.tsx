import { useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import styled from 'styled-components';
import { isStaff, type AnswerValue, type PlayerQuestion } from '@portal/contracts';
import { Input, Row, Select, Stack } from '@portal/ui';
import { PortalImage, useAuth } from '@portal/web-core';

/**
 * A question's picture. Staff see quizzes mostly in an author's preview, whose files are a draft's
 * and never public: they read it with the token at once, without a refused first try.
 */
function QuizImage(props: { src?: string; alt: string; draggable: boolean }) {
  const { user } = useAuth();
  return <PortalImage {...props} withToken={!!user && isStaff(user.role)} />;
}

export const IMAGE_INPUT_MSG = {
  noPoint: 'Точка не выбрана',
  point: (x: number, y: number) => `Выбрана точка: ${x}% по горизонтали, ${y}% по вертикали`,
  keyboard: 'Стрелки двигают точку на 1% (с Shift — на 10%), Enter ставит её в центр.',
  horizontal: 'По горизонтали, %',
  vertical: 'По вертикали, %',
  marker: (n: number) => `Точка ${n}`,
  choose: '— выберите —',
  dragHint: 'Перетащите подпись на точку изображения или выберите её в списке у точки.',
  image: 'Изображение к вопросу',
} as const;

/** What QuestionInput gives the answer control of a question on an image. */
interface ImageInputProps {
  question: PlayerQuestion;
  value: AnswerValue | undefined;
  onChange: (v: AnswerValue) => void;
  disabled: boolean;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const clamp = (n: number) => Math.min(100, Math.max(0, round1(n)));
const isPoint = (v: unknown): v is { x: number; y: number } =>
  !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { x?: unknown }).x === 'number';

/**
 * hotspot: a click on the image chooses the point. Keyboard: the image takes focus and the arrows
 * move the point; the two number fields are the accessible alternative (with the author's
 * description of the image read out).
 */
export function HotspotInput({ question: q, value, onChange, disabled }: ImageInputProps) {
  const box = useRef<HTMLDivElement>(null);
  const hint = useId();
  const point = isPoint(value) ? value : null;
  const set = (x: number, y: number) => !disabled && onChange({ x: clamp(x), y: clamp(y) });

  const onPointer = (e: PointerEvent<HTMLDivElement>) => {
    const rect = box.current?.getBoundingClientRect();
    if (!rect || !rect.width || !rect.height) return;
    set(((e.clientX - rect.left) / rect.width) * 100, ((e.clientY - rect.top) / rect.height) * 100);
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 10 : 1;
    const p = point ?? { x: 50, y: 50 };
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      set(p.x, p.y);
    } else if (moves[e.key]) {
      // The player's own arrows (next / previous question) must not move too.
      e.preventDefault();
      e.stopPropagation();
      set(p.x + moves[e.key][0], p.y + moves[e.key][1]);
    }
  };

  return (
    <Stack $gap={10}>
      <Frame
        ref={box}
        tabIndex={disabled ? -1 : 0}
        role="group"
        aria-label={`${IMAGE_INPUT_MSG.image}: ${q.imageAlt || q.question}. ${point ? IMAGE_INPUT_MSG.point(point.x, point.y) : IMAGE_INPUT_MSG.noPoint}`}
        aria-describedby={hint}
        onPointerDown={onPointer}
        onKeyDown={onKey}
      >
        <QuizImage src={q.image} alt={q.imageAlt ?? ''} draggable={false} />
        {point && <Dot aria-hidden="true" style={{ left: `${point.x}%`, top: `${point.y}%` }} />}
      </Frame>
      <Small id={hint}>{IMAGE_INPUT_MSG.keyboard}</Small>
      <Coords>
        {(['x', 'y'] as const).map((axis) => (
          <label key={axis}>
            {axis === 'x' ? IMAGE_INPUT_MSG.horizontal : IMAGE_INPUT_MSG.vertical}
            <Input
              type="number"
              min={0}
              max={100}
              step="any"
              disabled={disabled}
              value={point ? point[axis] : ''}
              onChange={(e) => {
                const v = e.target.value === '' ? 0 : Number(e.target.value);
                if (!Number.isFinite(v)) return;
                const p = point ?? { x: 50, y: 50 };
                set(axis === 'x' ? v : p.x, axis === 'y' ? v : p.y);
              }}
            />
          </label>
        ))}
      </Coords>
      <output aria-live="polite">{point ? IMAGE_INPUT_MSG.point(point.x, point.y) : IMAGE_INPUT_MSG.noPoint}</output>
    </Stack>
  );
}

/**
 * image_labels: labels are dragged onto the numbered points of the image; each point also has a
 * list of the labels (the keyboard and screen-reader way). The answer maps point → shown label.
 */
export function ImageLabelsInput({ question: q, value, onChange, disabled }: ImageInputProps) {
  const map =
    value && typeof value === 'object' && !Array.isArray(value) && !isPoint(value) ? (value as Record<string, number>) : {};
  const markers = q.markers ?? [];
  const labels = q.labels ?? [];
  const [dragging, setDragging] = useState<number | null>(null);
  const assign = (point: number, label: number | null) => {
    if (disabled) return;
    const next = { ...map };
    if (label === null) delete next[String(point)];
    else next[String(point)] = label;
    onChange(next);
  };
  return (
    <Stack $gap={10}>
      <Frame as="div" role="img" aria-label={`${IMAGE_INPUT_MSG.image}: ${q.imageAlt || q.question}`}>
        <QuizImage src={q.image} alt="" draggable={false} />
        {markers.map((m, i) => (
          <Marker
            key={i}
            aria-hidden="true"
            style={{ left: `${m.x}%`, top: `${m.y}%` }}
            $over={dragging !== null}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              const label = Number(e.dataTransfer.getData('text/plain'));
              if (Number.isInteger(label)) assign(i, label);
              setDragging(null);
            }}
          >
            {i + 1}
            {map[String(i)] !== undefined && <span>{labels[map[String(i)]]}</span>}
          </Marker>
        ))}
      </Frame>
      <Small>{IMAGE_INPUT_MSG.dragHint}</Small>
      <Row $gap={6} aria-hidden="true">
        {labels.map((label, j) => (
          <Chip
            key={j}
            draggable={!disabled}
            onDragStart={(e) => {
              e.dataTransfer.setData('text/plain', String(j));
              setDragging(j);
            }}
            onDragEnd={() => setDragging(null)}
          >
            {label}
          </Chip>
        ))}
      </Row>
      <Rows>
        {markers.map((_, i) => (
          <label key={i}>
            {IMAGE_INPUT_MSG.marker(i + 1)}
            <Select
              value={map[String(i)] ?? ''}
              disabled={disabled}
              onChange={(e) => assign(i, e.target.value === '' ? null : Number(e.target.value))}
            >
              <option value="">{IMAGE_INPUT_MSG.choose}</option>
              {labels.map((label, j) => (
                <option key={j} value={j}>
                  {label}
                </option>
              ))}
            </Select>
          </label>
        ))}
      </Rows>
    </Stack>
  );
}

const Frame = styled.div`
  position: relative;
  max-width: 100%;
  width: fit-content;
  touch-action: none;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.primary};
    outline-offset: 2px;
  }
  img {
    display: block;
    max-width: 100%;
    min-width: 240px;
    min-height: 120px;
    user-select: none;
  }
`;
const Dot = styled.span`
  position: absolute;
  width: 18px;
  height: 18px;
  margin: -9px 0 0 -9px;
  border-radius: 50%;
  border: 3px solid #fff;
  background: ${({ theme }) => theme.colors.primary};
  box-shadow: 0 0 0 2px rgba(0, 0, 0, 0.5);
  pointer-events: none;
`;
const Marker = styled.span<{ $over: boolean }>`
  position: absolute;
  transform: translate(-50%, -50%);
  display: flex;
  align-items: center;
  gap: 6px;
  min-width: 26px;
  height: 26px;
  padding: 0 6px;
  border-radius: 13px;
  font-size: 13px;
  font-weight: 700;
  color: #fff;
  background: ${({ theme }) => theme.colors.primary};
  outline: ${({ $over }) => ($over ? '2px dashed #fff' : 'none')};
  span {
    font-weight: 400;
  }
`;
const Chip = styled.span`
  padding: 4px 10px;
  cursor: grab;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: 14px;
  background: ${({ theme }) => theme.colors.surfaceAlt};
`;
const Rows = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(200px, 1fr));
  gap: 8px;
  label {
    display: grid;
    gap: 4px;
  }
`;
const Coords = styled.div`
  display: flex;
  gap: 12px;
  label {
    display: grid;
    gap: 4px;
  }
`;
const Small = styled.p`
  margin: 0;
  font-size: 13px;
  color: ${({ theme }) => theme.colors.muted};
`;
