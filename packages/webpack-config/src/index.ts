import path from 'node:path';
import { readFileSync, statSync } from 'node:fs';
import { Compilation, sources, type Compiler, type Configuration } from 'webpack';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import CompressionPlugin from 'compression-webpack-plugin';
import MinimizerPlugin from 'minimizer-webpack-plugin';
import { constants as zlib, type BrotliOptions } from 'node:zlib';
import { PAGE_BOOT_SCRIPT } from '@portal/contracts';
import { prerender } from './prerender';

const ROOT = path.resolve(__dirname, '../../..');
const versionOf = (pkg: string): string =>
  (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * Singletons shared by the host and every remote: one React, one styled-components, one query
 * client library, and the portal's web core (auth state, theme, query cache are one across the
 * page). The trailing-slash keys cover deep imports such as react-dom/client and react/jsx-runtime.
 * Stateless packages (@portal/contracts, @portal/ui) are bundled by each app instead: a singleton
 * would hand a newly deployed remote the shell's older copy. The web core is the shell's contract
 * with the remotes; changing it means redeploying the shell.
 */
export function sharedSingletons() {
  // No requiredVersion: for a singleton the federation runtime only compares it to log a warning,
  // and each comparison parses semver ranges with freshly built regular expressions, about 50 ms
  // of a phone's CPU on every page (bench/src/pageprofile.ts). Every app is built from the one
  // lockfile, so the versions offered are the same ones.
  const single = (pkg: string, version = versionOf(pkg)) => ({ singleton: true, requiredVersion: false as const, version });
  return {
    react: single('react'),
    'react/': single('react'),
    'react-dom': single('react-dom'),
    'react-dom/': single('react-dom'),
    'styled-components': single('styled-components'),
    '@tanstack/react-query': single('@tanstack/react-query'),
    '@portal/web-core': { singleton: true, requiredVersion: false as const, version: '0.1.0' },
    // The query cache apart, so that a page without server lists loads no TanStack Query.
    '@portal/web-core/query': { singleton: true, requiredVersion: false as const, version: '0.1.0' },
  };
}

/**
 * The singletons every page uses come in the shell's entry (`eager`), the same copies it offers the
 * remotes. Loaded as shared chunks of their own, each was one more script for the federation
 * runtime to ask for and insert, after the entry had run (on a phone 10–20 ms a script), and a page
 * waited for all of them before its first module ran. The query cache stays a chunk of its own: a
 * visitor's landing does without it.
 */
const EAGER_IN_HOST = ['react', 'react/', 'react-dom', 'react-dom/', 'styled-components', '@portal/web-core'] as const;

export function hostShared() {
  const shared: Record<
    string,
    ReturnType<typeof sharedSingletons>[keyof ReturnType<typeof sharedSingletons>] & { eager?: boolean }
  > = sharedSingletons();
  for (const key of EAGER_IN_HOST) shared[key] = { ...shared[key], eager: true };
  return shared;
}

type Mode = 'production' | 'development';

const HOUR_MS = 3_600_000;
/**
 * How long files of earlier builds stay in dist beside a new one (PREVIOUS_BUILD_GRACE_HOURS,
 * default 24): a tab opened before a redeploy still loads the hashed chunks its old entry names.
 */
export const previousBuildGraceMs = (env: NodeJS.ProcessEnv = process.env): number => {
  const hours = Number(env.PREVIOUS_BUILD_GRACE_HOURS ?? 24);
  return Number.isFinite(hours) && hours >= 0 ? hours * HOUR_MS : 24 * HOUR_MS;
};

/** Keeps a file an earlier build left in `outDir` while it is younger than the grace period. */
export const youngerThanGrace = (outDir: string, graceMs: number) => (file: string) => {
  const info = statSync(path.join(outDir, file), { throwIfNoEntry: false });
  return !!info && Date.now() - info.mtimeMs < graceMs;
};

/**
 * Every text file of a production build also as `.br` (brotli 11) and `.gz` (gzip 9) beside it, so
 * servers send the smallest form without compressing on each request: the gateway from disk, nginx
 * (gzip_static) in the images. Brotli 11 is 13% smaller than the gzip a server makes on the fly
 * (the shell's files: 135 KB against 154 KB), and on a phone's slow link the first load's bytes
 * are most of its time.
 */
const precompressed = () => {
  const common = { test: /\.(js|css|html|json|svg)$/, threshold: 1024, minRatio: 0.9 };
  return [
    new CompressionPlugin({ ...common, filename: '[path][base].gz', algorithm: 'gzip', compressionOptions: { level: 9 } }),
    new CompressionPlugin<BrotliOptions>({
      ...common,
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } },
    }),
  ];
};

/**
 * Writes version.json beside the entry: the package's name and version, this build's hash and
 * time, which the shell's «О системе» shows for itself and each remote.
 */
class VersionFilePlugin {
  constructor(private readonly dir: string) {}

  apply(compiler: Compiler) {
    compiler.hooks.thisCompilation.tap('VersionFilePlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'VersionFilePlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const pkg = JSON.parse(readFileSync(path.join(this.dir, 'package.json'), 'utf8')) as { name: string; version: string };
        const version = {
          name: pkg.name,
          version: pkg.version,
          hash: compilation.hash?.slice(0, 10),
          builtAt: new Date().toISOString(),
        };
        compilation.emitAsset('version.json', new sources.RawSource(`${JSON.stringify(version)}\n`));
      });
    });
  }
}

/** V8's explicit compile hint (Chrome 136+): every function of the file is compiled as it streams in. */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Puts V8's compile hint atop every script of the build. V8 otherwise compiles a function lazily,
 * on the main thread, the first time it is called, after pre-parsing it once already; a page's start
 * calls most of what its entry, its remote's entry and exposed module and the shared libraries hold,
 * so that compile became part of its long tasks. With the hint a file is compiled on a background
 * thread while it downloads (a chunk loaded later, on demand, is compiled the same way when it comes).
 * Added after minifying (which drops comments) and before the source maps and the compressed copies
 * are made.
 */
class CompileHintPlugin {
  apply(compiler: Compiler) {
    compiler.hooks.thisCompilation.tap('CompileHintPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'CompileHintPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1 },
        (assets) => {
          for (const file of Object.keys(assets))
            if (file.endsWith('.js'))
              compilation.updateAsset(file, (source) => new sources.ConcatSource(`${COMPILE_HINT}\n`, source));
        },
      );
    });
  }
}

function baseConfig(dir: string, mode: Mode): Configuration {
  return {
    mode,
    context: dir,
    entry: { main: './src/index.ts' },
    devtool: mode === 'production' ? 'source-map' : 'eval-cheap-module-source-map',
    output: {
      path: path.join(dir, 'dist'),
      publicPath: 'auto',
      // Entry files keep stable names (served with no-cache); everything they load is content-hashed.
      filename: '[name].js',
      chunkFilename: mode === 'production' ? '[name].[contenthash:10].js' : '[name].js',
      // A rebuild removes only files older than the grace period: open tabs keep their chunks.
      clean: { keep: youngerThanGrace(path.join(dir, 'dist'), previousBuildGraceMs()) },
      uniqueName: path.basename(dir),
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      // Workspace packages are compiled from source.
      conditionNames: ['source', 'browser', 'import', 'module', 'default'],
    },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic' } },
                target: 'es2020',
              },
            },
          },
        },
      ],
    },
    plugins: [new VersionFilePlugin(dir), ...(mode === 'production' ? [new CompileHintPlugin(), ...precompressed()] : [])],
    // swc's minifier instead of webpack's default terser: half the build's time, and output within 1%
    // of terser's (decision 108). It minifies JavaScript alone: the shell's HTML, whose boot script
    // must stay byte for byte the text the gateway's policy allows by its hash, is left as it is.
    optimization:
      mode === 'production'
        ? { minimizer: [new MinimizerPlugin({ minify: MinimizerPlugin.swcMinify, terserOptions: { compress: { passes: 2 } } })] }
        : {},
    performance: { hints: false },
    stats: 'errors-warnings',
    infrastructureLogging: { level: 'error' },
  };
}

export interface RemoteOptions {
  dir: string;
  /** The federation scope, e.g. mf_courses. */
  name: string;
  exposes: Record<string, string>;
}

export function remoteConfig({ dir, name, exposes }: RemoteOptions, mode: Mode = 'production'): Configuration {
  const config = baseConfig(dir, mode);
  config.plugins = [
    ...(config.plugins ?? []),
    new ModuleFederationPlugin({
      name,
      filename: 'remoteEntry.js',
      exposes,
      shared: sharedSingletons(),
      shareStrategy: 'loaded-first',
      manifest: true,
      dts: false,
      // The host provides the federation runtime once; each remoteEntry stays small.
      experiments: { externalRuntime: true, optimization: { disableRemote: true, target: 'web' } },
    }),
  ];
  return config;
}

export interface HostOptions {
  dir: string;
  title: string;
  /**
   * The landing's pre-render script (from the repository's root): a production build also writes
   * `landing.html`, the page with the landing's first view in it, which is served for `/`.
   */
  landing?: string;
}

export function hostConfig({ dir, title, landing }: HostOptions, mode: Mode = 'production'): Configuration {
  const config = baseConfig(dir, mode);
  config.output = { ...config.output, publicPath: '/' };
  config.plugins = [
    ...(config.plugins ?? []),
    new ModuleFederationPlugin({
      name: 'shell',
      remotes: {},
      shared: hostShared(),
      shareStrategy: 'loaded-first',
      dts: false,
      // The runtime it provides runs in browsers only: its Node loaders are left out (ENV_TARGET).
      experiments: { provideExternalRuntime: true, optimization: { target: 'web' } },
    }),
    new HtmlWebpackPlugin({ template: './src/index.html', title, scriptLoading: 'defer', bootScript: PAGE_BOOT_SCRIPT }),
    ...(landing && mode === 'production'
      ? [
          new HtmlWebpackPlugin({
            template: './src/index.html',
            filename: 'landing.html',
            title,
            scriptLoading: 'defer',
            bootScript: PAGE_BOOT_SCRIPT,
            prerendered: prerender(landing),
          }),
        ]
      : []),
  ];
  return config;
}
