import { getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsEncrypted,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeType,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	ICredentials,
	ICredentialsHelper,
	NodeHelpers,
	UnexpectedError,
	UserError,
	Workflow as WorkflowClass,
	getCredentialOwnRequestAllowedDomains,
	isExpression,
} from 'n8n-workflow';

import { TestCredentialTypes } from './credential-types';

/** How often the engine used the helper; tests assert on these instead of reading logs. */
export interface CredentialsHelperCalls {
	getDecrypted: number;
	authenticate: number;
	/** The engine asked whether the credential needs pre-authentication. */
	preAuthenticationChecks: number;
	/** The credential type's own `preAuthentication` ran (an empty or expired token was renewed). */
	preAuthenticationRuns: number;
	updateCredentials: number;
}

interface StoredCredential {
	id: string;
	name: string;
	type: string;
	/** Serialized like a database column, so every read hands out a fresh copy. */
	data: string;
}

/** n8n's `ICredentials` over the in-memory store; the data stays a JSON string as in the database. */
class StoredCredentials extends ICredentials {
	async getData(): Promise<ICredentialDataDecryptedObject> {
		if (this.data === undefined) throw new UnexpectedError('No credential data stored');
		return JSON.parse(this.data) as ICredentialDataDecryptedObject;
	}

	async setData(data: ICredentialDataDecryptedObject): Promise<void> {
		this.data = JSON.stringify(data);
	}

	async updateData(
		toUpdate: Partial<ICredentialDataDecryptedObject>,
		toDelete: string[] = [],
	): Promise<void> {
		const updated = { ...(await this.getData()), ...toUpdate } as ICredentialDataDecryptedObject;
		for (const key of toDelete) delete updated[key];
		await this.setData(updated);
	}

	getDataToSave(): ICredentialsEncrypted {
		return { id: this.id, name: this.name, type: this.type, data: this.data };
	}
}

/** Stand-in node type for resolving expressions in stored credential data outside of a run. */
const credentialExpressionNode: INode = {
	id: 'credential-expressions',
	name: '',
	type: 'mock',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const credentialExpressionNodeTypes = {
	getByName: () => ({ description: { properties: [] } }) as unknown as INodeType,
	getByNameAndVersion: () => ({ description: { properties: [] } }) as unknown as INodeType,
	getKnownTypes: () => ({}),
};

/**
 * The credentials helper n8n gives the engine, with an in-memory store in place of the database.
 *
 * It follows n8n's `packages/cli/src/credentials-helper.ts`: decrypted data gets the credential
 * type's defaults and resolved expressions, generic `authenticate` definitions are resolved with
 * `$credentials`, and `preAuthentication` runs the type's hook when the first `expirable` hidden
 * property is empty or the engine reports it expired (after a 401), then saves the result so the
 * next `getDecrypted` returns it. Nothing here logs credential data.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	readonly calls: CredentialsHelperCalls = {
		getDecrypted: 0,
		authenticate: 0,
		preAuthenticationChecks: 0,
		preAuthenticationRuns: 0,
		updateCredentials: 0,
	};

	private nextId = 1;

	constructor(
		readonly credentialTypes = new TestCredentialTypes(),
		private readonly store = new Map<string, StoredCredential>(),
	) {
		super();
	}

	/**
	 * Another n8n process on the same database, as a queue-mode worker: it reads and saves the same
	 * stored credentials but runs its own copy of the credential code (pass credential types loaded
	 * from a fresh module copy, e.g. with `jest.isolateModules`), so its in-process token cache is
	 * its own.
	 */
	otherWorker(credentialTypes: TestCredentialTypes): TestCredentialsHelper {
		const worker = new TestCredentialsHelper(credentialTypes, this.store);
		return worker;
	}

	/** Saves a credential like the credentials UI does and returns the reference nodes use. */
	add(type: string, data: ICredentialDataDecryptedObject, name = `${type} account`): INodeCredentialsDetails {
		this.credentialTypes.getByName(type);
		const id = String(this.nextId++);
		this.store.set(id, { id, name, type, data: JSON.stringify(data) });
		return { id, name };
	}

	/** The first stored credential of a type, as referenced from a node. */
	find(type: string): INodeCredentialsDetails | undefined {
		for (const credential of this.store.values()) {
			if (credential.type === type) return { id: credential.id, name: credential.name };
		}
		return undefined;
	}

	/** A copy of the stored (raw, undecorated) data of the first credential of a type. */
	storedData(type: string): ICredentialDataDecryptedObject {
		const details = this.find(type);
		if (!details?.id) throw new UnexpectedError(`No credential of type "${type}" stored`);
		return JSON.parse(this.load(details, type).data) as ICredentialDataDecryptedObject;
	}

	resetCalls(): void {
		for (const key of Object.keys(this.calls) as Array<keyof CredentialsHelperCalls>) {
			this.calls[key] = 0;
		}
	}

	getParentTypes(typeName: string): string[] {
		return this.credentialTypes.getParentTypes(typeName);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!this.credentialTypes.recognizes(credentialType)) return true;
		const type = this.credentialTypes.getByName(credentialType);
		return !type.restrictToSupportedNodes || this.credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialTypes.getProperties(type);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		this.calls.authenticate++;
		const requestOptions = incomingRequestOptions as IHttpRequestOptions;
		const { authenticate } = this.credentialTypes.getByName(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions);
		}
		if (authenticate?.type !== 'generic') return requestOptions;
		if (!workflow || !node) {
			throw new UnexpectedError('Workflow and node are required for declarative credential authentication');
		}

		requestOptions.headers ??= {};
		const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
		for (const [optionName, entries] of Object.entries(authenticate.properties)) {
			for (const [key, value] of Object.entries(entries as Record<string, string>)) {
				const resolvedKey = this.resolveCredentialValue(key, credentials, workflow, node);
				target[optionName] ??= {};
				target[optionName][resolvedKey] = this.resolveCredentialValue(value, credentials, workflow, node);
			}
		}
		return requestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		this.calls.preAuthenticationChecks++;
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirableProperty = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirableProperty === undefined || typeof credentialType.preAuthentication !== 'function') {
			return undefined;
		}

		if (credentials[expirableProperty.name] !== '' && !credentialsExpired) {
			return undefined;
		}

		this.calls.preAuthenticationRuns++;
		const output = (await credentialType.preAuthentication.call(
			restrictToCredentialDomains(helpers, credentials),
			credentials,
		)) as ICredentialDataDecryptedObject;
		if (output[expirableProperty.name] === undefined) return undefined;

		const nodeCredentials = node.credentials?.[credentialType.name];
		if (!nodeCredentials) return undefined;

		// A field the user stored as an expression keeps its expression; only its value of this run
		// changed. The expirable property itself is always saved.
		const stored = await (await this.getCredentials(nodeCredentials, credentialType.name)).getData();
		const toSave: ICredentialDataDecryptedObject = { ...stored };
		for (const [key, value] of Object.entries(output)) {
			if (key === expirableProperty.name || !isExpression(stored[key])) toSave[key] = value;
		}
		await this.updateCredentials(nodeCredentials, credentialType.name, toSave);
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const { preAuthentication } = this.credentialTypes.getByName(typeName);
		if (typeof preAuthentication !== 'function') return undefined;
		this.calls.preAuthenticationRuns++;
		return (await preAuthentication.call(
			restrictToCredentialDomains(helpers, credentials),
			credentials,
		)) as ICredentialDataDecryptedObject;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		const stored = this.load(nodeCredentials, type);
		return new StoredCredentials({ id: stored.id, name: stored.name }, stored.type, stored.data);
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		this.calls.getDecrypted++;
		const data = await (await this.getCredentials(nodeCredentials, type)).getData();
		if (raw === true) return data;
		return await this.applyDefaultsAndExpressions(
			additionalData,
			data,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	/** Fills in the type's defaults and resolves expressions, as n8n does before any use. */
	async applyDefaultsAndExpressions(
		additionalData: IWorkflowExecuteAdditionalData,
		storedData: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			storedData as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });

		if (expressionResolveValues) {
			const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
				expressionResolveValues;
			return workflow.expression.getParameterValue(
				withDefaults as INodeParameters,
				runExecutionData,
				runIndex,
				itemIndex,
				node.name,
				connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				withDefaults,
			) as ICredentialDataDecryptedObject;
		}

		const workflow = new WorkflowClass({
			nodes: [credentialExpressionNode],
			connections: {},
			active: false,
			nodeTypes: credentialExpressionNodeTypes,
		});
		return workflow.expression.getComplexParameterValue(
			credentialExpressionNode,
			withDefaults as INodeParameters,
			mode,
			additionalKeys,
			undefined,
			undefined,
			withDefaults,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.calls.updateCredentials++;
		const stored = this.load(nodeCredentials, type);
		stored.data = JSON.stringify(data);
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const stored = this.load(nodeCredentials, type);
		const current = JSON.parse(stored.data) as ICredentialDataDecryptedObject;
		stored.data = JSON.stringify({ ...current, oauthTokenData: data.oauthTokenData });
	}

	private load(nodeCredentials: INodeCredentialsDetails, type: string): StoredCredential {
		if (!nodeCredentials.id) {
			throw new UserError(`The credential "${nodeCredentials.name}" has no id`);
		}
		const stored = this.store.get(nodeCredentials.id);
		if (!stored || stored.type !== type) {
			throw new UserError(`Credential with ID "${nodeCredentials.id}" does not exist for type "${type}".`);
		}
		return stored;
	}

	private resolveCredentialValue(
		value: string,
		credentials: ICredentialDataDecryptedObject,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(value)) return value;
		const resolved = workflow.expression.getSimpleParameterValue(
			node,
			value,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		);
		return resolved ? resolved.toString() : '';
	}
}

/**
 * The `this` of a credential's `preAuthentication`: only `httpRequest`, limited to the domains
 * the credential allows, as in n8n.
 */
function restrictToCredentialDomains(
	helpers: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): IHttpRequestHelper {
	return {
		helpers: {
			httpRequest: async (requestOptions: IHttpRequestOptions) => {
				const allowedDomains = getCredentialOwnRequestAllowedDomains(credentials);
				if (allowedDomains === undefined) return await helpers.helpers.httpRequest(requestOptions);
				if (requestOptions.allowedDomains !== undefined) {
					throw new UserError(
						'This credential restricts requests to specific domains, which cannot be combined with the domains its authentication step asks for.',
					);
				}
				return await helpers.helpers.httpRequest({ ...requestOptions, allowedDomains });
			},
		},
	};
}
