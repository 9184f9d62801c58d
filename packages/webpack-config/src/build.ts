import path from 'node:path';
import webpack, { type Configuration } from 'webpack';

/** Builds one front end (the folder given, or the current one) with its webpack.config.ts. */
export async function buildFrontend(dir: string, mode: 'production' | 'development' = 'production'): Promise<void> {
  const mod = (await import(path.join(dir, 'webpack.config.ts'))) as { default: (mode: string) => Configuration };
  const factory =
    typeof mod.default === 'function' ? mod.default : (mod.default as { default: (m: string) => Configuration }).default;
  const config = factory(mode);
  await new Promise<void>((resolve, reject) => {
    webpack(config, (err, stats) => {
      if (err) return reject(err);
      if (stats?.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true, colors: false })));
      resolve();
    });
  });
}

if (require.main === module) {
  const dir = path.resolve(process.argv[2] ?? process.cwd());
  const started = Date.now();
  buildFrontend(dir).then(
    () => console.log(`built ${path.basename(dir)} in ${((Date.now() - started) / 1000).toFixed(1)} s`),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
