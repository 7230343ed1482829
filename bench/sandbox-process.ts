/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark code (`npm run bench`) and never loaded by n8n: it may use process and timers (docs/architecture.md, Toolchain). */
/**
 * Runs one sandbox in its own process, so that the process being measured does only the
 * client's work (the live service is on another machine, not on the node's event loop).
 * Options come as JSON in the environment variable BENCH_SANDBOX_OPTIONS (it holds client
 * secrets, which must not show in a process list); it answers `{"url": "http://127.0.0.1:PORT"}`
 * through `writeResult`. The sandbox stops when stdin closes (the parent ended or closed it) or
 * on SIGTERM.
 */
import { startSandbox, type SandboxOptions } from '../sandbox';
import { writeResult } from './processes';

async function main(): Promise<void> {
	const options = JSON.parse(process.env.BENCH_SANDBOX_OPTIONS ?? '{}') as SandboxOptions;
	const sandbox = await startSandbox({ ...options, port: 0 });
	writeResult({ url: sandbox.url });

	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		void sandbox.close().finally(() => process.exit(0));
	};
	process.stdin.on('end', stop);
	process.stdin.on('close', stop);
	process.stdin.resume();
	process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
	process.stderr.write(`bench sandbox: ${(error as Error).message}\n`);
	process.exit(1);
});
