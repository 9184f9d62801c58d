import { screenFor } from './routes';

describe('CRM routes', () => {
  it('maps /crm/* paths to screens', () => {
    expect(screenFor('/crm/orgs')).toEqual({ kind: 'orgs' });
    expect(screenFor('/crm/orgs/')).toEqual({ kind: 'orgs' });
    expect(screenFor('/crm/orgs/665f1c2ab3e4d5f6a7b8c9d0')).toEqual({ kind: 'org', id: '665f1c2ab3e4d5f6a7b8c9d0' });
    expect(screenFor('/crm/contacts')).toEqual({ kind: 'contacts' });
    expect(screenFor('/crm')).toEqual({ kind: 'home' });
    expect(screenFor('/crm/orgs/1/2')).toEqual({ kind: 'unknown' });
    expect(screenFor('/crm/orgs/%E0')).toEqual({ kind: 'unknown' });
  });
});
