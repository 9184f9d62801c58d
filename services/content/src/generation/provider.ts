import { GENERATION_MSG } from '@portal/contracts';
import type { Logger } from '@portal/service-kit';
import type { ContentConfig } from '../config';
import { GenerationCancelled, GenerationFailure } from './failure';
import type { GenerationLimits } from './limits';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One call to a language model: the text it answered. Tokens are counted inside. */
export interface ChatProvider {
  complete(messages: ChatMessage[], call: { userId: string; signal: AbortSignal }): Promise<string>;
}

export interface ProviderSettings {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  maxTokens: number;
}

/** Provider on ⇔ AI_BASE_URL and AI_MODEL set (the config refuses a URL without a model). */
export const providerSettingsOf = (config: ContentConfig): ProviderSettings | null =>
  config.AI_BASE_URL && config.AI_MODEL
    ? {
        baseUrl: config.AI_BASE_URL.replace(/\/+$/, ''),
        model: config.AI_MODEL,
        apiKey: config.AI_API_KEY,
        timeoutMs: config.AI_TIMEOUT_MS,
        maxTokens: config.AI_MAX_TOKENS,
      }
    : null;

interface CompletionAnswer {
  choices?: Array<{ message?: { content?: unknown } }>;
  usage?: { total_tokens?: unknown };
}

/** When a server reports no usage, about four characters make a token. */
const estimateTokens = (messages: ChatMessage[], answer: string) =>
  Math.ceil((messages.reduce((sum, m) => sum + m.content.length, 0) + answer.length) / 4);

/**
 * An OpenAI-compatible chat completions client (OpenAI, Ollama, vLLM, LM Studio…). The key goes in
 * the Authorization header only: it is never logged, and failures are reported by status, not by
 * echoing the request.
 */
export function openAiCompatibleProvider(settings: ProviderSettings, limits: GenerationLimits, logger: Logger): ChatProvider {
  return {
    async complete(messages, { userId, signal }) {
      await limits.assertBudgetForCall(userId);
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      let answer: CompletionAnswer;
      try {
        const res = await fetch(`${settings.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: settings.model,
            messages,
            temperature: 0.4,
            max_tokens: settings.maxTokens,
            response_format: { type: 'json_object' },
          }),
          signal: AbortSignal.any([signal, timeout]),
        });
        if (!res.ok) {
          logger.warn({ status: res.status }, 'AI provider answered with an error status');
          await res.body?.cancel().catch(() => undefined);
          throw new GenerationFailure(GENERATION_MSG.providerFailed);
        }
        answer = (await res.json()) as CompletionAnswer;
      } catch (err) {
        if (err instanceof GenerationFailure) throw err;
        if (signal.aborted) throw new GenerationCancelled();
        if (timeout.aborted) throw new GenerationFailure(GENERATION_MSG.providerTimeout);
        logger.warn({ err: (err as Error)?.name ?? 'unknown' }, 'AI provider unreachable or answered garbage');
        throw new GenerationFailure(GENERATION_MSG.providerFailed);
      }
      const content = answer?.choices?.[0]?.message?.content;
      const text = typeof content === 'string' ? content : '';
      const reported = Number(answer?.usage?.total_tokens);
      // The answer is paid for already: a Redis hiccup here costs an uncounted call, not the job.
      await limits
        .addTokens(userId, Number.isFinite(reported) && reported > 0 ? reported : estimateTokens(messages, text))
        .catch(() => logger.warn('AI tokens not counted: Redis unavailable'));
      return text;
    },
  };
}
