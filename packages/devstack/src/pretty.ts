import { prettyFactory } from 'pino-pretty';

/**
 * Turns a child's output into what a person reads in a terminal: each JSON log line (pino's)
 * becomes one coloured line (time, level, message, then the other fields); anything else passes as
 * it is. Output cut in the middle of a line is held until the rest arrives.
 */
export function prettyLines(prefix: string, { colorize = true }: { colorize?: boolean } = {}) {
  const pretty = prettyFactory({
    colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,name',
    singleLine: true,
  });
  let held = '';
  return (chunk: Buffer | string): string => {
    const text = held + chunk.toString();
    const end = text.lastIndexOf('\n');
    if (end === -1) {
      held = text;
      return '';
    }
    held = text.slice(end + 1);
    let out = '';
    for (const line of text.slice(0, end).split('\n')) {
      if (!line) continue;
      const shown = line.startsWith('{') ? (pretty(line) as string).replace(/\n$/, '') : line;
      out += `${prefix}${shown}\n`;
    }
    return out;
  };
}
