import http from 'node:http';
import type net from 'node:net';

/** One chat-completions request as the scripted server received it. */
export interface ScriptedRequest {
  path: string;
  model: string;
  authorization: string | undefined;
  messages: Array<{
    role: string;
    content: string | null;
    tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
    tool_call_id?: string;
  }>;
  body: Record<string, unknown>;
  receivedAt: number;
  /** Requests the server was answering when this one arrived, this one included. */
  inFlight: number;
}

/** A tool call the scripted model asks for; `arguments` is sent as JSON text (a string is sent as is). */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: unknown;
}

/** What the script answers: a message `content` and/or `toolCalls` (wrapped in a completion), or a raw `status` and `body`. */
export interface ScriptedReply {
  content?: string;
  toolCalls?: ScriptedToolCall[];
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  /** A completion whose content is this many bytes, streamed in chunks without a Content-Length (never held whole). */
  contentBytes?: number;
}

/** Decides the reply to one request; `index` counts every request the server has seen so far (from 0). */
export type ScriptHandler = (request: ScriptedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;

/** An OpenAI-compatible chat-completions server on loopback: the only fake the tests use (the world outside). */
export interface ScriptedLlm {
  /** Base URL to give an integration, ending in /v1. */
  readonly baseUrl: string;
  readonly requests: ScriptedRequest[];
  /** TCP connections accepted so far: far fewer than requests when clients keep connections alive. */
  connections(): number;
  /** Bytes written so far by `contentBytes` replies: what their readers took before they stopped reading. */
  streamedBytes(): number;
  script(handler: ScriptHandler): void;
  close(): Promise<void>;
}

const DEFAULT_USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

let callCounter = 0;

function message(reply: ScriptedReply): Record<string, unknown> {
  if (!reply.toolCalls?.length) return { role: 'assistant', content: reply.content ?? '' };
  const toolCalls = reply.toolCalls.map((call) => ({
    id: call.id ?? `call_${++callCounter}`,
    type: 'function',
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
  return { role: 'assistant', content: reply.content ?? null, tool_calls: toolCalls };
}

function completion(model: string, reply: ScriptedReply): unknown {
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, finish_reason: reply.toolCalls?.length ? 'tool_calls' : 'stop', message: message(reply) }],
    usage: reply.usage ?? DEFAULT_USAGE,
  };
}

const STREAM_CHUNK = Buffer.alloc(64 * 1024, 'x');

// Writes a completion with `bytes` of content chunk by chunk, each after the last was taken: a reader that stops
// reading stops the writing. Answers the bytes written (the JSON around the content included).
function streamCompletion(res: http.ServerResponse, model: string, bytes: number): Promise<number> {
  const [head, tail] = JSON.stringify(completion(model, { content: '\u0000' })).split('\\u0000');
  res.writeHead(200, { 'content-type': 'application/json' });
  let written = 0;
  let left = bytes;
  return new Promise((resolve) => {
    const done = (): void => resolve(written);
    res.once('close', done);
    const push = (): void => {
      if (res.destroyed) return done();
      if (left <= 0) {
        written += tail.length;
        return void res.end(tail);
      }
      const chunk = STREAM_CHUNK.subarray(0, Math.min(left, STREAM_CHUNK.length));
      left -= chunk.length;
      written += chunk.length;
      res.write(chunk, (error) => (error ? done() : push()));
    };
    written += head.length;
    res.write(head);
    push();
  });
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Starts the server on 127.0.0.1 and a free port; with no script it answers 500. */
export async function startScriptedLlm(handler?: ScriptHandler): Promise<ScriptedLlm> {
  let current: ScriptHandler | undefined = handler;
  const requests: ScriptedRequest[] = [];
  let inFlight = 0;
  let connections = 0;
  const streamed = { bytes: 0 };
  const server = http.createServer(async (req, res) => {
    if (req.method !== 'POST' || !/^(\/v1)?\/chat\/completions$/.test(req.url ?? '')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    inFlight += 1;
    const arrivedWith = inFlight;
    // Counted out before the reply is written, so a client that sends its next call on this reply is never over.
    const answer = (status: number, headers: Record<string, string>, payload: unknown): void => {
      inFlight -= 1;
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
    };
    const body = await readJson(req);
    const request: ScriptedRequest = {
      path: req.url ?? '',
      model: String(body.model ?? ''),
      authorization: req.headers.authorization,
      messages: Array.isArray(body.messages) ? (body.messages as ScriptedRequest['messages']) : [],
      body,
      receivedAt: Date.now(),
      inFlight: arrivedWith,
    };
    const index = requests.push(request) - 1;
    try {
      const reply = current
        ? await current(request, index)
        : { status: 500, body: { error: { message: 'no script' } } };
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (reply.contentBytes !== undefined) {
        inFlight -= 1;
        streamed.bytes += await streamCompletion(res, request.model, reply.contentBytes);
        return;
      }
      const status = reply.status ?? 200;
      const payload =
        reply.body ??
        (status === 200 ? completion(request.model, reply) : { error: { message: `scripted ${status}` } });
      answer(status, reply.headers ?? {}, payload);
    } catch (error) {
      answer(500, {}, { error: { message: String(error) } });
    }
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    connections: () => connections,
    streamedBytes: () => streamed.bytes,
    script(next) {
      current = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A provider that answers 429 (with `retryAfter` seconds) to a request arriving while more than `limit` are in flight. */
export function throttledAbove(limit: number, retryAfter: string, handler: ScriptHandler): ScriptHandler {
  return (request, index) =>
    request.inFlight > limit
      ? { status: 429, headers: { 'retry-after': retryAfter }, body: { error: { message: 'rate limited' } } }
      : handler(request, index);
}
