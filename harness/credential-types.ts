/*
 * n8n 2.41.3 packages/cli/src/credential-types.ts, backed by a map instead of
 * LoadNodesAndCredentials.
 */
import { UnrecognizedCredentialTypeError } from 'n8n-core';
import type { ICredentialType } from 'n8n-workflow';

export class CredentialTypes {
	private readonly types = new Map<string, { type: ICredentialType; supportedNodes: string[] }>();

	register(type: ICredentialType, supportedNodes: string[] = []): void {
		this.types.set(type.name, { type, supportedNodes });
	}

	addSupportedNode(credentialType: string, nodeType: string): void {
		const entry = this.types.get(credentialType);
		if (entry && !entry.supportedNodes.includes(nodeType)) entry.supportedNodes.push(nodeType);
	}

	recognizes(type: string): boolean {
		return this.types.has(type);
	}

	getByName(credentialType: string): ICredentialType {
		const entry = this.types.get(credentialType);
		if (!entry) throw new UnrecognizedCredentialTypeError(credentialType);
		return entry.type;
	}

	getSupportedNodes(type: string): string[] {
		return this.types.get(type)?.supportedNodes ?? [];
	}

	getParentTypes(typeName: string): string[] {
		const extendsArr = this.types.get(typeName)?.type.extends ?? [];
		if (extendsArr.length === 0) return [];
		const extendsArrCopy = [...extendsArr];
		for (const type of extendsArrCopy) {
			extendsArrCopy.push(...this.getParentTypes(type));
		}
		return extendsArrCopy;
	}
}
