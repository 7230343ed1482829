/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error, no-console -- a development script, run by tsx and never loaded by n8n: it may use process and timers, Node modules, plain errors, console output (docs/architecture.md, Toolchain). */
/**
 * `npm run dev`: this package in a real n8n, talking to the local sandbox API, ready to try:
 *
 *   npm run dev
 *
 * Starts the sandbox (port 4010, or a free one when taken), packs the project (`npm pack` runs the
 * build) and installs the tarball into a user folder kept in the e2e cache (so workflows and
 * credentials survive restarts), imports the credential "Marketplace Sandbox" (pointing at the
 * sandbox) and the example workflows of examples/ that are not there yet, starts n8n on 127.0.0.1
 * and prints the URL and the owner login. Ctrl-C or SIGTERM stops n8n (its whole process group,
 * task runner included) and the sandbox, and waits until they are gone; a second Ctrl-C while
 * stopping does not abandon them.
 *
 * Environment: N8N_DEV_PORT (default 5678), N8N_DEV_BROKER_PORT (the task runners' broker, fixed:
 * default 5679, n8n's own), SANDBOX_PORT (default 4010), N8N_DEV_PACKAGE_DIR (default: this repo).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startSandbox, type Sandbox } from '../sandbox';
import { NEWCOMER_VARIANTS } from '../sandbox/variants';
import { installCommunityPackage, packPackage } from '../e2e/community-package';
import {
	E2E_OWNER,
	importCredentials,
	importWorkflows,
	installN8n,
	runN8nCli,
	startN8n,
	type N8nInstallation,
	type RunningN8n,
} from '../e2e/n8n';
import { preferredOrFreePort } from '../e2e/processes';

/** n8n's default task broker port; fixed so that it is known (README, Quick start), never a random one. */
const BROKER_PORT = Number(process.env.N8N_DEV_BROKER_PORT ?? 5679);

const EXAMPLES_DIR = path.join(__dirname, '..', 'examples');
/** The credential the examples refer to. */
export const DEV_CREDENTIAL = { id: 'devMarketplace01', name: 'Marketplace Sandbox', type: 'marketplaceMerchantApi' };
/** Where the invoice archive example writes; n8n 2.x only lets nodes touch files in allowed folders. */
const ARCHIVE_DIR = '/tmp/marketplace-invoice-archive';
/** Where the order flow example saves the labels (examples/order-flow.json), as for a label printer's folder. */
export const LABELS_DIR = '/tmp/marketplace-labels';
/** Where the CSV sync example reads its export (examples/stock-price-sync.json). */
export const FILES_DIR = '/tmp/marketplace-merchant-files';

/**
 * An ERP-style export of the sandbox's first products for the CSV sync example: the file's own
 * column names, new stock for every row, one price the guard holds back (row 5) and one written
 * with a decimal comma (row 3), which Skip and Report shows as a rejected row.
 */
export function sampleStockCsv(sandbox: Sandbox, rows = 12): string {
	const lines = ['EAN,Stock,Price'];
	sandbox.state.products.slice(0, rows).forEach((product, index) => {
		const current = product.newBasePrice ?? product.basePrice;
		const price = index === 2 ? `"1,299"` : (index === 4 ? Math.round(current * 30) / 100 : current).toFixed(2);
		lines.push(`${product.ean},${product.stockLevel + 3},${price}`);
	});
	return `${lines.join('\n')}\n`;
}

/**
 * Resolves on the first Ctrl-C or SIGTERM; `requested` tells set-up steps to stop early. The
 * handlers stay until `release`: a further Ctrl-C while n8n and the sandbox are being stopped must
 * not kill this process with its default action and leave n8n (its own process group) running.
 */
function stopSignal(): { requested: () => boolean; received: Promise<void>; release: () => void } {
	let requested = false;
	let onSignal = () => {};
	const received = new Promise<void>((resolve) => {
		onSignal = () => {
			if (requested) console.log('still stopping n8n and the sandbox');
			requested = true;
			resolve();
		};
		process.on('SIGINT', onSignal);
		process.on('SIGTERM', onSignal);
	});
	const release = () => {
		process.off('SIGINT', onSignal);
		process.off('SIGTERM', onSignal);
	};
	return { requested: () => requested, received, release };
}

async function installPackage(installation: N8nInstallation, userFolder: string): Promise<void> {
	const packageDir = path.resolve(process.env.N8N_DEV_PACKAGE_DIR ?? path.join(__dirname, '..'));
	const packDir = await mkdtemp(path.join(tmpdir(), 'n8n-dev-pack-'));
	try {
		const tarball = await packPackage(installation, packageDir, packDir);
		const installed = await installCommunityPackage(installation, userFolder, tarball);
		console.log(`installed ${installed.name}@${installed.version} into ${userFolder}/.n8n/nodes`);
	} finally {
		await rm(packDir, { recursive: true, force: true });
	}
}

/** Imports the examples whose id the instance does not know yet, so that edits to them survive. */
async function importMissingExamples(installation: N8nInstallation, userFolder: string): Promise<void> {
	const files = (await readdir(EXAMPLES_DIR)).filter((file) => file.endsWith('.json')).sort();
	const examples = await Promise.all(
		files.map(async (file) => JSON.parse(await readFile(path.join(EXAMPLES_DIR, file), 'utf8')) as { id: string; name: string }),
	);
	const listing = await runN8nCli(installation, userFolder, ['list:workflow', '--onlyId']);
	if (listing.exitCode !== 0) throw new Error('n8n list:workflow failed');
	const known = new Set(listing.stdout.split('\n').map((line) => line.trim()));
	const missing = examples.filter((example) => !known.has(example.id));
	if (missing.length > 0) await importWorkflows(installation, userFolder, missing);
	console.log(`example workflows: ${examples.map((example) => example.name).join('; ')}`);
}

export interface DevEnvironment {
	sandbox: Sandbox;
	server: RunningN8n;
	/** Stops n8n, then the sandbox. */
	stop(): Promise<void>;
}

/**
 * Everything `npm run dev` starts. `shouldStop` is asked between the set-up steps (a Ctrl-C during
 * set-up); whatever was started is stopped again when it says yes or a step fails.
 */
export async function startDevEnvironment(shouldStop: () => boolean = () => false): Promise<DevEnvironment | undefined> {
	let sandbox: Sandbox | undefined;
	try {
		const installation = await installN8n();
		const userFolder = path.join(path.dirname(installation.dir), 'dev-user-folder');
		await mkdir(userFolder, { recursive: true });
		await mkdir(ARCHIVE_DIR, { recursive: true });
		await mkdir(LABELS_DIR, { recursive: true });

		sandbox = await startSandbox({ port: await preferredOrFreePort(Number(process.env.SANDBOX_PORT ?? 4010)) });
		sandbox.setVariants(NEWCOMER_VARIANTS);
		console.log(`sandbox API at ${sandbox.url} (controls under ${sandbox.url}/__sandbox/)`);
		console.log(`sandbox service host at ${sandbox.serviceUrl} (the credential's Service Host URL, for warehouses and prices under the variant warehousesAndPricesOn)`);
		await mkdir(FILES_DIR, { recursive: true });
		await writeFile(path.join(FILES_DIR, 'stock.csv'), sampleStockCsv(sandbox));
		if (shouldStop()) throw new StoppedDuringSetUp();

		await installPackage(installation, userFolder);
		if (shouldStop()) throw new StoppedDuringSetUp();
		// Imported on every start: the sandbox port may differ from the last run.
		await importCredentials(installation, userFolder, [
			{ ...DEV_CREDENTIAL, data: { baseUrl: sandbox.url, ...sandbox.client, apiKey: '' } },
		]);
		await importMissingExamples(installation, userFolder);
		if (shouldStop()) throw new StoppedDuringSetUp();

		const port = await preferredOrFreePort(Number(process.env.N8N_DEV_PORT ?? 5678));
		if ((await preferredOrFreePort(BROKER_PORT)) !== BROKER_PORT) {
			throw new Error(`task broker port ${BROKER_PORT} is in use (another n8n?); stop it or set N8N_DEV_BROKER_PORT`);
		}
		const server = await startN8n({
			installation,
			userFolder,
			ports: { port, brokerPort: BROKER_PORT },
			// n8n takes several folders separated by ';'.
			env: { N8N_RESTRICT_FILE_ACCESS_TO: `${ARCHIVE_DIR};${FILES_DIR};${LABELS_DIR}` },
		});
		console.log(`\nn8n ${installation.version} at ${server.baseUrl} (task broker on port ${BROKER_PORT})`);
		console.log(`login: ${E2E_OWNER.email} / ${E2E_OWNER.password} (local test-only account)`);
		console.log(`credential "${DEV_CREDENTIAL.name}" points at the sandbox; the invoice archive example writes to ${ARCHIVE_DIR}, the CSV sync example reads ${FILES_DIR}/stock.csv, the order flow example saves labels to ${LABELS_DIR}`);
		const running = sandbox;
		return {
			sandbox: running,
			server,
			stop: async () => {
				try {
					await server.stop();
				} finally {
					await running.close();
				}
			},
		};
	} catch (error) {
		await sandbox?.close();
		if (error instanceof StoppedDuringSetUp) return undefined;
		throw error;
	}
}

class StoppedDuringSetUp extends Error {}

async function main(): Promise<void> {
	const stop = stopSignal();
	try {
		const environment = await startDevEnvironment(stop.requested);
		if (!environment) return;
		try {
			console.log('Ctrl-C stops n8n and the sandbox');
			await stop.received;
		} finally {
			console.log('stopping n8n and the sandbox');
			await environment.stop();
			console.log('stopped');
		}
	} finally {
		stop.release();
	}
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : error);
		process.exitCode = 1;
	});
}
