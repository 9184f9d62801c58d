import { Schema } from 'mongoose';
import { indexNewestFirst } from './schemas';

describe('indexNewestFirst', () => {
  it('indexes a list newest first alone and behind each filter, every index ending with the whole sort key', () => {
    const schema = new Schema({ status: String, createdBy: String });
    indexNewestFirst(schema, ['status', 'createdBy']);
    // Key order is the index: compared as JSON, which keeps it.
    expect(schema.indexes().map(([keys]) => JSON.stringify(keys))).toEqual([
      '{"createdAt":-1,"_id":-1}',
      '{"status":1,"createdAt":-1,"_id":-1}',
      '{"createdBy":1,"createdAt":-1,"_id":-1}',
    ]);
  });

  it('without filters, indexes the order alone', () => {
    const schema = new Schema({ title: String });
    indexNewestFirst(schema);
    expect(schema.indexes().map(([keys]) => JSON.stringify(keys))).toEqual(['{"createdAt":-1,"_id":-1}']);
  });
});
