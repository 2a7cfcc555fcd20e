import { z } from 'zod';

/** A two-sided 95% interval. */
export const intervalJson = z.object({ low: z.number(), high: z.number() });

/** pass@k and pass^k at one k. */
export const passAtKJson = z.object({ k: z.number().int(), pass_at_k: z.number(), pass_hat_k: z.number() });
