import type { Redis } from 'ioredis';
import type { Model } from 'mongoose';
import { CONTENT_MSG, formatMessage } from '@portal/contracts';
import { countInWindow, payloadTooLarge, tooManyRequests, type Logger } from '@portal/service-kit';
import type { UploadDoc } from '../models/upload';

const RATE_WINDOW_SECONDS = 60;
const MB = 1024 * 1024;
const megabytes = (bytes: number) => String(Math.round((bytes / MB) * 10) / 10).replace('.', ',');

export interface UploadQuotaSettings {
  /** Namespaces the keys (the service's QUEUE_PREFIX), as the course builder's limits do. */
  prefix: string;
  quotaBytes: number;
  ratePerMinute: number;
}

/**
 * Per-user limits of uploads, the same on every replica: requests a minute counted in Redis
 * (INCR + EXPIRE), and the bytes of the user's stored files summed from the `uploads` collection.
 */
export class UploadQuota {
  constructor(
    private readonly redis: Redis,
    private readonly uploads: Model<UploadDoc>,
    private readonly settings: UploadQuotaSettings,
    private readonly logger: Logger,
  ) {}

  private rateKey = (userId: string) => `${this.settings.prefix}:content:upload:rate:${userId}`;

  /**
   * Counts one upload request before its body is read; past the limit 429 with Retry-After. With
   * Redis away the request is let through (logged): an upload is not worth refusing for a counter.
   */
  async takeUpload(userId: string): Promise<void> {
    const hits = await countInWindow(this.redis, this.rateKey(userId), RATE_WINDOW_SECONDS).catch(() => {
      this.logger.warn('upload rate not counted: Redis unavailable');
      return null;
    });
    if (!hits || hits.count <= this.settings.ratePerMinute) return;
    throw tooManyRequests(formatMessage(CONTENT_MSG.uploadRateLimited, { seconds: hits.retryAfter }), hits.retryAfter);
  }

  async usedBytes(userId: string): Promise<number> {
    const [row] = await this.uploads.aggregate<{ total: number }>([
      { $match: { uploadedBy: userId } },
      { $group: { _id: null, total: { $sum: '$size' } } },
    ]);
    return row?.total ?? 0;
  }

  /** 413 when the files received would take the user past their quota (nothing is stored then). */
  async assertRoom(userId: string, incomingBytes: number): Promise<void> {
    const used = await this.usedBytes(userId);
    if (used + incomingBytes <= this.settings.quotaBytes) return;
    throw payloadTooLarge(
      formatMessage(CONTENT_MSG.uploadQuotaExceeded, { used: megabytes(used), quota: megabytes(this.settings.quotaBytes) }),
    );
  }
}
