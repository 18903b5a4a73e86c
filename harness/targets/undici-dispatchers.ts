/**
 * The undici dispatchers the transport uses. undici's entry point loads all of undici (fetch, WebSocket, EventSource,
 * the cache and cookie helpers, the mock agent) and, through the globals it reads, Node's own copy of undici: about
 * 90 ms of a process's start, against about 35 ms for the Agent's own module (Node 20, this machine). Every run's worker
 * and every CLI that makes a live run pays it. So the Agent, which the transport only calls `dispatch` on, comes from
 * its module; a proxy's dispatcher comes from the entry point, loaded when a transport through a proxy is made (its
 * CONNECT tunnel uses the request methods the entry point adds to every dispatcher). The lockfile pins undici; the
 * test beside this file holds the Agent to the class the entry point exports, so that an upgrade that moves it fails
 * there, not in a run.
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const require = createRequire(import.meta.url);

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;

/** undici's ProxyAgent, with undici's entry point loaded for it. */
export function proxyAgentClass(): typeof Undici.ProxyAgent {
  return (require('undici') as typeof Undici).ProxyAgent;
}
