import {
  NOTIFICATION_MSG,
  NOTIFICATION_UNREAD_CAP,
  type AuthResponse,
  type Notification,
  type NotificationPage,
} from '@portal/contracts';
import { api } from '@portal/devstack/testing';
import { progressDeps } from '../../app';
import { notifyOnce } from '../../commands/notifications';
import { startProgress, type ProgressTestBed } from '../../testing';

let bed: ProgressTestBed;
let anna: AuthResponse;
let boris: AuthResponse;
beforeAll(async () => {
  bed = await startProgress();
  anna = await bed.learner('CANDIDATE', 'Смирнова Анна Сергеевна');
  boris = await bed.learner('CLIENT', 'Борисов Борис Борисович');
  const deps = progressDeps(bed.progress.ctx);
  // Twelve for Анна, one for Борис; written as the reminders write them.
  for (let i = 1; i <= 12; i += 1)
    await notifyOnce(deps, [
      { userId: anna.user.id, kind: 'assigned', key: `t|anna|${i}`, title: `Уведомление ${i}`, text: 'Текст', link: '/results' },
    ]);
  await notifyOnce(deps, [
    { userId: boris.user.id, kind: 'assigned', key: 't|boris', title: 'Для Бориса', text: 'Текст', link: '/results' },
  ]);
});
afterAll(() => bed.close());

type Answer<T> = T & { message?: string; statusCode?: number };
const call = <T = unknown>(method: string, path: string, token?: string, body?: unknown) =>
  api<Answer<T>>(bed.progress.url, method, path, { token, body });

describe('notifications', () => {
  it('a person reads a page of their own, newest first, with the unread count of all of theirs', async () => {
    const first = await call<NotificationPage>('GET', '/api/notifications?limit=5', anna.token);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 12, unread: 12, page: 1, limit: 5 });
    expect(first.body.data.map((n) => n.title)).toEqual([12, 11, 10, 9, 8].map((i) => `Уведомление ${i}`));
    const third = await call<NotificationPage>('GET', '/api/notifications?limit=5&page=3', anna.token);
    expect(third.body.data.map((n) => n.title)).toEqual(['Уведомление 2', 'Уведомление 1']);
    const other = await call<NotificationPage>('GET', '/api/notifications', boris.token);
    expect(other.body.data.map((n) => n.title)).toEqual(['Для Бориса']);
  });

  it('marks one read, then all; the count follows', async () => {
    const page = await call<NotificationPage>('GET', '/api/notifications?limit=1', anna.token);
    const read = await call<Notification>('POST', `/api/notifications/${page.body.data[0].id}/read`, anna.token);
    expect(read.status).toBe(200);
    expect(read.body.read).toBe(true);
    expect((await call<NotificationPage>('GET', '/api/notifications', anna.token)).body.unread).toBe(11);
    const all = await call<{ updated: number }>('POST', '/api/notifications/read-all', anna.token);
    expect(all.body).toEqual({ updated: 11 });
    expect((await call<NotificationPage>('GET', '/api/notifications', anna.token)).body.unread).toBe(0);
    // Борис's are untouched.
    expect((await call<NotificationPage>('GET', '/api/notifications', boris.token)).body.unread).toBe(1);
  });

  it('counts a backlog of unread to NOTIFICATION_UNREAD_CAP at most (the bell says «99+»), the list stays whole', async () => {
    const vera = await bed.learner('CANDIDATE', 'Веремеева Вера Павловна');
    const backlog = Array.from({ length: NOTIFICATION_UNREAD_CAP + 1 }, (_, i) => ({
      userId: vera.user.id,
      kind: 'assigned' as const,
      key: `t|vera|${i}`,
      title: `Напоминание ${i}`,
      text: 'Текст',
      link: '/results',
    }));
    await notifyOnce(progressDeps(bed.progress.ctx), backlog);
    const page = await call<NotificationPage>('GET', '/api/notifications', vera.token);
    expect(page.body).toMatchObject({ total: NOTIFICATION_UNREAD_CAP + 1, unread: NOTIFICATION_UNREAD_CAP });
    // Read down to 99, and the count is exact again.
    await call<Notification>('POST', `/api/notifications/${page.body.data[0].id}/read`, vera.token);
    await call<Notification>('POST', `/api/notifications/${page.body.data[1].id}/read`, vera.token);
    expect((await call<NotificationPage>('GET', '/api/notifications', vera.token)).body.unread).toBe(NOTIFICATION_UNREAD_CAP - 1);
  });

  it('nobody marks or learns of another person’s notification: 404, and it stays unread', async () => {
    const [his] = (await call<NotificationPage>('GET', '/api/notifications', boris.token)).body.data;
    for (const token of [anna.token, bed.as.ADMIN.token]) {
      const answer = await call('POST', `/api/notifications/${his.id}/read`, token);
      expect(answer.status).toBe(404);
      expect(answer.body.message).toBe(NOTIFICATION_MSG.notFound);
    }
    expect((await call<NotificationPage>('GET', '/api/notifications', boris.token)).body.data[0].read).toBe(false);
  });

  it('refuses without a token (401), a bad id or page (400, in Russian)', async () => {
    expect((await call('GET', '/api/notifications')).status).toBe(401);
    expect((await call('POST', '/api/notifications/read-all')).status).toBe(401);
    const badId = await call('POST', `/api/notifications/${encodeURIComponent('{"$gt":""}')}/read`, anna.token);
    expect(badId.status).toBe(400);
    expect(badId.body.message).toMatch(/[а-я]/i);
    const badLimit = await call('GET', '/api/notifications?limit=500', anna.token);
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.message).toMatch(/Размер страницы/);
  });
});
