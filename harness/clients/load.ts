import { resolve } from 'node:path';
import { codeFile } from '../package-info.ts';
import { pathToFileURL } from 'node:url';
import { DriverProcess, DriverFailure } from './driver-process.ts';
import type { ClientAdapter, ClientModule } from './protocol.ts';

/** How the client under test is given: a driver command, or a module (JavaScript, or TypeScript through a loader) exporting `createClient()`. */
export type ClientSpec =
  | { readonly kind: 'command'; readonly command: string; readonly cwd?: string }
  | { readonly kind: 'module'; readonly path: string };

/** The reference TypeScript client of this repository: the default client under test. */
export const REFERENCE_CLIENT: ClientSpec = { kind: 'module', path: codeFile('examples/clients/typescript/adapter.ts') };

/** Starts (or creates) the client under test. Throws {@link DriverFailure} when it cannot. */
export async function startClient(spec: ClientSpec, options: { opTimeoutMs?: number; redact?: (text: string) => string } = {}): Promise<ClientAdapter & { kill?: () => void }> {
  if (spec.kind === 'command') {
    return new DriverProcess(spec.command, { ...(spec.cwd && { cwd: spec.cwd }), ...(options.opTimeoutMs && { opTimeoutMs: options.opTimeoutMs }), ...(options.redact && { redact: options.redact }) });
  }
  let mod: ClientModule;
  try {
    mod = (await import(pathToFileURL(resolve(spec.path)).href)) as ClientModule;
  } catch (err) {
    // Node 20 imports no TypeScript by itself: say how to give it a loader, or to give the compiled module.
    const typescript = (err as { code?: string }).code === 'ERR_UNKNOWN_FILE_EXTENSION' && /\.[cm]?ts$/.test(spec.path)
      ? ` (Node imports TypeScript only through a loader: compile the module to JavaScript, or run with NODE_OPTIONS="--import tsx" and tsx installed)`
      : '';
    throw new DriverFailure('DRIVER_START_FAILED', `the client module ${spec.path} cannot be loaded: ${(err as Error).message}${typescript}`);
  }
  const create = mod.createClient ?? mod.default;
  if (typeof create !== 'function') {
    throw new DriverFailure('DRIVER_START_FAILED', `the client module ${spec.path} exports no createClient() (nor a default export) returning a ClientAdapter`);
  }
  return create();
}
