import { createLogger } from '@portal/service-kit';
import { startCrm, uniqueInn, type CrmTestBed } from '../testing';
import { removeOrphanContacts } from './contacts';

let bed: CrmTestBed;
beforeAll(async () => {
  bed = await startCrm();
});
afterAll(() => bed.close());

describe('removeOrphanContacts', () => {
  it('removes only the contacts whose organization is gone (an interrupted delete)', async () => {
    const [alive, gone] = await bed.models.organizations.create([
      { name: 'Живая', inn: uniqueInn() },
      { name: 'Удалённая', inn: uniqueInn() },
    ]);
    await bed.models.contacts.create([
      { orgId: alive._id, fullName: 'Живой', email: 'a@orphans.test' },
      { orgId: gone._id, fullName: 'Сирота 1', email: 'b@orphans.test' },
      { orgId: gone._id, fullName: 'Сирота 2', email: 'c@orphans.test' },
    ]);
    await bed.models.organizations.deleteOne({ _id: gone._id });

    expect(await removeOrphanContacts(bed.models, createLogger('crm', 'silent'))).toBe(2);
    expect((await bed.models.contacts.find({}).lean()).map((c) => c.fullName)).toEqual(['Живой']);
    expect(await removeOrphanContacts(bed.models, createLogger('crm', 'silent'))).toBe(0);
  });
});
