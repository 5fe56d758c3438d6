/*
 * What n8n's credential "Test" button runs: n8n 2.41.3 packages/cli/src/services/
 * credentials-tester.service.ts (CredentialsTester.testCredentials → runRequestTest), with the
 * CLI's getBase() replaced by the harness's additional data. The credential must be saved first
 * (n8n only tests stored credentials; the UI saves, then tests), so the harness saves it in a
 * CredentialStore and tests it with its id — preAuthentication then persists the fetched token
 * to that stored credential, as n8n does.
 * Not mirrored: error reporting, and redaction of `$secrets` expressions (no external secrets).
 */
import './env';

import { CredentialTestContext, ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunction,
	ICredentialTestRequestData,
	ICredentialsDecrypted,
	IDataObject,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	ITaskDataConnections,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import {
	CREDENTIAL_BLANKING_VALUE,
	CREDENTIAL_EMPTY_VALUE,
	VersionedNodeType,
	Workflow,
	createEmptyRunExecutionData,
	deepCopy,
} from 'n8n-workflow';

import { createMockNodeTypes, CredentialStore } from './credentials';
import type { HarnessNodeTypes } from './registry';
import { NOOP_TYPE, defaultRegistry } from './registry';
import { createAdditionalData } from './additional-data';

/** lodash.get for the dotted keys of `responseSuccessBody` rules (lodash has no types here). */
function get(object: unknown, path: string): unknown {
	return path
		.replace(/\[(\w+)\]/g, '.$1')
		.split('.')
		.filter((key) => key !== '')
		.reduce<unknown>(
			(value, key) =>
				value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined,
			object,
		);
}

const OAUTH2_CREDENTIAL_TEST_SUCCEEDED = 'Connection Successful!';
const OAUTH2_CREDENTIAL_TEST_FAILED = 'This OAuth2 credential was not connected to an account.';

interface ErrorLike {
	message: string;
	cause?: { response?: { status: number; statusText?: string }; code?: string };
}

function hasAccessToken(credentialsDecrypted: ICredentialsDecrypted): boolean {
	const oauthTokenData = credentialsDecrypted?.data?.oauthTokenData;
	if (oauthTokenData === null || typeof oauthTokenData !== 'object' || Array.isArray(oauthTokenData)) {
		return false;
	}
	return 'access_token' in oauthTokenData;
}

export class CredentialsTester {
	private readonly mock = createMockNodeTypes();

	constructor(
		private readonly credentialsHelper: CredentialStore,
		private readonly nodeTypes: HarnessNodeTypes = defaultRegistry().nodeTypes,
	) {}

	private get credentialTypes() {
		return this.credentialsHelper.credentialTypes;
	}

	getCredentialTestFunction(
		credentialType: string,
	): ICredentialTestFunction | ICredentialTestRequestData | undefined {
		const type = this.credentialTypes.getByName(credentialType);
		if (type.test) {
			return { testRequest: type.test };
		}
		const supportedNodes = this.credentialTypes.getSupportedNodes(credentialType);
		for (const nodeName of supportedNodes) {
			let node;
			try {
				node = this.nodeTypes.getByName(nodeName);
			} catch {
				continue;
			}
			const allNodeTypes: INodeType[] = [];
			if (node instanceof VersionedNodeType) {
				allNodeTypes.push(...Object.values(node.nodeVersions));
			} else {
				allNodeTypes.push(node as INodeType);
			}
			for (const nodeType of allNodeTypes) {
				for (const { name, testedBy } of nodeType.description.credentials ?? []) {
					if (
						name === credentialType &&
						(this.credentialTypes.getParentTypes(name).includes('oAuth2Api') || name === 'oAuth2Api')
					) {
						return async function oauth2CredTest(cred: ICredentialsDecrypted) {
							return hasAccessToken(cred)
								? { status: 'OK', message: OAUTH2_CREDENTIAL_TEST_SUCCEEDED }
								: { status: 'Error', message: OAUTH2_CREDENTIAL_TEST_FAILED };
						} as ICredentialTestFunction;
					}
					if (name === credentialType && !!testedBy) {
						if (typeof testedBy === 'string') {
							if (node instanceof VersionedNodeType) {
								const versions = Object.keys(node.nodeVersions).sort().reverse();
								for (const version of versions) {
									const versionedNode = node.nodeVersions[parseInt(version, 10)];
									const credentialTest = versionedNode.methods?.credentialTest;
									if (credentialTest && testedBy in credentialTest) {
										return credentialTest[testedBy];
									}
								}
							}
							return (node as INodeType).methods?.credentialTest?.[testedBy];
						}
						return { nodeType, testRequest: testedBy };
					}
				}
			}
		}
		return undefined;
	}

	private async prepareCredentialsForTest(
		credentialType: string,
		credentialsDecrypted: ICredentialsDecrypted,
	): Promise<IWorkflowExecuteAdditionalData> {
		const baseAdditionalData = createAdditionalData(this.credentialsHelper);
		if (credentialsDecrypted.data) {
			credentialsDecrypted.data = await this.credentialsHelper.applyDefaultsAndOverwrites(
				baseAdditionalData,
				credentialsDecrypted.data,
				credentialType,
				'internal',
				undefined,
				undefined,
			);
		}
		return baseAdditionalData;
	}

	async testCredentials(
		credentialType: string,
		credentialsDecrypted: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		const credentialTestFunction = this.getCredentialTestFunction(credentialType);
		if (credentialTestFunction === undefined) {
			return { status: 'Error', message: 'No testing function found for this credential.' };
		}
		let baseAdditionalData: IWorkflowExecuteAdditionalData;
		try {
			baseAdditionalData = await this.prepareCredentialsForTest(credentialType, credentialsDecrypted);
		} catch (error) {
			return { status: 'Error', message: (error as Error).message.toString() };
		}
		if (typeof credentialTestFunction === 'function') {
			const context = new CredentialTestContext(baseAdditionalData);
			return await credentialTestFunction.call(context, credentialsDecrypted);
		}
		return await this.runRequestTest(credentialType, credentialsDecrypted, credentialTestFunction);
	}

	private async runRequestTest(
		credentialType: string,
		credentialsDecrypted: ICredentialsDecrypted,
		credentialTestFunction: ICredentialTestRequestData,
	): Promise<INodeCredentialTestResult> {
		let nodeType: INodeType;
		if (credentialTestFunction.nodeType) {
			nodeType = credentialTestFunction.nodeType;
		} else {
			nodeType = this.nodeTypes.getByNameAndVersion(NOOP_TYPE);
		}
		const node: INode = {
			id: 'temp',
			parameters: {},
			name: 'Temp-Node',
			type: nodeType.description.name,
			typeVersion: Array.isArray(nodeType.description.version)
				? nodeType.description.version.slice(-1)[0]
				: nodeType.description.version,
			position: [0, 0],
			credentials: {
				[credentialType]: { id: credentialsDecrypted.id, name: credentialsDecrypted.name },
			},
		};
		const nodeTypeCopy = {
			description: {
				...nodeType.description,
				credentials: [{ name: credentialType, required: true }],
				properties: [
					{
						displayName: 'Temp',
						name: 'temp',
						type: 'string',
						routing: { request: credentialTestFunction.testRequest.request },
						default: '',
					},
				],
			},
		} as INodeType;
		this.mock.nodesData[nodeTypeCopy.description.name] = { sourcePath: '', type: nodeTypeCopy };
		const workflow = new Workflow({
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes: this.mock.nodeTypes,
		});
		const mode = 'internal';
		const runIndex = 0;
		const inputData: ITaskDataConnections = { main: [[{ json: {} }]] };
		const connectionInputData: INodeExecutionData[] = [];
		const runExecutionData = createEmptyRunExecutionData();
		const additionalData = createAdditionalData(this.credentialsHelper, {
			currentNodeParameters: node.parameters,
		});
		const storedCredentialsHelper = additionalData.credentialsHelper as CredentialStore;
		const getDecrypted: CredentialStore['getDecrypted'] = async (
			data,
			nodeCredentials,
			type,
			decryptMode,
			executeData,
			raw,
			...rest
		) =>
			raw
				? await storedCredentialsHelper.getDecrypted(
						data,
						nodeCredentials,
						type,
						decryptMode,
						executeData,
						raw,
						...rest,
					)
				: (credentialsDecrypted.data ?? {});
		additionalData.credentialsHelper = new Proxy(storedCredentialsHelper, {
			get(target, prop) {
				if (prop === 'getDecrypted') return getDecrypted;
				const value = Reflect.get(target, prop) as unknown;
				return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
			},
		});
		const executeData = { node, data: {}, source: null };
		const executeFunctions = new ExecuteContext(
			workflow,
			node,
			additionalData,
			mode,
			runExecutionData,
			runIndex,
			connectionInputData,
			inputData,
			executeData,
			[],
		);
		const routingNode = new RoutingNode(executeFunctions, nodeTypeCopy, credentialsDecrypted);
		let response: INodeExecutionData[][] | null | undefined;
		try {
			await workflow.expression.acquireIsolate();
			response = await routingNode.runNode();
		} catch (caught) {
			const error = caught as ErrorLike;
			if (error.cause?.response) {
				const errorResponseData = {
					statusCode: error.cause.response.status,
					statusMessage: error.cause.response.statusText,
				};
				if (credentialTestFunction.testRequest.rules) {
					for (const rule of credentialTestFunction.testRequest.rules) {
						if (rule.type === 'responseCode') {
							if (errorResponseData.statusCode === rule.properties.value) {
								return { status: 'Error', message: rule.properties.message };
							}
						}
					}
				}
				if (errorResponseData.statusCode < 199 || errorResponseData.statusCode > 299) {
					return {
						status: 'Error',
						message:
							errorResponseData.statusMessage ||
							`Received HTTP status code: ${errorResponseData.statusCode}`,
					};
				}
			} else if (error.cause?.code) {
				return { status: 'Error', message: error.cause.code };
			}
			return { status: 'Error', message: error.message.toString() };
		} finally {
			await workflow.expression.releaseIsolate();
			delete this.mock.nodesData[nodeTypeCopy.description.name];
		}
		if (credentialTestFunction.testRequest.rules && Array.isArray(credentialTestFunction.testRequest.rules)) {
			for (const rule of credentialTestFunction.testRequest.rules) {
				if (rule.type === 'responseSuccessBody') {
					const responseData = response?.[0]?.[0]?.json as IDataObject;
					if (get(responseData, rule.properties.key) === rule.properties.value) {
						return { status: 'Error', message: rule.properties.message };
					}
				}
			}
		}
		return { status: 'OK', message: 'Connection successful!' };
	}
}

export interface TestCredentialResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * Saves `data` as a credential (in `options.store`, or a fresh store) and runs n8n's credential
 * test for it, like saving a credential in the editor does.
 */
export async function testCredential(
	data: ICredentialDataDecryptedObject,
	options: { type?: string; store?: CredentialStore; name?: string } = {},
): Promise<TestCredentialResult> {
	const type = options.type ?? 'loanCrmOAuth2Api';
	const store = options.store ?? new CredentialStore();
	const record = store.add(type, data, { name: options.name });
	const tester = new CredentialsTester(store);
	const result = await tester.testCredentials(type, {
		id: record.id,
		name: record.name,
		type,
		data: deepCopy(data),
	});
	return { status: result.status, message: result.message };
}

/**
 * The editor's dialog on a saved credential, as n8n 2.x does it:
 *   1. it loads the stored data with every password field blanked (GET /credentials/:id with
 *      includeData → CredentialsService.redact), drops empty values and fills in the defaults of
 *      missing properties (CredentialEdit: loadCurrentCredential, setCredentialPropertyDefaults);
 *   2. the user's edits replace some values;
 *   3. Save (when `save`) sends it all back, and the server restores the blanked values from the
 *      stored data (PATCH /credentials/:id → prepareUpdateData → unredact), so hidden fields such
 *      as a stored token survive an edit;
 *   4. Test sends the same data (POST /credentials/test → prepareCredentialsForTest → unredact)
 *      and runs the credential test with it.
 * Not mirrored: sharing, external-secret checks, redaction of JSON leaves, fixedCollections.
 */
export async function editAndTestCredential(
	store: CredentialStore,
	id: string,
	edits: ICredentialDataDecryptedObject,
	options: { save?: boolean } = {},
): Promise<TestCredentialResult> {
	const record = store.get(id);
	if (!record) throw new Error(`No credential ${id}`);
	const properties = store.getCredentialsProperties(record.type);
	const redacted = redact(record.data, properties);
	const dialog: ICredentialDataDecryptedObject = {};
	for (const [key, value] of Object.entries(redacted)) if (value !== '') dialog[key] = value;
	for (const property of properties) if (!(property.name in dialog)) dialog[property.name] = property.default as never;
	Object.assign(dialog, deepCopy(edits));

	if (options.save !== false) store.patch(id, unredact(dialog, store.get(id)?.data ?? {}));
	const tested = unredact(dialog, store.get(id)?.data ?? {});
	const tester = new CredentialsTester(store);
	const result = await tester.testCredentials(record.type, { id: record.id, name: record.name, type: record.type, data: tested });
	return { status: result.status, message: result.message };
}

/** CredentialsService.redactValues for flat data: password fields (not expressions) are blanked. */
function redact(
	data: ICredentialDataDecryptedObject,
	properties: ReturnType<CredentialStore['getCredentialsProperties']>,
): ICredentialDataDecryptedObject {
	const copy = deepCopy(data);
	for (const key of Object.keys(copy)) {
		const property = properties.find((p) => p.name === key);
		if (!property?.typeOptions?.password) continue;
		if (String(copy[key] ?? '').startsWith('={{') && !property.noDataExpression) continue;
		copy[key] = String(copy[key] ?? '').length > 0 ? CREDENTIAL_BLANKING_VALUE : CREDENTIAL_EMPTY_VALUE;
	}
	return copy;
}

/** CredentialsService.unredactRestoreValues for flat data: blanked values come from the stored data. */
function unredact(
	sent: ICredentialDataDecryptedObject,
	stored: ICredentialDataDecryptedObject,
): ICredentialDataDecryptedObject {
	const merged = deepCopy(sent);
	for (const [key, value] of Object.entries(merged)) {
		if (value === CREDENTIAL_BLANKING_VALUE || value === CREDENTIAL_EMPTY_VALUE) merged[key] = stored[key];
	}
	return merged;
}
