import { useId, useState } from 'react';
import styled from 'styled-components';
import { VERSION_MSG, VERSION_SUMMARY_MAX, publishVersionSchema, type DraftState, type StructureChange } from '@portal/contracts';
import { Check, Field, FormActions, Muted, PlainList, TextArea } from '@portal/ui';
import { Dialog, DialogForm } from '../../../components/Dialog';
import { ActionError } from './ActionError';
import { VERSIONS_UI, blockChangesText, countsText, retakeLabel } from './texts';
import { useDraftAction, useVersionsApi } from './useVersions';

interface PublishDialogProps {
  courseId: string;
  draft: DraftState;
  prepare: () => Promise<boolean>;
  onClose: () => void;
}

/**
 * «Опубликовать изменения»: the author says what changed (required, up to 500 characters), marks the
 * changed lessons learners must take again, and the draft becomes the next version. The publish is
 * based on the version this draft state names, so one made meanwhile by a co-author is not overrun.
 */
export function PublishDialog({ courseId, draft, prepare, onClose }: PublishDialogProps) {
  const api = useVersionsApi();
  const [summary, setSummary] = useState('');
  const [summaryError, setSummaryError] = useState<string>();
  const [retake, setRetake] = useState<ReadonlySet<string>>(new Set());
  const { busy, failure, setFailure, run } = useDraftAction(courseId, prepare);
  const ids = useId();

  const { lessons, blocks, counts } = draft.diff;
  const of = (kind: StructureChange['kind']) => lessons.filter((l) => l.kind === kind);
  const changed = of('changed');

  const toggleRetake = (lessonId: string, on: boolean) =>
    setRetake((before) => {
      const next = new Set(before);
      if (on) next.add(lessonId);
      else next.delete(lessonId);
      return next;
    });

  const publish = async () => {
    const checked = publishVersionSchema.shape.summary.safeParse(summary);
    if (!checked.success) {
      setSummaryError(checked.error.issues[0]?.message ?? VERSION_MSG.summaryRequired);
      return;
    }
    setSummaryError(undefined);
    await run(
      () =>
        api.publish(courseId, {
          summary: checked.data,
          basedOn: draft.publishedVersion,
          // Only lessons this publish changes may ask for a retake (the list may have shrunk since they were marked).
          retakeLessonIds: changed.filter((l) => retake.has(l.id)).map((l) => l.id),
        }),
      onClose,
    );
  };

  return (
    <Dialog title={VERSIONS_UI.publishChanges} onClose={onClose} wide>
      <DialogForm onSubmit={() => void publish()}>
        <Muted>{countsText(counts)}</Muted>
        <Field
          label={VERSIONS_UI.summaryLabel}
          required
          error={summaryError}
          hint={`${VERSIONS_UI.summaryHint} ${summary.length} / ${VERSION_SUMMARY_MAX}`}
        >
          <TextArea rows={3} value={summary} onChange={(e) => setSummary(e.target.value)} data-autofocus />
        </Field>
        {changed.length > 0 && (
          <Section aria-labelledby={`${ids}-changed`}>
            <h3 id={`${ids}-changed`}>{VERSIONS_UI.changedLessons}</h3>
            <Muted>{VERSIONS_UI.retakeHint}</Muted>
            <PlainList>
              {changed.map((lesson) => (
                <LessonRow key={lesson.id}>
                  <span>
                    {lesson.title} <Muted as="span">· {blockChangesText(blocks[lesson.id] ?? [])}</Muted>
                  </span>
                  <Check
                    label={VERSIONS_UI.retake}
                    aria-label={retakeLabel(lesson.title)}
                    checked={retake.has(lesson.id)}
                    onChange={(e) => toggleRetake(lesson.id, e.target.checked)}
                  />
                </LessonRow>
              ))}
            </PlainList>
          </Section>
        )}
        <TitleList id={`${ids}-added`} title={VERSIONS_UI.addedLessons} items={of('added')} />
        <TitleList id={`${ids}-removed`} title={VERSIONS_UI.removedLessons} items={of('removed')} />
        {failure !== null && <ActionError courseId={courseId} error={failure} onRefreshed={() => setFailure(null)} />}
        <FormActions submitLabel={VERSIONS_UI.publish} busy={busy} onCancel={onClose} />
      </DialogForm>
    </Dialog>
  );
}

function TitleList({ id, title, items }: { id: string; title: string; items: StructureChange[] }) {
  if (items.length === 0) return null;
  return (
    <Section aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      <PlainList $gap={4}>
        {items.map((item) => (
          <li key={item.id}>{item.title}</li>
        ))}
      </PlainList>
    </Section>
  );
}

const Section = styled.section`
  display: grid;
  gap: 8px;
  h3 {
    margin: 0;
    font-size: 16px;
  }
  p {
    margin: 0;
    font-size: 13px;
  }
`;
const LessonRow = styled.li`
  display: flex;
  justify-content: space-between;
  align-items: center;
  gap: 12px;
  flex-wrap: wrap;
  span {
    overflow-wrap: anywhere;
  }
`;
