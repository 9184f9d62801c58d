import { GENERATION_MSG } from '@portal/contracts';

/**
 * Why a generation stopped, in words for the author. A job that throws this ends as failed with
 * the message; anything else ends as failed with `providerFailed` (the details go to the log only).
 */
export class GenerationFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GenerationFailure';
  }
}

/** The author cancelled: the job ends as cancelled, not failed. */
export class GenerationCancelled extends Error {
  constructor() {
    super(GENERATION_MSG.cancelled);
    this.name = 'GenerationCancelled';
  }
}

/** Between writes and calls: stop as soon as the author cancels. */
export const checkSignal = (signal: AbortSignal): void => {
  if (signal.aborted) throw new GenerationCancelled();
};
