import { CANDIDATE_LINK_MSG } from './candidateLinkRules';
import { MAX_LINK_TIME_LIMIT, MAX_LINK_USES, candidateLinkCreateSchema } from './candidateLinks';

const ID = '6743a1f0c2b5e80012ab34cd';
const LINK = { courseId: ID, lessonId: ID, validUntil: '2099-12-31', showResult: false };

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error!.issues[0].message;

describe('the limits of a candidate link', () => {
  it.each([
    ['maxUses', MAX_LINK_USES],
    ['timeLimitMinutes', MAX_LINK_TIME_LIMIT],
  ])('%s may be left out, empty, or a whole number from 1 to %i', (field, max) => {
    for (const value of [undefined, null, 1, max]) {
      expect(candidateLinkCreateSchema.safeParse({ ...LINK, [field]: value }).success).toBe(true);
    }
  });

  it.each([
    ['maxUses', MAX_LINK_USES, CANDIDATE_LINK_MSG.maxUsesInvalid],
    ['timeLimitMinutes', MAX_LINK_TIME_LIMIT, CANDIDATE_LINK_MSG.timeLimitInvalid],
  ])('%s refuses anything else with its one message', (field, max, message) => {
    for (const value of [0, max + 1, 2.5, '10']) {
      expect(messageOf(candidateLinkCreateSchema.safeParse({ ...LINK, [field]: value }))).toBe(message);
    }
  });
});
