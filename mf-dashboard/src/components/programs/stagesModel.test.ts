/** @jest-environment jsdom */
import { programInputSchema } from '@portal/contracts';
import { errorsOfIssues, formWideErrors, stageErrorsOf } from './formErrors';
import { draftReducer, emptyDraft, emptyStage, inputOf, moveItem, newStageKey, type ProgramDraft } from './stagesModel';

const course = (id: string, title = id) => ({ id, title, published: true });

/** Three stages: the first with two courses, the second locked and counted from the first. */
function threeStages(): ProgramDraft {
  let draft = emptyDraft('a');
  draft = draftReducer(draft, { type: 'addStage', key: 'b' });
  draft = draftReducer(draft, { type: 'addStage', key: 'c' });
  draft = draftReducer(draft, { type: 'addCourse', stageKey: 'a', course: course('c1') });
  draft = draftReducer(draft, { type: 'addCourse', stageKey: 'a', course: course('c2') });
  return draftReducer(draft, { type: 'updateStage', key: 'b', patch: { locked: true, dueFrom: 'previous' } });
}

test('a new stage key is what the server accepts, and two in a row differ', () => {
  const a = newStageKey();
  const b = newStageKey();
  expect(a).toMatch(/^[A-Za-z0-9_-]{1,40}$/);
  expect(a).not.toBe(b);
});

test('a stage is added at the end with its number and counted from the previous one; the first from the assignment', () => {
  const draft = threeStages();
  expect(draft.stages.map((s) => [s.key, s.title, s.dueFrom])).toEqual([
    ['a', 'Этап 1', 'assigned'],
    ['b', 'Этап 2', 'previous'],
    ['c', 'Этап 3', 'previous'],
  ]);
});

test('a stage dragged to the top takes the first stage rules: counted from the assignment and not locked', () => {
  const draft = draftReducer(threeStages(), { type: 'moveStage', from: 1, to: 0 });
  expect(draft.stages.map((s) => s.key)).toEqual(['b', 'a', 'c']);
  expect(draft.stages[0]).toMatchObject({ key: 'b', dueFrom: 'assigned', locked: false });
  expect(draft.stages[1]).toMatchObject({ key: 'a', dueFrom: 'assigned' });
});

test('the first stage cannot be made locked or counted from a previous stage', () => {
  const draft = draftReducer(threeStages(), { type: 'updateStage', key: 'a', patch: { locked: true, dueFrom: 'previous' } });
  expect(draft.stages[0]).toMatchObject({ dueFrom: 'assigned', locked: false });
});

test('a course moves inside its stage, and the same course is not added twice to the program', () => {
  let draft = draftReducer(threeStages(), { type: 'moveCourse', stageKey: 'a', from: 0, to: 1 });
  expect(draft.stages[0].courses.map((c) => c.id)).toEqual(['c2', 'c1']);
  const before = draft;
  draft = draftReducer(draft, { type: 'addCourse', stageKey: 'b', course: course('c1') });
  expect(draft).toBe(before);
});

test('removing a course keeps «любые N» within the courses left', () => {
  let draft = draftReducer(threeStages(), { type: 'updateStage', key: 'a', patch: { required: 2 } });
  draft = draftReducer(draft, { type: 'removeCourse', stageKey: 'a', courseId: 'c2' });
  expect(draft.stages[0]).toMatchObject({ required: 1, courses: [course('c1')] });
});

test('a stage is removed, but never the last one', () => {
  let draft = draftReducer(threeStages(), { type: 'removeStage', key: 'a' });
  expect(draft.stages.map((s) => s.key)).toEqual(['b', 'c']);
  expect(draft.stages[0]).toMatchObject({ dueFrom: 'assigned', locked: false });
  draft = draftReducer(draft, { type: 'removeStage', key: 'b' });
  const last = draftReducer(draft, { type: 'removeStage', key: 'c' });
  expect(last.stages.map((s) => s.key)).toEqual(['c']);
});

test('a move outside the list changes nothing', () => {
  expect(moveItem([1, 2, 3], 0, 5)).toEqual([1, 2, 3]);
  expect(moveItem([1, 2, 3], 2, 0)).toEqual([3, 1, 2]);
});

test('the draft becomes the input the contracts accept, stage keys and course order kept', () => {
  const draft = draftReducer(threeStages(), { type: 'setField', field: 'title', value: 'Адаптация' });
  const input = inputOf(draft);
  expect(input.stages[0]).toEqual({
    key: 'a',
    title: 'Этап 1',
    courseIds: ['c1', 'c2'],
    required: null,
    dueDays: 14,
    dueFrom: 'assigned',
    locked: false,
  });
  expect(programInputSchema.safeParse({ ...input, stages: [input.stages[0]] }).success).toBe(true);
});

test('the schema problems land on their stage field, and the rest on the form', () => {
  const draft = { ...emptyDraft('a'), stages: [{ ...emptyStage('a', 1), title: ' ', dueDays: 0 }] };
  const checked = programInputSchema.safeParse(inputOf(draft));
  expect(checked.success).toBe(false);
  const errors = errorsOfIssues(checked.error!.issues);
  expect(errors.title).toBe('Введите название программы');
  expect(stageErrorsOf(errors, 0)).toEqual({
    title: 'Введите название этапа',
    dueDays: 'Срок этапа — целое число дней от 1 до 730',
  });
  expect(formWideErrors({ ...errors, stages: 'Ключи этапов повторяются' })).toEqual(['Ключи этапов повторяются']);
});
