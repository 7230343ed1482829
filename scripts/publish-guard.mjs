#!/usr/bin/env node
// prepublishOnly: the package is published only by .github/workflows/publish.yml, on the tag of
// the version being published, with an npm provenance statement. n8n requires community packages
// to be published from a GitHub Actions workflow with provenance (since 1 May 2026); a publish from
// a laptop, from another workflow or from a branch would lack it or would ship something no tag
// names. Plain Node, no dependencies: it runs before anything is built.
import { readFileSync } from 'node:fs';

const PUBLISH_WORKFLOW = '.github/workflows/publish.yml';

/** Why a publish in this environment must not go ahead; empty when it may. */
function refusals(env, version) {
	if (env.GITHUB_ACTIONS !== 'true') {
		return [`publish from CI only: push the tag v${version} and let ${PUBLISH_WORKFLOW} publish it`];
	}
	const reasons = [];
	// GITHUB_WORKFLOW_REF is "<owner>/<repo>/<path of the workflow file>@<ref>".
	const expectedWorkflow = `${env.GITHUB_REPOSITORY}/${PUBLISH_WORKFLOW}@`;
	const workflowRef = env.GITHUB_WORKFLOW_REF ?? '';
	if (!env.GITHUB_REPOSITORY || !workflowRef.startsWith(expectedWorkflow)) {
		reasons.push(`only ${PUBLISH_WORKFLOW} of this repository publishes; this is ${workflowRef || 'an unnamed workflow'}`);
	}
	const tag = /^refs\/tags\/(.+)$/.exec(env.GITHUB_REF ?? '')?.[1];
	if (tag === undefined) {
		reasons.push(`publish runs on a version tag; GITHUB_REF is ${env.GITHUB_REF || 'not set'}`);
	} else if (tag !== `v${version}`) {
		reasons.push(`the tag ${tag} does not match package.json's version ${version} (expected v${version})`);
	}
	if (env.npm_config_provenance !== 'true') {
		reasons.push('publish with a provenance statement: npm publish --provenance');
	}
	return reasons;
}

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const reasons = refusals(process.env, version);
if (reasons.length > 0) {
	process.stderr.write(`publish refused:\n${reasons.map((reason) => `- ${reason}\n`).join('')}`);
	process.exit(1);
}
process.stdout.write(`publish of ${version} allowed: ${process.env.GITHUB_WORKFLOW_REF}\n`);
