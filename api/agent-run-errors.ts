import { AGENT_NOT_PUBLISHED } from '../domain/judge-failures';
import { HttpError } from './http-error';

/** 409: the agent must be published before it can run (production or live evaluation). */
export function agentNotPublished(): HttpError {
  return new HttpError(409, 'agent_not_published', AGENT_NOT_PUBLISHED);
}
