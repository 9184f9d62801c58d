import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run, say, which } from './util';

/** Where `go install`/our builds put programs: `$(go env GOPATH)/bin`, or null without Go. */
export const goBin = (): string | null => {
  const go = which('go', ['/usr/local/go/bin/go']);
  if (!go) return null;
  const gopath = spawnSync(go, ['env', 'GOPATH'], { encoding: 'utf8' }).stdout.trim();
  return gopath ? path.join(gopath, 'bin') : null;
};

/** A program built from the Go module proxy: in GOPATH's bin, else on the PATH; null when neither has it. */
export function goProgramPath(binary: string): string | null {
  const bin = goBin();
  const candidate = bin ? path.join(bin, binary) : null;
  if (candidate && existsSync(candidate)) return candidate;
  return which(binary);
}

export interface GoModuleBuild {
  /** The program's file name in GOPATH's bin. */
  binary: string;
  /** What it is, for the messages ("FerretDB v1.24.2"). */
  name: string;
  module: string;
  version: string;
  /** The package to build, relative to the module (`./cmd/ferretdb`). */
  pkg: string;
  /** Changes to the module's copy before the build (a generated file the zip lacks). */
  prepare?: (dir: string) => void;
}

/**
 * Builds a program from its module on the Go module proxy when it is missing: downloaded, copied
 * (the cache is read-only) and built as the main module, so its own replace directives apply, which
 * `go install` refuses.
 */
export function installGoProgram({ binary, name, module, version, pkg, prepare }: GoModuleBuild): string {
  const existing = goProgramPath(binary);
  if (existing) return existing;
  const go = which('go', ['/usr/local/go/bin/go']);
  const bin = goBin();
  if (!go || !bin) throw new Error(`${name} is not installed and Go is not available to build it`);
  say(`installing ${name} ${version} (go build, once per machine)...`);
  const env = { ...process.env, GOFLAGS: '-mod=mod -buildvcs=false' };
  const download = spawnSync(go, ['mod', 'download', '-json', `${module}@${version}`], { encoding: 'utf8', env });
  if (download.status !== 0) throw new Error(`go mod download failed: ${download.stderr || download.stdout}`);
  const { Dir } = JSON.parse(download.stdout) as { Dir: string };
  const work = mkdtempSync(path.join(tmpdir(), `${binary}-src-`));
  try {
    cpSync(Dir, work, { recursive: true });
    spawnSync('chmod', ['-R', 'u+w', work]);
    prepare?.(work);
    mkdirSync(bin, { recursive: true });
    const target = path.join(bin, binary);
    run(go, ['build', '-o', target, pkg], { cwd: work, env });
    chmodSync(target, 0o755);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
