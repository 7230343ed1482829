import { Container } from '@n8n/di';
import { ErrorReporter, ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestRequest,
	IExecuteData,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
} from 'n8n-workflow';
import { NodeHelpers, UnexpectedError, Workflow, createRunExecutionData } from 'n8n-workflow';

import { buildAdditionalData } from './additional-data';
import { TestCredentialsHelper } from './credentials-helper';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

export interface TestCredentialOptions {
	/** Credential type; default: the package's only credential type. */
	type?: string;
	credentialsHelper?: TestCredentialsHelper;
}

/** n8n tests a credential through a temporary noOp node; its credentials helper recognises this name. */
const CREDENTIAL_TEST_NODE_TYPE = 'n8n-nodes-base.noOp';

function singleNodeTypes(nodeType: INodeType): INodeTypes {
	return {
		getByName: () => nodeType,
		getByNameAndVersion: () => NodeHelpers.getVersionedNodeType(nodeType),
		getKnownTypes: () => ({}),
	};
}

type TestRule = IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody;

function ruleFailure(
	test: ICredentialTestRequest,
	matches: (rule: TestRule) => boolean,
): CredentialTestResult | undefined {
	const rule = ((test.rules ?? []) as TestRule[]).find(matches);
	return rule ? { status: 'Error', message: rule.properties.message } : undefined;
}

function getPath(value: unknown, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>((current, key) => (current as Record<string, unknown> | undefined)?.[key], value);
}

/**
 * Runs a credential type's `test` request the way n8n's credential test button does (cli
 * `CredentialsTester.testCredentials`): the credential is saved first, defaults are applied,
 * and the request runs through `RoutingNode` with the decrypted credential, so
 * `preAuthentication` and `authenticate` take part exactly as in n8n.
 */
export async function testCredential(
	credentialData: ICredentialDataDecryptedObject,
	options: TestCredentialOptions = {},
): Promise<CredentialTestResult> {
	const credentialsHelper = options.credentialsHelper ?? new TestCredentialsHelper();
	const type = options.type ?? onlyCredentialType(credentialsHelper);
	const { test } = credentialsHelper.credentialTypes.getByName(type);
	if (!test) return { status: 'Error', message: 'No testing function found for this credential.' };

	const saved = credentialsHelper.add(type, credentialData);
	const additionalData = buildAdditionalData({ credentialsHelper });
	let credentialsDecrypted: ICredentialsDecrypted;
	try {
		credentialsDecrypted = {
			id: saved.id as string,
			name: saved.name,
			type,
			data: await credentialsHelper.applyDefaultsAndExpressions(additionalData, credentialData, type, 'internal'),
		};
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}

	const nodeType: INodeType = {
		description: {
			displayName: 'No Operation, do nothing',
			name: CREDENTIAL_TEST_NODE_TYPE,
			group: ['organization'],
			version: 1,
			description: 'No Operation',
			defaults: { name: 'No Operation, do nothing' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: test.request }, default: '' },
			],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: CREDENTIAL_TEST_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [type]: saved },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: singleNodeTypes(nodeType) });
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await new RoutingNode(context, nodeType, credentialsDecrypted).runNode();
	} catch (error) {
		Container.get(ErrorReporter).error(error);
		const cause = (error as { cause?: { response?: { status: number; statusText?: string }; code?: string } })
			.cause;
		if (cause?.response) {
			const { status, statusText } = cause.response;
			const byRule = ruleFailure(test, (rule) => rule.type === 'responseCode' && rule.properties.value === status);
			if (byRule) return byRule;
			if (status < 199 || status > 299) {
				return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
			}
		} else if (cause?.code) {
			return { status: 'Error', message: cause.code };
		}
		return { status: 'Error', message: String((error as Error).message) };
	}

	const body = response?.[0]?.[0]?.json;
	const byBody = ruleFailure(
		test,
		(rule) =>
			rule.type === 'responseSuccessBody' && getPath(body, rule.properties.key) === rule.properties.value,
	);
	return byBody ?? { status: 'OK', message: 'Connection successful!' };
}

function onlyCredentialType(credentialsHelper: TestCredentialsHelper): string {
	const names = credentialsHelper.credentialTypes.names();
	if (names.length !== 1) {
		throw new UnexpectedError('Pass the credential type: the package has more than one');
	}
	return names[0];
}
