import path from 'node:path';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Config } from '../lib/config';

const PUBLIC_DIR = path.join(__dirname, 'public');

// Scripts and styles come only from this origin; the page talks to the API and the relay on the same origin.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of every page the api serves (the builder's and the API reference). */
export function pageHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-cache');
  next();
}

type GatewayAddress = Pick<Config, 'ASSAY_GATEWAY_PUBLIC_URL' | 'ASSAY_HOST' | 'ASSAY_GATEWAY_PORT'>;

/** The gateway's base URL as MCP clients reach it: ASSAY_GATEWAY_PUBLIC_URL, else where it listens (never the api's). */
export function gatewayBaseUrl(config: GatewayAddress): string {
  const publicUrl = config.ASSAY_GATEWAY_PUBLIC_URL?.replace(/\/+$/, '');
  return publicUrl || `http://${config.ASSAY_HOST}:${config.ASSAY_GATEWAY_PORT}`;
}

const page =
  (file: string) =>
  (_req: Request, res: Response): void =>
    res.sendFile(path.join(PUBLIC_DIR, file));

/**
 * The builder's pages (static HTML and vanilla JS, no token needed to load them; the page asks for one and
 * calls the API with it): `/builder` lists an agent's eval sets and runs, `/builder/runs/:runId?agent=` shows one run;
 * `/builder/mcp` the MCP catalog, servers and the gateway's connection snippet, `/builder/mcp/servers/:id` one server.
 */
export function builderPages(config: GatewayAddress): Router {
  const router = Router();
  router.use('/builder', pageHeaders);
  router.get('/builder', page('builder.html'));
  router.get('/builder/runs/:runId', page('run.html'));
  router.get('/builder/mcp', page('mcp.html'));
  router.get('/builder/mcp/servers/:id', page('mcp-server.html'));
  // Where MCP clients reach the gateway (no secret in it).
  router.get('/builder/gateway.json', (_req, res) => {
    res.json({ base_url: gatewayBaseUrl(config) });
  });
  router.use('/builder/assets', express.static(PUBLIC_DIR, { index: false, redirect: false }));
  return router;
}
