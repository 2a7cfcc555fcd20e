import { EVAL_BATCH_MAX } from '../domain/eval/eval-batches';

/** Case ids listed per page: a page is read while the previous one is still being scored. */
export const CASE_PAGE = 1_000;

/** Where the feed stands; carried across continue-as-new whole. */
export interface CaseFeedState {
  /** The last case id listed (keyset cursor), null before the first page. */
  cursor: string | null;
  /** Every page has been listed. */
  listedAll: boolean;
  /** Listed and not yet handed to a batch. */
  queued: string[];
  /** Batches that were in flight when the previous execution continued as new: handed out last, as they were. */
  carried: string[][];
}

/** A fresh feed for a run whose cases have not been listed yet. */
export const unlistedFeed = (): CaseFeedState => ({ cursor: null, listedAll: false, queued: [], carried: [] });

/** Case ids handed to one batch; `carried` when the previous execution left this batch running (see `CaseBatchInput`). */
export interface FedBatch {
  caseIds: string[];
  carried: boolean;
}

/** Lists the page of case ids after `after`. */
export type ListCasePage = (after: string | null, limit: number) => Promise<string[]>;

/**
 * Hands the run's case ids to batches. The next page is listed while at least `lowWater` ids are still queued, so
 * lanes never wait on a page boundary; batches carried over from the previous execution come last, when the batches
 * that execution left running have most likely stored them (a carried case is then only skipped); one still running
 * is waited for by the carried batch's activity (`CaseBatchInput.carried`), so no case is ever judged twice.
 */
export class CaseFeed {
  private listing: Promise<void> | null = null;
  private failure: unknown = undefined;

  constructor(
    readonly state: CaseFeedState,
    private readonly list: ListCasePage,
    private readonly lowWater: number,
  ) {}

  /** Ids not yet handed out that the feed knows of (more may be unlisted). */
  get known(): number {
    return this.state.queued.length + this.state.carried.reduce((sum, batch) => sum + batch.length, 0);
  }

  /** Up to `size` ids for the next batch (a carried batch whole), or null once every case has been handed out. */
  async take(size: number): Promise<FedBatch | null> {
    for (;;) {
      if (this.failure !== undefined) throw this.failure;
      if (!this.state.listedAll && this.state.queued.length < this.lowWater) this.listAhead();
      if (this.state.queued.length > 0)
        return { caseIds: this.state.queued.splice(0, Math.max(1, size)), carried: false };
      if (this.state.listedAll) {
        const caseIds = this.state.carried.shift();
        return caseIds ? { caseIds, carried: true } : null;
      }
      await this.listing;
    }
  }

  private listAhead(): void {
    if (this.listing) return;
    const limit = Math.max(CASE_PAGE, this.lowWater);
    this.listing = this.list(this.state.cursor, limit).then(
      (ids) => {
        this.state.queued.push(...ids);
        if (ids.length > 0) this.state.cursor = ids[ids.length - 1];
        if (ids.length < limit) this.state.listedAll = true;
        this.listing = null;
      },
      (error: unknown) => {
        this.failure = error;
        this.listing = null;
      },
    );
  }
}

/** The low water mark for `lanes` lanes: a full batch for each is always listed ahead. */
export const lowWaterFor = (lanes: number): number => lanes * EVAL_BATCH_MAX;
