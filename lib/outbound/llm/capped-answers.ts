import { LIMITS } from '../../../domain/limits';
import { capBody, type FetchLike } from '../egress/capped-body';

/** What a provider answered passed `LIMITS.providerResponseBytes`: reading stopped there, and asking again is no use. */
export class ProviderResponseTooLarge extends Error {
  constructor(readonly bytes: number | string) {
    super(`a response of ${bytes} bytes`);
    this.name = 'ProviderResponseTooLarge';
  }
}

/**
 * Wraps a provider fetch so every answer stops at `LIMITS.providerResponseBytes` while it is read. An answer declared
 * over it fails when its body is read, not in the fetch: the SDK would retry a fetch that throws, but asking again for
 * the same answer is no use.
 */
export const cappedAnswers =
  (fetch: FetchLike): FetchLike =>
  async (url, init) =>
    capBody(await fetch(url, init), LIMITS.providerResponseBytes, (bytes) => new ProviderResponseTooLarge(bytes));
