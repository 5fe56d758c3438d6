/*
 * The credential side of the harness, mirroring n8n 2.41.3's CLI:
 *   - CredentialTypes ← packages/cli/src/credential-types.ts
 *   - CredentialStore ← packages/cli/src/credentials-helper.ts (CredentialsHelper), with an
 *     in-memory map in place of the CredentialsRepository and no DI, dynamic credentials,
 *     AI gateway, external secrets, policies or credential overwrites.
 * The logic of authenticate, preAuthentication, getDecrypted/applyDefaultsAndOverwrites,
 * getCredentialsProperties and the update methods is copied from there.
 */
import './env';

import { randomUUID } from 'crypto';

import { getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsEncrypted,
	ICredentialsExpressionResolveValues,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IGetDecryptedCredentialsOptions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	ICredentials,
	ICredentialsHelper,
	NodeHelpers,
	UnexpectedError,
	UserError,
	Workflow,
	deepCopy,
	getCredentialOwnRequestAllowedDomains,
	isExpression,
	jsonParse,
} from 'n8n-workflow';

import type { CredentialTypes } from './credential-types';
import { defaultRegistry } from './registry';

// ---------------------------------------------------------------------------------------------
// Helpers copied from the CLI
// ---------------------------------------------------------------------------------------------

/** packages/cli/src/credentials-helper.ts restrictToCredentialDomains */
function restrictToCredentialDomains(
	helpers: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): IHttpRequestHelper {
	return {
		helpers: {
			httpRequest: async (requestOptions: IHttpRequestOptions) => {
				const allowedDomains = getCredentialOwnRequestAllowedDomains(credentials);
				if (allowedDomains === undefined) {
					return await helpers.helpers.httpRequest(requestOptions);
				}
				if ((requestOptions as { allowedDomains?: unknown }).allowedDomains !== undefined) {
					throw new UserError(
						'This credential restricts requests to specific domains, which cannot be combined with the domains its authentication step asks for.',
					);
				}
				return await helpers.helpers.httpRequest({ ...requestOptions, allowedDomains } as IHttpRequestOptions);
			},
		},
	};
}

/** packages/cli/src/oauth/dcr-managed-fields.ts */
const DCR_MANAGED_CREDENTIAL_FIELDS = [
	'authUrl',
	'accessTokenUrl',
	'grantType',
	'authentication',
	'usePkce',
	'clientId',
	'clientSecret',
];
const OAUTH_PINNED_FIELDS = [
	'useDynamicClientRegistration',
	'authUrl',
	'accessTokenUrl',
	'grantType',
	'authentication',
	'usePkce',
	'requestTokenUrl',
	'signatureMethod',
];

/** packages/cli/src/credentials/mock-node-types.ts */
export function createMockNodeTypes(): {
	nodesData: Record<string, { sourcePath: string; type: INodeType }>;
	nodeTypes: INodeTypes;
} {
	const nodesData: Record<string, { sourcePath: string; type: INodeType }> = {
		mock: { sourcePath: '', type: { description: { properties: [] } } as unknown as INodeType },
	};
	const nodeTypes: INodeTypes = {
		getKnownTypes() {
			return {};
		},
		getByName(nodeType: string) {
			return nodesData[nodeType]?.type;
		},
		getByNameAndVersion(nodeType: string, version?: number) {
			if (!nodesData[nodeType]) {
				throw new UnexpectedError('Node not found', { tags: { nodeType } });
			}
			return NodeHelpers.getVersionedNodeType(nodesData[nodeType].type, version);
		},
	} as INodeTypes;
	return { nodesData, nodeTypes };
}

const mockNode: INode = {
	id: 'mock',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};
const { nodeTypes: mockNodeTypes } = createMockNodeTypes();

const INVALID_JSON_VALUE = Symbol('invalidJsonValue');

/**
 * n8n-core's Credentials without the encryption (the Cipher needs an instance key provider,
 * which only the CLI sets up); `data` holds the JSON instead of the ciphertext.
 */
class PlainCredentials extends ICredentials {
	constructor(nodeCredentials: INodeCredentialsDetails, type: string, data: ICredentialDataDecryptedObject) {
		super(nodeCredentials, type, JSON.stringify(data));
	}

	async getData(): Promise<ICredentialDataDecryptedObject> {
		if (this.data === undefined) throw new UnexpectedError('No data is set so nothing can be returned.');
		return jsonParse<ICredentialDataDecryptedObject>(this.data);
	}

	async setData(data: ICredentialDataDecryptedObject): Promise<void> {
		this.data = JSON.stringify(data);
	}

	async updateData(toUpdate: ICredentialDataDecryptedObject, toDelete: string[] = []): Promise<void> {
		const updatedData: ICredentialDataDecryptedObject = { ...(await this.getData()), ...toUpdate };
		for (const key of toDelete) delete updatedData[key];
		await this.setData(updatedData);
	}

	getDataToSave(): ICredentialsEncrypted {
		if (this.data === undefined) throw new UnexpectedError('No credentials were set to save.');
		return { id: this.id, name: this.name, type: this.type, data: this.data };
	}
}

// ---------------------------------------------------------------------------------------------
// The store / credentials helper
// ---------------------------------------------------------------------------------------------

export interface CredentialRecord {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

export interface CredentialWrite {
	id: string;
	type: string;
	kind: 'updateCredentials' | 'updateCredentialsOauthTokenData';
	data: ICredentialDataDecryptedObject;
}

/**
 * Holds credential records by id (like n8n's credentials table, decrypted) and acts as the
 * engine's `credentialsHelper`. Reads return deep copies, as a database round trip would.
 */
export class CredentialStore extends ICredentialsHelper {
	private readonly records = new Map<string, CredentialRecord>();

	/** Every write n8n made to a stored credential, in order. */
	readonly writes: CredentialWrite[] = [];

	readonly credentialTypes: CredentialTypes;

	/**
	 * @param records credentials to save up front (id and name are generated when missing)
	 * @param credentialTypes the known credential types (default: the package's, from source)
	 */
	constructor(
		records: Array<Partial<CredentialRecord> & Pick<CredentialRecord, 'type' | 'data'>> = [],
		credentialTypes?: CredentialTypes,
	) {
		super();
		this.credentialTypes = credentialTypes ?? defaultRegistry().credentialTypes;
		for (const record of records) this.add(record.type, record.data, record);
	}

	/** Number of writes (token persisted by preAuthentication, OAuth token data, …). */
	get updates(): number {
		return this.writes.length;
	}

	/** Saves a credential, as creating it in the UI would (data as entered, no defaults). */
	add(
		type: string,
		data: ICredentialDataDecryptedObject,
		options: { id?: string; name?: string } = {},
	): CredentialRecord {
		const id = options.id ?? randomUUID();
		const record: CredentialRecord = {
			id,
			name: options.name ?? `${type} ${this.records.size + 1}`,
			type,
			data: deepCopy(data),
		};
		this.records.set(id, record);
		return deepCopy(record);
	}

	get(id: string): CredentialRecord | undefined {
		const record = this.records.get(id);
		return record ? deepCopy(record) : undefined;
	}

	all(): CredentialRecord[] {
		return [...this.records.values()].map((record) => deepCopy(record));
	}

	/** The first record of a type (what runNode binds a node to). */
	firstOfType(type: string): CredentialRecord | undefined {
		return this.all().find((record) => record.type === type);
	}

	/** Overwrites stored fields directly, as a user editing the credential would. */
	patch(id: string, data: ICredentialDataDecryptedObject): void {
		const record = this.records.get(id);
		if (!record) throw new Error(`No credential ${id}`);
		record.data = { ...record.data, ...deepCopy(data) };
	}

	// --- repository stand-ins (getCredentialsEntity) ---

	private getCredentialsEntity(nodeCredential: INodeCredentialsDetails, type: string): CredentialRecord {
		if (!nodeCredential?.id) {
			throw new UnexpectedError('Found credential with no ID.', {
				extra: { credentialName: nodeCredential?.name },
				tags: { credentialType: type },
			});
		}
		const record = this.records.get(nodeCredential.id);
		if (!record || record.type !== type) {
			throw new UserError(
				`Credential with ID "${nodeCredential.id}" does not exist for type "${type}".`,
			);
		}
		return record;
	}

	private write(record: CredentialRecord, kind: CredentialWrite['kind'], data: ICredentialDataDecryptedObject) {
		record.data = deepCopy(data);
		this.writes.push({ id: record.id, type: record.type, kind, data: deepCopy(data) });
	}

	// --- ICredentialsHelper ---

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions & Record<string, IDataObject>;
		const credentialType = this.credentialTypes.getByName(typeName);
		if (credentialType.authenticate) {
			if (typeof credentialType.authenticate === 'function') {
				return await credentialType.authenticate(credentials, requestOptions);
			}
			if (typeof credentialType.authenticate === 'object') {
				if (!workflow || !node) {
					throw new UnexpectedError(
						'Workflow and node are required for declarative credential authentication',
					);
				}
				let keyResolved: string;
				let valueResolved: string;
				const { authenticate } = credentialType;
				if (requestOptions.headers === undefined) {
					requestOptions.headers = {};
				}
				if (authenticate.type === 'generic') {
					Object.entries(authenticate.properties).forEach(([outerKey, outerValue]) => {
						Object.entries(outerValue as Record<string, string>).forEach(([key, value]) => {
							keyResolved = this.resolveValue(key, { $credentials: credentials }, workflow, node);
							valueResolved = this.resolveValue(value, { $credentials: credentials }, workflow, node);
							if (!requestOptions[outerKey]) {
								requestOptions[outerKey] = {};
							}
							requestOptions[outerKey][keyResolved] = valueResolved;
						});
					});
				}
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
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirableProperty = credentialType.properties.find(
			(property) => property.type === 'hidden' && property?.typeOptions?.expirable === true,
		);
		if (expirableProperty?.name === undefined) {
			return undefined;
		}
		// n8n checks the full type name here, but its credential tester builds the test node from
		// the loaded NoOp class, whose description.name is the short 'noOp' — mirrored as is.
		const isTestingCredentials =
			node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (credentialType.preAuthentication) {
			if (typeof credentialType.preAuthentication === 'function') {
				if (
					credentials[expirableProperty?.name] === '' ||
					credentialsExpired ||
					isTestingCredentials
				) {
					const output = await credentialType.preAuthentication.call(
						restrictToCredentialDomains(helpers, credentials),
						credentials,
					);
					if (output[expirableProperty.name] === undefined) {
						return undefined;
					}
					if (node.credentials) {
						const nodeCredentials = node.credentials[credentialType.name];
						const storedData = await (
							await this.getCredentials(nodeCredentials, credentialType.name)
						).getData();
						const dataToPersist: ICredentialDataDecryptedObject = { ...storedData };
						for (const [key, value] of Object.entries(output)) {
							if (key === expirableProperty.name || !isExpression(storedData[key])) {
								dataToPersist[key] = value as ICredentialDataDecryptedObject[string];
							}
						}
						await this.updateCredentials(nodeCredentials, credentialType.name, dataToPersist);
						return Object.assign(credentials, output);
					}
				}
			}
		}
		return undefined;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		if (typeof credentialType.preAuthentication !== 'function') {
			return undefined;
		}
		const output = await credentialType.preAuthentication.call(
			restrictToCredentialDomains(helpers, credentials),
			credentials,
		);
		return (output as ICredentialDataDecryptedObject) ?? undefined;
	}

	private resolveValue(
		parameterValue: string,
		additionalKeys: IDataObject,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(parameterValue)) {
			return parameterValue;
		}
		const returnValue = workflow.expression.getSimpleParameterValue(
			node,
			parameterValue,
			'internal',
			additionalKeys,
			undefined,
			'',
		);
		if (!returnValue) {
			return '';
		}
		return returnValue.toString();
	}

	getParentTypes(typeName: string): string[] {
		return this.credentialTypes.getParentTypes(typeName);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		let typeDef: ICredentialType;
		try {
			typeDef = this.credentialTypes.getByName(credentialType);
		} catch {
			return true;
		}
		if (!(typeDef as { restrictToSupportedNodes?: boolean }).restrictToSupportedNodes) return true;
		return this.credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
	}

	async getCredentials(nodeCredential: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		const record = this.getCredentialsEntity(nodeCredential, type);
		return new PlainCredentials({ id: record.id, name: record.name }, record.type, deepCopy(record.data));
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialTypeData = this.credentialTypes.getByName(type);
		if (credentialTypeData === undefined) {
			throw new UnexpectedError('Unknown credential type', { tags: { credentialType: type } });
		}
		if (credentialTypeData.extends === undefined) {
			if (['oAuth1Api', 'oAuth2Api'].includes(type)) {
				return [
					...credentialTypeData.properties,
					{
						displayName: 'oauthTokenData',
						name: 'oauthTokenData',
						type: 'json',
						required: false,
						default: {},
					},
				];
			}
			return credentialTypeData.properties;
		}
		const combineProperties: INodeProperties[] = [];
		for (const credentialsTypeName of credentialTypeData.extends) {
			const mergeCredentialProperties = this.getCredentialsProperties(credentialsTypeName);
			NodeHelpers.mergeNodeProperties(combineProperties, mergeCredentialProperties);
		}
		NodeHelpers.mergeNodeProperties(combineProperties, credentialTypeData.properties);
		return combineProperties;
	}

	private resolveCredentialExpressions(
		workflow: Workflow,
		credentialsProperties: INodeProperties[],
		decryptedData: ICredentialDataDecryptedObject,
		mode: WorkflowExecuteMode,
		additionalKeys: IDataObject,
	): ICredentialDataDecryptedObject {
		try {
			return workflow.expression.getComplexParameterValue(
				mockNode,
				decryptedData as INodeParameters,
				mode,
				additionalKeys as never,
				undefined,
				undefined,
				decryptedData as IDataObject,
			) as ICredentialDataDecryptedObject;
		} catch (error) {
			const propertiesByName = new Map(credentialsProperties.map((p) => [p.name, p]));
			const resolvedData: ICredentialDataDecryptedObject = {};
			for (const [propertyName, propertyValue] of Object.entries(decryptedData)) {
				try {
					const resolvedProperty = workflow.expression.getComplexParameterValue(
						mockNode,
						{ [propertyName]: propertyValue } as INodeParameters,
						mode,
						additionalKeys as never,
						undefined,
						undefined,
						decryptedData as IDataObject,
					) as IDataObject;
					if (Object.prototype.hasOwnProperty.call(resolvedProperty, propertyName)) {
						resolvedData[propertyName] = resolvedProperty[propertyName] as never;
					}
				} catch {
					const credentialProperty = propertiesByName.get(propertyName);
					if (credentialProperty?.typeOptions?.ignoreCredentialExpressionResolveError === true) {
						continue;
					}
					throw error;
				}
			}
			return resolvedData;
		}
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
		_options?: IGetDecryptedCredentialsOptions,
	): Promise<ICredentialDataDecryptedObject> {
		const record = this.getCredentialsEntity(nodeCredentials, type);
		const decryptedDataOriginal = deepCopy(record.data);
		if (raw === true) {
			return decryptedDataOriginal;
		}
		return await this.applyDefaultsAndOverwrites(
			additionalData,
			decryptedDataOriginal,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	async applyDefaultsAndOverwrites(
		additionalData: IWorkflowExecuteAdditionalData,
		decryptedDataOriginal: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const credentialsProperties = this.getCredentialsProperties(type);
		const storedData = { ...decryptedDataOriginal };
		for (const field of OAUTH_PINNED_FIELDS) {
			if (credentialsProperties.some((p) => p.name === field && p.type === 'hidden')) {
				delete storedData[field];
			}
		}
		// No credential overwrites in the harness (n8n's CredentialsOverwrites is empty by default).
		const dataWithOverwrites = storedData;
		let decryptedData = NodeHelpers.getNodeParameters(
			credentialsProperties,
			dataWithOverwrites as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (decryptedDataOriginal.oauthTokenData !== undefined) {
			decryptedData.oauthTokenData = decryptedDataOriginal.oauthTokenData;
		}
		if (
			decryptedData.allowedHttpRequestDomains === undefined &&
			decryptedDataOriginal.allowedHttpRequestDomains !== undefined
		) {
			decryptedData.allowedHttpRequestDomains = decryptedDataOriginal.allowedHttpRequestDomains;
		}
		if (decryptedData.allowedDomains === undefined && decryptedDataOriginal.allowedDomains !== undefined) {
			decryptedData.allowedDomains = decryptedDataOriginal.allowedDomains;
		}
		if (decryptedData.useDynamicClientRegistration) {
			for (const field of DCR_MANAGED_CREDENTIAL_FIELDS) {
				decryptedData[field] = decryptedDataOriginal[field];
			}
		}
		const parsedJsonLeafExpressionFields = this.parseJsonLeafExpressionFields(
			credentialsProperties,
			decryptedData,
		);
		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (expressionResolveValues) {
			try {
				decryptedData = expressionResolveValues.workflow.expression.getParameterValue(
					decryptedData as INodeParameters,
					expressionResolveValues.runExecutionData,
					expressionResolveValues.runIndex,
					expressionResolveValues.itemIndex,
					expressionResolveValues.node.name,
					expressionResolveValues.connectionInputData,
					mode,
					additionalKeys,
					executeData,
					false,
					decryptedData as IDataObject,
				) as ICredentialDataDecryptedObject;
			} catch (e) {
				(e as Error).message += ' [Error resolving credentials]';
				throw e;
			}
		} else {
			const workflow = new Workflow({
				nodes: [mockNode],
				connections: {},
				active: false,
				nodeTypes: mockNodeTypes,
			});
			await workflow.expression.acquireIsolate();
			try {
				decryptedData = this.resolveCredentialExpressions(
					workflow,
					credentialsProperties,
					decryptedData,
					mode,
					additionalKeys as IDataObject,
				);
			} finally {
				await workflow.expression.releaseIsolate();
			}
		}
		for (const [propertyName, originalValue] of parsedJsonLeafExpressionFields) {
			const serializedValue = JSON.stringify(decryptedData[propertyName]);
			decryptedData[propertyName] = serializedValue ?? originalValue;
		}
		return decryptedData;
	}

	private parseJsonLeafExpressionFields(
		credentialsProperties: INodeProperties[],
		decryptedData: ICredentialDataDecryptedObject,
	): Map<string, string> {
		const parsedFields = new Map<string, string>();
		for (const property of credentialsProperties) {
			if (!(property.typeOptions as IDataObject | undefined)?.resolveCredentialJsonLeaves) continue;
			const value = decryptedData[property.name];
			if (typeof value !== 'string' || value === '') continue;
			const parsed = jsonParse<unknown>(value, { fallbackValue: INVALID_JSON_VALUE });
			if (parsed === INVALID_JSON_VALUE) continue;
			parsedFields.set(property.name, value);
			decryptedData[property.name] = parsed as never;
		}
		return parsedFields;
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const record = this.getCredentialsEntity(nodeCredentials, type);
		this.write(record, 'updateCredentials', data);
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
		_additionalData: IWorkflowExecuteAdditionalData,
	): Promise<void> {
		const record = this.getCredentialsEntity(nodeCredentials, type);
		this.write(record, 'updateCredentialsOauthTokenData', {
			...record.data,
			oauthTokenData: data.oauthTokenData,
		});
	}
}
