/*
 * Engine test harness: runs the package's nodes and credential through n8n-core's real engine
 * (WorkflowExecute, PollContext, RoutingNode, httpRequestWithAuthentication) with test doubles
 * that mirror n8n 2.41.3's CLI for the parts n8n-core leaves to the host: the credentials helper
 * (CredentialStore), the node/credential type registries and the credential tester.
 */
import './env';
import './engine-release';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { HarnessNodeTypes } from './registry';
import { defaultRegistry } from './registry';

export type { CredentialRecord, CredentialWrite } from './credentials';
export { CredentialStore } from './credentials';
export { CredentialTypes } from './credential-types';
export type { TestCredentialResult } from './credentials-tester';
export { CredentialsTester, editAndTestCredential, testCredential } from './credentials-tester';
export { createAdditionalData } from './additional-data';
export type { HarnessNodeTypes, Registry } from './registry';
export { HARNESS_PACKAGE, NOOP_TYPE, createRegistry, defaultRegistry } from './registry';
export type { PackageSource } from './package-source';
export { REPO_ROOT, loadPackageSource, readPackageJson, sourcePathFor } from './package-source';
export type { CredentialsInput, RunResult, WorkflowCredentialsInput, WorkflowRunResult } from './run';
export { DEFAULT_CREDENTIAL_TYPE, PollAbandoned, START_NODE_TYPE, runNode, runPoll, runWorkflow } from './run';
export { runListSearch, runLoadOptions } from './list-search';
export type { HostedCall, WebhookAnswer, WebhookCall, WebhookHost, WebhookRunResult, WebhookTarget } from './webhook';
export { runWebhook, runWebhookMethod, startWebhookCall, startWebhookHost, webhookPath } from './webhook';
export { TestClock, waitsPassByThemselves } from './clock';
export type { HttpRequestNodeInfo } from './http-request-node';
export { HTTP_REQUEST_TYPE, httpRequestNodeInfo, n8nNodesBaseDir, registerHttpRequestNode } from './http-request-node';
export type { BaseNodeType } from './base-nodes';
export { registerFlowNodes } from './base-nodes';

export type { SandboxCredentialOverrides, SandboxLike } from './sandbox-credential';
export { sandboxCredential } from './sandbox-credential';

/**
 * The package's nodes (from source, through package.json), the harness start node, the
 * test-only nodes and n8n-nodes-base.noOp.
 */
export function nodeTypes(): HarnessNodeTypes {
	return defaultRegistry().nodeTypes;
}
