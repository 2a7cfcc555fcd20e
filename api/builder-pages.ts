import path from 'node:path';
import express, { Router, type NextFunction, type Request, type Response } from 'express';

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

const page =
  (file: string) =>
  (_req: Request, res: Response): void =>
    res.sendFile(path.join(PUBLIC_DIR, file));

/**
 * The builder's eval pages (static HTML and vanilla JS, no token needed to load them; the page asks for one and
 * calls the API with it): `/builder` lists an agent's eval sets and runs, `/builder/runs/:runId?agent=` shows one run.
 */
export function builderPages(): Router {
  const router = Router();
  router.use('/builder', pageHeaders);
  router.get('/builder', page('builder.html'));
  router.get('/builder/runs/:runId', page('run.html'));
  router.use('/builder/assets', express.static(PUBLIC_DIR, { index: false, redirect: false }));
  return router;
}
