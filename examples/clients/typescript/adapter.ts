import { ClientError, type ClientAdapter } from '../../../harness/clients/protocol.ts';
import { ConsultedSet, consultedList } from '../../../harness/consulted-set.ts';
import { TdsClient, virtualClock, type TdsClientOptions } from './client.ts';

/** Options of the adapter: everything of the client but what `configure` sends. */
export type ReferenceClientOptions = Omit<TdsClientOptions, 'environments' | 'sessionPoolSize'>;

/**
 * The reference client as the harness drives it in-process (`--client-module`): each `configure` makes a new
 * {@link TdsClient} (a previous one is shut down first, closing its sessions); `shutdown` closes every open session.
 */
export function createClient(options: ReferenceClientOptions = {}): ClientAdapter {
  let client: TdsClient | undefined;
  // One set for every TdsClient the adapter makes: what the adapter's clients asked about, for the self-test.
  const faults = new ConsultedSet(options.faults ?? []);
  const current = (): TdsClient => {
    if (!client) throw new ClientError({ kind: 'protocol', message: 'the client is not configured; send "configure" first' });
    return client;
  };
  const shutDown = async (): Promise<void> => {
    const previous = client;
    client = undefined;
    if (!previous) return;
    const { failures } = await previous.close();
    const [first] = failures;
    if (first) {
      throw new ClientError({
        kind: first.kind,
        code: first.code,
        description: first.description,
        message: `${failures.length} session(s) could not be closed; the first: ${first.message}`,
      });
    }
  };
  return {
    async configure(request) {
      try {
        await shutDown();
      } finally {
        // Configured afresh even when a session of the previous configuration could not be closed (that is reported).
        // Against the harness's simulator, back-offs need not really wait (the harness counts requests, not time).
        const clock = options.clock ?? (request.clock === 'virtual' ? virtualClock() : undefined);
        client = new TdsClient({ ...options, faults, ...(clock && { clock }), environments: request.environments, sessionPoolSize: request.sessionPoolSize });
      }
      await client.obtainTokensAhead();
    },
    async restCall(request) {
      return current().rest(request.environment, request.method, request.path, request.body);
    },
    async soapCall(request) {
      const { action } = await current().soap(request.environment, request.action);
      return { action };
    },
    async openSession(request) {
      return { session: await current().openSession(request.environment) };
    },
    async sessionCall(request) {
      const { action } = await current().sessionCall(request.session, request.action);
      return { action };
    },
    async closeSession(request) {
      await current().closeSession(request.session);
    },
    shutdown: shutDown,
    deliberateFaults: () => ({ on: [...faults.switchedOn].sort(), asked: consultedList(faults.consulted) }),
  };
}
