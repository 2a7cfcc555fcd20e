import type { RequestHandler } from 'express';
import { HttpError } from '../lib/http-error';

/** Host names that reach only this machine. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The lower-case host name of a URL, or undefined when it is not one. */
const hostnameOf = (url: string): string | undefined => {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
};

/**
 * DNS-rebinding protection (MCP transports, "Security warning"): a gateway listening on a loopback address answers
 * only requests whose `Host` and, when sent, `Origin` name a loopback host, so a web page whose name was made to
 * resolve to 127.0.0.1 cannot reach it. On any other address an `Origin`, when sent, must name the `Host` it was sent
 * to (a browser page of another site is refused). Answers the offending header, or undefined when the request may pass.
 */
export function rebindingRefusal(
  bindHost: string,
  host: string | undefined,
  origin: string | undefined,
): { header: 'Host' | 'Origin'; value: string } | undefined {
  const hostname = host === undefined ? undefined : hostnameOf(`http://${host}`);
  if (LOOPBACK.has(bindHost.toLowerCase())) {
    if (!hostname || !LOOPBACK.has(hostname)) return { header: 'Host', value: host ?? '' };
    if (origin !== undefined && !LOOPBACK.has(hostnameOf(origin) ?? '')) return { header: 'Origin', value: origin };
    return undefined;
  }
  if (origin !== undefined && (hostnameOf(origin) === undefined || hostnameOf(origin) !== hostname))
    return { header: 'Origin', value: origin };
  return undefined;
}

/** The guard as middleware for a gateway listening on `bindHost`: a refused request is 403 `forbidden` naming the header. */
export function rebindingGuard(bindHost: string): RequestHandler {
  return (req, _res, next) => {
    const refusal = rebindingRefusal(bindHost, req.get('host'), req.get('origin'));
    if (!refusal) return next();
    const message = `${refusal.header} ${JSON.stringify(refusal.value)} is refused here (DNS-rebinding protection)`;
    next(new HttpError(403, 'forbidden', message, { header: refusal.header }));
  };
}
