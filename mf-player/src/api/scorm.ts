import type { ScormAttemptOpenInput, ScormAttemptState, ScormLaunch, ScormLaunchInput } from '@portal/contracts';
import { apiRequest } from '@portal/web-core';

/** The learner's current attempt at a lesson's SCO (started if there is none; `fresh` starts a new one). */
export const openScormAttempt = (input: ScormAttemptOpenInput) =>
  apiRequest<ScormAttemptState>('/scorm/attempts', { method: 'POST', body: input });

/** The frame's signed address of the lesson's SCO (content service). */
export const launchScorm = (input: ScormLaunchInput) => apiRequest<ScormLaunch>('/scorm/launch', { method: 'POST', body: input });
