import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunction,
	INodeType,
	IVersionedNodeType,
} from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import { buildAdditionalData } from './additional-data';
import { TestCredentialsHelper } from './credentials-helper';
import { loadPackageNodeTypes } from './node-types';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

export interface TestCredentialOptions {
	/** Credential type; default: the package's only credential type. */
	type?: string;
	credentialsHelper?: TestCredentialsHelper;
}

/**
 * The test function n8n finds for a credential type without a `test` request of its own (cli
 * `CredentialsTester.getCredentialTestFunction`): the `methods.credentialTest` entry that a node
 * using the credential names in `testedBy`.
 */
function testFunctionFor(type: string): ICredentialTestFunction | undefined {
	const nodeTypes = loadPackageNodeTypes().flatMap((nodeType: INodeType | IVersionedNodeType) =>
		'nodeVersions' in nodeType ? Object.values(nodeType.nodeVersions).reverse() : [nodeType],
	);
	for (const nodeType of nodeTypes) {
		const testedBy = nodeType.description.credentials?.find((credential) => credential.name === type)?.testedBy;
		if (typeof testedBy === 'string') return nodeType.methods?.credentialTest?.[testedBy];
	}
	return undefined;
}

/**
 * Runs a credential's test the way n8n's Test button does (cli `CredentialsTester.testCredentials`):
 * the credential is saved first, defaults and expressions are applied, and the node's
 * `credentialTest` method runs in n8n-core's own CredentialTestContext.
 */
export async function testCredential(
	credentialData: ICredentialDataDecryptedObject,
	options: TestCredentialOptions = {},
): Promise<CredentialTestResult> {
	const credentialsHelper = options.credentialsHelper ?? new TestCredentialsHelper();
	const type = options.type ?? onlyCredentialType(credentialsHelper);
	if (credentialsHelper.credentialTypes.getByName(type).test) {
		throw new UnexpectedError('The credential has a `test` request of its own: the package tests it through its nodes (testedBy)');
	}
	const test = testFunctionFor(type);
	if (!test) return { status: 'Error', message: 'No testing function found for this credential.' };

	const saved = credentialsHelper.add(type, credentialData);
	const additionalData = buildAdditionalData({ credentialsHelper });
	let data: ICredentialDataDecryptedObject;
	try {
		data = await credentialsHelper.applyDefaultsAndExpressions(additionalData, credentialData, type, 'internal');
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}
	// n8n also hides external-secret values in the message; the package's credential has no such field.
	return await test.call(new CredentialTestContext(additionalData), { id: saved.id as string, name: saved.name, type, data });
}

function onlyCredentialType(credentialsHelper: TestCredentialsHelper): string {
	const names = credentialsHelper.credentialTypes.names();
	if (names.length !== 1) {
		throw new UnexpectedError('Pass the credential type: the package has more than one');
	}
	return names[0];
}
