import type { ParsedEnvelope } from '../soap/index.ts';
import type { HttpResponse } from '../targets/index.ts';

/** One SOAP request the harness sent and what came back. */
export interface SoapExchange {
  readonly request: {
    readonly xml: string;
    readonly conversationId: string;
    readonly messageId: string;
    readonly cpaId: string;
    /** The eb:Action sent (absent for raw bodies). */
    readonly action?: string;
  };
  readonly response: HttpResponse;
  /** The parsed response; `undefined` when it is not a SOAP envelope (the reason in `parseError`). */
  readonly envelope: ParsedEnvelope | undefined;
  readonly parseError: string | undefined;
}
