import type { AuditCode, AuditDataOf } from '@portal/contracts';

/**
 * How a record written before the codes (free-text details only) reads as a code with its data:
 * the details' pattern, and the data its groups give. The migration accepts a reading only when the
 * code's definition, given that data, writes the stored details back exactly, so a record is never
 * misread; one no kind reads keeps its stored text.
 */
export interface LegacyKind<C extends AuditCode = AuditCode> {
  code: C;
  pattern: RegExp;
  data(match: RegExpExecArray): AuditDataOf<C>;
  /** A record of this kind as the service wrote it, and the feed's phrase of it (after the person's name, a man's verb). */
  example: { details: string; phrase: string };
}

export const legacy = <C extends AuditCode>(
  code: C,
  pattern: RegExp,
  data: (match: RegExpExecArray) => AuditDataOf<C>,
  example: LegacyKind['example'],
): LegacyKind => ({ code, pattern, data, example }) as LegacyKind;
