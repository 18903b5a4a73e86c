/**
 * Loaded first by every test worker of a compiled harness (`--import`, harness/run/worker-pool.ts): starts loading the
 * modules every test file's setup imports (the harness's checks, the simulator, the transport, fast-check) while the
 * worker waits for its first run, without holding it up. They are the modules the setup file later imports natively
 * (the compiled harness is external to Vitest's module runner), so the setup finds them loaded.
 */
const modules = [
  '../checks/index.js', '../checks/registry.js', '../checks/soap.js', '../checks/target.js', '../checks/trace.js', '../checks/profile-facts.js',
  '../checks/probe.js', '../checks/routes.js', '../checks/rest.js', '../catalog/index.js', 'fast-check',
];
setImmediate(() => {
  for (const m of modules) import(m).catch(() => undefined);
});
