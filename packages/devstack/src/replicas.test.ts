import { parseReplicas, replicaName } from './stack';

describe('PORTAL_REPLICAS', () => {
  it('gives every service the same count, or some services their own', () => {
    expect(parseReplicas('2')).toEqual({ auth: 2, content: 2, progress: 2, crm: 2, audit: 2 });
    expect(parseReplicas('content=3, progress=2')).toEqual({ content: 3, progress: 2 });
    expect(parseReplicas(undefined)).toEqual({});
  });

  it('stops the launcher with the entry named when it cannot be read', () => {
    expect(() => parseReplicas('0')).toThrow('PORTAL_REPLICAS: the count must be a whole number from 1 to 9, got "0"');
    expect(() => parseReplicas('search=2')).toThrow('PORTAL_REPLICAS: "search" is not a service');
    expect(() => parseReplicas('content=lots')).toThrow(
      'PORTAL_REPLICAS: content must be a whole number from 1 to 9, got "lots"',
    );
  });

  it('names the first replica after its service and the others by number', () => {
    expect([replicaName('content', 0), replicaName('content', 1)]).toEqual(['content', 'content#2']);
  });
});
