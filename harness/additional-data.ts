/*
 * IWorkflowExecuteAdditionalData as n8n 2.41.3's WorkflowExecuteAdditionalData.getBase() builds it
 * (default URLs of a local instance on port 5678), as a plain object: the engine checks some
 * fields for truthiness (ssrfBridge: absent, as with SSRF protection off, n8n's default).
 * Sub-workflows, runners, AI agents and runtime credentials are not available in the harness.
 */
import './env';

import { randomUUID } from 'crypto';

import { ExecutionLifecycleHooks, ExternalSecretsProxy } from 'n8n-core';
import type {
	INodeParameters,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import type { CredentialStore } from './credentials';

const urlBaseWebhook = 'http://localhost:5678/';

function unavailable(what: string) {
	return async (): Promise<never> => {
		throw new UnexpectedError(`${what} is not available in the test harness`);
	};
}

export function createAdditionalData(
	credentialsHelper: CredentialStore,
	options: {
		currentNodeParameters?: INodeParameters;
		executionId?: string;
		workflowId?: string;
		mode?: WorkflowExecuteMode;
		workflowData?: IWorkflowBase;
	} = {},
): IWorkflowExecuteAdditionalData {
	const additionalData: IWorkflowExecuteAdditionalData = {
		currentNodeExecutionIndex: 0,
		credentialsHelper,
		executeWorkflow: unavailable('Executing a sub-workflow'),
		restApiUrl: `${urlBaseWebhook}rest`,
		instanceBaseUrl: urlBaseWebhook,
		formWaitingBaseUrl: `${urlBaseWebhook}form-waiting`,
		formBaseUrl: `${urlBaseWebhook}form`,
		formTestBaseUrl: `${urlBaseWebhook}form-test`,
		webhookBaseUrl: `${urlBaseWebhook}webhook`,
		webhookWaitingBaseUrl: `${urlBaseWebhook}webhook-waiting`,
		webhookTestBaseUrl: `${urlBaseWebhook}webhook-test`,
		mcpBaseUrl: `${urlBaseWebhook}mcp`,
		mcpTestBaseUrl: `${urlBaseWebhook}mcp-test`,
		currentNodeParameters: options.currentNodeParameters,
		executionId: options.executionId,
		workflowId: options.workflowId,
		variables: {},
		getRuntimeCredential: async () => undefined,
		getRunExecutionData: async () => undefined,
		externalSecretsProxy: new ExternalSecretsProxy(),
		startRunnerTask: unavailable('The task runner'),
		logAiEvent: () => {},
	};
	if (options.workflowData) {
		additionalData.hooks = new ExecutionLifecycleHooks(
			options.mode ?? 'manual',
			options.executionId ?? randomUUID(),
			options.workflowData,
		);
	}
	return additionalData;
}
