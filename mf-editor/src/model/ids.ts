/** A random UUID v4; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newId(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') {
    try {
      return c.randomUUID();
    } catch {
      /* not a secure context: fall through */
    }
  }
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A new record's id as the store makes them (an ObjectId's 24 hex digits: its second, then 8 random bytes). */
export const newRecordId = (): string =>
  Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0') +
  Array.from(globalThis.crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
