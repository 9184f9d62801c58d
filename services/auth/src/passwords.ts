import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (19 MiB, 2 passes): OWASP's recommended minimum.
export const hashPassword = (password: string): Promise<string> => hash(password);

let dummyHash: Promise<string> | null = null;

/** Verifies in constant-ish time even for unknown emails, so timing does not reveal accounts. */
export const verifyPassword = async (stored: string | undefined, password: string): Promise<boolean> => {
  if (!stored) {
    dummyHash ??= hash('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
};
