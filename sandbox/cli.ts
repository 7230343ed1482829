/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- sandbox code (the service twin tests and the bench run) and never loaded by n8n: it may use process and timers, console output (docs/architecture.md, Toolchain). */
/**
 * `npm run sandbox [-- --port 4010 --service-port 4011 --seed 1 --products 300 --orders 20 --rate-limit-scale 1 | --no-rate-limits]
 *   [--no-retry-after] [--latency-ms 300 --latency-per-kib-ms 1 --latency-jitter-ms 50]`
 * Starts the sandbox on 127.0.0.1 until Ctrl-C or SIGTERM, with its service host (the environment's
 * second host, sandbox/variants.ts `warehousesAndPricesOn`) on `--service-port` (default: the next port). `--no-retry-after` answers 429
 * without Retry-After; the latency flags delay every API answer (sandbox/variants.ts `latency`).
 */
import { startSandbox } from './index';
import type { SandboxOptions } from './types';
import { NEWCOMER_VARIANTS } from './variants';

const DEFAULT_PORT = 4010;

function argValue(args: string[], name: string): string | undefined {
	const index = args.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
	if (index < 0) return undefined;
	const arg = args[index];
	return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[index + 1];
}

function numberArg(args: string[], name: string, fallback?: string): number | undefined {
	const raw = argValue(args, name) ?? fallback;
	if (raw === undefined) return undefined;
	const value = Number(raw);
	if (!Number.isFinite(value)) throw new Error(`--${name} must be a number, got "${raw}"`);
	return value;
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const scale = numberArg(args, 'rate-limit-scale');
	const port = numberArg(args, 'port', process.env.SANDBOX_PORT || undefined) ?? DEFAULT_PORT;
	const options: SandboxOptions = {
		port,
		servicePort: numberArg(args, 'service-port') ?? (port === 0 ? 0 : port + 1),
		seed: numberArg(args, 'seed'),
		products: numberArg(args, 'products'),
		orders: numberArg(args, 'orders'),
		tokenLifetimeSeconds: numberArg(args, 'token-lifetime'),
		rateLimits: args.includes('--no-rate-limits')
			? false
			: { scale: scale ?? 1, ...(args.includes('--no-retry-after') ? { retryAfter: false } : {}) },
		now: argValue(args, 'now'),
	};
	const sandbox = await startSandbox(options);
	sandbox.setVariants(NEWCOMER_VARIANTS);
	const latency = ['latency-ms', 'latency-per-kib-ms', 'latency-jitter-ms'].map((name) => numberArg(args, name));
	if (latency.some((value) => value !== undefined)) {
		const [fixedMs = 0, perKiBMs = 0, jitterMs = 0] = latency;
		sandbox.setVariants({ latency: { fixedMs, perKiBMs, jitterMs } });
		console.log(`Latency on: ${fixedMs} ms + ${perKiBMs} ms per KiB + up to ${jitterMs} ms per answer`);
	}
	console.log(`Marketplace sandbox listening on ${sandbox.url}`);
	console.log(`  Base URL:      ${sandbox.url}`);
	console.log(`  Service host:  ${sandbox.serviceUrl} (warehouses and prices where POST /__sandbox/variants {"warehousesAndPricesOn": "service" | "both"} puts them)`);
	console.log(`  Client ID:     ${sandbox.client.clientId}`);
	console.log(`  Client secret: ${sandbox.client.clientSecret}`);
	console.log(`  Controls:      ${sandbox.url}/__sandbox/info (see sandbox/README.md)`);
	console.log('Press Ctrl-C to stop.');

	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal} received, stopping the sandbox.`);
		sandbox.close().then(
			() => process.exit(0),
			(error: unknown) => {
				console.error(error);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
	console.error(`sandbox: ${(error as Error).message}`);
	process.exit(1);
});
