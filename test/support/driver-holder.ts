/**
 * Test support: a process that starts one driver (`node <driver>`) and waits, for the test that signals this process
 * and checks the driver did not outlive it. The driver writes its pid to BAD_DRIVER_PIDFILE.
 */
import { DriverProcess } from '../../harness/clients/driver-process.ts';

const d = new DriverProcess(`node ${process.argv[2]}`, { opTimeoutMs: 10_000 });
await d.configure({ environments: {}, sessionPoolSize: 1 });
process.stdout.write('ready\n');
setInterval(() => {}, 1_000);
