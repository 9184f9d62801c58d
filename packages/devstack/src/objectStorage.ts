import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startProcess, type ManagedProcess } from './processes';
import { freePort, portAnswers, run, say, waitFor, which } from './util';

/**
 * SeaweedFS (Apache-2.0), the S3-compatible server the tests run the S3 backend against: the
 * newest build the Go module proxy served here. Its go.mod has a replace directive, so it is built
 * as the main module from a copy of the module, not with `go install`.
 */
export const SEAWEEDFS_VERSION = 'v0.0.0-20261109003541-7506e5f91cd6';
const SEAWEEDFS_MODULE = 'github.com/seaweedfs/seaweedfs';

const goBin = (): string | null => {
  const go = which('go', ['/usr/local/go/bin/go']);
  if (!go) return null;
  const gopath = spawnSync(go, ['env', 'GOPATH'], { encoding: 'utf8' }).stdout.trim();
  return gopath ? path.join(gopath, 'bin') : null;
};

export function weedPath(): string | null {
  const bin = goBin();
  const candidate = bin ? path.join(bin, 'weed') : null;
  if (candidate && existsSync(candidate)) return candidate;
  return which('weed');
}

/** Builds SeaweedFS's `weed` from the Go module proxy when it is missing (several CPU-minutes, once per machine). */
export function installSeaweedFS(): string {
  const existing = weedPath();
  if (existing) return existing;
  const go = which('go', ['/usr/local/go/bin/go']);
  const bin = goBin();
  if (!go || !bin) throw new Error('SeaweedFS is not installed and Go is not available to build it');
  say(`installing SeaweedFS ${SEAWEEDFS_VERSION} (go build, several minutes the first time)...`);
  const env = { ...process.env, GOFLAGS: '-mod=mod -buildvcs=false' };
  const download = spawnSync(go, ['mod', 'download', '-json', `${SEAWEEDFS_MODULE}@${SEAWEEDFS_VERSION}`], {
    encoding: 'utf8',
    env,
  });
  if (download.status !== 0) throw new Error(`go mod download failed: ${download.stderr || download.stdout}`);
  const { Dir } = JSON.parse(download.stdout) as { Dir: string };
  const work = mkdtempSync(path.join(tmpdir(), 'seaweedfs-src-'));
  try {
    cpSync(Dir, work, { recursive: true });
    spawnSync('chmod', ['-R', 'u+w', work]);
    mkdirSync(bin, { recursive: true });
    const target = path.join(bin, 'weed');
    run(go, ['build', '-o', target, './weed'], { cwd: work, env });
    chmodSync(target, 0o755);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

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

/** Starts the same server again (same folder, ports and identity) after it was stopped. */
export const restartS3Server = (server: S3Server, name = 's3'): Promise<S3Server> =>
  startS3Server({ dir: server.dir, ports: server.ports, name, credentials: server });

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
