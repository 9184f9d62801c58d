import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; secrets are redacted wherever they might appear. */
export const createLogger = (name: string, level = process.env.LOG_LEVEL ?? 'info'): Logger =>
  pino({
    name,
    level,
    redact: {
      paths: ['password', '*.password', 'adminPassword', '*.adminPassword', 'req.headers.authorization', 'token', '*.token'],
      censor: '[скрыто]',
    },
  });
