// The run server's entry (harness/cli/run-server.ts), started in the background by the CLI (run-server-client.ts).
import { serveRuns } from './run-server.ts';

await serveRuns();
