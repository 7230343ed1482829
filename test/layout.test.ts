/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, run by jest and never loaded by n8n: it may use process and timers, Node modules (docs/architecture.md, Toolchain). */
/**
 * The seams of nodes/: a resource folder under actions/ uses the engine (transport/) and the
 * pieces shared by several resources (the files directly under actions/, and actions/bulk/), never another
 * resource's folder; the engine (transport/, answers/, values/) never imports the operations or
 * the node above it, and its layers import only the layers below them; shared/ (what the node's
 * operations and the trigger share: the documents client) imports only the engine below it; the
 * trigger uses shared/ and the engine, never actions/, and the node never the trigger. Tests
 * mirror actions/: each operation file has its test file at the same place under test/actions/.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ACTIONS = path.join(__dirname, '..', 'nodes', 'MarketplaceMerchant', 'actions');
const NODES = path.join(__dirname, '..', 'nodes');

function tsFilesUnder(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const full = path.join(folder, name);
		if (statSync(full).isDirectory()) return tsFilesUnder(full);
		return name.endsWith('.ts') ? [full] : [];
	});
}

function importsOf(file: string): string[] {
	const source = readFileSync(file, 'utf8');
	return [...source.matchAll(/from '([^']+)'/g)].map(([, specifier]) => specifier).filter((specifier) => specifier.startsWith('.'));
}

describe('Layout of nodes/', () => {
	const folders = readdirSync(ACTIONS).filter((name) => statSync(path.join(ACTIONS, name)).isDirectory());
	// A folder with a resource file is a resource; the others (bulk/) are pieces the resources share.
	const resources = folders.filter((name) => readdirSync(path.join(ACTIONS, name)).some((file) => file.endsWith('.resource.ts')));

	it('has resource folders to check', () => {
		expect(resources).toEqual(expect.arrayContaining(['discount', 'documents', 'price', 'product', 'warehouse']));
	});

	it.each(resources)("actions/%s imports no other resource's folder", (resource) => {
		const crossings = tsFilesUnder(path.join(ACTIONS, resource)).flatMap((file) =>
			importsOf(file)
				.map((specifier) => path.relative(ACTIONS, path.resolve(path.dirname(file), specifier)).split(path.sep))
				.filter((parts) => parts.length > 1 && parts[0] !== '..' && parts[0] !== resource && resources.includes(parts[0]))
				.map((parts) => `${path.relative(ACTIONS, file)} -> ${parts.join('/')}`),
		);
		expect(crossings).toEqual([]);
	});

	it('has a test file beside every operation (test/actions/<resource>/<operation>.test.ts)', () => {
		const TESTS = path.join(__dirname, 'actions');
		const untested = tsFilesUnder(ACTIONS)
			.filter((file) => file.endsWith('.operation.ts'))
			.map((file) => path.relative(ACTIONS, file).replace(/\.operation\.ts$/, '.test.ts'))
			.filter((testFile) => !existsSync(path.join(TESTS, testFile)));
		expect(untested).toEqual([]);
	});

	it('keeps one module contract: a resource file exports `resource`, an operation file `operation` (documents: `operationOf(kind)`)', () => {
		const files = tsFilesUnder(ACTIONS);
		const offContract = [
			...files.filter((file) => file.endsWith('.resource.ts') && !/^export const resource\b/m.test(readFileSync(file, 'utf8'))),
			...files.filter((file) => file.endsWith('.operation.ts') && !/^export (const operation\b|function operationOf\b)/m.test(readFileSync(file, 'utf8'))),
		].map((file) => path.relative(ACTIONS, file));
		expect(files.filter((file) => file.endsWith('.resource.ts'))).toHaveLength(8);
		expect(offContract).toEqual([]);
	});

	// Folders are layers: each imports only itself and the folders before it here, never one above.
	const FOLDERS = ['values', 'transport', 'answers', 'shared', 'actions'];

	it.each(FOLDERS)('%s/ imports only itself and the layers below it (values < transport < answers < shared < actions)', (folder) => {
		const below = FOLDERS.slice(0, FOLDERS.indexOf(folder) + 1);
		const upward = tsFilesUnder(path.join(NODES, 'MarketplaceMerchant', folder)).flatMap((file) =>
			importsOf(file)
				.map((specifier) => path.relative(path.join(NODES, 'MarketplaceMerchant'), path.resolve(path.dirname(file), specifier)))
				.filter((target) => !below.includes(target.split(path.sep)[0]))
				.map((target) => `${path.relative(NODES, file)} -> ${target}`),
		);
		expect(upward).toEqual([]);
	});

	// The engine's layers, each importing only those before it: no import runs back up, no cycle.
	const LAYERS = [
		'values/dates',
		'values/labels',
		'values/numbers',
		'values/values',
		'transport/state',
		'transport/endpoints',
		'transport/errors',
		'transport/outcomes',
		'transport/gate',
		'transport/policy',
		'transport/body',
		'transport/hosts',
		'transport/send',
		'transport/batches',
		'answers/schemas',
		'answers/xml',
		'answers/read',
		'answers/bulkResults',
	];

	it('layers the engine: values, the table and state, errors, the gate and policy, sending, batches, answers; each imports only the layers before it', () => {
		const folders = ['transport', 'answers', 'values'].map((folder) => path.join(NODES, 'MarketplaceMerchant', folder));
		const layerOf = (file: string) => LAYERS.indexOf(path.relative(path.join(NODES, 'MarketplaceMerchant'), file).replace(/\.ts$/, ''));
		const files = folders.flatMap(tsFilesUnder);
		expect(files.map(layerOf)).not.toContain(-1);
		const backwards = files.flatMap((file) =>
			importsOf(file)
				.map((specifier) => path.resolve(path.dirname(file), specifier) + '.ts')
				.filter((target) => layerOf(target) >= layerOf(file))
				.map((target) => `${path.relative(NODES, file)} -> ${path.relative(NODES, target)}`),
		);
		expect(backwards).toEqual([]);
	});

	it('has one skeleton for a run\'s items: customOperations built only by actions/run.ts, no per-run state keyed on n8n\'s objects, no waiting a tick for other items', () => {
		const ROOT = path.join(__dirname, '..');
		const files = [...tsFilesUnder(NODES), ...tsFilesUnder(path.join(ROOT, 'credentials'))].map((file) => ({
			file: path.relative(ROOT, file),
			// Comments may name what the code must not do.
			code: readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''),
		}));
		const found = (pattern: RegExp) => files.filter(({ code }) => pattern.test(code)).map(({ file }) => file);
		// The node assigns them from run.ts's `customOperationsOf`; nothing else builds a record of runs by operation.
		expect(found(/customOperations\s*[=:]/)).toEqual(['nodes/MarketplaceMerchant/MarketplaceMerchant.node.ts']);
		expect(found(/customOperationsOf\s*\(/).sort()).toEqual(['nodes/MarketplaceMerchant/MarketplaceMerchant.node.ts', 'nodes/MarketplaceMerchant/actions/run.ts']);
		expect(readFileSync(path.join(NODES, 'MarketplaceMerchant', 'MarketplaceMerchant.node.ts'), 'utf8')).toMatch(/import \{ customOperationsOf \} from '\.\/actions\/run';/);
		// A run is known by the skeleton's own objects (RunScope), never by n8n's execute data.
		expect(found(/getExecuteData/)).toEqual([]);
		// No item waits a turn of the event loop (sleep(0), a microtask, setImmediate) to learn what the others ask.
		expect(found(/sleep\(\s*0\s*[,)]|await Promise\.resolve\(\s*\)|queueMicrotask|setImmediate|process\.nextTick/)).toEqual([]);
		// No operation is routed by RoutingNode: no `routing` in the node's description.
		expect(found(/\brouting\s*:/)).toEqual([]);
	});

	it("has one way out: only transport/send.ts calls n8n's HTTP helpers", () => {
		const ROOT = path.join(__dirname, '..');
		const helpers = /httpRequestWithAuthentication|makeRoutingRequest|helpers\.httpRequest|helpers\.request\b/;
		const callers = [...tsFilesUnder(NODES), ...tsFilesUnder(path.join(ROOT, 'credentials'))]
			.filter((file) => helpers.test(readFileSync(file, 'utf8')))
			.map((file) => path.relative(ROOT, file));
		expect(callers).toEqual(['nodes/MarketplaceMerchant/transport/send.ts']);
	});

	it('keeps the trigger out of actions/: it fetches through shared/', () => {
		const TRIGGER = path.join(NODES, 'MarketplaceMerchantTrigger');
		const intoActions = tsFilesUnder(TRIGGER).flatMap((file) =>
			importsOf(file)
				.map((specifier) => path.relative(path.join(NODES, 'MarketplaceMerchant'), path.resolve(path.dirname(file), specifier)))
				.filter((target) => target.split(path.sep)[0] === 'actions')
				.map((target) => `${path.relative(NODES, file)} -> ${target}`),
		);
		expect(intoActions).toEqual([]);
	});

	it('keeps every file under nodes/ and credentials/ a reader can hold: at most 400 lines', () => {
		const ROOT = path.join(__dirname, '..');
		const long = [...tsFilesUnder(NODES), ...tsFilesUnder(path.join(ROOT, 'credentials'))]
			.map((file) => ({ file: path.relative(ROOT, file), lines: readFileSync(file, 'utf8').split('\n').length }))
			.filter(({ lines }) => lines > 400);
		expect(long).toEqual([]);
	});

	it('gives each family one home: no folder beside its singular or plural twin (order/ and orders/)', () => {
		const folders = (folder: string): string[] =>
			readdirSync(folder)
				.filter((name) => statSync(path.join(folder, name)).isDirectory())
				.flatMap((name) => [path.join(folder, name), ...folders(path.join(folder, name))]);
		const twins = folders(NODES).filter((folder) => existsSync(`${folder}s`) && statSync(`${folder}s`).isDirectory());
		expect(twins.map((folder) => path.relative(NODES, folder))).toEqual([]);
	});

	it('keeps the node free of the trigger', () => {
		const intoTrigger = tsFilesUnder(path.join(NODES, 'MarketplaceMerchant')).filter((file) =>
			importsOf(file).some((specifier) => specifier.includes('MarketplaceMerchantTrigger')),
		);
		expect(intoTrigger).toEqual([]);
	});
});
