import { afterEach, describe, expect, it } from 'vitest';
import type { SimCore } from '../sim/core.ts';
import { createSimTarget, type Target } from '../targets/index.ts';
import { PrerequisiteFailed } from './errors.ts';
import type { CheckContext } from './rule-test.ts';
import { bearerToken, inSomeEnvironment, restTokenAnswer, SOURCE_IP_FORM } from './routes.ts';

const targets: Target[] = [];
afterEach(async () => {
  for (const t of targets.splice(0)) await t.close();
});

/** A check context over the simulator with `defects`, recording its notes. */
async function sim(defects: readonly string[] = []): Promise<CheckContext & { notes: string[]; core: SimCore }> {
  const target = await createSimTarget({ defects });
  targets.push(target);
  const notes: string[] = [];
  return {
    target, http: target.transport, info() {}, note: (line) => notes.push(line), resetEvidence() {}, created() {}, unchecked() {},
    notApplicable(reason: string): never { throw new Error(reason); },
    requireOptIn() {},
    notes,
    core: target.core,
  };
}

describe('every route to a token before a skip', () => {
  it('takes the document\'s request in CERT first, and tries nothing else when it is served', async () => {
    const ctx = await sim();
    const found = await restTokenAnswer(ctx);
    expect(found).toMatchObject({ env: 'cert', route: 'CERT, the configured account, grant_type only' });
    expect(found.tried).toHaveLength(1);
    // The token is the one the answer carried, and one the service issued for that request: sessionless, CERT, REST,
    // the configured account.
    expect(found.token).toBe((JSON.parse(found.response.body) as { access_token: unknown }).access_token);
    expect(ctx.core.tokens.get(found.token!)).toMatchObject({ kind: 'sessionless', env: 'cert', via: 'rest', account: { epr: ctx.target.accounts.cert!.epr, pcc: ctx.target.accounts.cert!.pcc } });
    expect(ctx.core.tokens.size).toBe(1);
  });

  it('goes on to PROD\'s account when CERT refuses the configured account, and says which routes it tried', async () => {
    const ctx = await sim(['cred03-cert-account-refused']);
    const found = await restTokenAnswer(ctx);
    expect(found.env).toBe('prod');
    expect(found.tried.map((t) => t.route)).toEqual([
      'CERT, the configured account, grant_type only',
      'CERT, the configured account, grant_type and source_ip',
      'PROD, the configured account, grant_type only',
    ]);
    expect(ctx.notes.join('\n')).toMatch(/CERT, the configured account, grant_type only: 401 invalid_client/);
  });

  it('tries the other declared accounts, for a check of the token endpoint\'s answer, when the configured ones are refused', async () => {
    const ctx = await sim(['cred03-cert-account-refused']);
    const certOnly: CheckContext = { ...ctx, target: { ...ctx.target, environments: { cert: ctx.target.environments.cert! }, accounts: { cert: ctx.target.accounts.cert! } } };
    const found = await restTokenAnswer(certOnly, { anyAccount: true });
    expect(found.route).toBe('CERT, the declared CERT-only account, grant_type only');
    await expect(restTokenAnswer(certOnly)).rejects.toThrow(PrerequisiteFailed);
  });

  it('attributes a refusal of the document\'s request to its form when the same with source_ip is served', async () => {
    const ctx = await sim(['rest02-source-ip-demanded']);
    const found = await restTokenAnswer(ctx);
    expect(found).toMatchObject({ env: 'cert', body: SOURCE_IP_FORM, formRefused: { factor: 'form' } });
    expect(found.formRefused?.because).toMatch(/grant_type only → 400 invalid_request.*while the same request with another form was served .*source_ip=192\.0\.2\.10 → 200/);
  });

  it('skips naming every route and its answer when none is served', async () => {
    const ctx = await sim(['cred03-cert-account-refused']);
    const err = await restTokenAnswer(ctx, { env: 'cert' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PrerequisiteFailed);
    expect((err as PrerequisiteFailed).reason).toMatch(/^no route obtained a REST token \(routes tried: CERT, the configured account, grant_type only: 401 invalid_client: .*; CERT, the configured account, grant_type and source_ip: 401 invalid_client/);
    expect((err as PrerequisiteFailed).after).toEqual(['CRED-03']);
  });

  it('lets a TokenCreateRQ token stand in as a bearer token where REST gives none, with a control of its own', async () => {
    const ctx = await sim(['cred03-cert-account-refused']);
    expect(await bearerToken(ctx, 'cert')).toMatchObject({ via: 'soap' });
    const refusedStandIn = await sim(['cred03-cert-account-refused', 'xproto02-soap-token-400']);
    const err = await bearerToken(refusedStandIn, 'cert').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PrerequisiteFailed);
    expect((err as PrerequisiteFailed).after).toContain('XPROTO-02');
  });

  it('runs a step in the next environment when one lacks its prerequisite, and lists both when neither has it', async () => {
    const ctx = await sim(['cred03-cert-account-refused']);
    expect(await inSomeEnvironment(ctx, async (env) => (await restTokenAnswer(ctx, { env })).env)).toBe('prod');
    const err = await inSomeEnvironment(ctx, async (env) => {
      throw new PrerequisiteFailed(`nothing in ${env}`, ['STOK-01']);
    }).catch((e: unknown) => e);
    expect((err as PrerequisiteFailed).reason).toBe('in CERT: nothing in cert; in PROD: nothing in prod');
  });
});
