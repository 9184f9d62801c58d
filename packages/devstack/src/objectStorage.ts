import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { goProgramPath, installGoProgram } from './goModules';
import { startProcess, type ManagedProcess } from './processes';
import { freePort, portAnswers, waitFor } from './util';

/**
 * SeaweedFS (Apache-2.0), the S3-compatible server the tests run the S3 backend against: the
 * newest build the Go module proxy served here. Its go.mod has a replace directive, so it is built
 * as the main module from a copy of the module, not with `go install`.
 */
export const SEAWEEDFS_VERSION = 'v0.0.0-20261109003541-7506e5f91cd6';
const SEAWEEDFS_MODULE = 'github.com/seaweedfs/seaweedfs';

export const weedPath = (): string | null => goProgramPath('weed');

/** Builds SeaweedFS's `weed` from the Go module proxy when it is missing (several CPU-minutes, once per machine). */
export const installSeaweedFS = (): string =>
  installGoProgram({
    binary: 'weed',
    name: 'SeaweedFS',
    module: SEAWEEDFS_MODULE,
    version: SEAWEEDFS_VERSION,
    pkg: './weed',
  });

export interface S3Server {
  /** `http://127.0.0.1:<port>`: the S3 API. */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  process: ManagedProcess;
  /** Where it keeps its data: a restart on the same folder finds what was stored. */
  dir: string;
  ports: WeedPorts;
}

type WeedPorts = Awaited<ReturnType<typeof weedPorts>>;

/** The ports one `weed server` listens on, each with its gRPC twin. */
async function weedPorts() {
  const ports: number[] = [];
  while (ports.length < 8) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  const [master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3, s3Grpc] = ports;
  return { master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3, s3Grpc };
}

/**
 * Starts the same server again (same folder, ports and identity) after it was stopped: its volumes
 * and its filer (every object, every unfinished multipart upload) are kept. The master's own Raft
 * state is not: it holds only the cluster's layout, which the server's volume server reports again
 * on its first heartbeat, and a master that resumes it refuses every write for a fixed 15 s warm-up
 * (three 5 s pulses, not configurable) waiting for volume servers this one process starts itself.
 */
export const restartS3Server = (server: S3Server, name = 's3'): Promise<S3Server> => {
  rmSync(path.join(server.dir, 'data', `m${server.ports.master}`), { recursive: true, force: true });
  return startS3Server({ dir: server.dir, ports: server.ports, name, credentials: server });
};

/**
 * Starts a SeaweedFS server (master, volume, filer and the S3 gateway in one process) on loopback,
 * with one identity allowed everything, and waits until the S3 API answers. `dir` keeps its data;
 * a server started again on the same `dir` and `credentials` serves what the last one stored.
 */
export async function startS3Server({
  dir = mkdtempSync(path.join(tmpdir(), 'portal-s3-')),
  credentials = {
    accessKeyId: `portal${randomBytes(4).toString('hex')}`,
    secretAccessKey: randomBytes(18).toString('base64url'),
  },
  name = 's3',
  ports: given,
}: {
  dir?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  name?: string;
  /** The last server's ports, to start it again where its clients look for it. */
  ports?: WeedPorts;
} = {}): Promise<S3Server> {
  const weed = installSeaweedFS();
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  const config = path.join(dir, 's3.json');
  writeFileSync(
    config,
    JSON.stringify({
      identities: [
        {
          name: 'portal',
          credentials: [{ accessKey: credentials.accessKeyId, secretKey: credentials.secretAccessKey }],
          actions: ['Admin', 'Read', 'List', 'Tagging', 'Write'],
        },
      ],
    }),
  );
  const ports = given ?? (await weedPorts());
  const proc = startProcess(name, weed, [
    'server',
    `-dir=${path.join(dir, 'data')}`,
    '-ip=127.0.0.1',
    '-ip.bind=127.0.0.1',
    `-master.port=${ports.master}`,
    `-master.port.grpc=${ports.masterGrpc}`,
    // Small volumes: a test machine's disk, not a data centre's.
    '-master.volumeSizeLimitMB=64',
    `-volume.port=${ports.volume}`,
    `-volume.port.grpc=${ports.volumeGrpc}`,
    '-volume.max=16',
    `-filer.port=${ports.filer}`,
    `-filer.port.grpc=${ports.filerGrpc}`,
    '-s3',
    `-s3.port=${ports.s3}`,
    `-s3.port.grpc=${ports.s3Grpc}`,
    `-s3.config=${config}`,
    // Its catalogue servers would take fixed ports (8181, 9101): two servers could not run at once.
    '-s3.port.iceberg=0',
    '-s3.port.lance=0',
  ]);
  try {
    await waitFor(() => portAnswers(ports.s3), 'SeaweedFS S3', 60_000);
    // Writable once the master can place a file on a volume (after a restart that takes seconds).
    await waitFor(
      async () => {
        const answer = await fetch(`http://127.0.0.1:${ports.master}/dir/assign`).catch(() => null);
        return !!answer?.ok && typeof ((await answer.json()) as { fid?: string }).fid === 'string';
      },
      'SeaweedFS volumes',
      60_000,
    );
  } catch (err) {
    await proc.stop('SIGKILL');
    throw err;
  }
  return { endpoint: `http://127.0.0.1:${ports.s3}`, ...credentials, process: proc, dir, ports };
}
