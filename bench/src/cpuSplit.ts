import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import type { Stack } from '@portal/devstack/stack';
import { round } from './harness';

/* ------------------------------------------------------------------------------ where the CPU goes */

/** The fields of /proc/<pid>/stat after the command's name (field 3 is the first), or null when it is gone. */
export function statOf(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc (clock ticks of 1/100 s). */
export function cpuOfPid(pid: number | undefined): number {
  const fields = pid ? statOf(pid) : null;
  return fields ? (Number(fields[11]) + Number(fields[12])) / 100 : 0; // utime and stime, fields 14 and 15
}

/**
 * Every PostgreSQL process on this machine (the server FerretDB runs on): their CPU together, and
 * the backends that ended meanwhile, which their server has reaped into its children's time (cutime
 * and cstime): a sum of the living alone drops when a connection closes.
 */
export function cpuOfPostgres(): number {
  let sum = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const fields = statOf(Number(entry));
      if (!fields) continue;
      sum += (Number(fields[11]) + Number(fields[12])) / 100;
      const parent = Number(fields[1]);
      const parentIsPostgres = readFileSync(`/proc/${parent}/comm`, 'utf8').trim() === 'postgres';
      if (!parentIsPostgres) sum += (Number(fields[13]) + Number(fields[14])) / 100; // the server: its reaped backends
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}

/** The store's FerretDB: the launcher's own child, or (a store someone else started) the process listening on its port. */
export const storePidOf = (store: { url: string; pid?: number }): number | undefined =>
  store.pid ?? pidListeningOn(Number(new URL(store.url).port || 27017));

/** The process listening on a TCP port of this machine (the launcher's store when someone else started it), from /proc. */
export function pidListeningOn(port: number): number | undefined {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cells = line.trim().split(/\s+/);
      // local address, state 0A (LISTEN), the socket's inode
      if (cells[1]?.endsWith(`:${hexPort}`) && cells[3] === '0A') inodes.add(cells[9]);
    }
  }
  if (!inodes.size) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      for (const fd of readdirSync(`/proc/${entry}/fd`)) {
        const target = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${entry}/fd/${fd}`));
        if (target && inodes.has(target[1])) return Number(entry);
      }
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return undefined;
}

/**
 * What the CPU split reads: the store's FerretDB and every PostgreSQL process, each process of the
 * stack, and this process (the load generator).
 */
export function stackCpuParts(stack: Stack, storePid?: number): () => Record<string, number> {
  return () => {
    const parts: Record<string, number> = { ferretdb: cpuOfPid(storePid), postgresql: cpuOfPostgres() };
    for (const [name, proc] of stack.processes) parts[name] = cpuOfPid(proc.child.pid);
    parts['load generator'] = process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6;
    return parts;
  };
}

/** CPU milliseconds per answered request in each process between two readings, largest first. */
export function cpuSplitNote(before: Record<string, number>, after: Record<string, number>, requests: number): string {
  const per = Object.keys(after)
    .map((name) => [name, ((after[name] - (before[name] ?? 0)) * 1000) / Math.max(requests, 1)] as const)
    .filter(([, msPer]) => msPer >= 0.05)
    .sort((a, b) => b[1] - a[1]);
  return `CPU ms per request: ${per.map(([name, msPer]) => `${name} ${round(msPer, 2)}`).join(', ')}`;
}
