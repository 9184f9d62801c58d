/**
 * jest's module runtime with V8's code cache: every test file gets a fresh module registry, so each
 * worker compiled the same 1,800 modules (about 15 MB: mongoose, zod, bullmq, the services) again for
 * every file. The compiled code of each module is kept on disk beside jest's transform cache, keyed by
 * the source's hash, and V8 takes it instead of parsing the source again.
 *
 * It also ends each file's AsyncLocalStorages with the file. A service makes one (its request scope,
 * which also carries the route its store commands are counted under) and never ends it, as a process
 * makes it once. On Node 20
 * every promise made anywhere in the worker then calls each enabled storage, so a worker's
 * twentieth file paid for the nineteen before it: 5.6% of a progress run's CPU (decision 110).
 */
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { compileFunction } = require('node:vm');
const Runtime = require('jest-runtime').default;

/**
 * What a worker has read once, for all its files: the modules' sources and their compiled code. The
 * files do not change during a run, and each file reading them anew cost 3,600 reads of the disk.
 */
const sources = new Map();
const compiledCode = new Map();

/** The last key made for each module: a later file's same source is compared, not hashed again. */
const keys = new Map();

/** The code cache's key of a module: its wrapper's parameters and its source, hashed. */
function keyOf(params, scriptSource, filename) {
  const wrapper = params.join(',');
  const known = keys.get(filename);
  if (known && known.wrapper === wrapper && known.source === scriptSource) return known.key;
  const key = createHash('sha1').update(wrapper).update('\0').update(scriptSource).digest('hex');
  keys.set(filename, { wrapper, source: scriptSource, key });
  return key;
}

/** Compiles a module with its cached code when there is one, and keeps the code of one compiled without. */
function compileCached(executor, jestCompile, scriptSource, filename) {
  const vmContext = executor.environment.getVmContext();
  if (vmContext == null || !path.isAbsolute(filename)) return jestCompile(scriptSource, filename);
  const params = executor.injectedModuleParameters;
  // Pruned at each run's start (packages/devstack/src/codeCache.ts, which names the folders alike).
  const dir = path.join(executor.config.cacheDirectory, `v8-code-cache-${process.versions.v8}`);
  const key = keyOf(params, scriptSource, filename);
  const file = path.join(dir, key.slice(0, 2), key);
  let cachedData = compiledCode.get(file);
  if (cachedData === undefined) {
    try {
      cachedData = readFileSync(file);
      compiledCode.set(file, cachedData);
    } catch {
      cachedData = undefined;
    }
  }
  let compiled;
  try {
    compiled = compileFunction(scriptSource, params, {
      filename,
      cachedData,
      produceCachedData: cachedData === undefined,
      importModuleDynamically: (specifier, _fn, importAttributes, ...rest) =>
        executor.dynamicImport(specifier, filename, vmContext, importAttributes, rest[0]),
      parsingContext: vmContext,
    });
  } catch {
    // jest's own compile reports a syntax error with its code frame.
    return jestCompile(scriptSource, filename);
  }
  if (compiled.cachedDataProduced && compiled.cachedData) {
    compiledCode.set(file, compiled.cachedData);
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}`;
      writeFileSync(temporary, compiled.cachedData);
      renameSync(temporary, file);
    } catch {
      // A cache that cannot be written only costs the next file a parse.
    }
  }
  return compiled;
}

/**
 * `node:async_hooks` as one file's modules see it: the same module, with an AsyncLocalStorage that
 * is listed so that the file's end can disable it (which takes it off Node's list of storages).
 */
function asyncHooksOfOneFile(real, storages) {
  class FileAsyncLocalStorage extends real.AsyncLocalStorage {
    constructor(...args) {
      super(...args);
      storages.push(this);
    }
  }
  return Object.create(real, { AsyncLocalStorage: { value: FileAsyncLocalStorage, enumerable: true } });
}

class CodeCachedRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    const fileCache = this.fileCache;
    if (typeof fileCache?.readFileBuffer === 'function') {
      const readFileBuffer = fileCache.readFileBuffer.bind(fileCache);
      fileCache.readFileBuffer = (filename) => {
        let source = sources.get(filename);
        if (source === undefined) sources.set(filename, (source = readFileBuffer(filename)));
        return source;
      };
    }
    const storages = [];
    this.fileAsyncLocalStorages = storages;
    const core = this.coreModule;
    if (typeof core?.require === 'function') {
      const requireCore = core.require.bind(core);
      let hooks;
      core.require = (moduleName) => {
        if (moduleName !== 'async_hooks' && moduleName !== 'node:async_hooks') return requireCore(moduleName);
        return (hooks ??= asyncHooksOfOneFile(requireCore(moduleName), storages));
      };
    }
    // jest 30 compiles CommonJS modules in its executor (ModuleExecutor.compile); anything else is left as jest has it.
    const executor = this.executor;
    if (typeof executor?.compile !== 'function') return;
    const jestCompile = executor.compile.bind(executor);
    executor.compile = (scriptSource, filename) => compileCached(executor, jestCompile, scriptSource, filename);
  }

  teardown() {
    for (const storage of this.fileAsyncLocalStorages.splice(0)) storage.disable();
    super.teardown();
  }
}

module.exports = CodeCachedRuntime;
