/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
import 'reflect-metadata';

import { GlobalConfig, InstanceSettingsConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import { InstanceSettings } from 'n8n-core';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * One folder for every test process: jest loads the harness afresh for each test file and gives
 * hooks no place to clean up a folder per file, so a fixed folder is reused instead of leaking
 * new ones. The key encrypts nothing that outlives a test.
 */
const N8N_FOLDER = path.join(tmpdir(), 'n8n-nodes-marketplace-merchant-test-harness');
const ENCRYPTION_KEY = 'marketplace-merchant-test-harness';

/** Writes n8n's settings file whole (write, then rename), so parallel workers never read half of it. */
function writeSettingsFile(): void {
	mkdirSync(N8N_FOLDER, { recursive: true });
	const settingsFile = path.join(N8N_FOLDER, 'config');
	const partialFile = `${settingsFile}.${process.pid}.tmp`;
	writeFileSync(partialFile, JSON.stringify({ encryptionKey: ENCRYPTION_KEY }));
	renameSync(partialFile, settingsFile);
}

let prepared = false;

/**
 * Gets n8n-core's services ready the way an n8n process has them at start-up.
 *
 * Every node execution context reads `InstanceSettings` from the DI container; left alone,
 * the container would build it from the environment and write a settings file into the
 * user's home directory. Here it reads its settings from a folder of the harness.
 * All other services the engine pulls from the container (OutboundHttp for requests,
 * BinaryDataService, ErrorReporter, TriggersAndPollers, Logger) are n8n's own classes and
 * are built on first use with their default configuration: SSRF protection off, binary data
 * kept inline in memory because no storage manager is initialised.
 *
 * The engine's Logger is silent, so `npm test` prints a clean summary instead of every error a
 * test provokes on purpose (the engine logs each NodeApiError with its stack). MM_TEST_LOG=1 turns
 * it on (level debug, or N8N_LOG_LEVEL) to see what the engine did while a test fails.
 */
export function prepareEngineServices(): void {
	if (prepared) return;
	prepared = true;

	// Before anything builds the Logger: it reads its level once, in its constructor.
	Container.get(GlobalConfig).logging.level = process.env.MM_TEST_LOG === '1' ? (process.env.N8N_LOG_LEVEL as never) ?? 'debug' : 'silent';

	writeSettingsFile();
	Object.assign(Container.get(InstanceSettingsConfig), {
		n8nFolder: N8N_FOLDER,
		userHome: path.dirname(N8N_FOLDER),
		encryptionKey: ENCRYPTION_KEY,
		enforceSettingsFilePermissions: false,
	});
	Container.get(InstanceSettings);
}
