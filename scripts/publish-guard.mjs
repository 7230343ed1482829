#!/usr/bin/env node
// prepublishOnly: the package is published only by .github/workflows/publish.yml, on the tag of
// the version being published, with an npm provenance statement. n8n requires community packages
// to be published from a GitHub Actions workflow with provenance (since 1 May 2026); a publish from
// a laptop, from another workflow or from a branch would lack it or would ship something no tag
// names. Plain Node, no dependencies: it runs before anything is built.
//
// npm runs prepublishOnly before it packs and before its OIDC step (trusted publishing), so this
// guard sees only the environment npm gives scripts: npm's non-default config as npm_config_*
// variables (what --provenance or an .npmrc sets), the caller's own NPM_CONFIG_* variables as
// they were (npm does not copy a value that came from the environment), npm_package_json (the
// package.json being published) and GitHub Actions' variables. It accepts each way npm documents
// of asking for provenance: --provenance, NPM_CONFIG_PROVENANCE=true (n8n's node-cli release),
// publishConfig.provenance in package.json, and trusted publishing's automatic provenance.
import { readFileSync } from 'node:fs';

const PUBLISH_WORKFLOW = '.github/workflows/publish.yml';
// The token actions/setup-node exports when registry-url is set and no token is given: not a token.
const SETUP_NODE_PLACEHOLDER = 'XXXXX-XXXXX-XXXXX-XXXXX';

/**
 * The value npm's config `key` has for this run, as a string; undefined when nothing sets it.
 * npm writes the lower-case npm_config_<key> itself whenever the value does not come from the
 * environment (a flag, an .npmrc), and writes it empty to undo an environment value a flag turned
 * off, so that spelling wins; otherwise npm read the variable in any case (NPM_CONFIG_PROVENANCE).
 */
function npmConfig(env, key) {
	const name = `npm_config_${key}`;
	if (env[name] !== undefined) return env[name];
	const other = Object.keys(env).find((variable) => variable.toLowerCase() === name && env[variable] !== '');
	return other === undefined ? undefined : env[other];
}

/** npm reads a boolean config's "true" (and an empty flag) as true, "false" as false. */
const npmTrue = (value) => value !== undefined && value.trim() === 'true';

/** The repository's visibility from the event GitHub Actions is running for, when it says. */
function repositoryIsPublic(env) {
	if (!env.GITHUB_EVENT_PATH) return false;
	try {
		const { repository } = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
		return repository?.visibility === 'public' || repository?.private === false;
	} catch {
		return false;
	}
}

/**
 * How this publish asks for a provenance statement, in words for the log; undefined when it does
 * not. The forms npm documents, in npm's own order of precedence.
 */
function provenanceRequest(env, manifest) {
	const configured = npmConfig(env, 'provenance');
	if (configured !== undefined && configured !== '') {
		if (!npmTrue(configured)) return undefined;
		return env.npm_config_provenance !== undefined ? '--provenance (or provenance=true in an .npmrc)' : 'NPM_CONFIG_PROVENANCE=true';
	}
	// An explicit "off" (the empty value npm writes for --provenance=false) beats publishConfig.
	if (configured === '') return undefined;
	if (manifest?.publishConfig?.provenance === true || manifest?.publishConfig?.provenance === 'true') {
		return 'publishConfig.provenance in package.json';
	}
	// Trusted publishing: npm (11.5.1+) exchanges the workflow's OIDC token for a publish token and,
	// provenance being left at its default, turns provenance on for a public repository's public
	// package. Counted only where nothing else could publish without it: the id-token permission is
	// there, the repository is public, and no npm token is at hand (if the exchange fails, npm then
	// has no credentials and publishes nothing).
	const idToken = Boolean(env.NPM_ID_TOKEN || (env.ACTIONS_ID_TOKEN_REQUEST_URL && env.ACTIONS_ID_TOKEN_REQUEST_TOKEN));
	const token = env.NODE_AUTH_TOKEN && env.NODE_AUTH_TOKEN !== SETUP_NODE_PLACEHOLDER ? env.NODE_AUTH_TOKEN : undefined;
	if (idToken && !token && repositoryIsPublic(env)) {
		return "trusted publishing (npm's automatic provenance for a public repository)";
	}
	return undefined;
}

/** Why a publish in this environment must not go ahead; empty when it may. */
function refusals(env, manifest) {
	const { version } = manifest;
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
	if (provenanceRequest(env, manifest) === undefined) {
		reasons.push(
			'publish with a provenance statement: npm publish --provenance, NPM_CONFIG_PROVENANCE=true, ' +
				'publishConfig.provenance in package.json, or trusted publishing from a public repository',
		);
	}
	return reasons;
}

// npm_package_json: the package.json npm is publishing (npm sets it for every script).
const manifestPath = process.env.npm_package_json || new URL('../package.json', import.meta.url);
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const reasons = refusals(process.env, manifest);
const provenance = provenanceRequest(process.env, manifest);
if (npmTrue(npmConfig(process.env, 'dry_run'))) {
	// npm publish --dry-run (CI's release dry run) sends nothing: say what a real publish here would meet.
	const verdict = reasons.length > 0 ? `would be refused:\n${reasons.map((reason) => `- ${reason}\n`).join('')}` : 'would be allowed\n';
	process.stdout.write(`publish dry run of ${manifest.version}: nothing is published; a real publish here ${verdict}`);
	process.exit(0);
}
if (reasons.length > 0) {
	process.stderr.write(`publish refused:\n${reasons.map((reason) => `- ${reason}\n`).join('')}`);
	process.exit(1);
}
process.stdout.write(`publish of ${manifest.version} allowed: ${process.env.GITHUB_WORKFLOW_REF}, provenance by ${provenance}\n`);
