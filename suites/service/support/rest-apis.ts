import { parseApiRef, type RestProbe, type Target } from '../../../harness/targets/index.ts';

/** REST APIs the main account may call with a sessionless token: the target's probe, and the APIs it declares so. */
export function sessionlessRestApis(target: Target): RestProbe[] {
  const declared = Object.entries(target.declared.tokenKinds)
    .filter(([, kinds]) => kinds.includes('sessionless'))
    .map(([ref]) => parseApiRef(ref))
    .flatMap((api): RestProbe[] => (api.kind === 'rest' ? [{ method: api.method, path: api.path, ...(api.query && { query: api.query }) }] : []));
  const probe = target.probes.rest;
  return [probe, ...declared.filter((a) => a.path !== probe.path || a.method !== probe.method)];
}
