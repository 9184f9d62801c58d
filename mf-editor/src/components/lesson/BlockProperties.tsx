import { lazy, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { EDITOR_MSG, megabytesLabel, type ContentBlock, type Quiz, type UploadedFile } from '@portal/contracts';
import {
  Button,
  CheckLabel,
  fileSizeLabel,
  Input,
  Label,
  LazyPart,
  Loading,
  Muted,
  PartFailed,
  Select,
  TextArea,
} from '@portal/ui';
import { PortalImage } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { useBackend } from '../../backend/backend';
import { BLOCK_TYPE_LABELS } from '../../model/blocks';
import { REGENERATE_TITLES } from '../../model/proposal';
import { useRegenerate } from '../generation/RegenerateContext';
import { QuizEditorDialog } from '../quiz/QuizEditorDialog';
import { QuizPicker } from '../quiz/QuizPicker';
import { ScormBlockFields } from '../scorm/ScormBlockFields';
import { MediaField } from './MediaField';

// The editor (TipTap and ProseMirror) is a chunk of its own, fetched when a text block is opened.
const RichTextEditor = lazy(() => import('./RichTextEditor'));

/** An upload names the file and its exact size, so previews read «лекция.mp4 · 12,30 МБ». */
const uploadedFields = (file: UploadedFile) => ({ name: file.originalName || file.name, bytes: file.size });
const NOT_UPLOADED = { name: undefined, bytes: undefined };

interface BlockPropertiesProps {
  block: ContentBlock;
  courseId: string | null;
  onChange: (content: Record<string, unknown>) => void;
}

/** The side panel: the selected block's fields by type. */
export function BlockProperties({ block, courseId, onChange }: BlockPropertiesProps) {
  return (
    <Fields aria-label={`Свойства блока «${BLOCK_TYPE_LABELS[block.type]} №${block.order}»`}>
      <h3>
        {BLOCK_TYPE_LABELS[block.type]} <Muted as="span">№{block.order}</Muted>
      </h3>
      {renderFields(block, courseId, onChange)}
    </Fields>
  );
}

function renderFields(
  block: ContentBlock,
  courseId: string | null,
  onChange: (content: Record<string, unknown>) => void,
): ReactNode {
  switch (block.type) {
    case 'heading':
      return (
        <>
          <Label>
            Текст заголовка
            <Input value={block.content.text} onChange={(e) => onChange({ text: e.target.value })} />
          </Label>
          <Label>
            Уровень заголовка
            <Select value={String(block.content.level ?? 2)} onChange={(e) => onChange({ level: Number(e.target.value) })}>
              {[1, 2, 3, 4].map((level) => (
                <option key={level} value={level}>
                  Заголовок {level}
                </option>
              ))}
            </Select>
          </Label>
        </>
      );
    case 'text':
      return (
        <LazyPart fallback={<Loading label="Загрузка редактора текста..." />} failed={<PartFailed what="редактор текста" />}>
          <RichTextEditor key={block.id} value={block.content} onChange={onChange} />
        </LazyPart>
      );
    case 'image': {
      const url = block.content.src || block.content.url || '';
      return (
        <>
          <MediaField
            uploadLabel="Загрузить изображение"
            urlLabel="Адрес изображения"
            accept="image"
            url={url}
            onUrl={(v) => onChange({ src: v, url: undefined, ...NOT_UPLOADED })}
            onUploaded={(file) =>
              onChange({
                src: file.url,
                url: undefined,
                ...uploadedFields(file),
                alt: block.content.alt || file.originalName.replace(/\.[^.]+$/, ''),
              })
            }
            failureAlert={EDITOR_MSG.imageUploadFailed}
          />
          {url && <Thumb src={url} alt={block.content.alt ?? ''} withToken />}
          <Label>
            Альтернативный текст
            <Input value={block.content.alt ?? ''} onChange={(e) => onChange({ alt: e.target.value })} />
          </Label>
          <Label>
            Подпись
            <Input value={block.content.caption ?? ''} onChange={(e) => onChange({ caption: e.target.value })} />
          </Label>
        </>
      );
    }
    case 'video':
      return (
        <>
          <PlayableSource kind="video" content={block.content} onChange={onChange} />
          <MediaField
            uploadLabel="Загрузить обложку"
            urlLabel="Адрес обложки"
            accept="image"
            url={block.content.poster ?? ''}
            onUrl={(v) => onChange({ poster: v })}
            onUploaded={(file) => onChange({ poster: file.url })}
            failureAlert={EDITOR_MSG.uploadFailed}
          />
          <CheckLabel>
            <input
              type="checkbox"
              checked={!!block.content.autoplay}
              onChange={(e) => onChange({ autoplay: e.target.checked })}
            />
            Автовоспроизведение
          </CheckLabel>
          <TitleAndDescription content={block.content} onChange={onChange} />
        </>
      );
    case 'audio':
      return (
        <>
          <PlayableSource kind="audio" content={block.content} onChange={onChange} />
          <TitleAndDescription content={block.content} onChange={onChange} />
        </>
      );
    case 'file':
      return (
        <>
          <MediaField
            uploadLabel="Загрузить файл"
            urlLabel="Адрес файла"
            accept="any"
            url={block.content.src || block.content.url || ''}
            // A typed address has no size that anyone measured.
            onUrl={(v) => onChange({ src: v, url: undefined, bytes: undefined, size: '0.00' })}
            onUploaded={(file) =>
              onChange({ src: file.url, url: undefined, ...uploadedFields(file), size: megabytesLabel(file.size) })
            }
            failureAlert={EDITOR_MSG.uploadFailed}
          />
          <Label>
            Имя файла
            <Input value={block.content.name ?? ''} onChange={(e) => onChange({ name: e.target.value })} />
          </Label>
          <Muted>Размер: {fileSizeLabel(block.content) ?? EDITOR_MSG.notSpecified}</Muted>
          <Label>
            Описание
            <TextArea
              rows={3}
              value={block.content.description ?? ''}
              onChange={(e) => onChange({ description: e.target.value })}
            />
          </Label>
        </>
      );
    case 'quiz':
      return (
        <QuizBlockFields
          quizId={block.content.quizId ?? null}
          questionsCount={block.content.questionsCount ?? 0}
          courseId={courseId}
          onChange={onChange}
        />
      );
    case 'scorm':
      return <ScormBlockFields content={block.content} courseId={courseId} onChange={onChange} />;
  }
}

const PLAYABLE_LABELS = {
  video: { upload: 'Загрузить видео', url: 'Адрес видео' },
  audio: { upload: 'Загрузить аудио', url: 'Адрес аудио' },
};

/** Where a video or audio block plays from: an uploaded file, or an address checked as it is typed. */
function PlayableSource({
  kind,
  content,
  onChange,
}: {
  kind: 'video' | 'audio';
  content: { src?: string; url?: string };
  onChange: (content: Record<string, unknown>) => void;
}) {
  return (
    <MediaField
      uploadLabel={PLAYABLE_LABELS[kind].upload}
      urlLabel={PLAYABLE_LABELS[kind].url}
      accept={kind}
      check={kind}
      url={content.src || content.url || ''}
      onUrl={(v) => onChange({ src: v, url: undefined, ...NOT_UPLOADED })}
      onUploaded={(file) => onChange({ src: file.url, url: undefined, ...uploadedFields(file) })}
      failureAlert={EDITOR_MSG.uploadFailed}
    />
  );
}

/** The title and description that video and audio blocks share. */
function TitleAndDescription({
  content,
  onChange,
}: {
  content: { title?: string; description?: string };
  onChange: (content: Record<string, unknown>) => void;
}) {
  return (
    <>
      <Label>
        Название
        <Input value={content.title ?? ''} onChange={(e) => onChange({ title: e.target.value })} />
      </Label>
      <Label>
        Описание
        <TextArea rows={3} value={content.description ?? ''} onChange={(e) => onChange({ description: e.target.value })} />
      </Label>
    </>
  );
}

/** A quiz block stores the quiz id and its number of questions; the quiz itself is kept by the server. */
function QuizBlockFields({
  quizId,
  questionsCount,
  courseId,
  onChange,
}: {
  quizId: string | null;
  questionsCount: number;
  courseId: string | null;
  onChange: (content: Record<string, unknown>) => void;
}) {
  const backend = useBackend();
  const queryClient = useQueryClient();
  const regenerate = useRegenerate();
  const [dialog, setDialog] = useState<'pick' | 'edit' | 'create' | null>(null);
  const quiz = useQuery({
    queryKey: ['editor', backend.demo, 'quiz', quizId],
    queryFn: () => backend.getQuiz(quizId as string),
    enabled: !!quizId,
  });

  const attach = (q: Pick<Quiz, 'id'> & { questionsCount: number }) => {
    onChange({ quizId: q.id, questionsCount: q.questionsCount });
    void readAgain(queryClient, ['editor', backend.demo]);
  };

  return (
    <>
      <QuizCard aria-label="Квиз блока">
        {quizId ? (
          <>
            <strong>{quiz.data?.title ?? (quiz.isError ? 'Квиз не найден' : 'Загрузка...')}</strong>
            <Muted>Вопросов: {quiz.data?.questions.length ?? questionsCount}</Muted>
            <Muted>ID квиза: {quizId}</Muted>
          </>
        ) : (
          <Muted>Квиз не выбран</Muted>
        )}
      </QuizCard>
      <Buttons>
        <Button type="button" $variant="outline" $size="sm" onClick={() => setDialog('pick')}>
          Выбрать квиз
        </Button>
        <Button type="button" $variant="outline" $size="sm" onClick={() => setDialog('create')}>
          Создать квиз
        </Button>
        {quizId && (
          <Button type="button" $variant="outline" $size="sm" onClick={() => setDialog('edit')}>
            Редактировать квиз
          </Button>
        )}
        {quizId && regenerate && quiz.data?.generated && (
          <Button
            type="button"
            $variant="outline"
            $size="sm"
            onClick={() => regenerate({ kind: 'quiz', id: quizId, title: quiz.data.title })}
          >
            {REGENERATE_TITLES.quiz}
          </Button>
        )}
      </Buttons>
      {dialog === 'pick' && (
        <QuizPicker
          onClose={() => setDialog(null)}
          onPick={(q) => {
            attach(q);
            setDialog(null);
          }}
          onCreate={() => setDialog('create')}
        />
      )}
      {(dialog === 'edit' || dialog === 'create') && (
        <QuizEditorDialog
          quizId={dialog === 'edit' ? quizId : null}
          courseId={courseId}
          onClose={() => setDialog(null)}
          onSaved={(saved) => {
            attach({ id: saved.id, questionsCount: saved.questions.length });
            setDialog(null);
          }}
        />
      )}
    </>
  );
}

const Fields = styled.section`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  min-width: 0;
  gap: 12px;
  align-content: start;
  h3 {
    margin: 0;
    font-size: 16px;
  }
`;
const Thumb = styled(PortalImage)`
  max-width: 100%;
  max-height: 160px;
  object-fit: contain;
  border-radius: ${({ theme }) => theme.radius};
  border: 1px solid ${({ theme }) => theme.colors.border};
`;
const QuizCard = styled.section`
  display: grid;
  gap: 4px;
  padding: 12px;
  border-radius: ${({ theme }) => theme.radius};
  border: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  p {
    margin: 0;
    font-size: 13px;
    overflow-wrap: anywhere;
  }
`;
const Buttons = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`;
