import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import pino from 'pino';
import { remotesManifest } from './remotes';

let server: Server;
let url: string;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'gateway-remotes-'));
  const app = express();
  app.get('/remotes.json', remotesManifest({ STATIC_ROOT: root }, pino({ level: 'silent' })));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/remotes.json`;
});
afterAll(() => {
  server.close();
  rmSync(root, { recursive: true, force: true });
});

const manifest = async () => (await (await fetch(url)).json()) as Record<string, string>;

describe('the runtime manifest of remotes', () => {
  it('follows remotes.json as it changes, with no restart, and keeps the last good one over a broken file', async () => {
    const file = path.join(root, 'remotes.json');
    expect(await manifest()).toMatchObject({
      mf_crm: '/mf/mf-crm/mf-manifest.json',
      mf_editor: '/mf/mf-editor/mf-manifest.json',
    });

    writeFileSync(file, JSON.stringify({ mf_crm: '/mf/mf-crm/v2/mf-manifest.json' }));
    const moved = await manifest();
    expect(moved.mf_crm).toBe('/mf/mf-crm/v2/mf-manifest.json');
    expect(moved.mf_editor).toBe('/mf/mf-editor/mf-manifest.json'); // the others keep the table's defaults
    expect(Object.keys(moved)).toHaveLength(6);

    writeFileSync(file, '{"mf_crm": '); // half written
    expect((await manifest()).mf_crm).toBe('/mf/mf-crm/v2/mf-manifest.json');

    writeFileSync(file, JSON.stringify({ mf_crm: 'https://cdn.example.test/mf-crm/v3/mf-manifest.json' }));
    expect((await manifest()).mf_crm).toBe('https://cdn.example.test/mf-crm/v3/mf-manifest.json');

    rmSync(file);
    expect((await manifest()).mf_crm).toBe('/mf/mf-crm/mf-manifest.json');
  });
});
