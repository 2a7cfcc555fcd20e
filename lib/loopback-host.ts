import type { Config } from './config';
import { addressRange } from './address-policy';

/** True for `localhost` and any literal loopback address (127.0.0.0/8, ::1, brackets allowed). */
export function isLoopbackHost(host: string): boolean {
  return host.toLowerCase() === 'localhost' || addressRange(host) === 'loopback';
}

/**
 * True when only this machine can reach the api: it binds a loopback address and announces no other public URL
 * (a non-loopback ASSAY_PUBLIC_URL means a local proxy forwards other machines' requests to it).
 */
export function servesOnlyLoopback(config: Pick<Config, 'ASSAY_HOST' | 'ASSAY_PUBLIC_URL'>): boolean {
  if (!isLoopbackHost(config.ASSAY_HOST)) return false;
  return !config.ASSAY_PUBLIC_URL || isLoopbackHost(new URL(config.ASSAY_PUBLIC_URL).hostname);
}
