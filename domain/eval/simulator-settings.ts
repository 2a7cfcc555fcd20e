import { z } from 'zod';
import { limitMessage } from '../limit-checks';
import { LIMITS } from '../limits';

/** The stop signal a simulated user writes when the conversation is over (ADK's). */
export const DEFAULT_STOP_SIGNAL = '</finished>';

/** Turns a simulated user plays when the set does not say. */
export const DEFAULT_MAX_TURNS = 8;

/** A set's simulated-user settings: the model (absent: the judge provider's cheaper model), turn cap, stop signal. */
export interface SimulatorSettings {
  model?: string;
  max_turns: number;
  stop_signal: string;
}

/** A set's `simulator` as a builder writes it (defaults filled). */
export const simulatorSettingsSchema = z
  .object({
    model: z.string().trim().min(1, 'must not be empty').max(200).optional(),
    max_turns: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.turnsPerScenario, limitMessage('turnsPerScenario', 'items'))
      .default(DEFAULT_MAX_TURNS),
    stop_signal: z.string().trim().min(1, 'must not be empty').max(200).default(DEFAULT_STOP_SIGNAL),
  })
  .strict();

/** The simulator settings a set runs with: its own, else the defaults. */
export function resolveSimulatorSettings(settings: SimulatorSettings | null | undefined): SimulatorSettings {
  return settings ?? { max_turns: DEFAULT_MAX_TURNS, stop_signal: DEFAULT_STOP_SIGNAL };
}
