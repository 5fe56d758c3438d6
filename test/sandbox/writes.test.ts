import { TestClock } from '../../harness/clock';
import { Sandbox, startSandbox } from '../../sandbox';
import { Api, Reply, firstError } from './testkit';

describe('sandbox writes', () => {
	let sb: Sandbox;
	let api: Api;
	const start = Date.parse('2026-11-21T01:02:03Z');
	const clock = TestClock.at(start);

	beforeAll(async () => {
		sb = await startSandbox({ sizes: { deals: 60, contacts: 30, incomes: 10, dealSecurities: 10 }, clock });
		api = await Api.connect(sb);
	});
	afterAll(() => sb.close());
	beforeEach(() => {
		sb.data.reset();
		clock.set(start);
		sb.patchStatus = 200;
	});

	const errors = (reply: Reply) => reply.json.errors as Array<{ status: string; title: string; detail: string; source?: { pointer?: string } }>;

	describe('PATCH /deal-structures/{id}', () => {
		const path = () => `/jsonapi/deal-structures/${sb.data.ids.dealStructure}`;
		const doc = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
			data: { type: 'deal-structures', id: sb.data.ids.dealStructure, attributes, ...extra },
		});

		it('updates only the attributes sent and answers 200 with the document', async () => {
			const before = sb.data.get('deal-structures', sb.data.ids.dealStructure);
			const reply = await api.patch(path(), doc({ interestRate: 0.0549, loanStructureType: 'InterestOnly', fixedRateBeginDate: '2026-12-01', rateTermYears: 3 }));
			expect(reply.status).toBe(200);
			expect(reply.headers.get('content-type')).toBe('application/vnd.api+json');
			expect(reply.json.data).toMatchObject({
				type: 'deal-structures',
				id: sb.data.ids.dealStructure,
				attributes: { interestRate: 0.0549, loanStructureType: 'InterestOnly', fixedRateBeginDate: '2026-12-01', rateTermYears: 3, amount: before?.attributes.amount },
			});
			expect(reply.json.links.self).toBe(`${sb.baseUrl}${path()}`);
			expect(sb.data.get('deal-structures', sb.data.ids.dealStructure)?.attributes.interestRate).toBe(0.0549);
			const deal = sb.data.get('deals', sb.data.ids.dealWithNotes);
			expect(deal?.attributes.splits[0]).toMatchObject({ interestRate: 0.0549, loanStructureType: 'InterestOnly' });
		});

		it('answers 204 without a body when patchStatus is 204', async () => {
			sb.patchStatus = 204;
			const reply = await api.patch(path(), doc({ amount: 500000 }));
			expect(reply.status).toBe(204);
			expect(reply.text).toBe('');
			expect(sb.data.get('deal-structures', sb.data.ids.dealStructure)?.attributes.amount).toBe(500000);
		});

		it('refuses structures of deals past pre-submission with 422', async () => {
			const reply = await api.patch(`/jsonapi/deal-structures/${sb.data.ids.lockedDealStructure}`, {
				data: { type: 'deal-structures', id: sb.data.ids.lockedDealStructure, attributes: { amount: 1 } },
			});
			expect(reply.status).toBe(422);
			expect(firstError(reply).detail).toContain('pre-submission');
		});

		it('refuses read-only and unknown attributes with 422 and the attribute pointer', async () => {
			const readOnly = await api.patch(path(), doc({ rateTypePeriodMonths: 12 }));
			expect(readOnly.status).toBe(422);
			expect(firstError(readOnly)).toMatchObject({ status: '422', source: { pointer: '/data/attributes/rateTypePeriodMonths' } });
			const unknown = await api.patch(path(), doc({ interest: 1 }));
			expect(unknown.status).toBe(422);
			expect(firstError(unknown)).toMatchObject({ title: expect.stringContaining('Unknown attribute'), source: { pointer: '/data/attributes/interest' } });
		});

		it('validates types, enums, dates and lengths with "Input validation failed." for every bad attribute', async () => {
			const reply = await api.patch(
				path(),
				doc({
					interestRate: '0.05',
					rateTermYears: 2.5,
					capitaliseLmi: 'true',
					fixedRateBeginDate: '2026/12/01',
					fixedRateExpiryDate: '2026-12-01T00:00:00Z',
					loanStructureType: 'Balloon',
					repaymentFrequency: 'monthly',
					rateType: 'x'.repeat(51),
					accountNumber: 12345,
				}),
			);
			expect(reply.status).toBe(422);
			const list = errors(reply);
			expect(list.length).toBeGreaterThan(0);
			expect(list.every((e) => e.title === 'Input validation failed.' && e.status === '422')).toBe(true);
			expect(list.map((e) => e.source?.pointer)).toEqual([
				'/data/attributes/interestRate',
				'/data/attributes/rateTermYears',
				'/data/attributes/capitaliseLmi',
				'/data/attributes/fixedRateBeginDate',
				'/data/attributes/fixedRateExpiryDate',
				'/data/attributes/loanStructureType',
				'/data/attributes/repaymentFrequency',
				'/data/attributes/rateType',
				'/data/attributes/accountNumber',
			]);
			expect(sb.data.get('deal-structures', sb.data.ids.dealStructure)?.attributes.interestRate).not.toBe('0.05');
		});

		it('refuses relationships (the deal cannot be reassigned) with 422', async () => {
			const reply = await api.patch(path(), doc({}, { relationships: { deal: { data: { type: 'deals', id: '10002' } } } }));
			expect(reply.status).toBe(422);
			expect(firstError(reply).source).toEqual({ pointer: '/data/relationships/deal' });
		});

		it('answers 409 for a wrong data.type or data.id, 422 for a numeric or missing id', async () => {
			const wrongType = await api.patch(path(), { data: { type: 'deals', id: sb.data.ids.dealStructure, attributes: {} } });
			expect(wrongType.status).toBe(409);
			expect(firstError(wrongType)).toMatchObject({ status: '409', title: 'Incompatible resource type found.', source: { pointer: '/data/type' } });
			const wrongId = await api.patch(path(), { data: { type: 'deal-structures', id: '2000002', attributes: {} } });
			expect(wrongId.status).toBe(409);
			expect(firstError(wrongId)).toMatchObject({ title: "Conflicting 'id' values found.", source: { pointer: '/data/id' } });
			const numeric = await api.patch(path(), { data: { type: 'deal-structures', id: Number(sb.data.ids.dealStructure), attributes: {} } });
			expect(numeric.status).toBe(422);
			expect(firstError(numeric).source).toEqual({ pointer: '/data/id' });
			const missing = await api.patch(path(), { data: { type: 'deal-structures', attributes: {} } });
			expect(missing.status).toBe(422);
		});

		it('answers 422 for malformed JSON, a missing body or a missing data member', async () => {
			expect((await api.patch(path(), '{"data": {')).status).toBe(422);
			expect((await api.patch(path(), '')).status).toBe(422);
			expect((await api.patch(path(), { attributes: {} })).status).toBe(422);
			expect((await api.patch(path(), { data: [] })).status).toBe(422);
		});

		it('answers 404 for an unknown structure', async () => {
			const reply = await api.patch('/jsonapi/deal-structures/77', { data: { type: 'deal-structures', id: '77', attributes: { amount: 1 } } });
			expect(reply.status).toBe(404);
			expect(firstError(reply).title).toBe('The requested resource does not exist.');
		});
	});

	describe('deal notes', () => {
		const notePath = () => `/jsonapi/deal-notes/${sb.data.ids.dealNote}`;

		it('updates title and detail', async () => {
			const reply = await api.patch(notePath(), { data: { type: 'deal-notes', id: sb.data.ids.dealNote, attributes: { title: 'Called back', detail: 'Line 1\nLine 2 “quoted”' } } });
			expect(reply.status).toBe(200);
			expect(reply.json.data.attributes).toEqual({ title: 'Called back', detail: 'Line 1\nLine 2 “quoted”', writtenBy: 'Sarah Mitchell' });
		});

		it('refuses writtenBy and overlong titles', async () => {
			const writtenBy = await api.patch(notePath(), { data: { type: 'deal-notes', id: sb.data.ids.dealNote, attributes: { writtenBy: 'me' } } });
			expect(writtenBy.status).toBe(422);
			expect(firstError(writtenBy).source).toEqual({ pointer: '/data/attributes/writtenBy' });
			const long = await api.patch(notePath(), { data: { type: 'deal-notes', id: sb.data.ids.dealNote, attributes: { title: 'x'.repeat(2001) } } });
			expect(long.status).toBe(422);
			expect(firstError(long)).toMatchObject({ title: 'Input validation failed.', detail: 'The field Title must be a string with a maximum length of 2000.' });
		});

		it('deletes a note with 204 and no body; it is gone afterwards', async () => {
			const reply = await api.delete(notePath());
			expect(reply.status).toBe(204);
			expect(reply.text).toBe('');
			const notes = await api.get(`/jsonapi/deals/${sb.data.ids.dealWithNotes}/dealNotes`);
			expect(notes.json.data.map((n: { id: string }) => n.id)).not.toContain(sb.data.ids.dealNote);
			expect(notes.json.data).toHaveLength(2);
			expect((await api.delete(notePath())).status).toBe(404);
			expect(sb.data.get('deal-notes', sb.data.ids.dealNote)).toBeUndefined();
		});
	});

	describe('PATCH contact-external-references and contact-categories', () => {
		it('updates externalReference only; relationships are refused', async () => {
			const id = sb.data.ids.contactExternalReference;
			const ok = await api.patch(`/jsonapi/contact-external-references/${id}`, { data: { type: 'contact-external-references', id, attributes: { externalReference: 'NEW-REF-1' } } });
			expect(ok.status).toBe(200);
			expect(ok.json.data.attributes).toEqual({ externalReference: 'NEW-REF-1' });
			const rel = await api.patch(`/jsonapi/contact-external-references/${id}`, {
				data: { type: 'contact-external-references', id, attributes: { externalReference: 'X' }, relationships: { contact: { data: { type: 'contacts', id: '6000003' } } } },
			});
			expect(rel.status).toBe(422);
			expect(firstError(rel).source).toEqual({ pointer: '/data/relationships/contact' });
			const nulled = await api.patch(`/jsonapi/contact-external-references/${id}`, { data: { type: 'contact-external-references', id, attributes: { externalReference: null } } });
			expect(nulled.status).toBe(422);
			const long = await api.patch(`/jsonapi/contact-external-references/${id}`, { data: { type: 'contact-external-references', id, attributes: { externalReference: 'r'.repeat(256) } } });
			expect(long.status).toBe(422);
			expect((await api.get(`/jsonapi/contact-external-references/${id}/contact`)).json.data.id).toBe(sb.data.ids.contact);
		});

		it('renames a contact category', async () => {
			const id = sb.data.ids.contactCategory;
			const reply = await api.patch(`/jsonapi/contact-categories/${id}`, { data: { type: 'contact-categories', id, attributes: { name: 'Very important' } } });
			expect(reply.status).toBe(200);
			expect(reply.json.data.attributes).toEqual({ name: 'Very important', orderBy: 1 });
			const orderBy = await api.patch(`/jsonapi/contact-categories/${id}`, { data: { type: 'contact-categories', id, attributes: { orderBy: 2 } } });
			expect(orderBy.status).toBe(422);
		});
	});

	describe('PATCH /tasks/{id}', () => {
		const taskDoc = (id: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
			data: { type: 'tasks', id, attributes, ...(relationships ? { relationships } : {}) },
		});

		it('updates attributes and relationships', async () => {
			const id = sb.data.ids.taskWithDeal;
			const reply = await api.patch(
				`/jsonapi/tasks/${id}`,
				taskDoc(id, { title: 'Call about valuation', progress: 'InProgress', priority: 'High', dueDate: '2026-12-01T09:30:00+11:00', detail: '<p>Call <b>after</b> 5pm</p>' }, {
					assignee: { data: { type: 'advisers', id: '502' } },
					contactGroups: { data: [{ type: 'contact-groups', id: sb.data.ids.contactGroup }] },
				}),
			);
			expect(reply.status).toBe(200);
			expect(reply.json.data.attributes).toMatchObject({ title: 'Call about valuation', progress: 'InProgress', priority: 'High', dueDate: '2026-12-01T09:30:00+11:00' });
			const stored = sb.data.get('tasks', id);
			expect(stored?.relationships.assignee).toEqual({ type: 'advisers', id: '502' });
			expect(stored?.relationships.contactGroups).toEqual([{ type: 'contact-groups', id: sb.data.ids.contactGroup }]);
		});

		it('promotes a task with one contact group to a deal and clears its contact groups', async () => {
			const id = sb.data.ids.task;
			const reply = await api.patch(`/jsonapi/tasks/${id}`, taskDoc(id, {}, { residentialDeal: { data: { type: 'deals', id: sb.data.ids.dealWithoutNotes } } }));
			expect(reply.status).toBe(200);
			const stored = sb.data.get('tasks', id);
			expect(stored?.relationships.residentialDeal).toEqual({ type: 'deals', id: sb.data.ids.dealWithoutNotes });
			expect(stored?.relationships.contactGroups).toEqual([]);
			const again = await api.patch(`/jsonapi/tasks/${id}`, taskDoc(id, {}, { residentialDeal: { data: { type: 'deals', id: sb.data.ids.dealWithNotes } } }));
			expect(again.status).toBe(422);
		});

		it('validates enums, offsets, HTML and relationship targets', async () => {
			const id = sb.data.ids.task;
			const path = `/jsonapi/tasks/${id}`;
			expect((await api.patch(path, taskDoc(id, { progress: 'Done' }))).status).toBe(422);
			expect((await api.patch(path, taskDoc(id, { priority: null }))).status).toBe(422);
			const noOffset = await api.patch(path, taskDoc(id, { dueDate: '2026-12-01T09:30:00' }));
			expect(noOffset.status).toBe(422);
			expect(firstError(noOffset).source).toEqual({ pointer: '/data/attributes/dueDate' });
			expect((await api.patch(path, taskDoc(id, { dueDate: '2026-12-01' }))).status).toBe(422);
			expect((await api.patch(path, taskDoc(id, { detail: '<script>alert(1)</script>' }))).status).toBe(422);
			expect((await api.patch(path, taskDoc(id, { title: 't'.repeat(501) }))).status).toBe(422);
			const missingTarget = await api.patch(path, taskDoc(id, {}, { assignee: { data: { type: 'advisers', id: '999' } } }));
			expect(missingTarget.status).toBe(404);
			expect(firstError(missingTarget)).toMatchObject({ title: 'A related resource does not exist.', source: { pointer: '/data/relationships/assignee' } });
			const wrongType = await api.patch(path, taskDoc(id, {}, { assignee: { data: { type: 'contacts', id: sb.data.ids.contact } } }));
			expect(wrongType.status).toBe(409);
			expect(firstError(wrongType).source).toEqual({ pointer: '/data/relationships/assignee/data/type' });
			const numericId = await api.patch(path, taskDoc(id, {}, { assignee: { data: { type: 'advisers', id: 502 } } }));
			expect(numericId.status).toBe(422);
			const toManyObject = await api.patch(path, taskDoc(id, {}, { contactGroups: { data: { type: 'contact-groups', id: sb.data.ids.contactGroup } } }));
			expect(toManyObject.status).toBe(422);
			const clearAssignee = await api.patch(path, taskDoc(id, {}, { assignee: { data: null } }));
			expect(clearAssignee.status).toBe(422);
			const unknownRel = await api.patch(path, taskDoc(id, {}, { owner: { data: null } }));
			expect(unknownRel.status).toBe(422);
		});

		it('rejects include on tasks with 400', async () => {
			const id = sb.data.ids.task;
			const reply = await api.patch(`/jsonapi/tasks/${id}?include=assignee`, taskDoc(id, { title: 'x' }));
			expect(reply.status).toBe(400);
			expect(firstError(reply).source).toEqual({ parameter: 'include' });
		});
	});

	describe('POST /deal-external-references', () => {
		const create = (relationships: Record<string, unknown>, attributes: Record<string, unknown> = { externalReference: 'EXT-1' }) =>
			api.post('/jsonapi/deal-external-references', { data: { type: 'deal-external-references', attributes, relationships } });
		const rel = (type: string, id: string) => ({ data: { type, id } });

		it('creates with 201, the document and an absolute Location', async () => {
			const reply = await create({ integration: rel('integrations', sb.data.ids.integration), deal: rel('deals', sb.data.ids.dealWithoutNotes) });
			expect(reply.status).toBe(201);
			const id = reply.json.data.id;
			expect(reply.headers.get('location')).toBe(`${sb.baseUrl}/jsonapi/deal-external-references/${id}`);
			expect(reply.json.data).toMatchObject({ type: 'deal-external-references', attributes: { externalReference: 'EXT-1' } });
			expect(sb.data.get('deal-external-references', id)?.relationships).toEqual({
				deal: { type: 'deals', id: sb.data.ids.dealWithoutNotes },
				integration: { type: 'integrations', id: sb.data.ids.integration },
			});
			const found = await api.get(`/jsonapi/deal-external-references?filter=${encodeURIComponent("equals(externalReference,'EXT-1')")}&include=deal`);
			expect(found.json.included[0].id).toBe(sb.data.ids.dealWithoutNotes);
		});

		it('names the missing relationship in a 422', async () => {
			const noIntegration = await create({ deal: rel('deals', sb.data.ids.dealWithoutNotes) });
			expect(noIntegration.status).toBe(422);
			expect(errors(noIntegration)).toEqual([
				expect.objectContaining({ title: 'Input validation failed.', detail: 'The Integration field is required.', source: { pointer: '/data/relationships/integration' } }),
			]);
			const noDeal = await create({ integration: rel('integrations', sb.data.ids.integration) });
			expect(errors(noDeal).map((e) => e.source?.pointer)).toEqual(['/data/relationships/deal']);
			const none = await create({});
			expect(errors(none)).toHaveLength(2);
			const nullDeal = await create({ integration: rel('integrations', sb.data.ids.integration), deal: { data: null } });
			expect(nullDeal.status).toBe(422);
			const noValue = await create({ integration: rel('integrations', sb.data.ids.integration), deal: rel('deals', sb.data.ids.dealWithoutNotes) }, {});
			expect(errors(noValue)[0].source?.pointer).toBe('/data/attributes/externalReference');
		});

		it('allows one external reference per deal and integration (409)', async () => {
			const conflict = await create({ integration: rel('integrations', sb.data.ids.integration), deal: rel('deals', sb.data.ids.dealWithNotes) });
			expect(conflict.status).toBe(409);
			expect(firstError(conflict).status).toBe('409');
			const otherIntegration = await create({ integration: rel('integrations', sb.data.ids.otherIntegration), deal: rel('deals', sb.data.ids.dealWithNotes) });
			expect(otherIntegration.status).toBe(201);
		});

		it('answers 404 for unknown targets, 403 for client-generated ids, 409 for a wrong type', async () => {
			expect((await create({ integration: rel('integrations', '99'), deal: rel('deals', sb.data.ids.dealWithoutNotes) })).status).toBe(404);
			const clientId = await api.post('/jsonapi/deal-external-references', {
				data: { type: 'deal-external-references', id: '5', attributes: { externalReference: 'x' }, relationships: { integration: rel('integrations', sb.data.ids.integration), deal: rel('deals', sb.data.ids.dealWithoutNotes) } },
			});
			expect(clientId.status).toBe(403);
			const wrongType = await api.post('/jsonapi/deal-external-references', { data: { type: 'deals', attributes: {} } });
			expect(wrongType.status).toBe(409);
			expect(firstError(wrongType).source).toEqual({ pointer: '/data/type' });
		});
	});

	describe('POST /contacts', () => {
		const create = (attributes?: Record<string, unknown>, relationships?: Record<string, unknown>) =>
			api.post('/jsonapi/contacts', { data: { type: 'contacts', ...(attributes ? { attributes } : {}), ...(relationships ? { relationships } : {}) } });

		it('creates a contact from attributes, stamped with the sandbox clock', async () => {
			const reply = await create({ firstName: 'Ava', lastName: "D'Souza", email: 'ava.dsouza@example.com.au', mobile: '+61412345678', dateOfBirth: '1991-04-05', gender: 'Female', maritalStatus: 'DeFacto', hasMarketingConsent: true, role: 'Adult' });
			expect(reply.status).toBe(201);
			expect(reply.headers.get('location')).toBe(`${sb.baseUrl}/jsonapi/contacts/${reply.json.data.id}`);
			expect(reply.json.data.attributes).toMatchObject({ firstName: 'Ava', lastName: "D'Souza", created: '2026-11-21T01:02:03Z', updated: '2026-11-21T01:02:03Z', middleName: null });
			const group = sb.data.get('contacts', reply.json.data.id)?.relationships.contactGroup;
			expect(group).toEqual({ type: 'contact-groups', id: expect.any(String) });
			const listed = await api.get(`/jsonapi/contacts?filter=${encodeURIComponent("greaterOrEqual(created,'2026-11-21T01:02:03Z')")}`);
			expect(listed.json.data.map((c: { id: string }) => c.id)).toEqual([reply.json.data.id]);
		});

		it('creates a contact in an existing group, with the relationship only', async () => {
			const reply = await create(undefined, { contactGroup: { data: { type: 'contact-groups', id: sb.data.ids.contactGroup } } });
			expect(reply.status).toBe(201);
			expect(sb.data.get('contacts', reply.json.data.id)?.relationships.contactGroup).toEqual({ type: 'contact-groups', id: sb.data.ids.contactGroup });
			const both = await create({ firstName: 'Kai' }, { contactGroup: { data: { type: 'contact-groups', id: sb.data.ids.contactGroup } } });
			expect(both.status).toBe(201);
			expect((await create(undefined, { contactGroup: { data: { type: 'contact-groups', id: '1' } } })).status).toBe(404);
		});

		it('stamps with milliseconds when the clock has them', async () => {
			clock.set(Date.parse('2026-11-21T01:02:03.456Z'));
			const reply = await create({ firstName: 'Mia' });
			expect(reply.json.data.attributes.created).toBe('2026-11-21T01:02:03.456Z');
		});

		it('refuses created/updated, other relationships, bad values and an empty document with 422', async () => {
			const created = await create({ firstName: 'A', created: '2026-01-01T00:00:00Z' });
			expect(created.status).toBe(422);
			expect(firstError(created).source).toEqual({ pointer: '/data/attributes/created' });
			expect((await create({ firstName: 'A' }, { ownership: { data: [] } })).status).toBe(422);
			const bad = await create({ email: 'not-an-email', mobile: '0412 345 678', gender: 'M', isPrimary: 'yes', dateOfBirth: '05/04/1991', firstName: 'x'.repeat(101) });
			expect(bad.status).toBe(422);
			expect(errors(bad).map((e) => e.source?.pointer).sort()).toEqual(
				['/data/attributes/email', '/data/attributes/mobile', '/data/attributes/gender', '/data/attributes/isPrimary', '/data/attributes/dateOfBirth', '/data/attributes/firstName'].sort(),
			);
			expect((await create()).status).toBe(422);
			expect((await create({ nickname: 'Al' })).status).toBe(422);
		});
	});
});
