/**
 * jest's module runtime with V8's code cache: every test file gets a fresh module registry, so each
 * worker compiled the same 1,800 modules (about 15 MB: mongoose, zod, bullmq, the services) again for
 * every file. The compiled code of each module is kept on disk beside jest's transform cache, keyed by
 * the source's hash, and V8 takes it instead of parsing the source again.
 */
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { compileFunction } = require('node:vm');
const Runtime = require('jest-runtime').default;

/** Compiles a module with its cached code when there is one, and keeps the code of one compiled without. */
function compileCached(executor, jestCompile, scriptSource, filename) {
  const vmContext = executor.environment.getVmContext();
  if (vmContext == null || !path.isAbsolute(filename)) return jestCompile(scriptSource, filename);
  const params = executor.injectedModuleParameters;
  const dir = path.join(executor.config.cacheDirectory, `v8-code-cache-${process.versions.v8}`);
  const key = createHash('sha1').update(params.join(',')).update('\0').update(scriptSource).digest('hex');
  const file = path.join(dir, key.slice(0, 2), key);
  let cachedData;
  try {
    cachedData = readFileSync(file);
  } catch {
    cachedData = undefined;
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

class CodeCachedRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    // jest 30 compiles CommonJS modules in its executor (ModuleExecutor.compile); anything else is left as jest has it.
    const executor = this.executor;
    if (typeof executor?.compile !== 'function') return;
    const jestCompile = executor.compile.bind(executor);
    executor.compile = (scriptSource, filename) => compileCached(executor, jestCompile, scriptSource, filename);
  }
}

module.exports = CodeCachedRuntime;
